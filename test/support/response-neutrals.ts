// The `synthesized` entries completeResponse writes for the response fields a
// provider's response cannot tell. Golden cases declare the losses that are
// particular to them; these entries are the same for every response of an
// envelope, and test/adapters/response-fields.test.ts asserts them whole.
import type { Loss } from "../../src/models/loss.js";
import { SYNTHESIZED_RESPONSE_VALUES } from "../../src/models/response-neutrals.js";

const NEUTRAL_PATHS = new Set(Object.keys(SYNTHESIZED_RESPONSE_VALUES).map((field) => `/${field}`));

export function isNeutralField(loss: Pick<Loss, "code" | "path">): boolean {
  return loss.code === "synthesized" && NEUTRAL_PATHS.has(loss.path);
}

export function withoutNeutralFields<T extends Pick<Loss, "code" | "path">>(losses: readonly T[]): T[] {
  return losses.filter((loss) => !isNeutralField(loss));
}

/**
 * The id each output item of a response made from a chat.completion is given,
 * reported `synthesized` at it: the same for every such item, and asserted whole
 * in test/adapters/chat-completions/responses.test.ts.
 */
export function isDerivedChatItemId(loss: Pick<Loss, "code" | "path"> & { detail?: string }): boolean {
  return loss.code === "synthesized" && /^\/output\/\d+\/id$/.test(loss.path) && loss.detail?.startsWith("a chat.completion has no item ids:") === true;
}
