// Counts by key, each with the first few places behind it: a million lines give
// the same few hundred bytes per key, so the report's memory stays flat however
// long the journal, and each count still leads to lines that make it.

/** Where something sits in the journal: its source (by position among the inputs), line and item index. */
export interface Place {
  source: number;
  line: number;
  index: number;
}

export interface Tallied {
  key: string;
  count: number;
  /** The first places counted, in journal order; `count - places.length` more are not kept. */
  places: Place[];
}

/** How many places each key keeps for its drill-down. */
export const PLACES_PER_KEY = 25;

export class Tally {
  private readonly entries = new Map<string, Tallied>();
  private overflowCount = 0;

  /**
   * `maxKeys`: past it, a new key is counted as overflow, not kept (keys such as
   * loss paths have no bound of their own). `placesPerKey`: fewer for keys that
   * come by the thousand (conversations).
   */
  constructor(
    private readonly maxKeys = Number.POSITIVE_INFINITY,
    private readonly placesPerKey = PLACES_PER_KEY,
  ) {}

  add(key: string, place?: Place): void {
    let entry = this.entries.get(key);
    if (entry === undefined) {
      if (this.entries.size >= this.maxKeys) {
        this.overflowCount += 1;
        return;
      }
      entry = { key, count: 0, places: [] };
      this.entries.set(key, entry);
    }
    entry.count += 1;
    if (place !== undefined && entry.places.length < this.placesPerKey) entry.places.push(place);
  }

  /** Counts of keys that came after `maxKeys` were already kept. */
  get overflow(): number {
    return this.overflowCount;
  }

  total(): number {
    let sum = this.overflowCount;
    for (const entry of this.entries.values()) sum += entry.count;
    return sum;
  }

  /** Largest count first, then by key, so that two runs on one journal give the same page. */
  sorted(): Tallied[] {
    return [...this.entries.values()].sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}
