// Chat Completions messages -> Open Responses items (the canonical form).
//
// | Chat                                    | Open Responses                                                  |
// |-----------------------------------------|-----------------------------------------------------------------|
// | system / developer / user message       | `message` of the same role; a string stays a string, parts stay parts |
// |   its parts                             |   input parts, as input-parts.ts maps them                      |
// | assistant content, refusal, annotations | assistant `message`: text -> output_text, refusal field or part -> refusal part, nested url citations -> flat annotations |
// | assistant tool_calls                    | one `function_call` per call, in order, after the message; `id` -> `call_id` |
// |   a call without id                     |   a synthesized `call_id` (call-ids.ts), reported               |
// |   tool_calls, function_call or refusal of another shape | a loss: nothing is read from it              |
// | assistant function_call (legacy)        | `function_call` with a synthesized `call_id`                    |
// | tool message                            | `function_call_output`; `tool_call_id` -> `call_id`, text parts -> input_text parts |
// |   without tool_call_id                  |   the call_id of the earliest call without id still unanswered (of its `name`, when it names one), reported |
// |   before the message making its call    |   its output written after that call's turn, reported `reordered` |
// | function message (legacy)               | `function_call_output`, paired in order with the legacy call of its name |
// | custom tool call, and the tool message answering it | losses (an answer to no call is rejected by providers) |
// | reasoning_content, reasoning, reasoning_details | a `reasoning` item ahead of the message's items (reasoning-fields.ts) |
// | name, audio, input_audio, file_id, provider fields | losses                                         |
//
// Tool-only assistant content may be null, "" or absent: no message item is made
// for it. `arguments` and ids are copied as they are, whatever they hold; the gate
// judges them, not the converter, and what Open Responses rejects of them is
// reported. Items get no `id` unless `itemId` gives one, so a call id or a
// completion id never poses as an item id.
import { ownStopReason } from "../../src/models/own-stop-reason.js";
import type {
  ChatAssistantMessage,
  ChatAssistantPart,
  ChatDeveloperMessage,
  ChatFinishReason,
  ChatFunctionMessage,
  ChatMessage,
  ChatSystemMessage,
  ChatToolMessage,
  ChatUserMessage,
  ChatUserPart,
} from "../../src/models/chat-completions.js";
import type { Converted, Loss } from "../../src/models/loss.js";
import { describeValue } from "../../src/models/json-value.js";
import { pointer } from "../../src/models/json-pointer.js";
import type {
  AssistantContentPartParam,
  CanonicalItem,
  FunctionCallOutputPart,
  ItemStatus,
  UrlCitationParam,
  UserContentPart,
} from "../../src/models/open-responses.js";
import { answered, callShapeLosses, forkIdlessCalls, idlessCalls, lacksId, synthesizeCallId, takeWaitingId, type IdlessCalls } from "./call-ids.js";
import { textParts, userPart } from "./input-parts.js";
import { REASONING_FIELDS, reasoningFromMessage } from "./reasoning-fields.js";
import { extensionFieldLosses, isEmpty, isPresent, isRecord, lossAt, type PointerTokens } from "./message-fields.js";

/** What a tool call without type may hold and still be read as a function call: nothing of another kind of call. */
const TYPELESS_CALL_KEYS: ReadonlySet<string> = new Set(["id", "function", "index"]);

const TARGET = "Open Responses";
const FIELDS = {
  system: ["role", "content", "name"],
  developer: ["role", "content", "name"],
  user: ["role", "content", "name"],
  assistant: ["role", "content", "refusal", "name", "tool_calls", "function_call", "audio", "annotations", ...REASONING_FIELDS],
  tool: ["role", "tool_call_id", "content"],
  function: ["role", "name", "content"],
} as const satisfies Record<ChatMessage["role"], readonly string[]>;

