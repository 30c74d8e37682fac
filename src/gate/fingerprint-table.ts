// A set of strings kept as 64-bit fingerprints, with numbers beside each, in typed
// arrays: a few bytes a key where a Map of strings costs a hundred or more.
//
// | part        | kept as                                                                  |
// |-------------|--------------------------------------------------------------------------|
// | entry       | a key's fingerprint (two Uint32 halves of a keyed hash of its UTF-16     |
// |             | code units) and its values, numbered in the order keys were added, in   |
// |             | pages of 32,768 entries: one typed array a page for the fingerprints and |
// |             | one for each column. A page, once made, is never copied or moved         |
// | slot        | one Uint32 a slot, the entry's number + 1 (0: free); open addressing,    |
// |             | triangular probing, capacity a power of two                              |
// | growth      | only the slots double, before they are more than three quarters full;    |
// |             | the entries are not copied                                               |
//
// Keeping the entries out of the slots is what keeps memory close to the keys'
// count: a slot is 4 bytes, so slack slots and the doubling cost little, where
// slots that held the fingerprint and every column (22 bytes for a call) left
// 1M keys in 2^21 of them, 46 MB, and held the old table and the new at once
// while doubling, 69 MB. The price is a second read per probe, into the entry.
//
// Two different keys share a fingerprint with a chance of about n² / 2^65 over n
// keys (under 1e-8 for a million). The hash is keyed by a random seed drawn once a
// process, so a journal cannot be written to make its keys collide: whoever writes
// it does not know the seed. A caller must still decide what a collision does to it.
import { getRandomValues } from "node:crypto";

/**
 * `whole`: a whole number such as a line number, kept in 32 bits until one does
 * not fit (past 4,294,967,295, or not whole), and from then on as a 64-bit float.
 */
export type ColumnKind = "float64" | "uint32" | "uint8" | "whole";

/** A fingerprint function: writes the two halves of `key`'s fingerprint into `out`. */
export type Fingerprint = (key: string, out: Uint32Array) => void;

export interface FingerprintTableOptions {
  /** Slots to start with; rounded up to a power of two, at least 8. */
  capacity?: number;
  /** Replaces the keyed hash (to test collisions). */
  fingerprint?: Fingerprint;
}

type ColumnArray = Float64Array | Uint32Array | Uint8Array;

const MAX_LOAD = 0.75;
const PAGE_BITS = 15;
const PAGE_ENTRIES = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_ENTRIES - 1;

export class FingerprintTable<Column extends string> {
  private readonly kinds: Record<Column, ColumnKind>;
  private readonly fingerprint: Fingerprint;
  private readonly scratch = new Uint32Array(2);
  /** Slot `i` holds the number of its entry + 1, or 0 when free. */
  private slots: Uint32Array;
  /** Entry `e`'s fingerprint halves at `2(e & PAGE_MASK)` and the next, in page `e >> PAGE_BITS`. */
  private readonly fingerprintPages: Uint32Array[] = [];
  /** Entry `e`'s value of a column at `e & PAGE_MASK`, in page `e >> PAGE_BITS` of the column. */
  private readonly columnPages: Record<Column, ColumnArray[]>;
  private mask: number;
  private count = 0;
  /** Whether the last `add` added its key, rather than finding it there. */
  private addedLast = false;

  constructor(columns: Readonly<Record<Column, ColumnKind>>, options: FingerprintTableOptions = {}) {
    this.kinds = { ...columns };
    this.fingerprint = options.fingerprint ?? processFingerprint;
    let capacity = 8;
    while (capacity < (options.capacity ?? 0)) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Uint32Array(capacity);
    this.columnPages = {} as Record<Column, ColumnArray[]>;
    for (const name of Object.keys(columns) as Column[]) this.columnPages[name] = [];
  }

  /** How many keys the table holds. */
  get size(): number {
    return this.count;
  }

  /** How many slots the table has. */
  get capacity(): number {
    return this.mask + 1;
  }

  /** The entry of `key`, or -1 when no key with its fingerprint was added. */
  find(key: string): number {
    this.fingerprint(key, this.scratch);
    const held = this.slots[this.probe(this.scratch[0]!, this.scratch[1]!)]!;
    return held - 1;
  }

  /**
   * The entry of `key`, added with every column 0 when absent (`added` then says
   * so): one fingerprint where `find` and then `add` took two. An entry keeps its
   * number for the table's life.
   */
  add(key: string): number {
    if (this.count + 1 > MAX_LOAD * (this.mask + 1)) this.grow();
    this.fingerprint(key, this.scratch);
    const high = this.scratch[0]!;
    const low = this.scratch[1]!;
    const slot = this.probe(high, low);
    const held = this.slots[slot]!;
    this.addedLast = held === 0;
    if (!this.addedLast) return held - 1;
    const entry = this.count;
    const offset = entry & PAGE_MASK;
    if (offset === 0) this.addPage();
    const page = this.fingerprintPages[entry >> PAGE_BITS]!;
    page[2 * offset] = high;
    page[2 * offset + 1] = low;
    this.slots[slot] = entry + 1;
    this.count += 1;
    return entry;
  }

  /** Whether the last `add` added its key; false when the key (or its fingerprint) was there. */
  get added(): boolean {
    return this.addedLast;
  }

  get(entry: number, column: Column): number {
    return this.columnPages[column][entry >> PAGE_BITS]![entry & PAGE_MASK]!;
  }

  set(entry: number, column: Column, value: number): void {
    if (this.kinds[column] === "whole" && !(value >= 0 && value <= 0xffffffff && Number.isInteger(value))) this.widen(column);
    this.columnPages[column][entry >> PAGE_BITS]![entry & PAGE_MASK] = value;
  }

