// Anthropic messages (and `system`) -> Open Responses items (the canonical form).
//
// | Anthropic                                 | Open Responses                                                 |
// |-------------------------------------------|----------------------------------------------------------------|
// | system, a string or text blocks           | a leading system `message`: a string stays a string, blocks become input_text parts |
// | message of role system                    | a system `message` in place                                    |
// | user message                              | a user `message`; a string stays a string, blocks become parts (content-parts.ts) |
// |   tool_result blocks                      |   one `function_call_output` each, where the block stands; the user's other |
// |                                           |   blocks around them become user messages of their own         |
// |   tool_result content                     |   `output`: a string stays a string, blocks become parts        |
// |   tool_result is_error, cache_control     |   `anthropic:is_error`, `anthropic:cache_control` on the output |
// | assistant message                         | a string stays one assistant `message`; a run of text blocks is one message of output_text parts |
// |   text citations                          |   `anthropic:citations` as written; a web search citation also a url_citation annotation over the whole part |
// |   tool_use                                |   `function_call`: `id` -> `call_id` exactly, `arguments` JSON.stringify(input) (tool-input.ts) |
// |   thinking {thinking, signature}          |   `reasoning`: summary [summary_text thinking], encrypted_content the signature, |
// |                                           |   provenance {envelope "anthropic", block "thinking", model}   |
// |   redacted_thinking {data}                |   `reasoning`: summary [], encrypted_content the data, provenance block "redacted_thinking" |
// |   server_tool_use, *_tool_result, any     |   an extension item `anthropic:<type>` holding every other field of the block |
// |   other block                             |                                                                |
// | a field no item holds (cache_control, caller, citations…) | `anthropic:<field>` on the item or part (fields.ts) |
// | image or document in an assistant message, tool_use in a user message, a message field other than role and content | losses |
//
// `provenance` tells every writer whose signature or redacted data
// `encrypted_content` holds: only Anthropic's takes it back. Calls of a request's
// history are completed; the calls of a response take their status from its
// stop_reason (`callStatusOf`). Items get no `id`: a tool_use id is a call_id,
// never an item id.
import { ownStopReason } from "../../src/models/own-stop-reason.js";
import type { Loss, Converted } from "../../src/models/loss.js";
import type { CanonicalItem, ItemStatus } from "../../src/models/open-responses.js";
import { partOfBlock, type InputPart } from "./content-parts.js";
import { carryFields, isRecord, lossAt, PREFIX, SLUG, TARGET as ANTHROPIC, typeOf, type Fields, type PointerTokens } from "./fields.js";
import type { AnthropicMessage, AnthropicSystem } from "./models.js";
import { argumentsOfInput } from "./tool-input.js";

/** The spellings of a stop reason a message record may carry beside its content. */
export const STOP_REASON_NAMES = ["stop_reason", "stopReason"];

const TARGET = "Open Responses";
const SPEC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const SPEC_MAX_CALL_ID = 64;

export interface MessagesToItemsArgs {
  messages: readonly AnthropicMessage[];
  system?: AnthropicSystem;
  /** The model that wrote the assistant turns, when the record says it (a response's `model`): kept in each reasoning item's provenance. */
  model?: string;
  /**
   * The stop_reason of the response the messages are (null when it has none
   * yet). It sets the calls' status; a request's history leaves it out, and its
   * calls are completed.
   */
  stopReason?: string | null;
  /** Filled, when given, with the pointer of the block each item of an assistant message comes from (the first of the text blocks joined into one message). */
  origins?: PointerTokens[];
}

/** What a reasoning item carries to say whose opaque value its encrypted_content is. */
export interface Provenance {
  envelope: typeof SLUG;
  block: "thinking" | "redacted_thinking";
  model?: string;
}

