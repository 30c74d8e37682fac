// The messages of one side of an LLM call, in whichever dialect the
// instrumentation wrote them, as canonical items in their order:
//
// | value                                              | dialect                          |
// |----------------------------------------------------|----------------------------------|
// | `[{role, parts: [{type, …}]}]`                     | OTel GenAI                       |
// | `[{role, parts: [{text} \| {function_call} …]}]`   | Gemini contents, Google ADK      |
// | `{contents, config.system_instruction}`            | ADK LlmRequest                   |
// | `{content: {role, parts}}`, `{candidates}`         | ADK LlmResponse, Gemini response |
// | `[{role, content, tool_calls?, tool_call_id?}]`    | Chat, OpenInference flattened    |
// | `{additional_kwargs: {tool_calls}}` on a message   | LangChain                        |
// | `{tool_call_chunks}` beside a message's calls      | LangChain, streamed: compared with the calls read |
// | `[{role, content: [{type: "tool-call"…}]}]`        | Vercel AI SDK `ai.prompt.messages` |
// | `[{toolCallId, toolName, input}]`                  | Vercel AI SDK tool calls          |
// | `[{"tool.name", "tool.args"}]`                     | any-agent `gen_ai.output`        |
// | `[{type: "message" \| "function_call" …}]`         | Open Responses items             |
// | `{object: "response", output, instructions}`       | a Response object                |
// | `{messages}`, `{choices}`                          | a Chat request body, a completion |
// | `{generations: [[{message, generation_info}]]}`    | LangChain's LLMResult (an LLM run's outputs) |
// | `{lc, type: "constructor", id, kwargs}`, `{type, data}` | a LangChain message as `dumpd`, `message_to_dict` write it |
// | a string                                           | one message of the side's role   |
import { isDeepStrictEqual } from "node:util";
import { isPlainObject } from "../../src/models/json-value.js";
import { limitSpelledOtherwise } from "../../src/models/limit-spelled-otherwise.js";
import { pointerToken } from "../../src/models/json-pointer.js";
import type { ReaderLoss } from "../stored-log/reading.js";
import { legacyFunctionCall, sameAllowance, type ToolChoice } from "./allowed-calls.js";
import { joinedCallChunks } from "./joined-call-chunks.js";
import { callItem, notReadTwoWays, oneSpelling, readPart, sameArgumentsWritten, textPart, WrittenTwoWays, type PartContext } from "./message-parts.js";
import { sameArguments } from "./rebuild-conversation.js";

/** An item read from a span, with where it came from. */
export interface Placed {
  item: Record<string, unknown>;
  path: string;
  /** A result that names its tool but not its call (Gemini): the conversation finds the call. */
  pendingName?: string;
}

export interface MessagesRead {
  items: Placed[];
  /** How many messages (or stand-alone items) the value held. */
  messages: number;
  /** A system prompt that stands apart from the messages (a Response's `instructions`). */
  instructions?: Placed;
  /** The tool choice of a request read whole (still reported left behind: no item holds it). */
  toolChoice?: ToolChoice;
}

export type Side = "input" | "output";

const ROLES: Record<string, string> = { system: "system", developer: "developer", user: "user", human: "user", assistant: "assistant", ai: "assistant", model: "assistant", tool: "tool", function: "tool" };
/**
 * The `type` LangChain's streamed message classes write (`model_dump`, and
 * `message_to_dict`'s `{type, data}`), which is their class name where the
 * whole message's is its role's (`ai`): the role of the message the chunks
 * merge into. A ChatMessageChunk says its role in its `role` member, and is
 * read by it; without one it is of no role.
 */
const LANGCHAIN_CHUNK_TYPES: Record<string, string> = { AIMessageChunk: "ai", HumanMessageChunk: "human", SystemMessageChunk: "system", ToolMessageChunk: "tool", FunctionMessageChunk: "function" };
const ITEM_TYPES = new Set(["message", "function_call", "function_call_output", "reasoning", "item_reference"]);

export function readMessages(value: unknown, path: string, side: Side, losses: ReaderLoss[], span?: string): MessagesRead {
  const read: MessagesRead = { items: [], messages: 0 };
  const context = { losses, span };
  if (typeof value === "string") {
    if (value !== "") read.items.push({ item: message(side === "input" ? "user" : "assistant", value), path });
    read.messages += 1;
  } else if (Array.isArray(value)) {
    value.forEach((entry, index) => readMessage(entry, `${path}/${index}`, side, read, context));
  } else if (isPlainObject(value)) {
    readContainer(value, path, side, read, context);
  } else if (value !== null && value !== undefined) {
    unreadable(read, context, path, "a value that is no message");
  }
  return read;
}

export interface Context {
  losses: ReaderLoss[];
  span?: string;
}

/**
 * A request body that writes one of its limits under a name only a reader
 * folding case or width reads (`Tool_choice`, `Parallel_tool_calls`): whatever
 * choice it spells as its envelope does, such a reader holds its calls to
 * another, so it allows none.
 */
function refuseMisspelledLimit(value: Record<string, unknown>, path: string, read: MessagesRead): void {
  const misspelled = limitSpelledOtherwise(value);
  if (misspelled !== undefined) read.toolChoice = { value: null, path: path + misspelled.path, misspelled: misspelled.path };
}

