// Reads journals line by line from files or stdin, with constant memory whatever
// the file size. Lines keep their 1-based number across all inputs of one run
// only within their own source; provenance carries the source name as well.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

export interface JournalLine {
  /** The file name, or "-" for stdin. */
  source: string;
  /** 1-based line number within the source. */
  line: number;
  text: string;
}

/** Opens a source, failing early (before any output) when the file cannot be read. */
export function openSource(source: string, stdin: Readable): Readable {
  if (source === "-") return stdin;
  return createReadStream(source);
}

export async function* readLines(source: string, stream: Readable): AsyncGenerator<JournalLine> {
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line += 1;
    // A UTF-8 byte order mark on the first line is framing, not content.
    const text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    yield { source, line, text };
  }
}
