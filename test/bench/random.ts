// A seeded pseudo-random source (mulberry32), so that every run of the benchmark
// writes byte for byte the same journals and the numbers of two runs compare.
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.next() * values.length)];
  }

  /** Picks a key by weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    let total = 0;
    for (const [, weight] of entries) total += weight;
    let roll = this.next() * total;
    for (const [key, weight] of entries) {
      roll -= weight;
      if (roll < 0) return key;
    }
    return entries[entries.length - 1][0];
  }

  /**
   * A size with a long tail, as argument and text sizes have in real journals:
   * most near `typical`, a few up to `max`.
   */
  size(min: number, typical: number, max: number): number {
    const spread = Math.log(max / typical) / 2.5;
    const gaussian = Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
    return Math.max(min, Math.min(max, Math.round(typical * Math.exp(gaussian * spread))));
  }

  chars(alphabet: string, length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  hex(length: number): string {
    return this.chars("0123456789abcdef", length);
  }

  alnum(length: number): string {
    return this.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", length);
  }

  /** Prose of about `length` characters from a fixed word list. */
  text(length: number): string {
    let out = "";
    let sentence = 0;
    while (out.length < length) {
      let word = WORDS[Math.floor(this.next() * WORDS.length)];
      if (sentence === 0) word = word[0].toUpperCase() + word.slice(1);
      sentence += 1;
      out += (out.length === 0 ? "" : " ") + word;
      if (sentence > 6 && this.chance(0.15)) {
        out += this.chance(0.1) ? "?" : ".";
        sentence = 0;
      }
    }
    return sentence === 0 ? out : out + ".";
  }
}

const WORDS = (
  "the report shows sales rose in every region except one where the new pricing took effect later than planned " +
  "customers asked about delivery times refunds and the status of their orders while the team reviewed the backlog " +
  "please check the latest numbers against last quarter and send a short summary with the main risks and next steps " +
  "our warehouse in the north moved to a new schedule so shipments leave on monday wednesday and friday mornings " +
  "the assistant can look up an order translate a message book a flight or open a ticket when something breaks " +
  "weather forecast calendar meeting budget invoice contract draft release deploy database query result file path " +
  "café naïve résumé déjà über straße señor coöperate — “quoted” ‘text’ 東京 北京 서울 مرحبا שלום 😀 ✓"
).split(" ");