function readContainer(value: Record<string, unknown>, path: string, side: Side, read: MessagesRead, context: Context): void {
  if (Array.isArray(value.contents)) {
    const config = isPlainObject(value.config) ? value.config : {};
    const system = config.system_instruction ?? config.systemInstruction ?? value.system_instruction ?? value.systemInstruction;
    const systemField = config.system_instruction !== undefined ? "/config/system_instruction" : config.systemInstruction !== undefined ? "/config/systemInstruction" : value.system_instruction !== undefined ? "/system_instruction" : "/systemInstruction";
    if (typeof system === "string") {
      read.items.push({ item: message("system", system), path: path + systemField });
      read.messages += 1;
    } else if (isPlainObject(system)) readMessage({ role: "system", ...system }, path + systemField, side, read, context);
    value.contents.forEach((entry, index) => readMessage(entry, `${path}/contents/${index}`, side, read, context));
    const toolConfig = config.tool_config !== undefined ? "/config/tool_config" : config.toolConfig !== undefined ? "/config/toolConfig" : value.tool_config !== undefined ? "/tool_config" : value.toolConfig !== undefined ? "/toolConfig" : undefined;
    // The config in two spellings, or in two places, two ways: a choice that allows nothing.
    const configs = [config.tool_config, config.toolConfig, value.tool_config, value.toolConfig].filter((one) => one !== undefined);
    const oneConfig = configs.every((one) => isDeepStrictEqual(one, configs[0]));
    if (toolConfig !== undefined) read.toolChoice = oneConfig ? { value: configs[0], path: path + toolConfig, gemini: true } : { value: configs, path: path + toolConfig, disagreeing: true };
    refuseMisspelledLimit(value, path, read);
    leftBehind(value, ["contents", "config", "system_instruction", "systemInstruction"], path, "the request", context);
    if (isPlainObject(value.config)) leftBehind(value.config, ["system_instruction", "systemInstruction"], `${path}/config`, "the request's config", context);
    return;
  }
  if (value.object === "response" || (Array.isArray(value.output) && value.role === undefined)) {
    if (typeof value.instructions === "string" && value.instructions !== "") read.instructions = { item: message("system", value.instructions), path: `${path}/instructions` };
    const before = read.items.length;
    (value.output as unknown[]).forEach((entry, index) => readMessage(entry, `${path}/output/${index}`, side, read, context));
    const stopped = stoppedResponse(value);
    if (stopped !== undefined) stopCalls(read.items.slice(before), `${path}/${stopped.field}`, stopped.why, context);
    leftBehind(value, ["object", "output", "instructions"], path, "the response", context);
    return;
  }
  // A Responses request body: its input items, its instructions the system prompt.
  if ((Array.isArray(value.input) || (typeof value.input === "string" && (value.model !== undefined || value.tools !== undefined || value.tool_choice !== undefined))) && value.role === undefined) {
    if (typeof value.instructions === "string" && value.instructions !== "") read.instructions = { item: message("system", value.instructions), path: `${path}/instructions` };
    // A string input is one user message.
    if (typeof value.input === "string") {
      read.items.push({ item: message("user", value.input), path: `${path}/input` });
      read.messages += 1;
    } else value.input.forEach((entry: unknown, index: number) => readMessage(entry, `${path}/input/${index}`, side, read, context));
    if (value.tool_choice !== undefined && value.tool_choice !== null) read.toolChoice = { value: value.tool_choice, path: `${path}/tool_choice` };
    refuseMisspelledLimit(value, path, read);
    leftBehind(value, ["input", "instructions"], path, "the request", context);
    return;
  }
  if (Array.isArray(value.messages)) {
    value.messages.forEach((entry, index) => readMessage(entry, `${path}/messages/${index}`, side, read, context));
    const choice = value.tool_choice ?? undefined;
    const legacy = value.function_call ?? undefined;
    // The legacy function_call of a Chat request stands for a tool choice; given beside tool_choice, the two must allow the same.
    if (choice !== undefined && legacy !== undefined) {
      const same = sameAllowance([choice, legacyFunctionCall(legacy)].map((value) => ({ value, path: "" })));
      read.toolChoice = same ? { value: choice, path: `${path}/tool_choice` } : { value: [choice, legacy], path: `${path}/tool_choice`, disagreeing: true };
    }
    else if (choice !== undefined) read.toolChoice = { value: choice, path: `${path}/tool_choice` };
    else if (legacy !== undefined) read.toolChoice = { value: legacyFunctionCall(legacy), path: `${path}/function_call` };
    refuseMisspelledLimit(value, path, read);
    leftBehind(value, ["messages"], path, "the request", context);
    return;
  }
  if (Array.isArray(value.choices)) {
    const before = read.items.length;
    value.choices.forEach((choice, index) => {
      if (isPlainObject(choice) && isPlainObject(choice.message)) {
        readMessage(choice.message, `${path}/choices/${index}/message`, side, read, context, choice.finish_reason, `${path}/choices/${index}/finish_reason`);
        leftBehind(choice, ["message", "index", "finish_reason"], `${path}/choices/${index}`, "the choice", context, true);
      } else unreadable(read, context, `${path}/choices/${index}`, "a choice with no message");
    });
    if (value.choices.length > 1) withholdAlternativeCalls(read.items, before, `the ${value.choices.length} choices of the completion`, context);
    leftBehind(value, ["object", "choices"], path, "the completion", context, true);
    return;
  }
  // LangChain's LLMResult, as its tracers write an LLM run's outputs: one list of generations for each prompt, a chat generation's message in it.
  if (Array.isArray(value.generations)) {
    value.generations.forEach((prompt, p) => {
      // LLMResult's generations are a list for each prompt; a generation in their place (a flat list) says neither whether it answers a prompt of its own or is another prompt's alternative.
      if (!Array.isArray(prompt)) return unreadable(read, context, `${path}/generations/${p}`, "an LLMResult's generations of a prompt that are not a list, which says neither the prompts nor the alternatives of one");
      const generations = prompt.map((generation, g) => ({ generation, at: `${path}/generations/${p}/${g}` }));
      const before = read.items.length;
      for (const { generation, at } of generations) {
        if (!isPlainObject(generation)) {
          unreadable(read, context, at, "a generation that is not an object");
          continue;
        }
        const info = isPlainObject(generation.generation_info) ? generation.generation_info : {};
        if (generation.message !== undefined && generation.message !== null) readMessage(generation.message, `${at}/message`, side, read, context, info.finish_reason, `${at}/generation_info/finish_reason`);
        else if (typeof generation.text === "string") readMessage(generation.text, `${at}/text`, side, read, context, info.finish_reason, `${at}/generation_info/finish_reason`);
        else unreadable(read, context, at, "a generation with neither message nor text");
        // Its text repeats its message's; its kind names the class.
        leftBehind(generation, ["message", "text", "type"], at, "the generation", context, true);
      }
      if (generations.length > 1) withholdAlternativeCalls(read.items, before, `the ${generations.length} generations of prompt ${p}`, context);
    });
    leftBehind(value, ["generations", "type"], path, "the LLM result", context, true);
    return;
  }
  if (Array.isArray(value.candidates)) {
    const before = read.items.length;
    value.candidates.forEach((candidate, index) => {
      if (!isPlainObject(candidate) || !isPlainObject(candidate.content)) return;
      readMessage(candidate.content, `${path}/candidates/${index}/content`, side, read, context, candidate.finishReason ?? candidate.finish_reason, `${path}/candidates/${index}/${candidate.finishReason === undefined ? "finish_reason" : "finishReason"}`);
      leftBehind(candidate, ["content", "index", "finishReason", "finish_reason"], `${path}/candidates/${index}`, "the candidate", context);
    });
    if (value.candidates.length > 1) withholdAlternativeCalls(read.items, before, `the ${value.candidates.length} candidates of the response`, context);
    leftBehind(value, ["candidates"], path, "the response", context);
    return;
  }
  if (isPlainObject(value.content) && Array.isArray(value.content.parts)) {
    const before = read.items.length;
    readMessage(value.content, `${path}/content`, side, read, context, value.finish_reason ?? value.finishReason, `${path}/${value.finish_reason === undefined ? "finishReason" : "finish_reason"}`);
    const unfinished = unfinishedLlmResponse(value);
    if (unfinished !== undefined) stopCalls(read.items.slice(before), `${path}/${unfinished.field}`, unfinished.why, context);
    leftBehind(value, ["content", "finish_reason", "finishReason"], path, "the response", context);
    return;
  }
  readMessage(value, path, side, read, context);
}

