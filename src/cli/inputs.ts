// Turns the operand list of a command into line streams: files in order, `-` or
// nothing for stdin. Every file is checked before any output, so an unreadable
// input is a usage error (exit 2) rather than a half-written result.
import { realpathSync } from "node:fs";
import { access, constants, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { openSource, readFileChunks, readLines, type JournalLine, type ReadOptions } from "../journal/read.js";
import { UsageError, type CommandIO } from "./io.js";

export async function checkInputs(operands: readonly string[]): Promise<string[]> {
  const sources = operands.length === 0 ? ["-"] : [...operands];
  for (const source of sources) {
    if (source === "-") continue;
    try {
      await access(source, constants.R_OK);
    } catch {
      throw new UsageError(`cannot read ${source}: no such file or not readable`);
    }
  }
  return sources;
}

export async function* inputLines(sources: readonly string[], io: CommandIO, options: ReadOptions = {}): AsyncGenerator<JournalLine> {
  for (const source of sources) {
    const stream = openSource(source, io.stdin);
    try {
      yield* readLines(source, stream, options);
    } catch (error) {
      throw new UsageError(`cannot read ${source}: ${(error as Error).message}`);
    }
  }
}

/** A chunk of one source's bytes, or the end of that source. */
export type InputChunk = { source: string; bytes: Buffer } | { source: string; end: true };

/** The bytes of every source, in order, in chunks (of 64 KiB from a file) that are the caller's own, each source followed by its end. */
export async function* inputChunks(sources: readonly string[], io: CommandIO): AsyncGenerator<InputChunk> {
  for (const source of sources) {
    const chunks = source === "-" ? (io.stdin as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]() : readFileChunks(source);
    try {
      // The next chunk is asked for before this one is handed on, so that it is
      // read while this one is worked on.
      let next = chunks.next();
      for (;;) {
        next.catch(() => undefined);
        const { done, value } = await next;
        if (done) break;
        next = chunks.next();
        // Each chunk handed on is a buffer of its own, which may be moved to another
        // thread (`gate --jobs`): a file's chunks are read so, stdin's are copied.
        const bytes = typeof value === "string" ? Buffer.from(value, "utf8") : source === "-" ? Buffer.from(value) : value;
        if (bytes.length > 0) yield { source, bytes };
      }
    } catch (error) {
      throw new UsageError(`cannot read ${source}: ${(error as Error).message}`);
    } finally {
      await chunks.return?.();
    }
    yield { source, end: true };
  }
}

export async function readJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new UsageError(`cannot read ${what} ${path}: no such file or not readable`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} ${path} is not JSON: ${(error as Error).message}`);
  }
}

/** Refuses an output path that names one of the inputs, by whatever path or link. */
export function checkOutputIsNotInput(option: string, output: string, sources: readonly string[]): void {
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  const target = real(output);
  for (const source of sources) {
    if (source !== "-" && real(source) === target) throw new UsageError(`${option} ${output} is also an input; inputs are never overwritten`);
  }
}

/** `--max-line-bytes N`: a positive whole number of bytes. */
export function maxLineBytesOption(value: string | undefined): ReadOptions {
  if (value === undefined) return {};
  if (!/^[1-9][0-9]*$/.test(value)) throw new UsageError(`--max-line-bytes must be a positive whole number of bytes (got "${value}")`);
  return { maxLineBytes: Number(value) };
}