export function messagesToItems({ messages, system, model, stopReason, origins }: MessagesToItemsArgs): Converted<CanonicalItem[]> {
  if (!Array.isArray(messages)) throw new TypeError("messagesToItems expects an array of Anthropic messages");
  const items: CanonicalItem[] = [];
  const losses: Loss[] = [];
  if (system !== undefined && system !== null) {
    const item = instructions(system, ["system"], losses);
    if (item) items.push(item);
  }
  const context: Context = { model, stopReason, items, losses, origins };
  messages.forEach((message, index) => convertMessage(message, ["messages", index], index === messages.length - 1, context));
  return { value: items, losses };
}

/**
 * The status of a response's call: stop_reason null (the response never
 * finished) leaves it in_progress; max_tokens and a full context window cut the
 * last block, so a call that is the last block is incomplete; a stop_reason not
 * known here says nothing of the call, which is then incomplete too.
 */
export function callStatusOf(stopReason: string | null | undefined, isLastBlock: boolean): ItemStatus {
  if (stopReason === undefined) return "completed";
  switch (stopReason) {
    case null:
      return "in_progress";
    case "end_turn":
    case "tool_use":
    case "stop_sequence":
    case "pause_turn":
    case "refusal":
      return "completed";
    case "max_tokens":
    case "model_context_window_exceeded":
      return isLastBlock ? "incomplete" : "completed";
    default:
      return "incomplete";
  }
}

/**
 * The status of a tool_use block's call: its block's (callStatusOf), except in a
 * refused turn. A refusal is the streaming classifier stopping the turn: a call
 * in it may be cut, and a refused turn is not one to act on, as a Chat
 * content_filter or a Gemini SAFETY is not; the call is incomplete.
 */
export function toolUseStatusOf(stopReason: string | null | undefined, isLastBlock: boolean): ItemStatus {
  return stopReason === "refusal" ? "incomplete" : callStatusOf(stopReason, isLastBlock);
}

interface Context {
  model?: string;
  stopReason?: string | null;
  items: CanonicalItem[];
  losses: Loss[];
  origins?: PointerTokens[];
}

function instructions(system: unknown, at: PointerTokens, losses: Loss[]): CanonicalItem | undefined {
  if (typeof system === "string") return { type: "message", role: "system", content: system };
  if (!Array.isArray(system)) {
    losses.push(lossAt(at, "unsupported_item", `system is ${typeOf(system)}, neither text nor text blocks`));
    return undefined;
  }
  const parts = system.flatMap((block: unknown, index) => {
    if (isRecord(block) && block.type === "text") return textParts(block, [...at, index], losses);
    losses.push(lossAt([...at, index], "unsupported_part", `only text blocks are kept here, not a ${typeOf(block)} block`));
    return [];
  });
  return { type: "message", role: "system", content: parts } as CanonicalItem;
}

function textParts(block: Fields, at: PointerTokens, losses: Loss[]): InputPart[] {
  const part = partOfBlock(block, at, losses);
  return part ? [part] : [];
}

function convertMessage(message: AnthropicMessage, at: PointerTokens, isLast: boolean, context: Context): void {
  const { items, losses } = context;
  if (!isRecord(message) || typeof message.role !== "string") {
    losses.push(lossAt(at, "unsupported_item", "not an Anthropic message: it has no role"));
    return;
  }
  for (const key of Object.keys(message)) {
    if (key !== "role" && key !== "content" && (message as Fields)[key] !== undefined) {
      losses.push(lossAt([...at, key], "provider_extension", `"${key}" is not a field of an Anthropic message; ${TARGET} has no place for it`));
    }
  }
  const content: unknown = message.content;
  if (typeof content !== "string" && !Array.isArray(content)) {
    losses.push(lossAt(at, "unsupported_item", `a ${message.role} message whose content is ${typeOf(content)} gives no item`));
    return;
  }
  if (Array.isArray(content) && content.length === 0) {
    losses.push(lossAt(at, "unsupported_item", `a ${message.role} message without content blocks gives no item`));
    return;
  }
  const role = message.role;
  switch (role) {
    case "system": {
      const item = instructions(content, [...at, "content"], losses);
      if (item) items.push(item);
      return;
    }
    case "user":
      if (typeof content === "string") items.push({ type: "message", role: "user", content });
      else userBlocks(content, [...at, "content"], context);
      return;
    case "assistant": {
      // A message that carries its response's stop_reason (a response written
      // without its type) ended as that says: its calls get the status it gives.
      const stopReason = ownStopReason(message as Fields, STOP_REASON_NAMES, context.stopReason);
      const stopped = stopReason === context.stopReason ? { isLast, context } : { isLast: true, context: { ...context, stopReason } };
      if (typeof content === "string") items.push({ type: "message", role: "assistant", content });
      else assistantBlocks(content, [...at, "content"], stopped.isLast, stopped.context);
      return;
    }
    default: {
      const unknownRole: never = role;
      losses.push(lossAt([...at, "role"], "unsupported_item", `role ${JSON.stringify(unknownRole)} has no Open Responses item`));
    }
  }
}