const RESPONSE_STATUSES: ReadonlySet<unknown> = new Set(["completed", "incomplete", "in_progress", "queued", "failed", "cancelled"]);

/**
 * Why a Response object says its calls did not run, or cannot be taken to have:
 * it failed, was cancelled, stopped short (incomplete), is still queued or in
 * progress, carries an error, was cut by the content filter, or says a status
 * the spec does not define. A journal's response line is read the same way.
 */
function stoppedResponse(response: Record<string, unknown>): { field: string; why: string } | undefined {
  const status = response.status;
  if (status === "failed" || status === "cancelled" || status === "incomplete") return { field: "status", why: `the response's status is ${JSON.stringify(status)}` };
  if (status === "queued" || status === "in_progress") return { field: "status", why: `the response is still ${status === "queued" ? "queued" : "in progress"}` };
  if (response.error !== undefined && response.error !== null) return { field: "error", why: "the response carries an error" };
  if (/content_?filter/i.test(JSON.stringify(response.incomplete_details ?? null))) return { field: "incomplete_details", why: "the content filter stopped the response" };
  if ("status" in response && !RESPONSE_STATUSES.has(status)) return { field: "status", why: `the response's status ${JSON.stringify(status)} is none the spec defines` };
  return undefined;
}

/**
 * Why an ADK LlmResponse says its call is not the model's finished word: a
 * partial response of a stream (its call may still grow), an error code (a
 * malformed call among them), or an interrupted turn. Either spelling, as ADK
 * writes its fields in snake_case or by their camelCase aliases.
 */
function unfinishedLlmResponse(response: Record<string, unknown>): { field: string; why: string } | undefined {
  for (const field of ["partial", "interrupted"]) if (response[field] === true) return { field, why: `the response says ${field} true` };
  for (const field of ["error_code", "errorCode"]) {
    const code = response[field];
    if (code !== undefined && code !== null && code !== "") return { field, why: `the response carries the error code ${JSON.stringify(code)}` };
  }
  return undefined;
}

/**
 * The calls among the items from `from` on, read from several answers to one
 * request (the generations of one prompt, a completion's choices or a Gemini
 * response's candidates, asked for with `n` or `candidateCount` above 1, or
 * the messages an instrumentation writes one for each of them):
 * alternatives, of which a conversation goes on from one, where the items read
 * them as turns in a row. No item says which one was taken, and each call
 * judged as a turn of its own would be owed an output and run: each is taken
 * out and said unreadable, which the gate blocks. Their text stays, as the
 * text of a journal's Chat completion of several choices does.
 */
export function withholdAlternativeCalls(items: Placed[], from: number, answers: string, context: Context): void {
  let kept = from;
  for (let index = from; index < items.length; index++) {
    const placed = items[index]!;
    if (placed.item.type !== "function_call") {
      items[kept++] = placed;
      continue;
    }
    context.losses.push({ path: placed.path, code: "unreadable", detail: `the call of ${JSON.stringify(String(placed.item.name))} is in one of ${answers}, which are alternatives the reader cannot order: a conversation goes on from one of them, and no item says which, so it is not read`, ...(context.span === undefined ? {} : { span: context.span }) });
  }
  items.length = kept;
}

