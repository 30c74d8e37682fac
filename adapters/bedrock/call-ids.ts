// Call ids toward Bedrock, which takes only `^[a-zA-Z0-9_-]+$`, 1 to 64
// characters, in a toolUse's `toolUseId` and its toolResult's: the rules of
// src/models/call-id-rewrites.ts, bound to that grammar (an id longer than 64 is
// rewritten too, its base cut to leave room for the digest).
import { CallIdRewrites, type IdGrammar, type RewrittenId } from "../../src/models/call-id-rewrites.js";

export { lacksId } from "../../src/models/call-id-rewrites.js";

const BEDROCK_ID = /^[a-zA-Z0-9_-]{1,64}$/;

export function isBedrockId(id: string): boolean {
  return BEDROCK_ID.test(id);
}

// A colliding rewrite grows to 32 hex digits at most, so that its base keeps 31 characters.
const BEDROCK_IDS: IdGrammar = { accepts: isBedrockId, maxLength: 64, maxDigest: 32 };

export class CallIds extends CallIdRewrites {
  constructor(ids: Iterable<string> = []) {
    super(BEDROCK_IDS, ids);
  }

  /** The id Bedrock gets for `id`, and whether it had to be rewritten. */
  toBedrock(id: string): RewrittenId {
    return this.toTarget(id);
  }
}
