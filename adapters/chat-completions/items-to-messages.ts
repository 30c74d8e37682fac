// Open Responses items (the canonical form) -> Chat Completions messages.
//
// | Open Responses                          | Chat                                                            |
// |-----------------------------------------|-----------------------------------------------------------------|
// | user / system / developer `message`     | message of the same role; a string stays a string, parts stay parts |
// |   input_text / input_image / input_file |   text / image_url (`detail` only if set) / file                 |
// | assistant `message`                     | opens an assistant message: output_text -> text, one lone refusal part -> `refusal`, flat url citations -> nested `annotations` |
// | `function_call`                         | joins the open assistant message as a `tool_calls` entry (one is opened, content null, if none is); `call_id` -> `id` |
// |   without call_id                       |   a synthesized `id` (call-ids.ts), reported                    |
// |   arguments not a string                |   written as they are, reported: Chat rejects them              |
// | `function_call_output`                  | `tool` message placed after the assistant message holding its call, outputs in the order they came; in place when no call matches here |
// |   before its call                       |   moved after it, reported `reordered`                          |
// |   without call_id                       |   answers the earliest call without call_id still unanswered, reported |
// | reasoning                               | with `reasoningField`: that dialect's field on the next assistant message (reasoning-fields.ts); else a loss |
// | compaction, item_reference, extension items | losses (no Chat equivalent); they close nothing                |
// | item `id`, message `status`, `phase`, a call not completed | losses                                      |
//
// The open assistant message takes the run of function_call items after an
// assistant message, so text and parallel calls stay one message; assistant text
// that comes between its calls and their outputs joins it too (`reordered`), as
// the chat-completions replay target writes a turn. Any other message or a
// function_call_output closes it: calls answered one by one stay separate turns.
// A tool message written ahead of an item that came before it is reported.
import type {
  ChatAssistantMessage,
  ChatAssistantPart,
  ChatMessage,
  ChatToolMessage,
  ChatUserPart,
} from "../../src/models/chat-completions.js";
import type { Converted, Loss } from "../../src/models/loss.js";
import { describeValue } from "../../src/models/json-value.js";
import type {
  AssistantMessageItem,
  CanonicalItem,
  FunctionCallItem,
  FunctionCallOutputItem,
  MessageItem,
  UrlCitationParam,
  UserContentPart,
} from "../../src/models/open-responses.js";
import { answered, callShapeLosses, idlessCalls, lacksId, synthesizeCallId, takeWaitingId, type IdlessCalls } from "./call-ids.js";
import { extensionFieldLosses, isEmpty, isPresent, isRecord, lossAt, type PointerTokens } from "./message-fields.js";
import { reasoningMessageFields, withReasoning, type ReasoningField } from "./reasoning-fields.js";

const TARGET = "Chat Completions";
const MESSAGE_FIELDS = ["type", "role", "id", "content", "status", "phase"];
const CALL_FIELDS = ["type", "id", "call_id", "name", "arguments", "status", "parsed_arguments"];
const OUTPUT_FIELDS = ["type", "id", "call_id", "output", "status"];

export interface ItemsToMessagesArgs {
  items: readonly CanonicalItem[];
  /**
   * Calls without call_id met so far. A caller that converts a conversation in
   * parts passes the same state each time, so that an output without call_id
   * still answers the call it follows and no two calls share a synthesized id.
   */
  idless?: IdlessCalls;
  /**
   * The field of the Chat dialect that takes the model's reasoning
   * (`reasoning_content`, `reasoning`, `reasoning_details`): a reasoning item
   * then goes into the assistant message after it. Without it, reasoning is lost.
   */
  reasoningField?: ReasoningField;
  /** Filled, when given, with the indexes of the items each message written comes from, in item order. */
  sources?: number[][];
}

/** One message, and when it is an assistant message with calls, the tool messages that answer them. */
interface Block {
  message: ChatMessage;
  /** The index of the item the message comes from (its first, for a turn's message). */
  origin: number;
  /** Every item the message holds: the turn's text, calls and reasoning folded into it. */
  folded: number[];
  callIds: string[];
  /** Tool messages answering the block's calls, in the order their outputs came. */
  answers: Answer[];
  /** An output written here only until its call, which comes after it, is found. */
  early?: { callId: string };
  moved?: boolean;
}