  /** A `whole` column that meets a value past 32 bits is kept as 64-bit floats from then on. */
  private widen(column: Column): void {
    this.kinds[column] = "float64";
    this.columnPages[column] = this.columnPages[column].map((page) => Float64Array.from(page));
  }

  private addPage(): void {
    this.fingerprintPages.push(new Uint32Array(2 * PAGE_ENTRIES));
    for (const name of Object.keys(this.kinds) as Column[]) this.columnPages[name].push(makeColumn(this.kinds[name], PAGE_ENTRIES));
  }

  /** The slot holding an entry with this fingerprint, or the free slot where it would go. */
  private probe(high: number, low: number): number {
    let slot = low & this.mask;
    // Triangular steps visit every slot of a power-of-two table, and a free one is always left.
    for (let step = 1; ; step += 1) {
      const held = this.slots[slot]!;
      if (held === 0) return slot;
      const entry = held - 1;
      const page = this.fingerprintPages[entry >> PAGE_BITS]!;
      const at = 2 * (entry & PAGE_MASK);
      if (page[at] === high && page[at + 1] === low) return slot;
      slot = (slot + step) & this.mask;
    }
  }

  /** Twice the slots, each entry placed again by its fingerprint; the entries stay where they are. */
  private grow(): void {
    const capacity = (this.mask + 1) * 2;
    this.mask = capacity - 1;
    const slots = new Uint32Array(capacity);
    // Every entry's fingerprint is distinct, so each goes to the first free slot of its probe.
    for (let entry = 0; entry < this.count; entry += 1) {
      let slot = this.fingerprintPages[entry >> PAGE_BITS]![2 * (entry & PAGE_MASK) + 1]! & this.mask;
      for (let step = 1; slots[slot] !== 0; step += 1) slot = (slot + step) & this.mask;
      slots[slot] = entry + 1;
    }
    this.slots = slots;
  }
}

function makeColumn(kind: ColumnKind, length: number): ColumnArray {
  switch (kind) {
    case "float64":
      return new Float64Array(length);
    case "uint32":
    case "whole":
      return new Uint32Array(length);
    case "uint8":
      return new Uint8Array(length);
    default:
      return assertNever(kind);
  }
}

/**
 * HalfSipHash-1-3 with a 64-bit output, keyed by `seed` (two 32-bit words), over the
 * key's UTF-16 code units taken two to a little-endian 32-bit word: a keyed function,
 * so fingerprints cannot be foreseen without the seed, and cheap enough for every id
 * of a journal. One round a word and three to finish, the counts hash tables run
 * where no output is ever shown (the Linux kernel's hsiphash; SipHash-1-3 in Rust's
 * maps): a fingerprint never leaves the process, so nothing tells a journal's writer
 * how to forge a collision, and the reference's 2-4 rounds cost about 4% more
 * instructions in gating a journal of loose calls. `rounds` gives others (the
 * reference's, to test this function against its published vectors). The four state
 * words stay in locals: every id and call_id of a journal is hashed, and keeping the
 * state in a shared array cost a memory round trip per step.
 */
export function keyedFingerprint(seed: Uint32Array, rounds: { compression: number; finalization: number } = { compression: 1, finalization: 3 }): Fingerprint {
  const { compression, finalization } = rounds;
  const k0 = seed[0]! | 0;
  const k1 = seed[1]! | 0;
  return (key, out) => {
    let v0 = k0;
    let v1 = k1 ^ 0xee;
    let v2 = k0 ^ 0x6c796765;
    let v3 = k1 ^ 0x74656462;
    const length = key.length;
    // The key's words, the last holding the odd code unit, if any, and the length
    // in bytes; then the two finalization steps, each giving half the output.
    const words = (length >> 1) + 1;
    for (let step = 0; step < words + 2; step += 1) {
      let word = 0;
      let roundsNow = compression;
      if (step < words) {
        const index = step * 2;
        word = step < words - 1 ? key.charCodeAt(index) | (key.charCodeAt(index + 1) << 16) : (index < length ? key.charCodeAt(index) : 0) | ((length * 2) << 24);
        v3 ^= word;
      } else {
        roundsNow = finalization;
        if (step === words) v2 ^= 0xee;
        else v1 ^= 0xdd;
      }
      for (let round = 0; round < roundsNow; round += 1) {
        v0 = (v0 + v1) | 0;
        v1 = rotl(v1, 5) ^ v0;
        v0 = rotl(v0, 16);
        v2 = (v2 + v3) | 0;
        v3 = rotl(v3, 8) ^ v2;
        v0 = (v0 + v3) | 0;
        v3 = rotl(v3, 7) ^ v0;
        v2 = (v2 + v1) | 0;
        v1 = rotl(v1, 13) ^ v2;
        v2 = rotl(v2, 16);
      }
      if (step < words) v0 ^= word;
      else out[step - words] = v1 ^ v3;
    }
  };
}

const processFingerprint = keyedFingerprint(getRandomValues(new Uint32Array(2)));

const nameScratch = new Uint32Array(2);

/** A 32-bit keyed fingerprint of a short text, never 0 (which a column keeps for "none"): a tool name kept beside its call. */
export function textFingerprint32(text: string): number {
  processFingerprint(text, nameScratch);
  return nameScratch[1]! === 0 ? 1 : nameScratch[1]!;
}

function rotl(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}

function assertNever(value: never): never {
  throw new Error(`unhandled column kind ${String(value)}`);
}