function userBlocks(blocks: readonly unknown[], at: PointerTokens, { items, losses }: Context): void {
  let parts: InputPart[] = [];
  const flush = () => {
    if (parts.length > 0) items.push({ type: "message", role: "user", content: parts });
    parts = [];
  };
  blocks.forEach((block, index) => {
    const blockAt = [...at, index];
    if (isRecord(block) && block.type === "tool_result") {
      flush();
      items.push(toolResult(block, blockAt, losses));
      return;
    }
    if (isRecord(block) && (block.type === "tool_use" || block.type === "thinking" || block.type === "redacted_thinking" || block.type === "server_tool_use")) {
      losses.push(lossAt(blockAt, "unsupported_part", `a ${typeOf(block)} block belongs to an assistant message, not a user message`));
      return;
    }
    const part = partOfBlock(block, blockAt, losses);
    if (part) parts.push(part);
  });
  flush();
}

function toolResult(block: Fields, at: PointerTokens, losses: Loss[]): CanonicalItem {
  const callId = block.tool_use_id;
  if (typeof callId !== "string" || callId === "") {
    losses.push(lossAt([...at, "tool_use_id"], "target_rejects", `tool_use_id is ${typeOf(callId)}: written as it is; the output answers no call`));
  } else if (callId.length > SPEC_MAX_CALL_ID) {
    losses.push(lossAt([...at, "tool_use_id"], "target_rejects", `the call id has ${callId.length} characters, more than the spec's ${SPEC_MAX_CALL_ID}: written as it is, which Open Responses rejects`));
  }
  const content = block.content;
  let output: string | InputPart[];
  if (typeof content === "string") output = content;
  else if (Array.isArray(content)) output = content.flatMap((part, index) => partOfBlock(part, [...at, "content", index], losses) ?? []);
  else {
    output = "";
    const what = content === undefined ? "without content" : `whose content is ${typeOf(content)}`;
    losses.push(lossAt(content === undefined ? at : [...at, "content"], "form_changed", `a tool_result ${what} gives an empty output`));
  }
  const item: Fields = { type: "function_call_output", call_id: callId, output };
  carryFields(block, ["type", "tool_use_id", "content"], item);
  return item as CanonicalItem;
}