interface Answer {
  origin: number;
  message: ChatToolMessage;
  /** Came before its call and was moved after it (reported when moved). */
  early?: boolean;
}

export function itemsToMessages({ items, idless = idlessCalls(), reasoningField, sources }: ItemsToMessagesArgs): Converted<ChatMessage[]> {
  if (!Array.isArray(items)) throw new TypeError("itemsToMessages expects an array of Open Responses items");
  const losses: Loss[] = [];
  const blocks: Block[] = [];
  let open: Block | undefined;
  const callBlocks = new Map<string, Block[]>();
  const unanswered = (block: Block, callId: string) => !block.answers.some((answer) => answer.message.tool_call_id === callId);

  const append = (message: ChatMessage, origin: number): Block => {
    const block: Block = { message, origin, folded: [origin], callIds: [], answers: [] };
    blocks.push(block);
    return block;
  };
  // Reasoning waits for the assistant message it leads to, which carries it.
  let reasoning: Array<{ fields: Record<string, unknown>; at: PointerTokens }> = [];
  const carryReasoning = (block: Block) => {
    for (const { fields, at } of reasoning) {
      withReasoning(block.message as unknown as Record<string, unknown>, fields, at, losses);
      block.folded.push(at[0] as number);
    }
    reasoning = [];
  };
  const dropReasoning = () => {
    for (const { at } of reasoning) losses.push(lossAt(at, "unsupported_item", "no assistant message follows the reasoning to carry it"));
    reasoning = [];
  };

  items.forEach((item, index) => {
    const at = [index];
    const kind = itemKind(item);
    switch (kind) {
      case "message": {
        const converted = messageFromItem(item as MessageItem, at, losses);
        if (converted?.role === "assistant" && open && open.callIds.length > 0) {
          // Text after a call and before the outputs is still the model's turn, and
          // Chat holds a turn in one message: the text joins the calls' message.
          joinTurn(open.message as ChatAssistantMessage, converted, at, losses);
          open.folded.push(index);
          carryReasoning(open);
          return;
        }
        const block = converted ? append(converted, index) : undefined;
        open = converted?.role === "assistant" ? block : undefined;
        if (open) carryReasoning(open);
        else if (converted) dropReasoning();
        return;
      }
      case "function_call": {
        const call = item as FunctionCallItem;
        let callId: unknown = call.call_id;
        if (lacksId(callId)) {
          callId = synthesizeCallId(idless, call.name, call.arguments);
          losses.push(lossAt(at, "synthesized", `a function_call without call_id: the tool call id "${String(callId)}" was synthesized; an output without call_id that follows answers it`));
        }
        if (typeof callId !== "string") {
          losses.push(lossAt([...at, "call_id"], "unsupported_item", `call_id is ${describeValue(callId)}, not text: a Chat tool call needs an id`));
          return;
        }
        losses.push(...callLosses(call, callId, at));
        losses.push(...callShapeLosses({ callId, name: call.name, args: call.arguments }, { callId: [...at, "call_id"], name: [...at, "name"], args: [...at, "arguments"] }, TARGET));
        if (open) open.folded.push(index);
        else open = append({ role: "assistant", content: null }, index);
        carryReasoning(open);
        const assistant = open.message as ChatAssistantMessage;
        assistant.tool_calls ??= [];
        const parsedArguments = (call as { parsed_arguments?: unknown }).parsed_arguments;
        // The parse helpers' reading of the arguments goes back where they write it in a Chat call.
        const fn = isPresent(parsedArguments) ? { name: call.name, arguments: call.arguments, parsed_arguments: parsedArguments } : { name: call.name, arguments: call.arguments };
        assistant.tool_calls.push({ id: callId, type: "function", function: fn });
        open.callIds.push(callId);
        callBlocks.set(callId, [...(callBlocks.get(callId) ?? []), open]);
        return;
      }
      case "function_call_output": {
        open = undefined;
        dropReasoning();
        const output = item as FunctionCallOutputItem;
        losses.push(...extensionFieldLosses(output, OUTPUT_FIELDS, at, TARGET), ...idAndStatusLosses(output, at));
        let callId: unknown = output.call_id;
        if (lacksId(callId)) {
          callId = takeWaitingId(idless);
          if (callId === undefined) {
            losses.push(lossAt(at, "unsupported_item", "a function_call_output without call_id answers no call, and no call without call_id waits for an answer; Chat needs the tool_call_id"));
            return;
          }
          losses.push(lossAt(at, "synthesized", `a function_call_output without call_id answers the earliest call without call_id still unanswered: tool_call_id "${String(callId)}"`));
        }
        if (typeof callId !== "string") {
          losses.push(lossAt([...at, "call_id"], "unsupported_item", `call_id is ${describeValue(callId)}, not text: the output answers no call; Chat needs the tool_call_id`));
          return;
        }
        answered(idless, callId);
        const answerId = callId;
        const message: ChatToolMessage = { role: "tool", tool_call_id: answerId, content: toolContent(output.output, [...at, "output"], losses) };
        const block = callBlocks.get(answerId)?.find((candidate) => unanswered(candidate, answerId));
        // Chat accepts a tool message only directly after the assistant message that made the call.
        if (block) block.answers.push({ origin: index, message });
        else append(message, index).early = { callId: answerId };
        return;
      }
      case "reasoning": {
        if (reasoningField === undefined) {
          losses.push(lossAt(at, "unsupported_item", "Chat Completions cannot replay a reasoning item"));
          return;
        }
        const fields = reasoningMessageFields(item as Record<string, unknown>, reasoningField, at, losses);
        if (fields) reasoning.push({ fields, at });
        else losses.push(lossAt(at, "unsupported_item", `a reasoning item with no text: ${reasoningField} has nothing to carry`));
        return;
      }
      case "compaction":
        losses.push(lossAt(at, "unsupported_item", "Chat Completions cannot replay a compaction item"));
        return;
      case "item_reference":
        losses.push(lossAt(at, "unsupported_item", "Chat Completions has no item references; the referenced item is not here to inline"));
        return;
      case "extension":
      case "unknown": {
        const type = isRecord(item) ? JSON.stringify(item.type) : "none (not an object)";
        losses.push(lossAt(at, "unsupported_item", `an item of type ${type} has no Chat Completions equivalent`));
        return;
      }
      default: {
        const unknownKind: never = kind;
        throw new Error(`unhandled item kind ${String(unknownKind)}`);
      }
    }
  });

  dropReasoning();
  placeEarlyOutputs(blocks, callBlocks, unanswered, losses);
  const messages: ChatMessage[] = [];
  const written: Array<{ origin: number; answer?: Answer }> = [];
  for (const block of blocks) {
    if (block.moved) continue;
    messages.push(block.message);
    written.push({ origin: block.origin });
    sources?.push([...block.folded].sort((a, b) => a - b));
    const answers = [...block.answers].sort((a, b) => a.origin - b.origin);
    for (const answer of answers) {
      messages.push(answer.message);
      written.push({ origin: answer.origin, answer });
      sources?.push([answer.origin]);
    }
  }
  reportAnswersMovedUp(written, losses);
  return { value: messages, losses: byItem(losses) };
}

