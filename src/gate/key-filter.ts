// A set of strings that answers "surely not here" or "perhaps here" in a fixed
// amount of memory, however many strings go in: a Bloom filter of 2^26 bits (8 MB),
// each string setting 7 of them, chosen from a keyed 64-bit fingerprint (the same
// HalfSipHash the fingerprint tables use, with a seed of its own), so a journal
// cannot be written to make its keys collide. A string never added is taken for
// one added with a chance that grows with the strings added: about 1 in 8 million
// after a million, 6 in 100 after ten million. A caller must be able to bear
// a false "perhaps" (the conversation router takes it for a conversation that
// may have been closed before, and lets no function run in it).
import { getRandomValues } from "node:crypto";
import { keyedFingerprint } from "./fingerprint-table.js";

const BITS_LOG2 = 26;
const BIT_MASK = (1 << BITS_LOG2) - 1;
const PROBES = 7;

export class KeyFilter {
  private readonly bits = new Uint32Array((1 << BITS_LOG2) >>> 5);
  private readonly fingerprint = keyedFingerprint(getRandomValues(new Uint32Array(2)));
  private readonly scratch = new Uint32Array(2);

  add(key: string): void {
    this.fingerprint(key, this.scratch);
    const [first, step] = this.halves();
    for (let probe = 0; probe < PROBES; probe += 1) {
      const bit = (first + probe * step) & BIT_MASK;
      this.bits[bit >>> 5]! |= 1 << (bit & 31);
    }
  }

  /** False: `key` was surely never added. True: it may have been. */
  mayHold(key: string): boolean {
    this.fingerprint(key, this.scratch);
    const [first, step] = this.halves();
    for (let probe = 0; probe < PROBES; probe += 1) {
      const bit = (first + probe * step) & BIT_MASK;
      if ((this.bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  /** The two halves of the fingerprint as the first bit and the step between probes, the step odd so that the probes differ. */
  private halves(): [number, number] {
    return [this.scratch[0]! & BIT_MASK, (this.scratch[1]! | 1) & BIT_MASK];
  }
}
