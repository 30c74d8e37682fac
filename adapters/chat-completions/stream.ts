// Rebuilds Chat Completions responses from `chat.completion.chunk` records. The
// fragments of a completion are put back together into the assistant message the
// non-streamed API would have returned, and that message goes through
// messagesToItems, so a streamed answer and its non-streamed twin give the same
// items. A call is final only when its choice says so (`finish_reason`); arguments
// that happen to parse prove nothing (`{}` is a prefix of real arguments).
//
// | chunk                                            | effect                                            |
// |--------------------------------------------------|---------------------------------------------------|
// | a new non-empty `id`                             | closes the completion in progress, opens another  |
// | `choices: []` (usage chunk, Azure filter chunk)  | skipped                                           |
// | `choices[].index`                                | the choice the delta belongs to                   |
// | `delta.role`                                     | the message role                                  |
// | `delta.content` / `delta.refusal`                | appended to the text / the refusal                |
// | `delta.tool_calls[].index`                       | the call a fragment belongs to; `id`, `type`,     |
// |                                                  | `name` come once, `arguments` are appended        |
// | `delta.function_call`                            | the legacy call, appended the same way            |
// | any other `delta` key (`reasoning_content`…)     | loss provider_extension, never merged into text   |
// | `finish_reason` stop / tool_calls / function_call | status completed                                 |
// | `finish_reason` length / content_filter / other  | status incomplete                                 |
// | no `finish_reason` by the end of the recording   | status in_progress                                |
// | choices other than the first                     | loss: only one choice continues the conversation  |
//
// Chunk metadata (`model`, `usage`, `obfuscation`, `system_fingerprint`,
// `x_groq`, `content_filter_results`, `logprobs`…) describes the response, not
// its items, as it does for a non-streamed completion. Asked to (`completion`),
// the assembler also keeps what the chat.completion the stream amounts to needs
// beyond the items: the opening chunk's fields, the finish_reason, the usage.
import type { ChatAssistantMessage, ChatFinishReason } from "../../src/models/chat-completions.js";
import type { AssembledResponse, StreamedCompletion, StreamLoss } from "../../src/models/assembled-response.js";
import { isPlainObject } from "../../src/models/json-value.js";
import type { Loss } from "../../src/models/loss.js";
import { pointer } from "../../src/models/json-pointer.js";
import type { CanonicalItem } from "../../src/models/open-responses.js";
import { callStatusOf, messagesToItems } from "./messages-to-items.js";

type Fields = Record<string, unknown>;

const DELTA_KEYS = new Set(["role", "content", "refusal", "tool_calls", "function_call"]);
const CALL_KEYS = new Set(["index", "id", "type", "function", "custom"]);
const CALL_FUNCTION_KEYS = new Set(["name", "arguments"]);
const CALL_CUSTOM_KEYS = new Set(["name", "input"]);
const FINISH_REASONS: ReadonlySet<string> = new Set(["stop", "length", "tool_calls", "content_filter", "function_call"]);

/**
 * Where a field of the rebuilt message was first seen: the record's line and the
 * place in it (`/choices/<position>/delta/<key>/<fragment>`). The pointer itself
 * is built only for a loss, as most fields never need one.
 */
interface Origin {
  line: number;
  position: number;
  key?: string;
  fragment?: number;
}

function pathOf(origin: Origin, ...tail: ReadonlyArray<string | number>): string {
  const tokens: Array<string | number> = ["choices", origin.position];
  if (origin.key !== undefined) tokens.push("delta", origin.key);
  if (origin.fragment !== undefined) tokens.push(origin.fragment);
  return pointer(...tokens, ...tail);
}

interface CallState {
  /** `tool_calls[].index` as the stream gave it. */
  index: number;
  /** Order of appearance, which breaks ties between calls that share an index. */
  order: number;
  id?: string;
  type?: string;
  name?: string;
  /** `arguments` of a function call, `input` of a custom one. */
  text: string;
  origin: Origin;
}

