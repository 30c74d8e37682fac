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
import type { JournalLine } from "./read.js";

export interface LinesTransfer {
  texts: string[];
  runs: Array<string | number>;
  unread: number[];
}

export function encodeLines(lines: readonly JournalLine[]): LinesTransfer {
  const texts: string[] = new Array(lines.length);
  const runs: Array<string | number> = [];
  const unread: number[] = [];
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
    }
  }
  return { texts, runs, unread };
}

export function decodeLines(transfer: LinesTransfer): JournalLine[] {
  const { texts, runs, unread } = transfer;
  const lines: JournalLine[] = new Array(texts.length);
  let at = 0;
  for (let r = 0; r < runs.length; r += 3) {
    const source = runs[r] as string;
    const first = runs[r + 1] as number;
    const count = runs[r + 2] as number;
    for (let k = 0; k < count; k++, at++) lines[at] = { source, line: first + k, text: texts[at]! };
  }
  if (at !== texts.length) throw new Error(`the lines handed over number ${texts.length}, and their runs ${at}`);
  for (let u = 0; u < unread.length; u += 2) {
    const line = lines[unread[u]!]!;
    line.error = line.text;
    if (unread[u + 1] === 1) line.mayBeRequest = true;
  }
  return lines;
}
