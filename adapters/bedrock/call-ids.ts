// Call ids toward Bedrock, which takes only `^[a-zA-Z0-9_-]+$`, 1 to 64
// characters, in a toolUse's `toolUseId` and its toolResult's.
//
// | call_id of the items                     | Bedrock toolUseId                                              |
// |------------------------------------------|----------------------------------------------------------------|
// | of Bedrock's form (`tooluse_…`, `call_…`)| copied exactly                                                 |
// | of another form (`functions.get:0`), or  | each run of other characters becomes `_`, cut to leave room,   |
// |   longer than 64                         |   then `_` and 8 hex of sha256 of the whole id; reported, for  |
// |                                          |   the call and its result alike                                |
// |   the rewrite names an id already taken  | 4 more hex digits, until it names none                         |
// | absent, null or ""                       | `synth_<k>_<16 hex>`, k the call's rank among such calls, hex  |
// |                                          |   of its name and arguments; an output without call_id answers |
// |                                          |   the earliest such call still unanswered                      |
//
// A rewrite depends on the id alone unless it collides, so a call and its result
// converted apart still match; the ids of the conversation are all known before
// the first rewrite, so a collision is resolved the same way whatever the order.
import { createHash } from "node:crypto";

const BEDROCK_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_ID = 64;

export function isBedrockId(id: string): boolean {
  return BEDROCK_ID.test(id);
}

export function lacksId(id: unknown): boolean {
  return id === undefined || id === null || id === "";
}

export class CallIds {
  private readonly taken: Set<string>;
  private readonly rewrites = new Map<string, string>();
  private synthesized = 0;
  private readonly waiting: string[] = [];

  /** `ids`: every call id of the conversation, so that no rewrite takes one of them. */
  constructor(ids: Iterable<string> = []) {
    this.taken = new Set([...ids].filter(isBedrockId));
  }

  /** The id Bedrock gets for `id`, and whether it had to be rewritten. */
  toBedrock(id: string): { id: string; rewritten: boolean } {
    if (isBedrockId(id)) return { id, rewritten: false };
    let rewrite = this.rewrites.get(id);
    if (rewrite === undefined) {
      const base = id.replace(/[^a-zA-Z0-9_-]+/g, "_") || "call";
      const digest = createHash("sha256").update(id).digest("hex");
      for (let length = 8; ; length += 4) {
        rewrite = `${base.slice(0, MAX_ID - 1 - length)}_${digest.slice(0, length)}`;
        if (!this.taken.has(rewrite) || length >= 32) break;
      }
      this.taken.add(rewrite);
      this.rewrites.set(id, rewrite);
    }
    return { id: rewrite, rewritten: true };
  }

  /** Every rewrite made so far, from the id of the items to Bedrock's: what undoes them. */
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
