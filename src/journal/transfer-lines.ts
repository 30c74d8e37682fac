// The form in which read lines cross between threads (`gate --jobs`): the lines
// a chunk of one source completes are numbered one after another, so they go as
// their texts, the number of the first, and the few that could not be read.
import type { JournalLine } from "./read.js";

export interface LineTransfer {
  source: string;
  first: number;
  texts: string[];
  /** Lines that could not be read: their position among `texts`, and why. */
  errors: [number, string][];
}

/** `lines` must come from one source, numbered one after another (as a `LineSplitter` gives them). */
export function encodeLines(source: string, lines: readonly JournalLine[]): LineTransfer {
  const errors: [number, string][] = [];
  const texts = lines.map((line, i) => {
    if (line.error !== undefined) errors.push([i, line.error]);
    return line.text;
  });
  return { source, first: lines.length > 0 ? lines[0].line : 0, texts, errors };
}

export function decodeLines(transfer: LineTransfer): JournalLine[] {
  const { source, first } = transfer;
  const lines: JournalLine[] = transfer.texts.map((text, i) => ({ source, line: first + i, text }));
  for (const [i, error] of transfer.errors) lines[i].error = error;
  return lines;
}