/**
 * An output that came before its call is written after the call, when the call
 * comes later among these items; one whose call is not here stays in place (its
 * call may be in an earlier record, and the gate says whether it answers any).
 */
function placeEarlyOutputs(blocks: Block[], callBlocks: ReadonlyMap<string, Block[]>, unanswered: (block: Block, callId: string) => boolean, losses: Loss[]): void {
  for (const held of blocks) {
    if (!held.early) continue;
    const { callId } = held.early;
    const block = callBlocks.get(callId)?.find((candidate) => candidate.origin > held.origin && unanswered(candidate, callId));
    if (!block) continue;
    held.moved = true;
    block.answers.push({ origin: held.origin, message: held.message as ChatToolMessage, early: true });
    losses.push(lossAt([held.origin], "reordered", `the output comes before its call (item ${block.origin}): its tool message is written after the assistant message that makes the call, as Chat requires`));
  }
}

/** Reports each tool message written ahead of an item that came before it: Chat wants it right after its call. */
function reportAnswersMovedUp(written: ReadonlyArray<{ origin: number; answer?: Answer }>, losses: Loss[]): void {
  let earliest = Number.POSITIVE_INFINITY;
  for (let index = written.length - 1; index >= 0; index--) {
    const { origin, answer } = written[index];
    if (answer && !answer.early && earliest < origin) {
      losses.push(lossAt([origin], "reordered", `the tool message is written right after the assistant message that makes its call, as Chat requires: ahead of item ${earliest}, which came before it`));
    }
    earliest = Math.min(earliest, origin);
  }
}

