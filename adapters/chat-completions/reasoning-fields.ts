// The model's reasoning as Chat dialects write it: fields some OpenAI-compatible
// providers add to an assistant message, read into a `reasoning` item and
// written back only when a dialect is asked for.
//
// | assistant message field            | dialect                         | reasoning item                                   |
// |------------------------------------|---------------------------------|--------------------------------------------------|
// | reasoning_content: text            | DeepSeek (vLLM before `reasoning`) | summary: one summary_text part with the text; chat_field "reasoning_content" |
// | reasoning: text                    | vLLM, OpenRouter, Groq          | the same; chat_field "reasoning"                 |
// | reasoning_details: array           | OpenRouter                      | kept whole as `reasoning_details` (signatures, encrypted entries); summary: its reasoning.text and reasoning.summary entries, unless a text field came with it |
// | "" or null                         |                                 | nothing: no item                                 |
//
// The item holds the text in `summary`, the one place the spec's input reasoning
// item (`ReasoningItemParam`, whose `content` must be null) has for text, and
// names the field it came from in `chat_field`, so that going back to the same
// dialect gives the same fields.
//
// | reasoning item → field asked for   | assistant message                                            |
// |------------------------------------|--------------------------------------------------------------|
// | the item's own dialect             | its own fields again: the text, reasoning_details as they were |
// | another text field                 | the text (reasoning_text content if any, else the summary; parts joined by a blank line: form_changed) |
// | reasoning_details, from text       | one reasoning.text entry: form_changed                       |
// | encrypted_content, id, status, reasoning_details the field does not take | losses: opaque payloads go back only to their own family |
// | no text and no details             | nothing: the caller reports the item                         |
import type { Loss } from "../../src/models/loss.js";
import { describeValue } from "../../src/models/json-value.js";
import { extensionFieldLosses, isPresent, isRecord, lossAt, type PointerTokens } from "./message-fields.js";

export const REASONING_FIELDS = ["reasoning_content", "reasoning", "reasoning_details"] as const;
export type ReasoningField = (typeof REASONING_FIELDS)[number];

const TEXT_FIELDS = ["reasoning_content", "reasoning"] as const;
const DIALECTS: Record<ReasoningField, string> = {
  reasoning_content: "DeepSeek's dialect, vLLM's before it took `reasoning`",
  reasoning: "the dialect of vLLM, OpenRouter and Groq",
  reasoning_details: "OpenRouter's dialect",
};
const ITEM_FIELDS = ["type", "id", "summary", "content", "encrypted_content", "status", "chat_field", "reasoning_details"];

export function isReasoningField(value: string): value is ReasoningField {
  return (REASONING_FIELDS as readonly string[]).includes(value);
}

/** The reasoning item an assistant message's dialect fields give, or undefined when it has none; what is read is reported. */
export function reasoningFromMessage(message: Record<string, unknown>, at: PointerTokens, losses: Loss[]): Record<string, unknown> | undefined {
  const texts: Array<{ field: ReasoningField; text: string }> = [];
  for (const field of TEXT_FIELDS) {
    const value = message[field];
    if (!isPresent(value) || value === "") continue;
    if (typeof value === "string") texts.push({ field, text: value });
    else losses.push(lossAt([...at, field], "unsupported_field", `${field} is ${describeValue(value)}, not text: no reasoning is read from it`));
  }
  const rawDetails = message.reasoning_details;
  const details = Array.isArray(rawDetails) && rawDetails.length > 0 ? rawDetails : undefined;
  if (isPresent(rawDetails) && !Array.isArray(rawDetails)) {
    losses.push(lossAt([...at, "reasoning_details"], "unsupported_field", `reasoning_details is ${describeValue(rawDetails)}, not an array: no reasoning is read from it`));
  }
  if (texts.length === 0 && details === undefined) return undefined;

  const first = texts[0];
  for (const { field, text } of texts) {
    if (text === first.text) losses.push(lossAt([...at, field], "form_changed", `${field} (${DIALECTS[field]}) read as a reasoning item: its text is the item's summary`));
    else losses.push(lossAt([...at, field], "unsupported_field", `a second reasoning text, unlike the ${first.field} beside it: a reasoning item holds one`));
  }
  const summary = first ? [{ type: "summary_text", text: first.text }] : detailTexts(details!).map((text) => ({ type: "summary_text", text }));
  const chatField: ReasoningField = first?.field ?? "reasoning_details";
  if (details) {
    const how = first ? "kept whole on the reasoning item" : "kept whole on the reasoning item; its text entries are the item's summary";
    losses.push(lossAt([...at, "reasoning_details"], "form_changed", `reasoning_details (${DIALECTS.reasoning_details}) ${how}`));
  }
  return { type: "reasoning", summary, chat_field: chatField, ...(details ? { reasoning_details: details } : {}) };
}