export interface MessagesToItemsArgs {
  messages: readonly ChatMessage[];
  /**
   * The finish_reason of the choice the assistant messages come from (null when
   * the choice has none): it sets the calls' status (`callStatusOf`). Messages that
   * come from no choice (a request's history) leave it out: their calls are completed.
   */
  finishReason?: ChatFinishReason | null;
  /** Gives each item an `id` (e.g. `msg_…`, `fc_…`), placed after its `type`. Without it items have none. */
  itemId?: (item: CanonicalItem, position: number) => string;
  /**
   * The calls whose call_id is synthesized, counted so far. A caller that
   * converts a conversation one message at a time passes the same counts each
   * time, so that the k-th call of a name keeps pairing with its k-th answer, an
   * answer without id with the call without id it follows, and no two calls
   * share a synthesized call_id.
   */
  callCounts?: CallCounts;
  /**
   * Filled, when given, with where each item comes from: so that a loss a later
   * step reports at an item's field can name the message and the field of it
   * that gave the value.
   */
  origins?: Map<CanonicalItem, ItemOrigin>;
}

/** The message an item comes from (its index), and the pointer in that message of each item field it gave ("": the item as a whole). */
export interface ItemOrigin {
  message: number;
  fields: Readonly<Record<string, string>>;
}

/** Pointers, within the message (`at` less its first token, the message's index), to each field under `at`. */
function withinMessage(at: PointerTokens, fields: Record<string, readonly (string | number)[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([field, tokens]) => [field, pointer(...at.slice(1), ...tokens)]));
}

/** An item made of a whole message: its content from the message's content, a tool message's call_id from its tool_call_id. */
function messageFields(item: CanonicalItem, message: ChatMessage): Readonly<Record<string, string>> {
  switch (item.type) {
    case "message":
      return { "": "", role: "/role", content: "/content" };
    case "function_call_output":
      return isRecord(message) && message.role === "tool" ? { "": "", call_id: "/tool_call_id", output: "/content" } : { "": "", output: "/content" };
    default:
      return { "": "" };
  }
}

/** Calls that get a synthesized call_id: legacy calls and answers per function name, and tool calls without id. */
export interface CallCounts {
  calls: Map<string, number>;
  outputs: Map<string, number>;
  idless?: IdlessCalls;
  /**
   * A tool message's `name` is kept on its output as `name` (the gate's reading):
   * a reader that pairs answers with calls by name would give it to a call of
   * that name, so the gate compares it with its own call's.
   */
  namedOutputs?: boolean;
}

/** The gate's reading (`forGate`): answers without id paired only when certain (IdlessCalls), tool messages' names kept. */
export function callCounts(forGate = false): Required<CallCounts> {
  return { calls: new Map(), outputs: new Map(), idless: idlessCalls(forGate), namedOutputs: forGate };
}

/** Counts that go on from where `counts` stand and change nothing of them: for another answer to the same request (a later choice). */
export function forkCallCounts(counts: CallCounts): CallCounts {
  return { ...counts, calls: new Map(counts.calls), outputs: new Map(counts.outputs), ...(counts.idless ? { idless: forkIdlessCalls(counts.idless) } : {}) };
}

