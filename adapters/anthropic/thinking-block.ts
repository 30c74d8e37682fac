// A reasoning item as the thinking block it came from, toward Anthropic.
//
// | reasoning item                                  | Anthropic block                                      |
// |-------------------------------------------------|------------------------------------------------------|
// | provenance {envelope "anthropic", block         | thinking {thinking: the summary texts, signature:    |
// |   "thinking"}                                   |   encrypted_content exactly}                         |
// | provenance {envelope "anthropic", block         | redacted_thinking {data: encrypted_content exactly}; |
// |   "redacted_thinking"}                          |   a summary is a loss                                |
// | any other provenance, or none                   | none: loss. Its encrypted_content is another          |
// |                                                 |   provider's, which Anthropic would refuse            |
// | `anthropic:<field>`                             | <field> of the block                                 |
import type { Loss } from "../../src/models/loss.js";
import type { ReasoningItem } from "../../src/models/open-responses.js";
import { isPresent, isRecord, lossAt, restoreFields, typeOf, type Fields, type PointerTokens } from "./fields.js";

const REASONING_FIELDS = ["type", "id", "summary", "content", "encrypted_content", "provenance"];

export function thinkingBlock(item: ReasoningItem, at: PointerTokens, losses: Loss[]): Fields | undefined {
  const provenance: unknown = (item as Fields).provenance;
  if (!isRecord(provenance) || provenance.envelope !== "anthropic" || (provenance.block !== "thinking" && provenance.block !== "redacted_thinking")) {
    losses.push(lossAt(at, "unsupported_item", `a reasoning item not written by Anthropic cannot be replayed to it: its encrypted_content is not an Anthropic signature`));
    return undefined;
  }
  const opaque: unknown = item.encrypted_content;
  if (typeof opaque !== "string") {
    losses.push(lossAt(at, "unsupported_item", `a ${provenance.block} block needs the ${provenance.block === "thinking" ? "signature" : "data"} encrypted_content held, and it is ${typeOf(opaque)}`));
    return undefined;
  }
  const summary: unknown[] = Array.isArray(item.summary) ? item.summary : [];
  const texts = summary.flatMap((part) => (isRecord(part) && typeof part.text === "string" ? [part.text] : []));
  if (isPresent(item.id)) losses.push(lossAt([...at, "id"], "unsupported_field", "Anthropic has no item ids"));
  let block: Fields;
  if (provenance.block === "thinking") {
    if (summary.length > 1) losses.push(lossAt([...at, "summary"], "form_changed", `${summary.length} summary parts joined into one thinking text`));
    block = { type: "thinking", thinking: texts.join(""), signature: opaque };
  } else {
    if (summary.length > 0) losses.push(lossAt([...at, "summary"], "unsupported_field", "redacted thinking carries no text: the summary is not kept"));
    block = { type: "redacted_thinking", data: opaque };
  }
  restoreFields(item as Fields, REASONING_FIELDS, block, at, losses);
  return block;
}
