// The form in which a journal's lines cross from the thread that reads and splits
// its bytes to the thread that normalizes them (`gate --jobs`): their texts in one
// array, which a thread copies far faster than an object a line, and beside it
// where each run of lines starts and which lines could not be read.
//
// | part    | holds                                                                   |
// |---------|-------------------------------------------------------------------------|
// | texts   | every line's text, in order (a line not read: its error, as its text)   |
// | runs    | for each run of consecutive lines of one source: source, first line     |
// |         | number, count                                                           |
// | unread  | for each line not read: its index in texts, then 1 when it may be a     |
// |         | request body, else 0                                                    |
// | colons, | each line's text facts (text-facts.ts), read here for the thread that   |
// | inexact | parses the lines; a line not read has none                              |
import type { JournalLine } from "./read.js";
import { textFactsOf } from "./text-facts.js";

export interface LinesTransfer {
  texts: string[];
  runs: Array<string | number>;
  unread: number[];
  colons: Int32Array;
  inexact: Uint8Array;
}

export function encodeLines(lines: readonly JournalLine[]): LinesTransfer {
  const texts: string[] = new Array(lines.length);
  const runs: Array<string | number> = [];
  const unread: number[] = [];
  const colons = new Int32Array(lines.length);
  const inexact = new Uint8Array(lines.length);
  let source: string | undefined;
  let next = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    texts[i] = line.text;
    if (line.source === source && line.line === next) (runs[runs.length - 1] as number) += 1;
    else runs.push(line.source, line.line, 1);
    source = line.source;
    next = line.line + 1;
    if (line.error !== undefined) {
      // A line not read carries its error as its text: the error crosses once.
      if (line.text !== line.error) throw new Error(`line ${line.line} of ${line.source} was not read, and its text is not its error`);
      unread.push(i, line.mayBeRequest === true ? 1 : 0);
      continue;
    }
    const facts = textFactsOf(line.text);
    colons[i] = facts.colons;
    inexact[i] = facts.mayHoldInexact ? 1 : 0;
  }
  return { texts, runs, unread, colons, inexact };
}

export function decodeLines(transfer: LinesTransfer): JournalLine[] {
  const { texts, runs, unread, colons, inexact } = transfer;
  // For each line not read, 1, or 2 when it may be a request body; 0 for the others.
  const unreadKind = new Uint8Array(texts.length);
  for (let u = 0; u < unread.length; u += 2) unreadKind[unread[u]!] = unread[u + 1] === 1 ? 2 : 1;
  const lines: JournalLine[] = new Array(texts.length);
  let at = 0;
  for (let r = 0; r < runs.length; r += 3) {
    const source = runs[r] as string;
    const first = runs[r + 1] as number;
    const count = runs[r + 2] as number;
    for (let k = 0; k < count; k++, at++) {
      const text = texts[at]!;
      const kind = unreadKind[at];
      lines[at] =
        kind === 0
          ? { source, line: first + k, text, textFacts: { colons: colons[at]!, mayHoldInexact: inexact[at] === 1 } }
          : kind === 2
            ? { source, line: first + k, text, error: text, mayBeRequest: true }
            : { source, line: first + k, text, error: text };
    }
  }
  if (at !== texts.length) throw new Error(`the lines handed over number ${texts.length}, and their runs ${at}`);
  return lines;
}