export function messagesToItems({ messages, finishReason, itemId, callCounts: counts, origins }: MessagesToItemsArgs): Converted<CanonicalItem[]> {
  if (!Array.isArray(messages)) throw new TypeError("messagesToItems expects an array of Chat Completions messages");
  if (counts && !counts.idless) counts.idless = idlessCalls();
  // Every field written, undefined or not, so that each conversion's context has one shape.
  const context: Context = {
    // A cut-short choice may have cut the arguments too, and a choice with no
    // finish reason never finished: the gate must not run their calls.
    finishReason,
    callStatus: finishReason === undefined ? "completed" : callStatusOf(finishReason),
    legacyCalls: counts?.calls ?? new Map(),
    legacyOutputs: counts?.outputs ?? new Map(),
    idless: counts?.idless ?? idlessCalls(),
    namedOutputs: counts?.namedOutputs === true,
    callFields: origins ? new Map<CanonicalItem, Record<string, string>>() : undefined,
  };
  const entries: Entry[] = [];
  const losses: Loss[] = [];
  let calls = false;
  let outputs = false;
  messages.forEach((message, index) => {
    const converted = convertMessage(message, [index], context);
    for (const item of converted.value) {
      entries.push({ item, message: index });
      if (item.type === "function_call") calls = true;
      else if (item.type === "function_call_output") outputs = true;
      origins?.set(item, { message: index, fields: context.callFields?.get(item) ?? messageFields(item, message) });
    }
    losses.push(...converted.losses);
  });
  // Most conversions (one loose message, a completion's choice) hold no call and its output both.
  const items = calls && outputs ? outputsAfterTheirCalls(entries, losses) : entries.map((entry) => entry.item);
  const value = itemId ? items.map((item, position) => withId(item, itemId(item, position))) : items;
  return { value, losses };
}

interface Entry {
  item: CanonicalItem;
  /** The index of the message it comes from. */
  message: number;
}

/**
 * A tool message that comes before the assistant message making its call (among
 * these messages) gives an output that is written after that call's turn: after
 * the run of calls holding it, ahead of the outputs already there. The gate would
 * block it where it was, as an output that answers no call.
 */
function outputsAfterTheirCalls(entries: readonly Entry[], losses: Loss[]): CanonicalItem[] {
  const callIdOf = (entry: Entry | undefined, type: string) => (entry?.item.type === type && typeof (entry.item as { call_id?: unknown }).call_id === "string" ? (entry.item as { call_id: string }).call_id : undefined);
  const firstCall = new Map<string, number>();
  entries.forEach((entry, position) => {
    const callId = callIdOf(entry, "function_call");
    if (callId !== undefined && !firstCall.has(callId)) firstCall.set(callId, position);
  });
  const held = new Map<string, Entry[]>();
  entries.forEach((entry, position) => {
    const callId = callIdOf(entry, "function_call_output");
    const call = callId === undefined ? undefined : firstCall.get(callId);
    if (callId === undefined || call === undefined || call < position) return;
    held.set(callId, [...(held.get(callId) ?? []), entry]);
    losses.push(lossAt([entry.message], "reordered", `the tool message comes before the assistant message that makes its call (message ${entries[call].message}): its output is written after the call, where the gate looks for it`));
  });
  if (held.size === 0) return entries.map((entry) => entry.item);
  const items: CanonicalItem[] = [];
  let run: string[] = [];
  entries.forEach((entry, position) => {
    const output = callIdOf(entry, "function_call_output");
    if (output !== undefined && held.get(output)?.includes(entry)) return;
    items.push(entry.item);
    const callId = callIdOf(entry, "function_call");
    if (callId !== undefined) run.push(callId);
    if (run.length > 0 && callIdOf(entries[position + 1], "function_call") === undefined) {
      for (const id of run) {
        for (const early of held.get(id) ?? []) items.push(early.item);
        held.delete(id);
      }
      run = [];
    }
  });
  return items;
}

/**
 * The status of the calls of a choice that ended with this finish_reason, as a
 * stream's are: only stop, tool_calls and function_call say the choice finished;
 * null (or none) says it never did; length, content_filter and any reason not
 * known here say it was cut, arguments perhaps with it.
 */
export function callStatusOf(finishReason: unknown): ItemStatus {
  if (finishReason === null || finishReason === undefined) return "in_progress";
  if (finishReason === "stop" || finishReason === "tool_calls" || finishReason === "function_call") return "completed";
  return "incomplete";
}

