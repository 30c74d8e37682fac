// Normalizes a journal handed over as chunks of bytes, source after source: the
// lines each chunk completes, normalized in order. The gate runs it in its own
// thread, or in a worker thread that is handed the lines and hands the records
// over (`gate --jobs`); both go through this one class, so the records are the
// same either way.
import { ChunkLines } from "./chunk-lines.js";
import { JournalNormalizer, type NormalizedRecord, type NormalizeOptions } from "./normalize.js";
import type { JournalLine, ReadOptions } from "./read.js";

/** What one step gave: how many lines it completed and their records, in input order. */
export interface NormalizedBatch {
  lines: number;
  records: NormalizedRecord[];
}

export class ChunkNormalizer {
  private readonly normalizer: JournalNormalizer;
  private readonly lines: ChunkLines;

  constructor(options: NormalizeOptions & ReadOptions = {}) {
    this.normalizer = new JournalNormalizer(options);
    this.lines = new ChunkLines(options);
  }

  /** A chunk of `source`; a chunk of another source than the last ends the last one first. */
  push(source: string, bytes: Buffer): NormalizedBatch {
    return this.pushLines(this.lines.push(source, bytes));
  }

  /** The end of the current source: its last line, when it had no newline. */
  end(): NormalizedBatch {
    return this.pushLines(this.lines.end());
  }

  /** The end of the journal: whatever the normalizer still holds (an open stream). */
  finish(): NormalizedBatch {
    const batch = this.pushLines(this.lines.end());
    batch.records.push(...this.normalizer.finish());
    return batch;
  }

  /** Lines split elsewhere (a ChunkLines of another thread), in input order. */
  pushLines(lines: readonly JournalLine[]): NormalizedBatch {
    const records: NormalizedRecord[] = [];
    for (const line of lines) {
      const out = this.normalizer.push(line);
      if (out.length === 1) records.push(out[0]);
      else records.push(...out);
    }
    return { lines: lines.length, records };
  }
}