interface ChoiceState {
  origin: Origin;
  content?: string;
  contentNull: boolean;
  refusal?: string;
  calls: CallState[];
  /** The latest call at each `tool_calls[].index`. */
  callAt: Map<number, CallState>;
  legacyCall?: { name?: string; arguments: string };
  finishReason?: string;
  /** Where the last finish_reason came from. */
  finishOrigin?: Origin;
  fieldOrigins: Map<string, Origin>;
  /** Provider fields of the delta, one loss per key, counted over the chunks. */
  extensions: Map<string, { loss: StreamLoss; chunks: number; lastLine: number }>;
}

interface OpenCompletion {
  id?: string;
  line: number;
  lastLine: number;
  choices: Map<number, ChoiceState>;
  /** Kept only when the assembler is asked for the completion's fields. */
  fields?: StreamedCompletion["fields"];
  usage?: StreamedCompletion["usage"];
}

export interface ChatStreamOptions {
  /** Also give each response the fields of its chat.completion (`AssembledResponse.completion`). */
  completion?: boolean;
}

export class ChatStreamAssembler {
  private current: OpenCompletion | undefined;
  private readonly keepCompletion: boolean;

  constructor(options: ChatStreamOptions = {}) {
    this.keepCompletion = options.completion ?? false;
  }

  /** One chunk and its journal line; returns the completions it closes. */
  push(chunk: unknown, line: number): AssembledResponse[] {
    if (!isPlainObject(chunk) || !Array.isArray(chunk.choices)) {
      throw new TypeError("a chat.completion.chunk is an object with a choices array");
    }
    const id = typeof chunk.id === "string" && chunk.id !== "" ? chunk.id : undefined;
    // The usage chunk and Azure's prompt filter chunk carry no delta.
    if (chunk.choices.length === 0) {
      if (this.current && id !== undefined && id === this.current.id) this.current.lastLine = line;
      // A usage chunk without an id, or with the id of the opening chunk, reports on this completion.
      if (this.current?.fields && isPlainObject(chunk.usage) && (id === undefined || id === this.current.fields.value.id)) this.current.usage = { value: chunk.usage, line };
      return [];
    }
    const closed: AssembledResponse[] = [];
    if (this.current && this.startsAnother(this.current, id, chunk.choices)) closed.push(...this.finish());
    if (!this.current) {
      this.current = { line, lastLine: line, choices: new Map<number, ChoiceState>() };
      if (this.keepCompletion) {
        const { choices: _choices, usage: _usage, obfuscation: _obfuscation, ...fields } = chunk;
        this.current.fields = { value: fields, line };
      }
    }
    const open = this.current;
    if (id !== undefined) open.id ??= id;
    open.lastLine = line;
    chunk.choices.forEach((choice, position) => {
      if (isPlainObject(choice)) this.pushChoice(open, choice, position, line);
    });
    if (open.fields && isPlainObject(chunk.usage)) open.usage = { value: chunk.usage, line };
    return closed;
  }

  /** End of the recording: the completion still open, as it was last seen. */
  finish(): AssembledResponse[] {
    const open = this.current;
    this.current = undefined;
    return open ? [assemble(open)] : [];
  }

  /**
   * A chunk belongs to another completion when its id differs, or, for providers
   * that send no id, when every choice had finished and a new message starts.
   */
  private startsAnother(open: OpenCompletion, id: string | undefined, choices: unknown[]): boolean {
    if (id !== undefined && open.id !== undefined) return id !== open.id;
    const finished = [...open.choices.values()].every((choice) => choice.finishReason !== undefined);
    return finished && choices.some((choice) => isPlainObject(choice) && isPlainObject(choice.delta) && typeof choice.delta.role === "string");
  }