interface Context {
  /** The finish reason of the choice the messages are, when they are one. */
  finishReason?: unknown;
  callStatus: ItemStatus;
  /** Legacy calls and legacy answers seen so far, counted per function name. */
  legacyCalls: Map<string, number>;
  legacyOutputs: Map<string, number>;
  /** Tool calls without id: how many so far, and which still wait for an answer without id. */
  idless: IdlessCalls;
  /** Keep a tool message's `name` on its output (CallCounts). */
  namedOutputs: boolean;
  /** Calls left out (custom tool calls), by id: their answers would answer nothing. Made at the first such call. */
  droppedCalls?: Map<string, string>;
  /** Where in its message each call's fields were read, when the caller asks for origins. */
  callFields?: Map<CanonicalItem, Record<string, string>>;
}

function convertMessage(message: ChatMessage, at: PointerTokens, context: Context): Converted<CanonicalItem[]> {
  if (!isRecord(message) || typeof message.role !== "string") {
    return { value: [], losses: [lossAt(at, "unsupported_item", "not a Chat message: it has no role")] };
  }
  const role = message.role;
  switch (role) {
    case "system":
    case "developer":
      return instructionMessage(message as ChatSystemMessage | ChatDeveloperMessage, at);
    case "user":
      return userMessage(message as ChatUserMessage, at);
    case "assistant":
      return assistantMessage(message as ChatAssistantMessage, at, context);
    case "tool":
      return toolMessage(message as ChatToolMessage, at, context);
    case "function":
      return functionMessage(message as ChatFunctionMessage, at, context);
    default: {
      const unknownRole: never = role;
      return { value: [], losses: [lossAt(at, "unsupported_item", `role "${String(unknownRole)}" has no Open Responses item`)] };
    }
  }
}

function commonLosses(message: Record<string, unknown>, role: ChatMessage["role"], at: PointerTokens): Loss[] {
  const losses = extensionFieldLosses(message, FIELDS[role], at, TARGET);
  if (role !== "function" && isPresent(message.name)) {
    losses.push(lossAt([...at, "name"], "unsupported_field", "a participant name has no place in an Open Responses message"));
  }
  return losses;
}

/** A message whose content is neither text nor parts carries nothing an item could hold. */
function withoutContent(role: string, at: PointerTokens, losses: Loss[]): Converted<CanonicalItem[]> {
  return { value: [], losses: [...losses, lossAt(at, "unsupported_item", `a ${role} message without text or parts gives no item`)] };
}

function instructionMessage(message: ChatSystemMessage | ChatDeveloperMessage, at: PointerTokens): Converted<CanonicalItem[]> {
  const losses = commonLosses(message, message.role, at);
  const content: unknown = message.content;
  if (typeof content !== "string" && !Array.isArray(content)) return withoutContent(message.role, at, losses);
  const converted = typeof content === "string" ? content : textParts(content, [...at, "content"], losses);
  return { value: [{ type: "message", role: message.role, content: converted }], losses };
}

function userMessage(message: ChatUserMessage, at: PointerTokens): Converted<CanonicalItem[]> {
  const losses = commonLosses(message, "user", at);
  const content: unknown = message.content;
  if (typeof content === "string") return { value: [{ type: "message", role: "user", content }], losses };
  if (!Array.isArray(content)) return withoutContent("user", at, losses);
  const parts: UserContentPart[] = [];
  content.forEach((part: unknown, index) => {
    const partAt = [...at, "content", index];
    const converted = isRecord(part) ? userPart(part as ChatUserPart, partAt, losses) : undefined;
    if (!isRecord(part)) losses.push(lossAt(partAt, "unsupported_part", `a ${typeof part} is not a content part`));
    if (converted) parts.push(converted);
  });
  return { value: [{ type: "message", role: "user", content: parts }], losses };
}

/** Why a tool call is not read: what it is, what its type says, or which body it lacks. */
function unreadCall(call: unknown): string {
  if (!isRecord(call)) return `a tool call that is ${describeValue(call)}, not an object, has nothing to carry`;
  if (call.type !== "function" && call.type !== "custom") {
    const type = call.type === undefined ? "with no type" : `whose type is ${describeValue(call.type)}`;
    return `a tool call ${type} is not read: only a "function" or a "custom" call is, by its type`;
  }
  return `a ${call.type} tool call without its ${call.type} object has nothing to carry`;
}

