// Call ids rewritten toward a target's grammar (its profile's `callIds.pattern`),
// the call and its output alike, as a journal is read.
//
// | call_id                                 | written as                                                     |
// |-----------------------------------------|----------------------------------------------------------------|
// | already met                             | what it was written as then: an output gets its call's         |
// | of the target's grammar                 | itself, unless it is already an earlier id's rewrite           |
// | of the grammar, an earlier id's rewrite | rewritten as below: two ids read never share one written       |
// | another                                 | the first of these that the grammar takes and that no id       |
// |                                         |   written so far has: the id with each run of other characters |
// |                                         |   as `_`, `_`, 8 hex digits of its sha256 (then 12, 16); those |
// |                                         |   hex digits alone, 9 of them (then of sha256 of the id and a  |
// |                                         |   counter), for grammars of letters and digits only            |
//
// The rewrite depends on the id and on the ids met before it, never on chance,
// so the same journal gives the same ids. It is one-to-one over the whole
// journal, the ids kept included: each id written stands for one id read, which
// is what lets `restore-ids` put every original back.
import { codePoints } from "./schema-assertions.js";
import { createHash } from "node:crypto";

export interface IdRewrite {
  original: string;
  rewritten: string;
}

/** The id the target gets for a call id; `clashesWith`: the id whose rewrite it already is, when that is why it is rewritten. */
export interface TargetId {
  id: string;
  rewritten: boolean;
  clashesWith?: string;
}

const MAX_LENGTH = 64;

/** What a target takes as a call id: a profile's pattern, or a rule of its own. */
export interface IdGrammar {
  /** The grammar as a report names it. */
  readonly source: string;
  test(id: string): boolean;
}

/**
 * Open Responses' own limit on a call_id: 1 to 64 characters, counted in code
 * points as JSON Schema's maxLength and the item models count them, so that
 * every id the `open-responses` target's check takes is kept and every other is
 * rewritten.
 */
export const PORTABLE_CALL_IDS: IdGrammar = {
  source: "Open Responses' limit of 1 to 64 characters",
  test: (id) => id.length >= 1 && (id.length <= MAX_LENGTH || codePoints(id) <= MAX_LENGTH),
};

export class TargetIdRewrites {
  private readonly grammar: IdGrammar;
  private readonly rewrites = new Map<string, string>();
  /** The ids of the grammar rewritten because an earlier id was written as them, with that id. */
  private readonly clashes = new Map<string, string>();
  /** Each id written so far, with the id read that it stands for. */
  private readonly owners = new Map<string, string>();

  constructor(grammar: string | IdGrammar) {
    this.grammar = typeof grammar === "string" ? new RegExp(grammar, "u") : grammar;
  }

  /** The grammar as a report names it. */
  get source(): string {
    return this.grammar.source;
  }

  /** The id the target gets; `rewritten` when it is not the id as it came. */
  toTarget(id: string): TargetId {
    const known = this.rewrites.get(id);
    if (known !== undefined) {
      const clash = this.clashes.get(id);
      return { id: known, rewritten: true, ...(clash !== undefined ? { clashesWith: clash } : {}) };
    }
    const owner = this.owners.get(id);
    if (this.grammar.test(id) && (owner === undefined || owner === id)) {
      this.owners.set(id, id);
      return { id, rewritten: false };
    }
    let rewrite: string | undefined;
    for (const candidate of this.candidates(id)) {
      if (this.grammar.test(candidate) && !this.owners.has(candidate)) {
        rewrite = candidate;
        break;
      }
    }
    if (rewrite === undefined) throw new RangeError(`no id of the target's grammar ${this.grammar.source} could be made for ${JSON.stringify(id)}`);
    this.owners.set(rewrite, id);
    this.rewrites.set(id, rewrite);
    if (owner === undefined) return { id: rewrite, rewritten: true };
    this.clashes.set(id, owner);
    return { id: rewrite, rewritten: true, clashesWith: owner };
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