  private pushChoice(open: OpenCompletion, choice: Fields, position: number, line: number): void {
    const index = typeof choice.index === "number" && Number.isInteger(choice.index) ? choice.index : 0;
    let state = open.choices.get(index);
    if (!state) {
      state = { origin: { line, position }, contentNull: false, calls: [], callAt: new Map(), fieldOrigins: new Map(), extensions: new Map() };
      open.choices.set(index, state);
    }
    const delta = isPlainObject(choice.delta) ? choice.delta : {};
    for (const key in delta) {
      if (!Object.hasOwn(delta, key)) continue;
      const value = delta[key];
      if (!DELTA_KEYS.has(key)) {
        noteExtension(state, key, value, { line, position, key });
        continue;
      }
      if (!state.fieldOrigins.has(key) && value !== null && value !== undefined) state.fieldOrigins.set(key, { line, position, key });
      // The role is always the assistant's: the message is rebuilt as one.
      if (key === "content") {
        if (typeof value === "string") state.content = (state.content ?? "") + value;
        else if (value === null) state.contentNull = true;
      } else if (key === "refusal" && typeof value === "string") state.refusal = (state.refusal ?? "") + value;
      else if (key === "tool_calls" && Array.isArray(value)) {
        value.forEach((fragment, k) => {
          if (isPlainObject(fragment)) pushCallFragment(state, fragment, { line, position, key, fragment: k });
        });
      } else if (key === "function_call" && isPlainObject(value)) {
        state.legacyCall ??= { arguments: "" };
        if (typeof value.name === "string") state.legacyCall.name = joinName(state.legacyCall.name, value.name);
        if (typeof value.arguments === "string") state.legacyCall.arguments += value.arguments;
      }
    }
    if (typeof choice.finish_reason === "string") {
      state.finishReason = choice.finish_reason;
      state.finishOrigin = { line, position };
    }
  }
}

function pushCallFragment(state: ChoiceState, fragment: Fields, origin: Origin): void {
  const id = typeof fragment.id === "string" && fragment.id !== "" ? fragment.id : undefined;
  const last = state.calls[state.calls.length - 1];
  const index = typeof fragment.index === "number" && Number.isInteger(fragment.index) ? fragment.index : id === undefined && last ? last.index : state.calls.length;
  // The latest call at this index takes the fragment, unless the fragment names
  // another call: some providers put every parallel call at index 0.
  let call = state.callAt.get(index);
  if (!call || (id !== undefined && call.id !== undefined && call.id !== id)) {
    call = { index, order: state.calls.length, text: "", origin };
    state.calls.push(call);
    state.callAt.set(index, call);
  }
  if (id !== undefined) call.id ??= id;
  if (typeof fragment.type === "string") call.type ??= fragment.type;
  const body = isPlainObject(fragment.function) ? fragment.function : isPlainObject(fragment.custom) ? fragment.custom : undefined;
  if (isPlainObject(fragment.custom)) call.type ??= "custom";
  if (body) {
    if (typeof body.name === "string") call.name = joinName(call.name, body.name);
    const text = call.type === "custom" ? body.input : body.arguments;
    if (typeof text === "string") call.text += text;
    const known = call.type === "custom" ? CALL_CUSTOM_KEYS : CALL_FUNCTION_KEYS;
    const bodyKey = isPlainObject(fragment.function) ? "function" : "custom";
    for (const [key, value] of Object.entries(body)) {
      if (!known.has(key)) noteExtension(state, `tool_calls[].${bodyKey}.${key}`, value, origin, bodyKey, key);
    }
  }
  for (const [key, value] of Object.entries(fragment)) {
    if (!CALL_KEYS.has(key)) noteExtension(state, `tool_calls[].${key}`, value, origin, key);
  }
}

/** A name sent again on a later fragment is the same name; a different one continues it. */
function joinName(current: string | undefined, fragment: string): string {
  if (current === undefined || current === fragment) return fragment;
  return current + fragment;
}

function noteExtension(state: ChoiceState, key: string, value: unknown, origin: Origin, ...tail: string[]): void {
  // `reasoning_content: ""` or `null` on a role chunk carries nothing.
  if (value === null || value === undefined || value === "") return;
  const seen = state.extensions.get(key);
  if (seen) {
    seen.chunks++;
    seen.lastLine = origin.line;
    return;
  }
  state.extensions.set(key, { loss: { line: origin.line, path: pathOf(origin, ...tail), code: "provider_extension", detail: "" }, chunks: 1, lastLine: origin.line });
}