function assistantMessage(message: ChatAssistantMessage, at: PointerTokens, given: Context): Converted<CanonicalItem[]> {
  const losses = commonLosses(message, "assistant", at);
  // A message that carries its choice's finish_reason ended as that says: its calls get the status it gives.
  const choiceReason = typeof given.finishReason === "string" || given.finishReason === null ? given.finishReason : undefined;
  // A message that writes neither spelling takes its choice's reason, as ownStopReason gives it, without the lists it makes.
  const finishReason = message.finish_reason === undefined && message.finishReason === undefined ? choiceReason : ownStopReason(message as Record<string, unknown>, ["finish_reason", "finishReason"], choiceReason);
  const context = finishReason === choiceReason ? given : { ...given, callStatus: callStatusOf(finishReason) };
  if (isPresent(message.audio)) {
    losses.push(lossAt([...at, "audio"], "unsupported_field", "a reference to a previous audio answer has no Open Responses equivalent"));
  }
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const legacyCall = isRecord(message.function_call) ? message.function_call : undefined;
  // A known field in a shape no Chat message has: what it held cannot be read as
  // calls or a refusal, so it goes as a loss rather than unseen.
  if (isPresent(message.tool_calls) && !Array.isArray(message.tool_calls)) {
    losses.push(lossAt([...at, "tool_calls"], "unsupported_tool_call", `tool_calls is ${describeValue(message.tool_calls)}, not an array of calls: no call is read from it`));
  }
  if (isPresent(message.function_call) && legacyCall === undefined) {
    losses.push(lossAt([...at, "function_call"], "unsupported_tool_call", `function_call is ${describeValue(message.function_call)}, not an object with a name and arguments: no call is read from it`));
  }
  if (isPresent(message.refusal) && typeof message.refusal !== "string") {
    losses.push(lossAt([...at, "refusal"], "unsupported_field", `refusal is ${describeValue(message.refusal)}, not text: it has no item form`));
  }
  const items: CanonicalItem[] = [];
  // The model reasons before it answers: its reasoning comes first, as in a response.
  const reasoning = reasoningFromMessage(message, at, losses);
  if (reasoning) items.push(reasoning as CanonicalItem);
  const content = assistantContent(message, at, toolCalls.length > 0 || legacyCall !== undefined, losses);
  if (content !== undefined) items.push({ type: "message", role: "assistant", content });

  toolCalls.forEach((written, index) => {
    const callAt = [...at, "tool_calls", index];
    // Mistral writes its calls without a type: one that holds a function object
    // and nothing else (an id, an index) is that function's call, as its SDK runs it.
    const fields = written as unknown as Record<string, unknown>;
    const typeless = isRecord(fields) && fields.type === undefined && isRecord(fields.function) && Object.keys(fields).every((key) => TYPELESS_CALL_KEYS.has(key));
    const call = typeless ? ({ ...fields, type: "function" } as unknown as typeof written) : written;
    if (typeless) losses.push(lossAt([...callAt, "type"], "synthesized", 'a tool call without type that holds a function object is read as a function call ("type": "function"), as Mistral writes its calls and its SDK runs them'));
    if (!isRecord(call) || !isRecord(call[call.type as string])) {
      losses.push(lossAt(callAt, "unsupported_tool_call", unreadCall(call)));
      return;
    }
    switch (call.type) {
      case "function": {
        losses.push(...extensionFieldLosses(call, ["id", "type", "function"], callAt, TARGET));
        losses.push(...extensionFieldLosses(call.function, ["name", "arguments", "parsed_arguments"], [...callAt, "function"], TARGET));
        const { name, arguments: args } = call.function;
        let callId: string = call.id;
        if (lacksId(callId)) {
          callId = synthesizeCallId(context.idless, name, args);
          losses.push(lossAt(callAt, "synthesized", `a tool call without id: call_id "${callId}" was synthesized; a tool message without tool_call_id that follows answers it`));
        }
        const functionAt = [...callAt, "function"];
        losses.push(...callShapeLosses({ callId, name, args }, { callId: [...callAt, "id"], name: [...functionAt, "name"], args: [...functionAt, "arguments"] }, TARGET));
        const item = functionCall(callId, name, args, context.callStatus);
        // The OpenAI SDKs' parse helpers write the arguments once more, read, and a
        // runner built on them runs that reading: the item keeps it, as a parsed
        // Responses call does, so that the gate holds it to the arguments text.
        const parsedArguments = (call.function as { parsed_arguments?: unknown }).parsed_arguments;
        if (isPresent(parsedArguments)) (item as { parsed_arguments?: unknown }).parsed_arguments = parsedArguments;
        context.callFields?.set(item, withinMessage(callAt, { "": [], call_id: ["id"], name: ["function", "name"], arguments: ["function", "arguments"], parsed_arguments: ["function", "parsed_arguments"] }));
        items.push(item);
        return;
      }
      case "custom":
        (context.droppedCalls ??= new Map()).set(call.id, call.custom.name);
        losses.push(lossAt(callAt, "unsupported_tool_call", `custom tool call "${call.custom.name}" has no portable Open Responses item`));
        return;
      default: {
        const unknownCall: never = call;
        const type = (unknownCall as { type?: unknown }).type;
        losses.push(lossAt(callAt, "unsupported_tool_call", `a "${String(type)}" tool call has no Open Responses item`));
      }
    }
  });

  if (legacyCall) {
    const callId = legacyCallId(String(legacyCall.name), nextCount(context.legacyCalls, String(legacyCall.name)));
    losses.push(...extensionFieldLosses(legacyCall, ["name", "arguments"], [...at, "function_call"], TARGET));
    losses.push(lossAt([...at, "function_call"], "synthesized", `a legacy function call has no id: call_id "${callId}" was synthesized`));
    const callAt = [...at, "function_call"];
    losses.push(...callShapeLosses({ callId, name: legacyCall.name, args: legacyCall.arguments }, { callId: callAt, name: [...callAt, "name"], args: [...callAt, "arguments"] }, TARGET));
    const item = functionCall(callId, legacyCall.name, legacyCall.arguments, context.callStatus);
    context.callFields?.set(item, withinMessage(callAt, { "": [], call_id: [], name: ["name"], arguments: ["arguments"] }));
    items.push(item);
  }
  if (items.length === 0) {
    losses.push(lossAt(at, "unsupported_item", "an assistant message with no content, refusal or tool call gives no item"));
  }
  return { value: items, losses };
}

