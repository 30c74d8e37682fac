// Call ids toward Anthropic, which takes only `^[a-zA-Z0-9_-]+$` in a tool_use
// `id` and its tool_result's `tool_use_id`, of any length: the rules of
// src/models/call-id-rewrites.ts, bound to that grammar.
import { CallIdRewrites, type IdGrammar, type RewrittenId } from "../../src/models/call-id-rewrites.js";

export { lacksId } from "../../src/models/call-id-rewrites.js";

const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;

export function isAnthropicId(id: string): boolean {
  return ANTHROPIC_ID.test(id);
}

// No length bound, so a colliding rewrite may grow to the whole digest.
const ANTHROPIC_IDS: IdGrammar = { accepts: isAnthropicId, maxLength: Infinity, maxDigest: 64 };

export class CallIds extends CallIdRewrites {
  constructor(ids: Iterable<string> = []) {
    super(ANTHROPIC_IDS, ids);
  }

  /** The id Anthropic gets for `id`, and whether it had to be rewritten. */
  toAnthropic(id: string): RewrittenId {
    return this.toTarget(id);
  }
}
