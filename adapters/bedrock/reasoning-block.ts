// A reasoning item as the reasoningContent block it came from, toward Bedrock.
//
// | reasoning item                                  | Bedrock block                                            |
// |-------------------------------------------------|----------------------------------------------------------|
// | provenance {envelope "bedrock", block           | reasoningContent.reasoningText {text: the summary texts, |
// |   "reasoningText"}                              |   signature: encrypted_content exactly, when present}    |
// | provenance {envelope "bedrock", block           | reasoningContent.redactedContent: encrypted_content      |
// |   "redactedContent"}                            |   exactly; a summary is a loss                           |
// | any other provenance, or none                   | none: loss. Its encrypted_content is another provider's, |
// |                                                 |   which Bedrock would refuse                             |
import type { Loss } from "../../src/models/loss.js";
import type { ReasoningItem } from "../../src/models/open-responses.js";
import { isPresent, isRecord, lossAt, restoreFields, TARGET, typeOf, type Fields, type PointerTokens } from "./fields.js";

const REASONING_FIELDS = ["type", "id", "summary", "content", "encrypted_content", "provenance"];

export function reasoningBlock(item: ReasoningItem, at: PointerTokens, losses: Loss[]): Fields | undefined {
  const provenance: unknown = (item as Fields).provenance;
  if (!isRecord(provenance) || provenance.envelope !== "bedrock" || (provenance.block !== "reasoningText" && provenance.block !== "redactedContent")) {
    losses.push(lossAt(at, "unsupported_item", `a reasoning item not written by Bedrock cannot be replayed to it: its encrypted_content is not a Bedrock signature or redacted content`));
    return undefined;
  }
  const opaque: unknown = item.encrypted_content;
  const summary: unknown[] = Array.isArray(item.summary) ? item.summary : [];
  const texts = summary.flatMap((part) => (isRecord(part) && typeof part.text === "string" ? [part.text] : []));
  if (isPresent(item.id)) losses.push(lossAt([...at, "id"], "unsupported_field", `${TARGET} has no item ids`));
  let reasoningContent: Fields;
  if (provenance.block === "reasoningText") {
    if (summary.length > 1) losses.push(lossAt([...at, "summary"], "form_changed", `${summary.length} summary parts joined into one reasoning text`));
    const reasoningText: Fields = { text: texts.join("") };
    if (typeof opaque === "string") reasoningText.signature = opaque;
    else if (isPresent(opaque)) losses.push(lossAt([...at, "encrypted_content"], "unsupported_field", `a signature that is ${typeOf(opaque)} is not written`));
    reasoningContent = { reasoningText };
  } else {
    if (typeof opaque !== "string") {
      losses.push(lossAt(at, "unsupported_item", `redactedContent needs the encrypted_content held, and it is ${typeOf(opaque)}`));
      return undefined;
    }
    if (summary.length > 0) losses.push(lossAt([...at, "summary"], "unsupported_field", "redacted reasoning carries no text: the summary is not kept"));
    reasoningContent = { redactedContent: opaque };
  }
  restoreFields(item as Fields, REASONING_FIELDS, reasoningContent, at, losses);
  return { reasoningContent };
}