/** The assistant message item's content, or undefined when there is nothing to carry. */
function assistantContent(
  message: ChatAssistantMessage,
  at: PointerTokens,
  hasCalls: boolean,
  losses: Loss[],
): string | AssistantContentPartParam[] | undefined {
  const content: unknown = message.content;
  const refusal = typeof message.refusal === "string" && message.refusal !== "" ? message.refusal : undefined;
  const annotations = Array.isArray(message.annotations) ? message.annotations : [];
  if (isEmpty(content) && refusal === undefined) {
    if (annotations.length > 0) losses.push(lossAt([...at, "annotations"], "unsupported_field", "citations without text have nothing to annotate"));
    // Tool-only messages come with null, "" or no content at all: all mean "no text".
    // Null and absence say so; an empty text or list is a value the items do not keep, and is said.
    if (hasCalls && isPresent(content)) losses.push(lossAt([...at, "content"], "form_changed", `content ${JSON.stringify(content)} beside tool calls holds no text: no message item is made of it`));
    if (hasCalls || !isPresent(content)) return undefined;
    return content as string | [];
  }
  if (isPresent(content) && typeof content !== "string" && !Array.isArray(content)) {
    losses.push(lossAt([...at, "content"], "unsupported_field", "content that is neither text nor parts has no item form"));
    return refusal === undefined ? undefined : [{ type: "refusal", refusal }];
  }
  if (typeof content === "string" && annotations.length === 0 && refusal === undefined) return content;

  const parts: AssistantContentPartParam[] = [];
  if (typeof content === "string") {
    if (content !== "") parts.push({ type: "output_text", text: content, annotations: [] });
    else losses.push(lossAt([...at, "content"], "form_changed", `content "" beside the refusal holds no text: no output_text part is made of it`));
  } else if (Array.isArray(content)) {
    content.forEach((entry: unknown, index) => {
      const partAt = [...at, "content", index];
      if (!isRecord(entry)) {
        losses.push(lossAt(partAt, "unsupported_part", `a ${typeof entry} is not a content part`));
        return;
      }
      const part = entry as ChatAssistantPart;
      switch (part.type) {
        case "text":
          losses.push(...extensionFieldLosses(part, ["type", "text"], partAt, TARGET));
          parts.push({ type: "output_text", text: part.text, annotations: [] });
          return;
        case "refusal":
          losses.push(...extensionFieldLosses(part, ["type", "refusal"], partAt, TARGET));
          parts.push({ type: "refusal", refusal: part.refusal });
          return;
        default: {
          const unknownPart: never = part;
          const type = (unknownPart as { type?: unknown }).type;
          losses.push(lossAt(partAt, "unsupported_part", `a "${String(type)}" part has no place in an assistant message`));
        }
      }
    });
  }
  const textParts = parts.filter((part) => part.type === "output_text");
  if (annotations.length > 0) {
    if (textParts.length === 1) textParts[0].annotations = flatCitations(annotations, [...at, "annotations"], losses);
    else losses.push(lossAt([...at, "annotations"], "unsupported_field", "message-level citations cannot be placed on one of several text parts"));
  }
  if (refusal !== undefined) {
    if (textParts.length > 0) {
      losses.push(lossAt([...at, "refusal"], "form_changed", "a refusal beside text becomes a refusal part next to the text parts"));
    }
    parts.push({ type: "refusal", refusal });
  }
  return parts;
}