/** The calls among `placed` written incomplete, each reported: the gate blocks them, as it blocks the same call in a journal. */
function stopCalls(placed: Placed[], at: string, why: string, context: Context): void {
  for (const entry of placed) {
    if (entry.item.type !== "function_call" || entry.item.status === "incomplete") continue;
    // A copy: the item may be the document's own object, which is read-only.
    entry.item = { ...entry.item, status: "incomplete" };
    context.losses.push({ path: at, code: "form_changed", detail: `${why}: its call of ${JSON.stringify(String(entry.item.name))} is written incomplete, as it cannot be taken to have run`, ...(context.span === undefined ? {} : { span: context.span }) });
  }
}

/**
 * The members of a request, response or completion around the messages that no
 * item holds (its model, settings, tools, usage, ids): each reported at its
 * place. A finish reason is read (it marks a cut call), an index is the
 * message's place, and `object` names the kind the reading took it for.
 */
/**
 * Reports each member of the value not read. Of an answer (`ofAnswer`: a
 * completion, its choices, an LLMResult, its generations) one that holds a
 * call beside the message read (a choice's own `tool_calls`, a call in
 * `llm_output`) is unreadable: a reader that takes it runs a call no item holds.
 * A request's are not so taken: its `function_call` chooses a function, and
 * calls none.
 */
function leftBehind(value: Record<string, unknown>, read: readonly string[], path: string, what: string, context: Context, ofAnswer = false): void {
  for (const [key, member] of Object.entries(value)) {
    if (read.includes(key) || member === null || member === undefined) continue;
    if (ofAnswer && namesCall({ [key]: member })) {
      context.losses.push({ path: `${path}/${pointerToken(key)}`, code: "unreadable", detail: `${key} of ${what} holds a tool call beside its message: of no dialect orbridge reads, not read`, ...(context.span === undefined ? {} : { span: context.span }) });
      continue;
    }
    context.losses.push({ path: `${path}/${pointerToken(key)}`, code: "left_behind", detail: `${key} of ${what} is in no item`, ...(context.span === undefined ? {} : { span: context.span }) });
  }
}

/**
 * Finish reasons that say the model ended its answer itself, or to call tools:
 * what the items already say. Any other (a content filter, a refusal, a length
 * limit, an error) says something no item holds, and is reported.
 */
const USUAL_FINISH = new Set(["stop", "end_turn", "tool_calls", "tool_call", "tool-calls", "function_call", "tool_use", "stop_sequence", "completed"]);

export function isUsualFinish(reason: unknown): boolean {
  return typeof reason === "string" && USUAL_FINISH.has(reason.toLowerCase());
}

/** The members of a message that its items hold, or that say how it is read (its role, its kind, its finish reason). */
const MESSAGE_MEMBERS_READ = new Set(["role", "type", "content", "parts", "tool_calls", "tool_call_chunks", "function_call", "tool_call_id", "toolCallId", "finish_reason", "finishReason"]);

/**
 * A message's other members (a participant's `name`, a `refusal`, LangChain's
 * `id`, `response_metadata`, `usage_metadata`, another member of
 * `additional_kwargs`): each reported at its place. An empty one holds nothing;
 * a tool message's `name` is the name of the call it answers, which pairs them.
 */
function messageLeftBehind(entry: Record<string, unknown>, path: string, role: string, context: Context): void {
  const holds = (member: unknown) => member !== null && member !== undefined && !(Array.isArray(member) && member.length === 0) && !(isPlainObject(member) && Object.keys(member).length === 0);
  const span = context.span === undefined ? {} : { span: context.span };
  // A member no dialect reads that holds a call (a provider's response kept whole, LangChain's invalid_tool_calls) is a call no one judges: not read, said so.
  const report = (at: string, key: string, member: unknown) =>
    context.losses.push(namesCall(member) ? { path: at, code: "unreadable", detail: `${key} of the message holds a tool call, of no dialect orbridge reads: not read`, ...span } : { path: at, code: "left_behind", detail: `${key} of the message is in no item`, ...span });
  for (const [key, member] of Object.entries(entry)) {
    if (MESSAGE_MEMBERS_READ.has(key) || !holds(member) || (key === "name" && role === "tool")) continue;
    if (key === "additional_kwargs" && isPlainObject(member)) {
      for (const [inner, value] of Object.entries(member)) if (inner !== "tool_calls" && inner !== "function_call" && holds(value)) report(`${path}/additional_kwargs/${pointerToken(inner)}`, `additional_kwargs.${inner}`, { [inner]: value });
      continue;
    }
    report(`${path}/${pointerToken(key)}`, key, { [key]: member });
  }
}

/** Members that hold a call in the envelopes orbridge knows (Chat, Bedrock, Gemini, Anthropic, Ollama, LangChain and its streamed chunks), named in any case. */
export const CALL_MEMBER = /^(?:invalid_)?(?:tool_?calls?|tool_?use|function_?calls?|tool_?call_?chunks?)$/i;

/**
 * The types of a block or item that is a call, where the envelope says so by
 * its `type` and not by a member's name: Anthropic's tool_use (server_tool_use,
 * mcp_tool_use), an Open Responses function_call and every other `…_call` item
 * (custom_tool_call, mcp_call, local_shell_call, computer_call), the Vercel AI
 * SDK's tool-call.
 */
