// Normalizes a journal handed over as chunks of bytes, source after source: the
// lines each chunk completes, normalized in order. The gate runs it in its own
// thread, or in a worker thread that hands the records over (`gate --jobs`); both
// go through this one class, so the records are the same either way.
import { JournalNormalizer, type NormalizedRecord, type NormalizeOptions } from "./normalize.js";
import { LineSplitter, type JournalLine, type ReadOptions } from "./read.js";

/** What one step gave: how many lines it completed and their records, in input order. */
export interface NormalizedBatch {
  lines: number;
  records: NormalizedRecord[];
}

export class ChunkNormalizer {
  private readonly normalizer: JournalNormalizer;
  private splitter: LineSplitter | undefined;
  private source: string | undefined;

  constructor(private readonly options: NormalizeOptions & ReadOptions = {}) {
    this.normalizer = new JournalNormalizer(options);
  }

  /** A chunk of `source`; a chunk of another source than the last ends the last one first. */
  push(source: string, bytes: Buffer): NormalizedBatch {
    const lines = this.source !== source ? this.endSource() : [];
    if (!this.splitter) {
      this.splitter = new LineSplitter(source, this.options);
      this.source = source;
    }
    lines.push(...this.splitter.push(bytes));
    return this.normalize(lines);
  }

  /** The end of the current source: its last line, when it had no newline. */
  end(): NormalizedBatch {
    return this.normalize(this.endSource());
  }

  /** The end of the journal: whatever the normalizer still holds (an open stream). */
  finish(): NormalizedBatch {
    const batch = this.normalize(this.endSource());
    batch.records.push(...this.normalizer.finish());
    return batch;
  }

  private endSource(): JournalLine[] {
    const lines = this.splitter ? this.splitter.finish() : [];
    this.splitter = undefined;
    this.source = undefined;
    return lines;
  }

  private normalize(lines: readonly JournalLine[]): NormalizedBatch {
    const records: NormalizedRecord[] = [];
    for (const line of lines) {
      const out = this.normalizer.push(line);
      if (out.length === 1) records.push(out[0]);
      else records.push(...out);
    }
    return { lines: lines.length, records };
  }
}