function flatCitations(annotations: readonly unknown[], at: PointerTokens, losses: Loss[]): UrlCitationParam[] {
  const flat: UrlCitationParam[] = [];
  annotations.forEach((annotation, index) => {
    const citation = isRecord(annotation) ? annotation.url_citation : undefined;
    if (!isRecord(annotation) || annotation.type !== "url_citation" || !isRecord(citation)) {
      losses.push(lossAt([...at, index], "unsupported_field", "only url citations have an Open Responses form"));
      return;
    }
    losses.push(...extensionFieldLosses(annotation, ["type", "url_citation"], [...at, index], TARGET));
    losses.push(...extensionFieldLosses(citation, ["url", "title", "start_index", "end_index"], [...at, index, "url_citation"], TARGET));
    flat.push({
      type: "url_citation",
      start_index: citation.start_index as number,
      end_index: citation.end_index as number,
      url: citation.url as string,
      title: citation.title as string,
    });
  });
  return flat;
}

function functionCall(callId: string, name: string, args: string, status: ItemStatus): CanonicalItem {
  return { type: "function_call", call_id: callId, name, arguments: args, status };
}

function toolMessage(message: ChatToolMessage, at: PointerTokens, context: Context): Converted<CanonicalItem[]> {
  const losses = commonLosses(message, "tool", at);
  let callId: unknown = message.tool_call_id;
  if (lacksId(callId)) {
    const name = (message as { name?: unknown }).name;
    const waiting = takeWaitingId(context.idless, name);
    if (waiting !== undefined) {
      callId = waiting;
      const which = typeof name === "string" && name !== "" ? `the earliest call of "${name}" without id` : "the earliest call without id";
      losses.push(lossAt(at, "synthesized", `a tool message without tool_call_id answers ${which} still unanswered: call_id "${waiting}"`));
    }
  }
  // Kept, with the id as it is: a result that is dropped would not be judged, and a replay of the log would still send it.
  if (typeof callId !== "string" || callId === "") {
    const candidates = lacksId(callId) && context.idless.certainOnly === true ? context.idless.waiting.length : 0;
    const why = candidates > 1 ? `, and ${candidates} calls without id wait for an answer: which one it answers cannot be told` : callId === undefined ? ", and no call without id waits for an answer" : "";
    losses.push(lossAt([...at, "tool_call_id"], "target_rejects", `tool_call_id is ${callId === undefined ? "missing" : describeValue(callId)}${why}: written as it is; the output answers no call`));
    return { value: [{ type: "function_call_output", ...(callId === undefined ? {} : { call_id: callId as string }), output: toolOutput(message.content, at, losses) }], losses };
  }
  answered(context.idless, callId);
  const droppedCall = context.droppedCalls?.get(callId);
  if (droppedCall !== undefined) {
    // Kept, it would be an output with no call, which providers reject.
    const detail = `answers custom tool call "${droppedCall}", which has no portable item`;
    return { value: [], losses: [...losses, lossAt(at, "unsupported_tool_call", detail)] };
  }
  const named = (message as { name?: unknown }).name;
  const output: CanonicalItem = { type: "function_call_output", call_id: callId, output: toolOutput(message.content, at, losses) };
  if (context.namedOutputs && typeof named === "string" && named !== "") (output as Record<string, unknown>).name = named;
  return { value: [output], losses };
}