export const CALL_TYPE = /^(?:[a-z_]*_)?(?:call|tool_?use)$|^tool-call$/i;

/** Whether a value holds, at any depth, a member that names a call and holds something, or a block whose type is a call's. */
export function namesCall(value: unknown, depth = 0): boolean {
  if (depth > 64) return true;
  if (Array.isArray(value)) return value.some((element) => namesCall(element, depth + 1));
  if (!isPlainObject(value)) return false;
  if (typeof value.type === "string" && CALL_TYPE.test(value.type)) return true;
  return Object.entries(value).some(([key, member]) => (CALL_MEMBER.test(key) && member !== null && member !== undefined && !(Array.isArray(member) && member.length === 0)) || namesCall(member, depth + 1));
}

/** Finish reasons that say the model was stopped by a length limit: a call in that message may be cut. */
const CUT_SHORT = new Set(["length", "max_tokens", "max_output_tokens", "model_length"]);

/** Whether a finish reason says the answer stopped at a length limit. */
export function isLengthLimit(reason: unknown): boolean {
  return typeof reason === "string" && CUT_SHORT.has(reason.toLowerCase());
}

/**
 * A message, and the calls in it marked `incomplete` when its finish reason is
 * not one of a model that ended of itself or to call tools: cut short
 * (`length`, `max_tokens`: the arguments may be cut), or stopped by a filter, a
 * safety check, an error or a malformed call. The gate blocks an incomplete
 * call, as it blocks the same call recorded by its provider's API.
 */
function readMessage(entry: unknown, path: string, side: Side, read: MessagesRead, context: Context, finishReason?: unknown, reasonPath?: string): void {
  const before = read.items.length;
  readOneMessage(entry, path, side, read, context);
  const reason = finishReason ?? (isPlainObject(entry) ? (entry.finish_reason ?? entry.finishReason) : undefined);
  if (reason === undefined || reason === null || isUsualFinish(reason)) return;
  const calls = read.items.slice(before).filter((placed) => placed.item.type === "function_call");
  const span = context.span === undefined ? {} : { span: context.span };
  // A cut call says it itself (incomplete, reported); a cut text, a filter or a refusal says it nowhere.
  if (calls.length === 0) {
    // Where the message's own reason sits inside it, the pointer names it; an indexed message's is its own attribute.
    const at = reasonPath ?? (isPlainObject(entry) && entry.finish_reason !== undefined ? `${path}/finish_reason` : isPlainObject(entry) && entry.finishReason !== undefined ? `${path}/finishReason` : path);
    context.losses.push({ path: at, code: "left_behind", detail: `the finish reason ${JSON.stringify(reason)} is in no item`, ...span });
    return;
  }
  for (const placed of calls) {
    placed.item.status = "incomplete";
    const name = JSON.stringify(String(placed.item.name));
    if (isLengthLimit(reason)) context.losses.push({ path: placed.path, code: "truncated", detail: `the call of ${name} ends a message the model stopped at its length limit (finish reason ${JSON.stringify(reason)}): its arguments may be cut, so it is incomplete`, ...span });
    else context.losses.push({ path: placed.path, code: "form_changed", detail: `the call of ${name} ends a message whose finish reason ${JSON.stringify(reason)} is not of a model that ended of itself or to call tools: it is incomplete`, ...span });
  }
}

/** The role a message's `role`, or else its `type`, names: a LangChain chunk's class by the role of its message. Own members only, so that no name of Object's reads as a role. */
function roleWritten(written: string, byRole: boolean): string | undefined {
  const name = !byRole && Object.hasOwn(LANGCHAIN_CHUNK_TYPES, written) ? LANGCHAIN_CHUNK_TYPES[written]! : written;
  return Object.hasOwn(ROLES, name) ? ROLES[name] : undefined;
}

/** LangChain's message classes, as `dumpd` names them (the last member of a constructor's `id`), by the role they write. */
const LANGCHAIN_CLASSES: Record<string, string> = { AIMessage: "ai", HumanMessage: "human", SystemMessage: "system", ToolMessage: "tool", FunctionMessage: "function", ...LANGCHAIN_CHUNK_TYPES };

/**
 * A LangChain message written by one of its serializers, as the message it
 * holds and where: `dumpd`'s constructor (`{lc, type: "constructor", id: [...,
 * "AIMessage"], kwargs}`) and `message_to_dict`'s `{type: "ai", data}`. Any
 * other value as it is.
 */
function langChainMessage(entry: unknown, path: string): { entry: unknown; path: string } {
  if (!isPlainObject(entry)) return { entry, path };
  if (entry.lc === 1 && entry.type === "constructor" && Array.isArray(entry.id) && isPlainObject(entry.kwargs)) {
    const role = LANGCHAIN_CLASSES[String(entry.id.at(-1))];
    // A class of no known role stays as it was written, and is said unreadable as such.
    if (role !== undefined) return { entry: { type: role, ...entry.kwargs }, path: `${path}/kwargs` };
  }
  if (typeof entry.type === "string" && (Object.values(LANGCHAIN_CLASSES).includes(entry.type) || Object.hasOwn(LANGCHAIN_CHUNK_TYPES, entry.type) || entry.type === "ChatMessageChunk") && isPlainObject(entry.data) && Object.keys(entry).every((key) => key === "type" || key === "data")) {
    return { entry: { type: entry.type, ...entry.data }, path: `${path}/data` };
  }
  return { entry, path };
}

