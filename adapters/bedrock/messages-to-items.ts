// Bedrock Converse messages (and `system`) -> Open Responses items (the canonical form).
//
// | Bedrock                                   | Open Responses                                                 |
// |-------------------------------------------|----------------------------------------------------------------|
// | system blocks                             | a leading system `message`: one text block alone is a string, else input_text parts |
// | user message                              | a user `message`; one text block alone is a string (Bedrock has no string |
// |                                           |   form), other blocks become parts (content-parts.ts)          |
// |   toolResult {toolUseId, content, status} |   one `function_call_output` each, where the block stands; the user's other |
// |                                           |   blocks around it become user messages of their own; content ->  |
// |                                           |   output (one text block alone a string), status -> `bedrock:status` |
// | assistant message                         | one assistant `message` per run of text blocks, output_text parts |
// |   toolUse {toolUseId, name, input}        |   `function_call`: toolUseId -> call_id exactly, input -> arguments text |
// |                                           |   (tool-input.ts); `type` -> `bedrock:type`                    |
// |   reasoningContent.reasoningText          |   `reasoning`: summary [summary_text text], encrypted_content the signature |
// |     {text, signature}                     |   (absent when Bedrock gave none), provenance {envelope "bedrock", |
// |                                           |   block "reasoningText", model}                                |
// |   reasoningContent.redactedContent        |   `reasoning`: summary [], encrypted_content the base64 exactly, block |
// |                                           |   "redactedContent"                                            |
// |   a server toolUse (`type:                |   an extension item `{type: "bedrock:<kind>", <kind>: the block's value}`, |
// |     server_tool_use`), toolResult, any    |   as it is                                                     |
// |     other block                           |                                                                |
// | cachePoint after a block of user or system| `bedrock:cachePoint` on the part or output it follows          |
// | a message field other than role and content, a toolUse in a user message | losses |
//
// `provenance` tells every writer whose signature or redacted data
// `encrypted_content` holds: only Bedrock's takes it back. Calls of a request's
// history are completed; the calls of a response take their status from its
// stopReason (`callStatusOf`). Items get no `id`: a toolUseId is a call_id.
import { ownStopReason } from "../../src/models/own-stop-reason.js";
import type { Converted, Loss } from "../../src/models/loss.js";
import type { CanonicalItem, ItemStatus } from "../../src/models/open-responses.js";
import { partOfBlock, type InputPart } from "./content-parts.js";
import { blockKind, CACHE_POINT, carryFields, isRecord, lossAt, PREFIX, SLUG, typeOf, type Fields, type PointerTokens } from "./fields.js";
import type { BedrockMessage, BedrockSystemBlock } from "./models.js";
import { argumentsOfInput } from "./tool-input.js";

/** The spellings of a stop reason a message record may carry beside its content. */
export const STOP_REASON_NAMES = ["stopReason", "stop_reason"];

const TARGET = "Open Responses";
const SPEC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface MessagesToItemsArgs {
  messages: readonly BedrockMessage[];
  system?: readonly BedrockSystemBlock[];
  /** The model that wrote the assistant turns (Bedrock names it only in the request path): kept in each reasoning item's provenance. */
  model?: string;
  /** The stopReason of the response the messages are (null when it has none yet); a request's history leaves it out. */
  stopReason?: string | null;
  /** Filled, when given, with the pointer of the block each item of an assistant message comes from (the first of the text blocks joined into one message). */
  origins?: PointerTokens[];
}

/** What a reasoning item carries to say whose opaque value its encrypted_content is. */
export interface Provenance {
  envelope: typeof SLUG;
  block: "reasoningText" | "redactedContent";
  model?: string;
}

export function messagesToItems({ messages, system, model, stopReason, origins }: MessagesToItemsArgs): Converted<CanonicalItem[]> {
  if (!Array.isArray(messages)) throw new TypeError("messagesToItems expects an array of Bedrock messages");
  const items: CanonicalItem[] = [];
  const losses: Loss[] = [];
  if (Array.isArray(system) && system.length > 0) {
    const parts: Fields[] = [];
    system.forEach((block, index) => readBlock(block, ["system", index], parts, losses));
    if (parts.length > 0) items.push({ type: "message", role: "system", content: contentOf(parts) } as CanonicalItem);
  } else if (system !== undefined && !Array.isArray(system)) {
    losses.push(lossAt(["system"], "unsupported_item", `system is ${typeOf(system)}, not a list of blocks`));
  }
  const context: Context = { model, stopReason, items, losses, origins };
  messages.forEach((message, index) => convertMessage(message, ["messages", index], index === messages.length - 1, context));
  return { value: items, losses };
}

