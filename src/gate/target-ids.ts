// Call ids rewritten toward a target's grammar (its profile's `callIds.pattern`),
// the call and its output alike, as a journal is read.
//
// | call_id                                | written as                                                   |
// |----------------------------------------|--------------------------------------------------------------|
// | of the target's grammar                | itself                                                       |
// | already rewritten                      | the same rewrite: an output gets its call's                  |
// | another                                | the first of these that the grammar takes and that no id met |
// |                                        |   so far has: the id with each run of other characters as    |
// |                                        |   `_`, `_`, 8 hex digits of its sha256 (then 12, 16); those  |
// |                                        |   hex digits alone, 9 of them (then of sha256 of the id and  |
// |                                        |   a counter), for grammars of letters and digits only        |
//
// The rewrite depends on the id and on the ids met before it, never on chance,
// so the same journal gives the same ids; two ids that differ stay different.
import { createHash } from "node:crypto";

export interface IdRewrite {
  original: string;
  rewritten: string;
}

const MAX_LENGTH = 64;

export class TargetIdRewrites {
  private readonly grammar: RegExp;
  private readonly rewrites = new Map<string, string>();
  private readonly taken = new Set<string>();

  constructor(pattern: string) {
    this.grammar = new RegExp(pattern, "u");
  }

  /** The id the target gets; `rewritten` when it is not the id as it came. */
  toTarget(id: string): { id: string; rewritten: boolean } {
    const known = this.rewrites.get(id);
    if (known !== undefined) return { id: known, rewritten: true };
    if (this.grammar.test(id)) {
      this.taken.add(id);
      return { id, rewritten: false };
    }
    let rewrite: string | undefined;
    for (const candidate of this.candidates(id)) {
      if (this.grammar.test(candidate) && !this.taken.has(candidate)) {
        rewrite = candidate;
        break;
      }
    }
    if (rewrite === undefined) throw new RangeError(`no id of the target's grammar ${this.grammar.source} could be made for ${JSON.stringify(id)}`);
    this.taken.add(rewrite);
    this.rewrites.set(id, rewrite);
    return { id: rewrite, rewritten: true };
  }

  /** Every rewrite made so far, in the order they were made. */
  map(): IdRewrite[] {
    return [...this.rewrites].map(([original, rewritten]) => ({ original, rewritten }));
  }

  private *candidates(id: string): Generator<string> {
    const digest = createHash("sha256").update(id).digest("hex");
    const base = id.replace(/[^a-zA-Z0-9_-]+/g, "_") || "call";
    for (const length of [8, 12, 16]) yield `${base.slice(0, MAX_LENGTH - 1 - length)}_${digest.slice(0, length)}`;
    yield digest.slice(0, 9);
    for (let counter = 1; counter <= 1000; counter++) yield createHash("sha256").update(`${id}\u0000${counter}`).digest("hex").slice(0, 9);
  }
}