function toolOutput(content: unknown, at: PointerTokens, losses: Loss[]): string | FunctionCallOutputPart[] {
  if (typeof content !== "string" && !Array.isArray(content)) {
    losses.push(lossAt([...at, "content"], "form_changed", "a tool result that is neither text nor parts becomes an empty output"));
  }
  return typeof content === "string" ? content : Array.isArray(content) ? textParts(content, [...at, "content"], losses) : "";
}

function functionMessage(message: ChatFunctionMessage, at: PointerTokens, context: Context): Converted<CanonicalItem[]> {
  const losses = commonLosses(message, "function", at);
  // A name that is no string is named by its JSON text: String() of a value can throw.
  const name = typeof message.name === "string" ? message.name : String(JSON.stringify(message.name));
  const count = nextCount(context.legacyOutputs, name);
  const callId = legacyCallId(name, count);
  const paired = (context.legacyCalls.get(name) ?? 0) >= count;
  losses.push(
    lossAt(
      [...at, "name"],
      "synthesized",
      paired
        ? `answers legacy call ${count} of "${name}": paired by the synthesized call_id "${callId}"`
        : `no legacy call of "${name}" precedes it here: call_id "${callId}" was synthesized by the same rule`,
    ),
  );
  const content: unknown = message.content;
  if (typeof content !== "string") {
    losses.push(lossAt([...at, "content"], "form_changed", `a ${content === null ? "null" : "non-text"} function result becomes an empty output`));
  }
  return { value: [{ type: "function_call_output", call_id: callId, output: typeof content === "string" ? content : "" }], losses };
}

/**
 * The call_id shared by the k-th legacy call of a function and the k-th answer
 * of that name. It depends only on the name and the count, so a call and its
 * answer converted apart (one record each) still pair.
 */
function legacyCallId(name: string, count: number): string {
  return `legacy_${count}_${name}`.slice(0, 64);
}

function nextCount(counts: Map<string, number>, name: string): number {
  const count = (counts.get(name) ?? 0) + 1;
  counts.set(name, count);
  return count;
}

function withId(item: CanonicalItem, id: string): CanonicalItem {
  const { type, ...rest } = item as Record<string, unknown>;
  return { type, id, ...rest } as CanonicalItem;
}
