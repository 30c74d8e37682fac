// Call ids toward an envelope whose ids follow a grammar of their own (Anthropic's
// `^[a-zA-Z0-9_-]+$`, Bedrock's the same in at most 64 characters), and ids for
// calls that have none. Each adapter binds it to its grammar.
//
// | call_id of the items                  | the target's id                                               |
// |---------------------------------------|---------------------------------------------------------------|
// | of the target's form                  | copied exactly                                                |
// |   one an earlier rewrite wrote for    | rewritten as below, reported as what the other id was written |
// |   another id                          |   as: two calls of a journal never share one id               |
// | of another form (`functions.get:0`)   | each run of other characters becomes `_`, cut to fit, then    |
// |                                       |   `_` and 8 hex of sha256 of the whole id; reported by the    |
// |                                       |   caller, for the call and its result alike                   |
// |   the rewrite names an id already taken | 4 more hex digits, up to a bound, until it names none       |
// | absent, null or ""                    | `synth_<k>_<16 hex>`, k the call's rank among such calls, hex |
// |                                       |   of its name and arguments; an output without call_id        |
// |                                       |   answers the earliest such call still unanswered             |
//
// A rewrite depends on the id alone, unless it collides, so a call and its result
// converted apart still match; the ids of the conversation are all known before
// the first rewrite, so a collision is resolved the same way whatever the order.
// A journal written run after run shares one instance, each run claiming its ids
// (claim): an id met in an earlier run stays taken, and one a rewrite of an earlier
// run wrote stays that rewrite's.
import { createHash } from "node:crypto";

export function lacksId(id: unknown): boolean {
  return id === undefined || id === null || id === "";
}

export interface IdGrammar {
  /** Whether the target takes `id` as it is. */
  accepts(id: string): boolean;
  /** The longest id the target takes (Infinity: no bound). */
  maxLength: number;
  /** The most hex digits a rewrite grows to while it collides. */
  maxDigest: number;
}

/** The id a target gets; `clashesWith` the id an earlier rewrite wrote as this one, when that is why it was rewritten. */
export interface RewrittenId {
  id: string;
  rewritten: boolean;
  clashesWith?: string;
}

export class CallIdRewrites {
  private readonly taken = new Set<string>();
  private readonly rewrites = new Map<string, string>();
  /** Each id a rewrite wrote, and the id it was written for. */
  private readonly owners = new Map<string, string>();
  private synthesized = 0;
  private readonly waiting: string[] = [];

  /** `ids`: every call id of the conversation, so that no rewrite takes one of them. */
  constructor(
    private readonly grammar: IdGrammar,
    ids: Iterable<string> = [],
  ) {
    this.claim(ids);
  }

  /** The call ids of the next items written, before any of them is: no rewrite takes one of them. */
  claim(ids: Iterable<string>): void {
    for (const id of ids) if (this.grammar.accepts(id)) this.taken.add(id);
  }

  /** The id the target gets for `id`, and whether it had to be rewritten. */
  toTarget(id: string): RewrittenId {
    let rewrite = this.rewrites.get(id);
    const clashesWith = this.owners.get(id);
    if (rewrite === undefined && this.grammar.accepts(id) && clashesWith === undefined) {
      this.taken.add(id);
      return { id, rewritten: false };
    }
    if (rewrite === undefined) {
      const base = id.replace(/[^a-zA-Z0-9_-]+/g, "_") || "call";
      const digest = createHash("sha256").update(id).digest("hex");
      for (let length = 8; ; length += 4) {
        rewrite = `${base.slice(0, this.grammar.maxLength - 1 - length)}_${digest.slice(0, length)}`;
        if (!this.taken.has(rewrite) || length >= this.grammar.maxDigest) break;
      }
      this.taken.add(rewrite);
      this.rewrites.set(id, rewrite);
      this.owners.set(rewrite, id);
    }
    return { id: rewrite, rewritten: true, ...(clashesWith === undefined ? {} : { clashesWith }) };
  }

  /** Every rewrite made so far, from the id of the items to the target's: what undoes them. */
  rewritten(): ReadonlyMap<string, string> {
    return this.rewrites;
  }

  /** The id given to the next call that has none; the call then waits for its output. */
  synthesize(name: unknown, args: unknown): string {
    this.synthesized += 1;
    const digest = createHash("sha256").update(`${String(name)}\u0000${typeof args === "string" ? args : JSON.stringify(args) ?? ""}`).digest("hex");
    const id = `synth_${this.synthesized}_${digest.slice(0, 16)}`;
    this.waiting.push(id);
    return id;
  }

  /** The id of the earliest call without one still unanswered, taken by an output without call_id. */
  takeWaiting(): string | undefined {
    return this.waiting.shift();
  }

  answered(id: string): void {
    const index = this.waiting.indexOf(id);
    if (index !== -1) this.waiting.splice(index, 1);
  }
}