function readOneMessage(asWritten: unknown, writtenAt: string, side: Side, read: MessagesRead, context: Context): void {
  const { entry, path } = langChainMessage(asWritten, writtenAt);
  read.messages += 1;
  if (typeof entry === "string") {
    read.items.push({ item: message(side === "input" ? "user" : "assistant", entry), path });
    return;
  }
  if (entry instanceof WrittenTwoWays) return notReadTwoWays(entry, path, context);
  if (!isPlainObject(entry)) return unreadable(read, context, path, "a message that is not an object");
  const type = entry.type;
  if (type === "message" || (typeof type === "string" && (ITEM_TYPES.has(type) || type.includes(":")) && entry.role === undefined)) {
    read.items.push({ item: entry, path });
    return;
  }
  // An item that says its type and a role besides is the item its type says: its role is in no item.
  if (typeof type === "string" && (ITEM_TYPES.has(type) || type.includes(":"))) {
    const { role: _role, ...item } = entry;
    context.losses.push({ path: `${path}/role`, code: "left_behind", detail: `role of the ${type} item is in no item`, ...(context.span === undefined ? {} : { span: context.span }) });
    read.items.push({ item, path });
    return;
  }
  if (typeof entry.toolCallId === "string" && entry.toolName !== undefined && entry.type === undefined) {
    const partContext: PartContext = { role: "assistant", path, losses: context.losses, span: context.span };
    const call = readPart({ ...entry, type: "tool-call" }, partContext);
    if ("item" in call) read.items.push({ item: call.item, path });
    return;
  }
  if (entry["tool.name"] !== undefined) {
    const call = readPart({ type: "tool-call", toolName: entry["tool.name"], input: entry["tool.args"] }, { role: "assistant", path, losses: context.losses, span: context.span });
    if ("item" in call) read.items.push({ item: call.item, path });
    return;
  }
  const written = typeof entry.role === "string" ? entry.role : typeof entry.type === "string" ? entry.type : side === "input" ? "user" : "assistant";
  const role = roleWritten(written, typeof entry.role === "string");
  if (role === undefined) return unreadable(read, context, path, `a message of role "${written}"`);
  messageLeftBehind(entry, path, role, context);
  const partContext = (at: string): PartContext => ({ role, path: at, losses: context.losses, span: context.span });
  const content = entry.content;
  if (Array.isArray(entry.parts)) {
    readParts(entry.parts, `${path}/parts`, role, read, context);
    // Calls written beside the parts as well are read too: a Chat or OpenInference reader runs them.
    if (content !== null && content !== undefined && content !== "") unreadable(read, context, `${path}/content`, "content beside parts, which the parts stand for");
  } else if (role === "tool") {
    callsInToolMessage(entry, path, read, context);
    return readToolMessage(entry, path, read, context);
  } else if (typeof content === "string") {
    const calls = toolCalls(entry);
    if (content !== "" || (calls.length === 0 && legacyCalls(entry).length === 0)) read.items.push({ item: message(role, content), path: `${path}/content` });
  } else if (Array.isArray(content)) {
    readParts(content, `${path}/content`, role, read, context, true);
  } else if (content !== null && content !== undefined) {
    unreadable(read, context, `${path}/content`, "content that is neither text nor parts");
  }
  const twice = callsTwice(entry);
  if (twice !== undefined) {
    context.losses.push({ path: `${path}/additional_kwargs/tool_calls`, code: "unreadable", detail: twice, ...(context.span ? { span: context.span } : {}) });
    return;
  }
  const chunked = chunksDisagree(entry, path);
  if (chunked.length > 0) {
    for (const { at, detail } of chunked) context.losses.push({ path: at, code: "unreadable", detail, ...(context.span ? { span: context.span } : {}) });
    return;
  }
  for (const { call, at } of toolCalls(entry).map((call, index) => ({ call, at: `${path}/${toolCallsField(entry)}/${index}` }))) {
    if (call instanceof WrittenTwoWays) {
      notReadTwoWays(call, at, context);
      continue;
    }
    if (!isPlainObject(call)) {
      unreadable(read, context, at, "a tool call that is not an object");
      continue;
    }
    const item = toolCallItem(call, partContext(at));
    if (item !== undefined) read.items.push({ item, path: at });
  }
  readLegacyCall(entry, path, read, partContext);
}

/**
 * The call of Chat's legacy functions, `function_call: {name, arguments}` (as
 * LangChain keeps it, under `additional_kwargs`), which has no id: a reader of
 * the message runs it as it runs a tool call, so it is read as one. Written in
 * both places to say two calls, neither is read.
 */
function readLegacyCall(entry: Record<string, unknown>, path: string, read: MessagesRead, partContext: (at: string) => PartContext): void {
  const written = legacyCalls(entry, path);
  if (written.length === 0) return;
  const [first, second] = written;
  const context = partContext(first!.at);
  if (first!.call instanceof WrittenTwoWays) return notReadTwoWays(first!.call, first!.at, context);
  if (second !== undefined && !sameLegacyCall(first!.call, second.call)) {
    return unreadable(read, context, second.at, "a legacy function_call that says another call than the message's function_call");
  }
  if (!isPlainObject(first!.call)) return unreadable(read, context, first!.at, "a legacy function_call that is not an object");
  const item = toolCallItem(first!.call, context);
  if (item !== undefined) read.items.push({ item, path: first!.at });
}

/** Where the message writes a legacy function call, with each place's pointer. */
function legacyCalls(entry: Record<string, unknown>, path = ""): Array<{ call: unknown; at: string }> {
  const kwargs = isPlainObject(entry.additional_kwargs) ? entry.additional_kwargs : {};
  return [
    { call: entry.function_call, at: `${path}/function_call` },
    { call: kwargs.function_call, at: `${path}/additional_kwargs/function_call` },
  ].filter(({ call }) => call !== undefined && call !== null);
}

