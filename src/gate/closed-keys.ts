import { FingerprintTable } from "./fingerprint-table.js";
import { KeyFilter } from "./key-filter.js";

/** A conversation opened again after being closed early: after which of its lines, when that is remembered. */
export interface Reopened {
  closedAfter?: number;
}

/**
 * The keys of conversations closed early, with the last line each had: the last
 * `perTable` closed at least, in two tables used in turn, so that memory stays
 * bounded however many conversations close (about 12 MB at 2^18 a table). Every
 * key closed also goes into a filter of fixed size (key-filter.ts, 8 MB): once a
 * table has been let go, a key the tables do not hold and the filter may is taken
 * for one closed before, its line no longer known.
 */
export class ClosedKeys {
  private current = new FingerprintTable<"line">({ line: "whole" });
  private previous: FingerprintTable<"line"> | undefined;
  private forgotten = false;
  private filter: KeyFilter | undefined;

  constructor(private readonly perTable: number) {}

  add(id: string, lastLine: number): void {
    if (this.current.size >= this.perTable) {
      if (this.previous !== undefined) this.forgotten = true;
      this.previous = this.current;
      this.current = new FingerprintTable<"line">({ line: "whole" });
    }
    this.current.set(this.current.add(id), "line", lastLine);
    (this.filter ??= new KeyFilter()).add(id);
  }

  /** Whether a conversation of this key was closed early, and after which line when that is remembered; undefined when it surely was not. */
  reopened(id: string): Reopened | undefined {
    for (const table of [this.current, this.previous]) {
      const slot = table === undefined ? -1 : table.find(id);
      if (slot >= 0) return { closedAfter: table!.get(slot, "line") };
    }
    return this.forgotten && this.filter!.mayHold(id) ? {} : undefined;
  }
}