/**
 * An assistant message after a call of the turn and before its outputs, joined to
 * the message that makes the turn's calls: its text (and refusal) in place of a
 * null content, or after the text already there as parts.
 */
function joinTurn(turn: ChatAssistantMessage, next: ChatAssistantMessage, at: PointerTokens, losses: Loss[]): void {
  losses.push(lossAt(at, "reordered", "assistant text between the calls of a turn and their outputs: written in the message that makes the turn's calls, as Chat holds a turn's text and calls in one message"));
  if (isEmpty(turn.content) && turn.refusal === undefined && turn.annotations === undefined) {
    const { role: _role, ...fields } = next;
    const calls = turn.tool_calls;
    delete turn.tool_calls;
    Object.assign(turn, fields);
    // Chat writes a message's text before its calls.
    if (calls) turn.tool_calls = calls;
    return;
  }
  if (turn.annotations !== undefined || next.annotations !== undefined) {
    losses.push(lossAt([...at, "content"], "unsupported_field", "citations of text joined to another text of its turn have no place in a Chat message"));
    delete turn.annotations;
  }
  losses.push(lossAt([...at, "content"], "form_changed", "joined to the text already in the turn's message: the message's content becomes parts"));
  const calls = turn.tool_calls;
  delete turn.tool_calls;
  turn.content = [...contentParts(turn), ...contentParts(next)];
  delete turn.refusal;
  if (calls) turn.tool_calls = calls;
}

/** An assistant message's text and refusal as content parts, in the order Chat reads them. */
function contentParts(message: ChatAssistantMessage): ChatAssistantPart[] {
  const parts: ChatAssistantPart[] = typeof message.content === "string" ? (message.content === "" ? [] : [{ type: "text", text: message.content }]) : [...(message.content ?? [])];
  if (typeof message.refusal === "string" && message.refusal !== "") parts.push({ type: "refusal", refusal: message.refusal });
  return parts;
}

/** Losses in the order of the items they point into; losses of one item keep their order. */
function byItem(losses: Loss[]): Loss[] {
  const first = (loss: Loss) => Number(/^\/(\d+)/.exec(loss.path)?.[1] ?? Number.MAX_SAFE_INTEGER);
  return losses.map((loss, position) => ({ loss, position, index: first(loss) })).sort((a, b) => a.index - b.index || a.position - b.position).map((entry) => entry.loss);
}

type ItemKind = "message" | "function_call" | "function_call_output" | "reasoning" | "compaction" | "item_reference" | "extension" | "unknown";

const ITEM_TYPES = ["message", "function_call", "function_call_output", "reasoning", "compaction", "item_reference"] as const;

function itemKind(item: unknown): ItemKind {
  if (!isRecord(item)) return "unknown";
  const type = item.type;
  // Easy input messages omit `type`; so may item references.
  if (!isPresent(type)) return typeof item.role === "string" ? "message" : typeof item.id === "string" ? "item_reference" : "unknown";
  if (typeof type !== "string") return "unknown";
  if (type.includes(":")) return "extension";
  return ITEM_TYPES.find((known) => known === type) ?? "unknown";
}

function idAndStatusLosses(item: Record<string, unknown>, at: PointerTokens): Loss[] {
  const losses: Loss[] = [];
  if (isPresent(item.id)) losses.push(lossAt([...at, "id"], "unsupported_field", "Chat Completions has no item ids"));
  if (isPresent(item.status)) losses.push(lossAt([...at, "status"], "unsupported_field", `Chat Completions has no item status ("${String(item.status)}")`));
  return losses;
}

function callLosses(call: FunctionCallItem, callId: string, at: PointerTokens): Loss[] {
  const losses = extensionFieldLosses(call, CALL_FIELDS, at, TARGET);
  if (isPresent(call.id)) {
    losses.push(lossAt([...at, "id"], "unsupported_field", `Chat Completions has no item ids; the call keeps its call_id "${callId}"`));
  }
  // A Chat tool call is always a finished one: only another status is lost.
  if (isPresent(call.status) && call.status !== "completed") {
    losses.push(lossAt([...at, "status"], "unsupported_field", `Chat Completions cannot mark a call "${call.status}"`));
  }
  return losses;
}

