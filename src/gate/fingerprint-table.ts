// A set of strings kept as 64-bit fingerprints, with numbers beside each, in typed
// arrays: a few bytes a key where a Map of strings costs a hundred or more.
//
// | part        | kept as                                                                  |
// |-------------|--------------------------------------------------------------------------|
// | fingerprint | two Uint32 halves of a keyed hash of the key's UTF-16 code units, side   |
// |             | by side in one array, so that a probe reads one cache line               |
// | slot        | open addressing, triangular probing, capacity a power of two             |
// | values      | one typed array per column, parallel to the fingerprints; a `whole`      |
// |             | column is 4 bytes a slot until a value needs 8                           |
// | growth      | the capacity doubles before the table is more than seven eighths full:   |
// |             | the first probes of a key stay within a cache line or two, so a full     |
// |             | table costs little more time, and 2^20 slots hold up to 917,504 keys,    |
// |             | where three quarters doubled them at 786,432                             |
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

const MAX_LOAD = 0.875;

export class FingerprintTable<Column extends string> {
  private readonly kinds: Record<Column, ColumnKind>;
  private readonly fingerprint: Fingerprint;
  private readonly scratch = new Uint32Array(2);
  /** Slot `i`'s fingerprint halves at `2i` and `2i + 1`. */
  private fingerprints: Uint32Array;
  private columns: Record<Column, ColumnArray>;
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
    this.fingerprints = new Uint32Array(2 * capacity);
    this.columns = makeColumns(columns, capacity);
  }

  /** How many keys the table holds. */
  get size(): number {
    return this.count;
  }

  /** How many slots the table has. */
  get capacity(): number {
    return this.mask + 1;
  }

  /** The slot of `key`, or -1 when no key with its fingerprint was added. */
  find(key: string): number {
    this.fingerprintOf(key);
    const slot = this.probe(this.scratch[0]!, this.scratch[1]!);
    return this.isFree(slot) ? -1 : slot;
  }

  /**
   * The slot of `key`, added with every column 0 when absent (`added` then says
   * so): one fingerprint where `find` and then `add` took two. Adding may move the
   * other keys to new slots: a slot is good until the next `add`.
   */
  add(key: string): number {
    if ((this.count + 1) > MAX_LOAD * (this.mask + 1)) this.grow();
    this.fingerprintOf(key);
    const high = this.scratch[0]!;
    const low = this.scratch[1]!;
    const slot = this.probe(high, low);
    this.addedLast = this.isFree(slot);
    if (this.addedLast) {
      this.fingerprints[2 * slot] = high;
      this.fingerprints[2 * slot + 1] = low;
      this.count += 1;
    }
    return slot;
  }

  /** Whether the last `add` added its key; false when the key (or its fingerprint) was there. */
  get added(): boolean {
    return this.addedLast;
  }

  get(slot: number, column: Column): number {
    return this.columns[column][slot]!;
  }

  set(slot: number, column: Column, value: number): void {
    if (this.kinds[column] === "whole" && !(value >= 0 && value <= 0xffffffff && Number.isInteger(value))) this.widen(column);
    this.columns[column][slot] = value;
  }

  /** A `whole` column that meets a value past 32 bits is kept as 64-bit floats from then on. */
  private widen(column: Column): void {
    this.kinds[column] = "float64";
    this.columns[column] = Float64Array.from(this.columns[column]);
  }

  /** Writes the fingerprint of `key` into `scratch`; (0, 0) marks a free slot, so it is never a fingerprint. */
  private fingerprintOf(key: string): void {
    this.fingerprint(key, this.scratch);
    if (this.scratch[0] === 0 && this.scratch[1] === 0) this.scratch[1] = 1;
  }

  /** The slot holding this fingerprint, or the free slot where it would go. */
  private probe(high: number, low: number): number {
    let slot = low & this.mask;
    // Triangular steps visit every slot of a power-of-two table, and a free one is always left.
    for (let step = 1; ; step += 1) {
      const slotHigh = this.fingerprints[2 * slot]!;
      const slotLow = this.fingerprints[2 * slot + 1]!;
      if ((slotHigh === high && slotLow === low) || (slotHigh === 0 && slotLow === 0)) return slot;
      slot = (slot + step) & this.mask;
    }
  }

  private isFree(slot: number): boolean {
    return this.fingerprints[2 * slot] === 0 && this.fingerprints[2 * slot + 1] === 0;
  }

  private grow(): void {
    const oldFingerprints = this.fingerprints;
    const oldColumns = this.columns;
    const oldCapacity = this.mask + 1;
    const capacity = oldCapacity * 2;
    this.mask = capacity - 1;
    this.fingerprints = new Uint32Array(2 * capacity);
    this.columns = makeColumns(this.kinds, capacity);
    // Where each old slot went, then one column at a time: a loop over one typed
    // array stays monomorphic, where a loop over the columns inside each slot did not.
    const moved = new Int32Array(oldCapacity).fill(-1);
    for (let old = 0; old < oldCapacity; old += 1) {
      const high = oldFingerprints[2 * old]!;
      const low = oldFingerprints[2 * old + 1]!;
      if (high === 0 && low === 0) continue;
      const slot = this.probe(high, low);
      this.fingerprints[2 * slot] = high;
      this.fingerprints[2 * slot + 1] = low;
      moved[old] = slot;
    }
    for (const name of Object.keys(this.kinds) as Column[]) copyMoved(oldColumns[name], this.columns[name], moved);
  }
}

function makeColumns<Column extends string>(kinds: Readonly<Record<Column, ColumnKind>>, capacity: number): Record<Column, ColumnArray> {
  const columns = {} as Record<Column, ColumnArray>;
  for (const name of Object.keys(kinds) as Column[]) {
    const kind = kinds[name];
    switch (kind) {
      case "float64":
        columns[name] = new Float64Array(capacity);
        break;
      case "uint32":
      case "whole":
        columns[name] = new Uint32Array(capacity);
        break;
      case "uint8":
        columns[name] = new Uint8Array(capacity);
        break;
      default:
        return assertNever(kind);
    }
  }
  return columns;
}

/**
 * HalfSipHash-2-4 with a 64-bit output, keyed by `seed` (two 32-bit words), over the
 * key's UTF-16 code units taken two to a little-endian 32-bit word: a keyed function,
 * so fingerprints cannot be foreseen without the seed, and cheap enough for every id
 * of a journal. The four state words stay in locals: every id and call_id of a
 * journal is hashed, and keeping the state in a shared array cost a memory round
 * trip per step.
 */
export function keyedFingerprint(seed: Uint32Array): Fingerprint {
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
      let rounds = 2;
      if (step < words) {
        const index = step * 2;
        word = step < words - 1 ? key.charCodeAt(index) | (key.charCodeAt(index + 1) << 16) : (index < length ? key.charCodeAt(index) : 0) | ((length * 2) << 24);
        v3 ^= word;
      } else {
        rounds = 4;
        if (step === words) v2 ^= 0xee;
        else v1 ^= 0xdd;
      }
      for (let round = 0; round < rounds; round += 1) {
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

function rotl(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}

function copyMoved(from: ColumnArray, to: ColumnArray, moved: Int32Array): void {
  for (let old = 0; old < moved.length; old += 1) {
    const slot = moved[old]!;
    if (slot >= 0) to[slot] = from[old]!;
  }
}

function assertNever(value: never): never {
  throw new Error(`unhandled column kind ${String(value)}`);
}