function sameLegacyCall(left: unknown, right: unknown): boolean {
  if (!isPlainObject(left) || !isPlainObject(right) || left.name !== right.name) return false;
  return typeof left.arguments === "string" && typeof right.arguments === "string" ? sameArguments(left.arguments, right.arguments) : isDeepStrictEqual(left.arguments, right.arguments);
}

/**
 * A Chat tool call, `{id, function: {name, arguments}}`, or flat as LangChain
 * and some loggers write it (`{id, name, args}`). Its name and its arguments
 * are each read from every place they are written, which must agree: a call
 * whose `function` says one thing and whose own members another runs another
 * call for each reader, so it is not read.
 */
function toolCallItem(call: Record<string, unknown>, context: PartContext): Record<string, unknown> | undefined {
  const fn = isPlainObject(call.function) ? call.function : {};
  const name = oneSpelling([["function/name", fn.name], ["name", call.name]]);
  const args = oneSpelling([["function/arguments", fn.arguments], ["function/args", fn.args], ["arguments", call.arguments], ["args", call.args]], sameArgumentsWritten);
  for (const [what, spelled] of [["name", name], ["arguments", args]] as const) {
    if ("twice" in spelled) {
      notReadTwoWays(new WrittenTwoWays(`the tool call's ${what} ${what === "name" ? "is" : "are"} ${spelled.twice.detail}`), context.path, context);
      return undefined;
    }
  }
  return callItem(call.id, "value" in name ? name.value : undefined, "value" in args ? args.value : undefined, context, "field" in args && args.field !== undefined ? args.field : "function/arguments");
}

/**
 * A LangChain message holds its calls twice: in `tool_calls` (`{id, name, args}`)
 * and in `additional_kwargs.tool_calls` (the provider's `{id, function: {name,
 * arguments}}`). Read from the first; when the second says other calls, a
 * reader of it runs other calls: said, and neither is read.
 */
function callsTwice(entry: Record<string, unknown>): string | undefined {
  const second = isPlainObject(entry.additional_kwargs) ? entry.additional_kwargs.tool_calls : undefined;
  if (!Array.isArray(entry.tool_calls) || !Array.isArray(second) || second.length === 0) return undefined;
  const first = entry.tool_calls.map(callSaid);
  const other = second.map(callSaid);
  const agree = first.length === other.length && first.every((call, index) => call.id === other[index]!.id && call.name === other[index]!.name && sameArguments(call.args, other[index]!.args));
  return agree ? undefined : "a message whose calls in tool_calls and in additional_kwargs.tool_calls disagree: two readers see two calls, so they are not read";
}

/** What a call of a message says, in either of LangChain's forms (`{id, name, args}`, the provider's `{id, function: {name, arguments}}`): its arguments as text. */
function callSaid(call: unknown): { id: unknown; name: unknown; args: string } {
  const fn = isPlainObject(call) && isPlainObject(call.function) ? call.function : isPlainObject(call) ? call : {};
  const args = fn.arguments ?? fn.args;
  return { id: isPlainObject(call) ? call.id : undefined, name: fn.name, args: typeof args === "string" ? args : JSON.stringify(args ?? {}) };
}

/**
 * A streamed LangChain message holds its calls once more, as the chunks they
 * streamed in (`tool_call_chunks`, merged per index), from which LangChain makes
 * its `tool_calls`, a call of each entry. Read so (joined-call-chunks.ts), they
 * must be the calls read, one for one in their order: the same id, name, and arguments that mean the same
 * (no fragment at all is a call without parameters, as LangChain reads it).
 * Where they cannot be joined, or say other calls, a reader of the chunks runs
 * other calls than a reader of the message's: each place is said, and none of
 * the message's calls is read. No chunk says nothing.
 */
function chunksDisagree(entry: Record<string, unknown>, path: string): Array<{ at: string; detail: string }> {
  const chunks = entry.tool_call_chunks;
  if (chunks === undefined || chunks === null || (Array.isArray(chunks) && chunks.length === 0)) return [];
  const notRead = "two readers see two calls, so none of the message's calls is read";
  const joined = joinedCallChunks(chunks, `${path}/tool_call_chunks`);
  if ("unjoinable" in joined) return [{ at: joined.unjoinable.path, detail: `${joined.unjoinable.detail}, which joins into no one list of calls: ${notRead}` }];
  const field = toolCallsField(entry);
  const fieldSaid = field.replace("/", ".");
  const calls = toolCalls(entry).map(callSaid);
  const said: Array<{ at: string; detail: string }> = [];
  for (let index = 0; index < Math.max(calls.length, joined.calls.length); index++) {
    const call = calls[index];
    const chunked = joined.calls[index];
    if (chunked === undefined) said.push({ at: `${path}/${field}/${index}`, detail: `a call of "${String(call!.name)}" that the message's tool_call_chunks do not stream: ${notRead}` });
    else if (call === undefined) said.push({ at: chunked.at, detail: `tool_call_chunks that stream a call of "${chunked.name}" the message's ${fieldSaid} do not hold: ${notRead}` });
    else if (chunked.name !== call.name) said.push({ at: chunked.nameAt, detail: `tool_call_chunks that name call ${index} "${chunked.name}", where ${fieldSaid} name it "${String(call.name)}": ${notRead}` });
    else if (chunked.id !== (call.id ?? null)) said.push({ at: chunked.idAt, detail: `tool_call_chunks that give the call of "${chunked.name}" the id ${JSON.stringify(chunked.id)}, where ${fieldSaid} give it ${JSON.stringify(call.id ?? null)}: ${notRead}` });
    else if (!sameArguments(chunked.args === "" ? "{}" : chunked.args, call.args)) said.push({ at: chunked.argsAt, detail: `tool_call_chunks whose args joined, ${JSON.stringify(chunked.args)}, are other arguments of "${chunked.name}" than ${fieldSaid} give it: ${notRead}` });
  }
  return said;
}