function messageFromItem(item: MessageItem, at: PointerTokens, losses: Loss[]): ChatMessage | undefined {
  losses.push(...extensionFieldLosses(item, MESSAGE_FIELDS, at, TARGET), ...idAndStatusLosses(item, at));
  const content: unknown = item.content;
  if (typeof content !== "string" && !Array.isArray(content)) {
    losses.push(lossAt(at, "unsupported_item", "a message without text or parts gives no Chat message"));
    return undefined;
  }
  const role = item.role;
  switch (role) {
    case "system":
    case "developer":
      return { role, content: typeof item.content === "string" ? item.content : textParts(item.content, [...at, "content"], losses) };
    case "user":
      return { role, content: typeof item.content === "string" ? item.content : userParts(item.content, [...at, "content"], losses) };
    case "assistant":
      if (isPresent(item.phase)) losses.push(lossAt([...at, "phase"], "unsupported_field", `Chat Completions has no message phase ("${item.phase}")`));
      return assistantFromItem(item, at, losses);
    default: {
      const unknownRole: never = role;
      losses.push(lossAt(at, "unsupported_item", `a message of role "${String(unknownRole)}" has no Chat Completions equivalent`));
      return undefined;
    }
  }
}

type Part = Record<string, unknown> & { type?: unknown };

type ChatText = { type: "text"; text: string };

function textPart(part: Part, at: PointerTokens, losses: Loss[]): ChatText {
  losses.push(...extensionFieldLosses(part, ["type", "text"], at, TARGET));
  return { type: "text", text: part.text as string };
}

function textParts(parts: readonly Part[], at: PointerTokens, losses: Loss[]): ChatText[] {
  const converted: ChatText[] = [];
  parts.forEach((part, index) => {
    if (isRecord(part) && part.type === "input_text" && typeof part.text === "string") {
      converted.push(textPart(part, [...at, index], losses));
    } else {
      losses.push(lossAt([...at, index], "unsupported_part", `Chat takes only text parts here, not "${partType(part)}"`));
    }
  });
  return converted;
}

function userParts(parts: readonly UserContentPart[], at: PointerTokens, losses: Loss[]): ChatUserPart[] {
  const converted: ChatUserPart[] = [];
  parts.forEach((part, index) => {
    const partAt = [...at, index];
    if (!isRecord(part)) {
      losses.push(lossAt(partAt, "unsupported_part", `a ${typeof part} is not a content part`));
      return;
    }
    switch (part.type) {
      case "input_text":
        converted.push(textPart(part, partAt, losses));
        return;
      case "input_image": {
        if (typeof part.image_url !== "string") {
          losses.push(lossAt(partAt, "unsupported_part", "an image without image_url cannot be sent to Chat Completions"));
          return;
        }
        losses.push(...extensionFieldLosses(part, ["type", "image_url", "detail"], partAt, TARGET));
        const imageUrl = isPresent(part.detail) ? { url: part.image_url, detail: part.detail! } : { url: part.image_url };
        converted.push({ type: "image_url", image_url: imageUrl });
        return;
      }
      case "input_file": {
        if (typeof part.file_data !== "string") {
          losses.push(lossAt(partAt, "unsupported_part", "Chat Completions takes a file only as inline file_data"));
          return;
        }
        losses.push(...extensionFieldLosses(part, ["type", "filename", "file_data", "file_url"], partAt, TARGET));
        if (isPresent(part.file_url)) losses.push(lossAt([...partAt, "file_url"], "unsupported_field", "a Chat file has no file_url; the inline file_data is kept"));
        const file = typeof part.filename === "string" ? { filename: part.filename, file_data: part.file_data } : { file_data: part.file_data };
        converted.push({ type: "file", file });
        return;
      }
      default: {
        const unknownPart: never = part;
        losses.push(lossAt(partAt, "unsupported_part", `a Chat user message cannot hold a "${partType(unknownPart)}" part`));
      }
    }
  });
  return converted;
}

/** The type of a part the converter does not know, for a loss's detail. */
function partType(part: unknown): string {
  return String(isRecord(part) ? part.type : typeof part);
}