/**
 * The status of a response's call: stopReason null (not finished) leaves it
 * in_progress; max_tokens and a full context window cut the last block, so a
 * call that is the last block is incomplete; a guardrail or content filter, or
 * a stopReason not known here, says nothing good of any call: incomplete.
 */
export function callStatusOf(stopReason: string | null | undefined, isLastBlock: boolean): ItemStatus {
  if (stopReason === undefined) return "completed";
  switch (stopReason) {
    case null:
      return "in_progress";
    case "end_turn":
    case "tool_use":
    case "stop_sequence":
      return "completed";
    case "max_tokens":
    case "model_context_window_exceeded":
      return isLastBlock ? "incomplete" : "completed";
    default:
      return "incomplete";
  }
}

interface Context {
  model?: string;
  stopReason?: string | null;
  items: CanonicalItem[];
  losses: Loss[];
  origins?: PointerTokens[];
}

/** Adds a user-side block to `parts`; a cachePoint rides on the part before it. */
function readBlock(block: unknown, at: PointerTokens, parts: Fields[], losses: Loss[], last?: Fields): void {
  if (isRecord(block) && blockKind(block) === "cachePoint") {
    const target = parts[parts.length - 1] ?? last;
    if (target && !(CACHE_POINT in target)) target[CACHE_POINT] = block.cachePoint;
    else losses.push(lossAt(at, "unsupported_part", "a cachePoint that follows no content it could mark is not kept"));
    return;
  }
  const part = partOfBlock(block, at, losses);
  if (part) parts.push(part as Fields);
}

/** A message's content: one plain text part alone is the string it holds. */
function contentOf(parts: Fields[]): string | Fields[] {
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only && (only.type === "input_text" || only.type === "output_text") && Object.keys(only).length === (only.type === "output_text" ? 3 : 2)) return only.text as string;
  return parts;
}

function convertMessage(message: BedrockMessage, at: PointerTokens, isLast: boolean, context: Context): void {
  const { losses } = context;
  if (!isRecord(message) || typeof message.role !== "string") {
    losses.push(lossAt(at, "unsupported_item", "not a Bedrock message: it has no role"));
    return;
  }
  for (const key of Object.keys(message)) {
    if (key !== "role" && key !== "content" && (message as Fields)[key] !== undefined) {
      losses.push(lossAt([...at, key], "provider_extension", `"${key}" is not a field of a Bedrock message; ${TARGET} has no place for it`));
    }
  }
  const content: unknown = message.content;
  if (!Array.isArray(content) || content.length === 0) {
    losses.push(lossAt(at, "unsupported_item", `a ${message.role} message whose content is ${Array.isArray(content) ? "empty" : typeOf(content)} gives no item`));
    return;
  }
  const role = message.role;
  switch (role) {
    case "user":
      userBlocks(content, [...at, "content"], context);
      return;
    case "assistant": {
      // A message that carries its response's stopReason ended as that says: its calls get the status it gives.
      const stopReason = ownStopReason(message as Fields, STOP_REASON_NAMES, context.stopReason);
      if (stopReason === context.stopReason) assistantBlocks(content, [...at, "content"], isLast, context);
      else assistantBlocks(content, [...at, "content"], true, { ...context, stopReason });
      return;
    }
    default: {
      const unknownRole: never = role;
      losses.push(lossAt([...at, "role"], "unsupported_item", `role ${JSON.stringify(unknownRole)} has no Open Responses item`));
    }
  }
}

function userBlocks(blocks: readonly unknown[], at: PointerTokens, { items, losses }: Context): void {
  let parts: Fields[] = [];
  let last: Fields | undefined;
  const flush = () => {
    if (parts.length > 0) items.push({ type: "message", role: "user", content: contentOf(parts) } as CanonicalItem);
    parts = [];
  };
  blocks.forEach((block, index) => {
    const blockAt = [...at, index];
    const kind = isRecord(block) ? blockKind(block) : undefined;
    if (kind === "toolResult") {
      flush();
      last = toolResult((block as Fields).toolResult, [...blockAt, "toolResult"], losses);
      items.push(last as CanonicalItem);
      return;
    }
    if (kind === "toolUse" || kind === "reasoningContent") {
      losses.push(lossAt(blockAt, "unsupported_part", `a ${kind} block belongs to an assistant message, not a user message`));
      return;
    }
    readBlock(block, blockAt, parts, losses, last);
  });
  flush();
}

