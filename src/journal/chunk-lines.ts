// The lines of a journal handed over as chunks of bytes, source after source.
// The gate splits them in the thread that reads the bytes, and normalizes them
// where it runs the normalizer (normalize-chunks.ts, gate-worker.ts): either way
// through this one class, so the lines are the same.
import { LineSplitter, type JournalLine, type ReadOptions } from "./read.js";

export class ChunkLines {
  private splitter: LineSplitter | undefined;
  private source: string | undefined;

  constructor(private readonly options: ReadOptions = {}) {}

  /** The lines a chunk of `source` completes; a chunk of another source than the last ends the last one first. */
  push(source: string, bytes: Buffer): JournalLine[] {
    const lines = this.source !== source ? this.end() : [];
    if (!this.splitter) {
      this.splitter = new LineSplitter(source, this.options);
      this.source = source;
    }
    const completed = this.splitter.push(bytes);
    if (lines.length === 0) return completed;
    for (const line of completed) lines.push(line);
    return lines;
  }

  /** The end of the current source: its last line, when it had no newline. */
  end(): JournalLine[] {
    const lines = this.splitter ? this.splitter.finish() : [];
    this.splitter = undefined;
    this.source = undefined;
    return lines;
  }
}