function assistantFromItem(item: AssistantMessageItem, at: PointerTokens, losses: Loss[]): ChatAssistantMessage {
  const content = item.content;
  if (typeof content === "string") return { role: "assistant", content };
  const parts = content;
  const textCount = parts.filter((part) => isRecord(part) && part.type === "output_text").length;
  const only = parts.length === 1 && isRecord(parts[0]) ? parts[0] : undefined;
  if (only?.type === "refusal") {
    losses.push(...extensionFieldLosses(only, ["type", "refusal"], [...at, "content", 0], TARGET));
    return { role: "assistant", content: null, refusal: only.refusal };
  }

  const chatParts: ChatAssistantPart[] = [];
  let annotations: NestedCitation[] = [];
  parts.forEach((part, index) => {
    const partAt = [...at, "content", index];
    if (!isRecord(part)) {
      losses.push(lossAt(partAt, "unsupported_part", `a ${typeof part} is not a content part`));
      return;
    }
    switch (part.type) {
      case "output_text": {
        losses.push(...extensionFieldLosses(part, ["type", "text", "annotations", "logprobs"], partAt, TARGET));
        if (!isEmpty(part.logprobs)) losses.push(lossAt([...partAt, "logprobs"], "unsupported_field", "a Chat history message has no logprobs"));
        const citations: unknown[] = Array.isArray(part.annotations) ? part.annotations : [];
        // Chat keeps citations on the message, so only a message with one text part can carry them.
        if (citations.length > 0 && textCount === 1) annotations = nestedCitations(citations, [...partAt, "annotations"], losses);
        else if (citations.length > 0) losses.push(lossAt([...partAt, "annotations"], "unsupported_field", "citations of one of several text parts have no place in a Chat message"));
        chatParts.push({ type: "text", text: part.text });
        return;
      }
      case "refusal":
        losses.push(...extensionFieldLosses(part, ["type", "refusal"], partAt, TARGET));
        chatParts.push({ type: "refusal", refusal: part.refusal });
        return;
      default: {
        const unknownPart: never = part;
        losses.push(lossAt(partAt, "unsupported_part", `a Chat assistant message cannot hold a "${partType(unknownPart)}" part`));
      }
    }
  });
  if (annotations.length === 0) return { role: "assistant", content: chatParts };
  // One cited text and nothing else is how Chat itself writes a cited answer: a string.
  const text = chatParts.length === 1 && chatParts[0].type === "text" ? chatParts[0].text : undefined;
  return { role: "assistant", content: text ?? chatParts, annotations };
}

type NestedCitation = { type: "url_citation"; url_citation: { end_index: number; start_index: number; title: string; url: string } };

function nestedCitations(citations: readonly unknown[], at: PointerTokens, losses: Loss[]): NestedCitation[] {
  const nested: NestedCitation[] = [];
  citations.forEach((citation, index) => {
    if (!isRecord(citation) || citation.type !== "url_citation") {
      losses.push(lossAt([...at, index], "unsupported_field", "only url citations have a Chat Completions form"));
      return;
    }
    const flat = citation as UrlCitationParam;
    losses.push(...extensionFieldLosses(flat, ["type", "start_index", "end_index", "url", "title"], [...at, index], TARGET));
    nested.push({ type: "url_citation", url_citation: { end_index: flat.end_index, start_index: flat.start_index, title: flat.title, url: flat.url } });
  });
  return nested;
}

function toolContent(output: FunctionCallOutputItem["output"], at: PointerTokens, losses: Loss[]): ChatToolMessage["content"] {
  if (typeof output === "string") return output;
  if (!Array.isArray(output)) {
    losses.push(lossAt(at, "form_changed", "an output that is neither text nor parts becomes an empty tool message"));
    return "";
  }
  const parts: ChatText[] = [];
  output.forEach((part, index) => {
    if (!isRecord(part)) {
      losses.push(lossAt([...at, index], "unsupported_part", `a ${typeof part} is not a content part`));
      return;
    }
    switch (part.type) {
      case "input_text":
        parts.push(textPart(part, [...at, index], losses));
        return;
      case "input_image":
      case "input_file":
      case "input_video":
        losses.push(lossAt([...at, index], "unsupported_part", `a Chat tool message holds only text, not an "${part.type}" part`));
        return;
      default: {
        const unknownPart: never = part;
        losses.push(lossAt([...at, index], "unsupported_part", `a Chat tool message holds only text, not a "${partType(unknownPart)}" part`));
      }
    }
  });
  return parts;
}