function assemble(open: OpenCompletion): AssembledResponse {
  const losses: StreamLoss[] = [];
  const indexes = [...open.choices.keys()].sort((a, b) => a - b);
  const first = indexes.length > 0 ? open.choices.get(indexes[0]) : undefined;
  let items: CanonicalItem[] = [];
  let status: string | undefined;
  if (first) {
    status = callStatusOf(first.finishReason);
    const converted = convertChoice(first, status);
    items = converted.items;
    losses.push(...converted.losses);
  }
  for (const index of indexes.slice(1)) {
    const other = open.choices.get(index)!;
    losses.push({ line: other.origin.line, path: pathOf(other.origin), code: "unsupported_field", detail: `only the first choice continues the conversation; choice ${index} is not items` });
  }
  const response: AssembledResponse = {
    ...(open.id !== undefined ? { id: open.id } : {}),
    ...(status !== undefined ? { status } : {}),
    items,
    losses,
    line: open.line,
    lastLine: open.lastLine,
  };
  if (open.fields) response.completion = completionOf(open.fields, first, open.usage);
  return response;
}

function completionOf(fields: StreamedCompletion["fields"], first: ChoiceState | undefined, usage: StreamedCompletion["usage"]): StreamedCompletion {
  const completion: StreamedCompletion = { fields };
  if (first) completion.position = first.origin.position;
  if (first?.finishReason !== undefined && first.finishOrigin) completion.finish = { value: first.finishReason, line: first.finishOrigin.line, position: first.finishOrigin.position };
  if (usage) completion.usage = usage;
  return completion;
}

/** The message the non-streamed API would have returned for this choice, as items. */
function convertChoice(choice: ChoiceState, status: string): { items: CanonicalItem[]; losses: StreamLoss[] } {
  const message: Fields = { role: "assistant" };
  if (choice.content !== undefined) message.content = choice.content;
  else if (choice.contentNull) message.content = null;
  if (choice.refusal !== undefined) message.refusal = choice.refusal;
  const calls = [...choice.calls].sort((a, b) => a.index - b.index || a.order - b.order);
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) =>
      call.type === "custom"
        ? { id: call.id, type: "custom", custom: { name: call.name ?? "", input: call.text } }
        : { id: call.id, type: call.type ?? "function", function: { name: call.name ?? "", arguments: call.text } },
    );
  }
  if (choice.legacyCall) message.function_call = { name: choice.legacyCall.name ?? "", arguments: choice.legacyCall.arguments };

  const finishReason = choice.finishReason !== undefined && FINISH_REASONS.has(choice.finishReason) ? (choice.finishReason as ChatFinishReason) : null;
  const converted = messagesToItems({ messages: [message as ChatAssistantMessage], finishReason });
  const items = converted.value.map((item) => withStatus(item, status));
  const losses: StreamLoss[] = converted.losses.map((loss) => placeLoss(loss, choice, calls));
  for (const [key, { loss, chunks, lastLine }] of choice.extensions) {
    const where = chunks === 1 ? `line ${loss.line}` : `${chunks} chunks, lines ${loss.line}–${lastLine}`;
    losses.push({ ...loss, detail: `${key} (${where}) is a provider field neither envelope carries; it is not merged into the text` });
  }
  return { items, losses };
}

/** A streamed call is as final as its choice: the stream, not the message, decides. */
function withStatus(item: CanonicalItem, status: string): CanonicalItem {
  if (!isPlainObject(item)) return item;
  if (item.type !== "function_call" && !("status" in item)) return item;
  return { ...item, status } as CanonicalItem;
}

/** Moves a loss found in the rebuilt message to the record that carried the field. */
function placeLoss(loss: Loss, choice: ChoiceState, calls: CallState[]): StreamLoss {
  const tokens = loss.path.split("/").slice(1);
  // Paths are into the one-message array: /0/<field>/…
  const [, field, second, ...rest] = tokens;
  if (field === "tool_calls" && second !== undefined && calls[Number(second)]) {
    const origin = calls[Number(second)].origin;
    return { ...loss, line: origin.line, path: pathOf(origin) + (rest.length > 0 ? "/" + rest.join("/") : "") };
  }
  const origin = (field !== undefined ? choice.fieldOrigins.get(field) : undefined) ?? choice.origin;
  const tail = field !== undefined && choice.fieldOrigins.has(field) ? [second, ...rest].filter((token) => token !== undefined) : [];
  return { ...loss, line: origin.line, path: pathOf(origin) + (tail.length > 0 ? "/" + tail.join("/") : "") };
}