function assistantBlocks(blocks: readonly unknown[], at: PointerTokens, isLast: boolean, context: Context): void {
  const { losses } = context;
  let parts: Fields[] = [];
  let partsAt: PointerTokens = at;
  const push = (item: CanonicalItem, from: PointerTokens) => {
    context.items.push(item);
    context.origins?.push(from);
  };
  const flush = () => {
    if (parts.length > 0) push({ type: "message", role: "assistant", content: parts } as CanonicalItem, partsAt);
    parts = [];
  };
  blocks.forEach((block, index) => {
    const blockAt = [...at, index];
    if (parts.length === 0) partsAt = blockAt;
    if (!isRecord(block) || typeof block.type !== "string" || block.type === "") {
      losses.push(lossAt(blockAt, "unsupported_part", `a ${typeOf(block)} is not a content block`));
      return;
    }
    if (block.type === "text") {
      if (typeof block.text !== "string") {
        losses.push(lossAt(blockAt, "unsupported_part", "a text block without text has nothing to carry"));
        return;
      }
      parts.push(outputText(block));
      return;
    }
    flush();
    switch (block.type) {
      case "tool_use":
        push(toolUse(block, blockAt, toolUseStatusOf(context.stopReason, isLast && index === blocks.length - 1), losses), blockAt);
        return;
      case "thinking":
      case "redacted_thinking":
        push(reasoning(block, blockAt, context.model, losses), blockAt);
        return;
      case "tool_result":
      case "image":
      case "document":
        losses.push(lossAt(blockAt, "unsupported_part", `a ${typeOf(block)} block belongs to a user message, not an assistant message`));
        return;
      default: {
        // Server tool calls and their results, and blocks not known yet: the
        // same provider takes them back as they are; no other runs them.
        const { type, ...rest } = block;
        push({ type: PREFIX + type, ...rest } as CanonicalItem, blockAt);
      }
    }
  });
  flush();
}

function outputText(block: Fields): Fields {
  const text = block.text as string;
  const citations = Array.isArray(block.citations) ? block.citations : [];
  const annotations = citations.flatMap((citation: unknown) =>
    isRecord(citation) && citation.type === "web_search_result_location" && typeof citation.url === "string"
      ? [{ type: "url_citation", start_index: 0, end_index: text.length, url: citation.url, title: typeof citation.title === "string" ? citation.title : "" }]
      : [],
  );
  const part: Fields = { type: "output_text", text, annotations };
  carryFields(block, ["type", "text"], part);
  return part;
}

function toolUse(block: Fields, at: PointerTokens, status: ItemStatus, losses: Loss[]): CanonicalItem {
  const { id, name } = block;
  if (typeof id !== "string" || id === "") losses.push(lossAt([...at, "id"], "target_rejects", `the tool_use id is ${typeOf(id)}: written as it is, which Open Responses rejects`));
  else if (id.length > SPEC_MAX_CALL_ID) losses.push(lossAt([...at, "id"], "target_rejects", `the call id has ${id.length} characters, more than the spec's ${SPEC_MAX_CALL_ID}: written as it is, which Open Responses rejects`));
  if (typeof name !== "string" || !SPEC_NAME.test(name)) {
    losses.push(lossAt([...at, "name"], "target_rejects", `the tool name ${typeof name === "string" ? JSON.stringify(name) + " is not 1 to 64 letters, digits, _ or -" : "is " + typeOf(name)}: written as it is, which Open Responses rejects`));
  }
  const args = argumentsOfInput(block.input);
  if (args.loss) losses.push(lossAt([...at, "input"], args.loss.code, args.loss.detail));
  const item: Fields = { type: "function_call", call_id: id, name, arguments: args.value, status };
  carryFields(block, ["type", "id", "name", "input"], item);
  return item as CanonicalItem;
}

function reasoning(block: Fields, at: PointerTokens, model: string | undefined, losses: Loss[]): CanonicalItem {
  const thinking = block.type === "thinking";
  const opaque = thinking ? block.signature : block.data;
  const field = thinking ? "signature" : "data";
  if (typeof opaque !== "string") losses.push(lossAt([...at, field], "target_rejects", `${field} is ${typeOf(opaque)}: written as it is; ${ANTHROPIC} rejects a ${block.type} block without it`));
  if (thinking && typeof block.thinking !== "string") losses.push(lossAt([...at, "thinking"], "target_rejects", `thinking is ${typeOf(block.thinking)}, not text: written as it is`));
  const provenance: Provenance = { envelope: SLUG, block: thinking ? "thinking" : "redacted_thinking" };
  if (model !== undefined) provenance.model = model;
  const item: Fields = {
    type: "reasoning",
    summary: thinking ? [{ type: "summary_text", text: block.thinking }] : [],
    encrypted_content: opaque,
    provenance,
  };
  carryFields(block, thinking ? ["type", "thinking", "signature"] : ["type", "data"], item);
  return item as CanonicalItem;
}
