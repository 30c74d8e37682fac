// A Map that keeps at most `limit` keys and forgets the oldest first.
//
// `map.delete(map.keys().next().value)` reads as the same thing, but V8 leaves a
// deleted entry in place, as a hole, until the table is rebuilt, and each new
// iterator steps over every hole before the first key still there. Forgetting
// the oldest key that way cost time in proportion to the keys held: with 100,000
// call names held, a journal of a million calls took a minute to convert where a
// hundred thousand took two seconds. The keys are also kept here in a ring, in
// the order they were added, so the oldest is found in one step.

export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  /** The keys held, in the order they were added, from `oldest` round the ring. */
  private readonly order: K[] = [];
  private oldest = 0;

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a bounded map holds at least one key (got ${limit})`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /**
   * Sets `key`'s value. A key held keeps its age, as in a Map; a new one, once
   * `limit` keys are held, takes the place of the oldest, which is forgotten.
   */
  set(key: K, value: V): void {
    if (!this.entries.has(key)) {
      if (this.order.length < this.limit) this.order.push(key);
      else {
        this.entries.delete(this.order[this.oldest]!);
        this.order[this.oldest] = key;
        this.oldest = (this.oldest + 1) % this.limit;
      }
    }
    this.entries.set(key, value);
  }
}