/** The texts of reasoning_details entries that carry one, in order. */
function detailTexts(details: readonly unknown[]): string[] {
  return details.flatMap((entry) => {
    if (!isRecord(entry)) return [];
    if (entry.type === "reasoning.text" && typeof entry.text === "string") return [entry.text];
    if (entry.type === "reasoning.summary" && typeof entry.summary === "string") return [entry.summary];
    return [];
  });
}

/**
 * The fields a reasoning item gives an assistant message of the dialect whose
 * field is `field`, or undefined when it holds nothing that field can carry.
 * `at` points at the item; what cannot go is reported there.
 */
export function reasoningMessageFields(item: Record<string, unknown>, field: ReasoningField, at: PointerTokens, losses: Loss[]): Record<string, unknown> | undefined {
  const ownDetails = Array.isArray(item.reasoning_details) ? item.reasoning_details : undefined;
  const own: ReasoningField[] = [];
  if (typeof item.chat_field === "string" && isReasoningField(item.chat_field)) own.push(item.chat_field);
  if (ownDetails && !own.includes("reasoning_details")) own.push("reasoning_details");
  const written = own.includes(field) ? own : [field];

  const parts = reasoningTexts(item);
  const text = parts.texts.join("\n\n");
  const fields: Record<string, unknown> = {};
  for (const name of written) {
    if (name === "reasoning_details") {
      if (ownDetails) fields.reasoning_details = ownDetails;
      else if (text !== "") {
        fields.reasoning_details = [{ type: "reasoning.text", text }];
        losses.push(lossAt([...at, parts.from], "form_changed", "the reasoning text written as one reasoning.text entry of reasoning_details"));
      }
    } else if (text !== "") {
      fields[name] = text;
    }
  }
  if (Object.keys(fields).length === 0) return undefined;

  if (parts.texts.length > 1 && written.some((name) => name !== "reasoning_details")) {
    losses.push(lossAt([...at, parts.from], "form_changed", `${parts.texts.length} reasoning parts joined into one text by blank lines`));
  }
  const from = typeof item.chat_field === "string" && isReasoningField(item.chat_field) ? item.chat_field : undefined;
  if (from !== undefined && !written.includes(from)) {
    losses.push(lossAt([...at, "chat_field"], "form_changed", `reasoning read from ${from} (${DIALECTS[from]}) written as ${field} (${DIALECTS[field]})`));
  }
  if (ownDetails && !written.includes("reasoning_details")) {
    losses.push(lossAt([...at, "reasoning_details"], "unsupported_field", `reasoning_details (${DIALECTS.reasoning_details}, signatures and encrypted entries with it) go back only to that dialect, not to ${field}`));
  }
  if (isPresent(item.encrypted_content)) {
    losses.push(lossAt([...at, "encrypted_content"], "unsupported_field", "encrypted reasoning goes back only to the provider that made it, never into a Chat message"));
  }
  if (isPresent(item.id)) losses.push(lossAt([...at, "id"], "unsupported_field", "Chat Completions has no item ids"));
  if (isPresent(item.status)) losses.push(lossAt([...at, "status"], "unsupported_field", `Chat Completions has no item status ("${String(item.status)}")`));
  losses.push(...extensionFieldLosses(item, ITEM_FIELDS, at, "Chat Completions"));
  return fields;
}

/** The reasoning's text parts: its reasoning_text content when it has any (the full text), else its summary. */
function reasoningTexts(item: Record<string, unknown>): { texts: string[]; from: "content" | "summary" } {
  const textsOf = (parts: unknown, type: string) =>
    Array.isArray(parts) ? parts.flatMap((part) => (isRecord(part) && part.type === type && typeof part.text === "string" && part.text !== "" ? [part.text] : [])) : [];
  const content = textsOf(item.content, "reasoning_text");
  if (content.length > 0) return { texts: content, from: "content" };
  return { texts: textsOf(item.summary, "summary_text"), from: "summary" };
}

/** Adds reasoning fields to an assistant message, after its text and before its calls, as the dialects write them; a second reasoning joins the first. */
export function withReasoning(message: Record<string, unknown>, fields: Record<string, unknown>, at: PointerTokens, losses: Loss[]): void {
  const merged: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    const previous = message[name];
    if (previous === undefined) merged[name] = value;
    else if (Array.isArray(previous) && Array.isArray(value)) merged[name] = [...previous, ...value];
    else {
      merged[name] = `${String(previous)}\n\n${String(value)}`;
      losses.push(lossAt(at, "form_changed", `a second reasoning for one assistant message: its text joins the first's ${name} after a blank line`));
    }
  }
  const calls = message.tool_calls;
  const legacy = message.function_call;
  delete message.tool_calls;
  delete message.function_call;
  Object.assign(message, merged);
  if (calls !== undefined) message.tool_calls = calls;
  if (legacy !== undefined) message.function_call = legacy;
}