function toolCallsField(entry: Record<string, unknown>): string {
  if (Array.isArray(entry.tool_calls)) return "tool_calls";
  return "additional_kwargs/tool_calls";
}

function toolCalls(entry: Record<string, unknown>): unknown[] {
  if (Array.isArray(entry.tool_calls)) return entry.tool_calls;
  if (isPlainObject(entry.additional_kwargs) && Array.isArray(entry.additional_kwargs.tool_calls)) return entry.additional_kwargs.tool_calls;
  return [];
}

/**
 * A tool message answers a call; one that also writes a call (in `tool_calls`,
 * or Chat's legacy `function_call`, either beside it or under
 * `additional_kwargs`) is read as a result, and its call by no one here: a
 * reader of Chat messages that runs the calls it finds runs it. Each such place
 * is unreadable, which the gate blocks, where the call was dropped in silence.
 */
function callsInToolMessage(entry: Record<string, unknown>, path: string, read: MessagesRead, context: Context): void {
  const kwargs = isPlainObject(entry.additional_kwargs) ? entry.additional_kwargs : {};
  const places: Array<[unknown, string]> = [
    [entry.tool_calls, `${path}/tool_calls`],
    [kwargs.tool_calls, `${path}/additional_kwargs/tool_calls`],
    [entry.tool_call_chunks, `${path}/tool_call_chunks`],
    ...legacyCalls(entry, path).map(({ call, at }): [unknown, string] => [call, at]),
  ];
  for (const [calls, at] of places) {
    if (calls === undefined || calls === null || (Array.isArray(calls) && calls.length === 0)) continue;
    unreadable(read, context, at, "a call written in a tool message, which answers a call and makes none");
  }
}

function readToolMessage(entry: Record<string, unknown>, path: string, read: MessagesRead, context: Context): void {
  const callId = entry.tool_call_id ?? entry.toolCallId;
  const content = entry.content;
  if (Array.isArray(content)) return readParts(content, `${path}/content`, "tool", read, context);
  if (typeof callId !== "string" && isPlainObject(content) && content.type === "function" && isPlainObject(content.function)) {
    context.losses.push({ path: `${path}/content`, code: "not_a_result", detail: `a tool message that holds the definition of "${String(content.function.name)}", not a result: not read as one`, ...(context.span ? { span: context.span } : {}) });
    return;
  }
  const output = { type: "function_call_output", ...(typeof callId === "string" ? { call_id: callId } : {}), output: typeof content === "string" ? content : JSON.stringify(content ?? null) };
  read.items.push({ item: output, path, ...(typeof callId === "string" ? {} : { pendingName: String(entry.name ?? "") }) });
}

/** Parts in order: consecutive content parts make one message; a part that is an item of its own closes it. */
function readParts(parts: unknown[], path: string, role: string, read: MessagesRead, context: Context, keepForm = false): void {
  let open: { content: Record<string, unknown>[]; path: string } | undefined;
  const flush = () => {
    if (open && open.content.length > 0) read.items.push({ item: { type: "message", role, content: open.content }, path: open.path });
    open = undefined;
  };
  parts.forEach((part, index) => {
    const at = `${path}/${index}`;
    const result = readPart(part, { role, path: at, losses: context.losses, span: context.span });
    if ("skip" in result) return;
    partLeftBehind(part, at, context);
    if ("part" in result) {
      open ??= { content: [], path: keepForm ? path : at };
      open.content.push(result.part);
      return;
    }
    flush();
    read.items.push({ item: result.item, path: at, ...(result.pendingName !== undefined ? { pendingName: result.pendingName } : {}) });
  });
  flush();
}

/** Of each part type read into an item or a canonical part, the members that the item holds or that name the part. */
const PART_MEMBERS_READ: Record<string, ReadonlySet<string>> = {
  text: new Set(["type", "content", "text"]),
  reasoning: new Set(["type", "content", "text"]),
  tool_call: new Set(["type", "id", "name", "arguments", "args", "input"]),
  "tool-call": new Set(["type", "toolCallId", "toolName", "input", "args"]),
  tool_call_response: new Set(["type", "id", "response", "result"]),
  // Its tool's name is the name of the call it answers, which pairs them.
  "tool-result": new Set(["type", "toolCallId", "toolName", "output", "result"]),
};

/** A part's other members (a call's provider options, a part's own metadata): each reported at its place. */
function partLeftBehind(part: unknown, path: string, context: Context): void {
  if (!isPlainObject(part) || typeof part.type !== "string") return;
  const read = PART_MEMBERS_READ[part.type];
  if (read === undefined) return;
  for (const [key, member] of Object.entries(part)) {
    if (read.has(key) || member === null || member === undefined) continue;
    context.losses.push({ path: `${path}/${pointerToken(key)}`, code: "left_behind", detail: `${key} of the ${part.type} part is in no item`, ...(context.span === undefined ? {} : { span: context.span }) });
  }
}

export function message(role: string, content: string): Record<string, unknown> {
  return { type: "message", role, content };
}

function unreadable(read: MessagesRead, context: Context, path: string, what: string): void {
  context.losses.push({ path, code: "unreadable", detail: `${what}: of no dialect orbridge reads, not read`, ...(context.span ? { span: context.span } : {}) });
}

export { textPart };