function toolResult(result: unknown, at: PointerTokens, losses: Loss[]): Fields {
  if (!isRecord(result)) {
    losses.push(lossAt(at, "form_changed", `a toolResult that is ${typeOf(result)} gives an output answering no call`));
    return { type: "function_call_output", call_id: undefined, output: "" };
  }
  const callId = result.toolUseId;
  if (typeof callId !== "string" || callId === "") losses.push(lossAt([...at, "toolUseId"], "target_rejects", `toolUseId is ${typeOf(callId)}: written as it is; the output answers no call`));
  const item: Fields = { type: "function_call_output", call_id: callId, output: "" };
  if (Array.isArray(result.content)) {
    const parts: Fields[] = [];
    result.content.forEach((block: unknown, index) => readBlock(block, [...at, "content", index], parts, losses, item));
    item.output = contentOf(parts);
  } else {
    losses.push(lossAt([...at, "content"], "form_changed", `a toolResult whose content is ${typeOf(result.content)} gives an empty output`));
  }
  carryFields(result, ["toolUseId", "content"], item);
  return item;
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
    // Parts, never a string: a response's message has parts, and a request that replays it must say the same.
    if (parts.length > 0) push({ type: "message", role: "assistant", content: parts } as CanonicalItem, partsAt);
    parts = [];
  };
  blocks.forEach((block, index) => {
    const blockAt = [...at, index];
    if (parts.length === 0) partsAt = blockAt;
    const kind = isRecord(block) ? blockKind(block) : undefined;
    if (!isRecord(block) || kind === undefined) {
      losses.push(lossAt(blockAt, "unsupported_part", `a ${typeOf(block)} is not a content block of one member`));
      return;
    }
    const inner = block[kind];
    if (kind === "text") {
      if (typeof inner !== "string") losses.push(lossAt(blockAt, "unsupported_part", "a text block without text has nothing to carry"));
      else parts.push({ type: "output_text", text: inner, annotations: [] });
      return;
    }
    flush();
    if (kind === "toolUse" && isRecord(inner) && (inner.type === undefined || inner.type === "tool_use")) {
      push(toolUse(inner, [...blockAt, kind], callStatusOf(context.stopReason, isLast && index === blocks.length - 1), losses), blockAt);
    } else if (kind === "reasoningContent" && isRecord(inner) && (isRecord(inner.reasoningText) || typeof inner.redactedContent === "string")) {
      push(reasoning(inner, [...blockAt, kind], context.model, losses), blockAt);
    } else if (kind === "image" || kind === "document") {
      losses.push(lossAt(blockAt, "unsupported_part", `a ${kind} block belongs to a user message, not an assistant message`));
    } else {
      // Server tool calls and their results, cache points, and blocks not known
      // yet: Bedrock takes them back as they are; no other provider runs them.
      push({ type: PREFIX + kind, [kind]: inner } as CanonicalItem, blockAt);
    }
  });
  flush();
}

function toolUse(block: Fields, at: PointerTokens, status: ItemStatus, losses: Loss[]): CanonicalItem {
  const { toolUseId: id, name } = block;
  if (typeof id !== "string" || id === "") losses.push(lossAt([...at, "toolUseId"], "target_rejects", `the toolUseId is ${typeOf(id)}: written as it is, which Open Responses rejects`));
  if (typeof name !== "string" || !SPEC_NAME.test(name)) {
    losses.push(lossAt([...at, "name"], "target_rejects", `the tool name ${typeof name === "string" ? JSON.stringify(name) + " is not 1 to 64 letters, digits, _ or -" : "is " + typeOf(name)}: written as it is, which Open Responses rejects`));
  }
  const args = argumentsOfInput(block.input);
  if (args.loss) losses.push(lossAt([...at, "input"], args.loss.code, args.loss.detail));
  const item: Fields = { type: "function_call", call_id: id, name, arguments: args.value, status };
  carryFields(block, ["toolUseId", "name", "input"], item);
  return item as CanonicalItem;
}

function reasoning(block: Fields, at: PointerTokens, model: string | undefined, losses: Loss[]): CanonicalItem {
  const text = block.reasoningText;
  const provenance: Provenance = { envelope: SLUG, block: isRecord(text) ? "reasoningText" : "redactedContent" };
  if (model !== undefined) provenance.model = model;
  const item: Fields = { type: "reasoning", summary: [] };
  if (isRecord(text)) {
    if (typeof text.text !== "string") losses.push(lossAt([...at, "reasoningText", "text"], "target_rejects", `the reasoning text is ${typeOf(text.text)}: written as it is`));
    item.summary = [{ type: "summary_text", text: text.text }];
    if (text.signature !== undefined) item.encrypted_content = text.signature;
    carryFields(text, ["text", "signature"], item);
  } else {
    item.encrypted_content = block.redactedContent;
  }
  item.provenance = provenance;
  carryFields(block, ["reasoningText", "redactedContent"], item);
  return item as CanonicalItem;
}
