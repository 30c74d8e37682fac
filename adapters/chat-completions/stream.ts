// Rebuilds Chat Completions responses from `chat.completion.chunk` records. The
// fragments of a completion are put back together into the chat.completion the
// non-streamed API would have returned (every choice, with its message, logprobs,
// finish_reason and provider fields), which goes through completionToItems as a
// stored completion does: a streamed answer and its non-streamed twin give the
// same items, statuses and losses. A call is final only when its choice says so
// (`finish_reason`); arguments that happen to parse prove nothing (`{}` is a
// prefix of real arguments).
//
// | chunk                                            | effect                                            |
// |--------------------------------------------------|---------------------------------------------------|
// | a new non-empty `id`                             | closes the completion in progress, opens another  |
// | `choices: []` (usage chunk, Azure filter chunk)  | no delta; its fields are the completion's (before |
// |                                                  |   any completion, the next one's)                 |
// | `choices[].index`                                | the choice the delta belongs to; one that is no   |
// |                                                  | integer from 0 (the SDKs throw at it, or count it |
// |                                                  | from the end), or a new one that is not the next  |
// |                                                  | (openai-python places choices by position) leaves |
// |                                                  | the choice's calls incomplete                     |
// | `delta.role`                                     | the message role                                  |
// | `delta.content` / `delta.refusal`                | appended to the text / the refusal                |
// | `delta.tool_calls[].index`                       | the call a fragment belongs to; `id`, `type`,     |
// |                                                  | `name` come once, `arguments` are appended; a     |
// |                                                  | later `name` or `type` that differs (the SDKs     |
// |                                                  | read it two ways), or an `id` that differs (a     |
// |                                                  | call of its own here, the same call to the SDKs), |
// |                                                  | or an index that is no integer from 0, a new one  |
// |                                                  | that is not the next or one given twice in the    |
// |                                                  | choice's first list (openai-python places calls   |
// |                                                  | by position), or an id, type, name or arguments   |
// |                                                  | that is there and no string (the SDKs append, set |
// |                                                  | or skip it), leaves the choice's calls incomplete |
// | `delta.function_call`                            | the legacy call, appended the same way            |
// | any other `delta` key (`reasoning_content`…), or | a field of the rebuilt message (or call): text    |
// |   of a call fragment                             |   and arrays appended, other values the last one  |
// | `choices[].logprobs`                             | `content` and `refusal` tokens appended           |
// | any other choice key (`content_filter_results`,  | a field of the rebuilt choice, the last value     |
// |   `native_finish_reason`…)                       |   that holds something                            |
// | a whole `message` beside the delta               | not read, reported: the message is the deltas'    |
// |                                                  |   (a journal refuses one whose calls are not the  |
// |                                                  |   delta's: detect.ts)                             |
// | `finish_reason`                                  | the choice's: stop / tool_calls / function_call   |
// |                                                  |   completed, another incomplete, none in_progress |
// | a delta that holds something, after its choice's | still appended, but the choice's calls are        |
// |   finish_reason                                  |   written incomplete (see below)                  |
// | any other chunk key (`x_groq`,                   | a field of the rebuilt completion: the opening    |
// |   `prompt_filter_results`, a stray `tool_calls`) |   chunk's, else the first chunk's that held it    |
// | `obfuscation`                                    | nothing: padding of the transport, said on the    |
// |                                                  |   chunk's line (left_behind)                      |
// | a completion field that differs from the one     | left_behind on its line: the completion keeps the |
// |   kept (Azure's filter chunk says `created: 0`)  |   opening chunk's (or the first that held it)     |
// | a limit of the request (`tool_choice`, `tools`,  | also leaves the completion's calls incomplete:    |
// |   `parallel_tool_calls`) said otherwise than the |   openai-node keeps the last chunk's, and the     |
// |   one kept                                       |   gate would hold the calls to the first          |
//
// Each choice is a response of its own, in index order, with its own status; a
// choice after the first says so in a loss. Its items were completed by the
// chunk with its finish_reason (else by the completion's last chunk): the line
// a call is reported at. What no item holds (the choice's
// logprobs, the completion's id, model, usage…) is `left_behind`, as for a
// stored completion. Every loss points into the chunk that carried the field:
// the first that held it. Asked to (`completion`), the assembler instead gives
// one response per completion, the first choice's, with the chat.completion it
// rebuilt and where each of its fields came from: what converting it needs.
//
// A reader that stops at a choice's finish_reason and one that reads to the end
// of the stream (as the SDKs' accumulators do) see different calls when a delta
// comes after it: `{"city":"Paris"` at the finish, `{"city":"Paris"}` with the
// late fragment. Neither is the call the model finished, so the choice's calls
// are given as incomplete items, which the gate blocks, and the late delta is
// reported. The chat.completion rebuilt for conversion holds every delta, as a
// reader to the end sees it, and the late delta is reported there too; its
// calls are incomplete there as well, so that no conversion passes them.
import { isDeepStrictEqual } from "node:util";
import { stoppedCall, transportPadding, type AssembledResponse, type StreamedCompletion, type StreamLoss } from "../../src/models/assembled-response.js";
import { describeValue, isPlainObject, setOwn } from "../../src/models/json-value.js";
import type { Loss } from "../../src/models/loss.js";
import { pointer } from "../../src/models/json-pointer.js";
import { comparedName } from "../../src/models/names-folded-twice.js";
import { completionToItems } from "./completion-to-response.js";
import { callStatusOf } from "./messages-to-items.js";
import { extraKeyLosses } from "./params.js";
import { RESTATED_LIMITS } from "../../src/models/restated-limits.js";

declare module "../../src/models/assembled-response.js" {
  interface StreamedCompletion {
    /** The chat.completion the chunks amount to, every choice rebuilt, and where its fields came from. */
    rebuilt?: RebuiltCompletion;
  }
}

/** A completion rebuilt from its chunks. */
export interface RebuiltCompletion {
  /** The chat.completion as the non-streamed API would have written it. */
  value: Record<string, unknown>;
  /** Where a field of `value`, named by a JSON Pointer into it, came from: a chunk's line and a pointer into that chunk. */
  place(path: string): Pick<StreamLoss, "line" | "path">;
}

type Fields = Record<string, unknown>;

const DELTA_KEYS = new Set(["role", "content", "refusal", "tool_calls", "function_call"]);
const CALL_KEYS = new Set(["index", "id", "type", "function", "custom"]);
const CHOICE_KEYS = new Set(["index", "delta", "finish_reason", "logprobs"]);
/** Chunk fields a completion has in the same sense, and `obfuscation`, padding that belongs to no response. */
const CHUNK_KEYS = new Set(["id", "object", "created", "model", "system_fingerprint", "service_tier", "choices", "usage", "obfuscation"]);

/**
 * Where a field was first seen: the record's line and the place in it
 * (`/choices/<position>/delta/<key>/<fragment>`). The pointer itself is built
 * only for a loss, as most fields never need one.
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

/** A field rebuilt from the chunks: its value so far and where it first held something. */
interface Gathered {
  value: unknown;
  origin: Origin;
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
  /** Fields of the fragments no envelope defines, and of their `function` (or `custom`) object. */
  extra: Map<string, Gathered>;
  bodyExtra: Map<string, Gathered>;
}

interface ChoiceState {
  origin: Origin;
  lastLine: number;
  content?: string;
  contentNull: boolean;
  refusal?: string;
  calls: CallState[];
  /** The latest call at each `tool_calls[].index`. */
  callAt: Map<number, CallState>;
  /** How the choice's call fragments were placed: by their `index`, or, with none, each as a whole call of its own (Mistral). */
  placedBy?: "index" | "whole";
  legacyCall?: { name?: string; arguments: string };
  finishReason?: unknown;
  /** Where the last finish_reason came from. */
  finishOrigin?: Origin;
  /**
   * The first delta that held something after a finish_reason of the choice, or
   * the first finish_reason that said another reason than the one before it
   * (`replaced`, that reason), and the line of the finish_reason before.
   */
  afterFinish?: Origin & { finished: number; replaced?: unknown };
  /**
   * The first fragment that gave a call another name or type than the one it
   * had: openai-python appends a name fragment, openai-node replaces the name,
   * and both take the last type, so no one call is the stream's.
   */
  renamed?: Origin & { field: "name" | "type" | "id" | "index" | "position" | "twice" | "untextual"; before: string; after: string; tail: string[] };
  /** Where each field of the delta first held something. */
  fieldOrigins: Map<string, Origin>;
  /** Delta fields no envelope defines (`reasoning_content`…). */
  deltaExtra: Map<string, Gathered>;
  /** Delta fields of the message whose value has another type than the stream's (a tool_calls that is no array…): the last, as sent. */
  deltaOdd: Map<string, Gathered>;
  /** `logprobs`: whether a chunk had the key, its token lists and other fields, and the first chunk that held any. */
  logprobsSeen: boolean;
  logprobs: Map<string, Gathered>;
  logprobsOrigin?: Origin;
  /** Choice fields other than index, delta, finish_reason and logprobs. */
  choiceExtra: Map<string, Gathered>;
}

/** A chunk field: the value of the first chunk that held it, and its line. */
interface ChunkField {
  value: unknown;
  line: number;
}

interface OpenCompletion {
  id?: string;
  line: number;
  lastLine: number;
  choices: Map<number, ChoiceState>;
  /** The opening chunk's fields (without `choices`, `usage` and `obfuscation`), and its line. */
  fields: { value: Fields; line: number };
  /** Fields the opening chunk lacks, from the first chunk that held each (`prompt_filter_results`…). */
  later: Map<string, ChunkField>;
  usage?: StreamedCompletion["usage"];
  /** Parts of chunks that hold nothing a completion can take (a choice that is no object…), each said on its line. */
  unread: StreamLoss[];
  /** What the chunks said and the completion does not keep: each `obfuscation`, a field that differs from the completion's. */
  unkept: StreamLoss[];
  /** The first chunk that repeats a limit of the request (`tool_choice`…) otherwise than the completion keeps it, and the limit's member. */
  limitsTwoWays?: { line: number; key: string };
}

export interface ChatStreamOptions {
  /** Give one response per completion with the chat.completion it rebuilt (`AssembledResponse.completion`). */
  completion?: boolean;
  /** Say which chunk completed each item (`AssembledResponse.itemLines`). */
  itemLines?: boolean;
  /** Give each choice's response the chat.completion rebuilt (`AssembledResponse.responseObject`), whose own tool_choice, tools and parallel_tool_calls hold for its calls as a stored one's do. */
  responseObject?: boolean;
}

export class ChatStreamAssembler {
  private current: OpenCompletion | undefined;
  /** Fields of chunks with no choices that belong to no open completion: the next completion's. */
  private unplacedFields = new Map<string, ChunkField>();
  /** What those chunks said that no completion keeps (their padding, a field that differs), said on their lines. */
  private unplacedUnkept: StreamLoss[] = [];
  private readonly keepCompletion: boolean;
  private readonly sayItemLines: boolean;
  private readonly keepObject: boolean;

  constructor(options: ChatStreamOptions = {}) {
    this.keepCompletion = options.completion ?? false;
    this.sayItemLines = options.itemLines ?? false;
    this.keepObject = options.responseObject ?? false;
  }

  /** One chunk and its journal line; returns the responses it closes. */
  push(chunk: unknown, line: number): AssembledResponse[] {
    if (!isPlainObject(chunk) || !Array.isArray(chunk.choices)) {
      throw new TypeError("a chat.completion.chunk is an object with a choices array");
    }
    const id = typeof chunk.id === "string" && chunk.id !== "" ? chunk.id : undefined;
    // The usage chunk and Azure's prompt filter chunk carry no delta.
    if (chunk.choices.length === 0) {
      const open = this.current;
      // A chunk with another completion's id is not this one's.
      if (open && (id === undefined || id === open.id || id === open.fields.value.id)) {
        open.lastLine = line;
        if (isPlainObject(chunk.usage)) open.usage = { value: chunk.usage, line };
        open.limitsTwoWays ??= limitGivenOtherwise(gatherChunkFields(open.later, chunk, line, open.fields.value, open.unkept), line);
      } else gatherChunkFields(this.unplacedFields, chunk, line, {}, this.unplacedUnkept);
      return [];
    }
    const closed: AssembledResponse[] = [];
    if (this.current && this.startsAnother(this.current, id, chunk.choices)) closed.push(...this.finish());
    let open = this.current;
    if (!open) open = this.current = this.open(chunk, line);
    else open.limitsTwoWays ??= limitGivenOtherwise(gatherChunkFields(open.later, chunk, line, open.fields.value, open.unkept), line);
    if (id !== undefined) open.id ??= id;
    open.lastLine = line;
    for (const [position, choice] of chunk.choices.entries()) {
      if (isPlainObject(choice)) pushChoice(open, choice, position, line);
      else open.unread.push({ line, path: pointer("choices", position), code: "unsupported_item", detail: `the choice is ${describeValue(choice)}, not an object: it is not read` });
    }
    if (isPlainObject(chunk.usage)) open.usage = { value: chunk.usage, line };
    return closed;
  }

  /** End of the recording: the completion still open, as it was last seen. */
  finish(): AssembledResponse[] {
    const open = this.current;
    this.current = undefined;
    if (!open) return [];
    return this.keepCompletion ? [wholeCompletion(open, this.sayItemLines)] : choiceResponses(open, this.sayItemLines, this.keepObject);
  }

  /**
   * What the chunks with no choices that went into no completion held beyond
   * a completion's own fields, as losses on their lines. Taken once.
   */
  unplaced(): StreamLoss[] {
    const fields = this.unplacedFields;
    const unkept = this.unplacedUnkept;
    this.unplacedFields = new Map();
    this.unplacedUnkept = [];
    const extra = [...fields].flatMap(([key, field]) => extraKeyLosses({ [key]: field.value }, CHUNK_KEYS, "", "Open Responses").map((loss) => ({ line: field.line, ...loss })));
    return [...extra, ...unkept].sort((a, b) => a.line - b.line);
  }

  private open(chunk: Fields, line: number): OpenCompletion {
    const { choices: _choices, usage: _usage, obfuscation: _obfuscation, ...fields } = chunk;
    const later = this.unplacedFields;
    const unkept = this.unplacedUnkept;
    this.unplacedFields = new Map();
    this.unplacedUnkept = [];
    // A field the chunks before this one said, which this one says otherwise: the completion keeps this one's.
    for (const [key, field] of later) {
      if (!Object.hasOwn(fields, key) || !isPresent(fields[key]) || !differs(field.value, fields[key])) continue;
      unkept.push(differing(key, field.value, fields[key], field.line));
      later.delete(key);
    }
    if (chunk.obfuscation !== undefined) unkept.push(transportPadding(line));
    unkept.sort((a, b) => a.line - b.line);
    return { line, lastLine: line, choices: new Map<number, ChoiceState>(), fields: { value: fields, line }, later, unread: [], unkept };
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
}

/** A field holds something worth keeping: not null, not undefined, not "" and not an empty object or array. */
function isPresent(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  return !isPlainObject(value) || Object.keys(value).length > 0;
}

/**
 * Puts a field's fragments together: text and arrays appended, any other value
 * replaced by the last one. An array is the field's own copy, appended in place,
 * so that a long stream of token lists costs what its tokens do.
 */
function gather(fields: Map<string, Gathered>, key: string, fragment: unknown, origin: Origin): void {
  if (!isPresent(fragment)) return;
  const seen = fields.get(key);
  if (!seen) fields.set(key, { value: Array.isArray(fragment) ? [...fragment] : fragment, origin });
  else if (typeof seen.value === "string" && typeof fragment === "string") seen.value += fragment;
  else if (Array.isArray(seen.value) && Array.isArray(fragment)) for (const element of fragment) seen.value.push(element);
  else seen.value = Array.isArray(fragment) ? [...fragment] : fragment;
}

/**
 * A chunk's fields beyond `opening`'s (the opening chunk's, which win), each from
 * the first chunk that held it. What the completion will not keep goes to
 * `unkept`: the chunk's padding, and a value that differs from the one kept.
 */
function gatherChunkFields(fields: Map<string, ChunkField>, chunk: Fields, line: number, opening: Fields, unkept: StreamLoss[]): string | undefined {
  let limitOtherwise: string | undefined;
  for (const key of Object.keys(chunk)) {
    if (key === "obfuscation") {
      unkept.push(transportPadding(line));
      continue;
    }
    if (key === "choices" || key === "usage" || key === "object" || !isPresent(chunk[key])) continue;
    // The opening chunk's null (`system_fingerprint: null`) holds nothing: a later value fills it.
    const kept = Object.hasOwn(opening, key) && isPresent(opening[key]) ? opening[key] : fields.get(key)?.value;
    if (kept === undefined) fields.set(key, { value: chunk[key], line });
    else if (differs(chunk[key], kept)) unkept.push(differing(key, chunk[key], kept, line));
    if (kept !== undefined && limitOtherwise === undefined && RESTATED_LIMITS.has(comparedName(key)) && !isDeepStrictEqual(chunk[key], kept)) limitOtherwise = key;
  }
  return limitOtherwise;
}

function limitGivenOtherwise(key: string | undefined, line: number): OpenCompletion["limitsTwoWays"] {
  return key === undefined ? undefined : { line, key };
}

/**
 * The items of a completion whose chunks repeat a limit of the request two
 * ways: the completion keeps the first, openai-node's accumulator the last
 * (it assigns each chunk's fields), so which calls the request allowed is not
 * known, and they are written incomplete.
 */
function limitsSaidTwoWays(open: OpenCompletion, items: AssembledResponse["items"]): { items: AssembledResponse["items"]; losses: StreamLoss[] } {
  const said = open.limitsTwoWays;
  if (said === undefined) return { items, losses: [] };
  const detail = `${JSON.stringify(said.key)} of this chunk is not the one the completion keeps: a reader that keeps the first and one that keeps the last see other limits on its calls, so they are written incomplete`;
  return { items: items.map((item) => stoppedCall(item) ?? item), losses: [{ line: said.line, path: pointer(said.key), code: "form_changed", detail }] };
}

/**
 * Whether a chunk's value is another than the one the completion keeps. Only
 * plain values are compared: an object (`prompt_filter_results`) is the first
 * chunk's, and comparing it on every chunk would cost what the stream does.
 */
function differs(value: unknown, kept: unknown): boolean {
  return value !== kept && (value === null || typeof value !== "object") && isPresent(value);
}

function differing(key: string, value: unknown, kept: unknown, line: number): StreamLoss {
  return { line, path: pointer(key), code: "left_behind", detail: `${key} ${JSON.stringify(value)} of this chunk is not the completion's (${JSON.stringify(kept)}, which is written)` };
}

function pushChoice(open: OpenCompletion, choice: Fields, position: number, line: number): void {
  const index = isPlaceable(choice.index) ? choice.index : 0;
  let state = open.choices.get(index);
  // openai-python adds a choice it has not seen at the end of its list, and a
  // later delta to the choice at the position its index names: only choices
  // that come in index order, none left out, are the same choices to it.
  const outOfPlace = !state && isPlaceable(choice.index) && index !== open.choices.size ? open.choices.size : undefined;
  if (!state) {
    state = {
      origin: { line, position },
      lastLine: line,
      contentNull: false,
      calls: [],
      callAt: new Map(),
      fieldOrigins: new Map(),
      deltaExtra: new Map(),
      deltaOdd: new Map(),
      logprobsSeen: false,
      logprobs: new Map(),
      choiceExtra: new Map(),
    };
    open.choices.set(index, state);
  }
  if (!isPlaceable(choice.index)) state.renamed ??= { line, position, field: "index", before: "", after: describeValue(choice.index), tail: ["index"] };
  if (outOfPlace !== undefined) state.renamed ??= { line, position, field: "position", before: String(outOfPlace), after: String(index), tail: ["index"] };
  state.lastLine = line;
  if (choice.delta !== undefined && choice.delta !== null && !isPlainObject(choice.delta)) {
    open.unread.push({ line, path: pointer("choices", position, "delta"), code: "unsupported_field", detail: `the delta is ${describeValue(choice.delta)}, not an object: it is not read` });
  }
  const delta = isPlainObject(choice.delta) ? choice.delta : {};
  if (state.finishOrigin !== undefined && state.afterFinish === undefined && holdsSomething(delta)) state.afterFinish = { line, position, finished: state.finishOrigin.line };
  for (const key in delta) {
    if (!Object.hasOwn(delta, key)) continue;
    const value = delta[key];
    if (!DELTA_KEYS.has(key)) {
      gather(state.deltaExtra, key, value, { line, position, key });
      continue;
    }
    if (!state.fieldOrigins.has(key) && value !== null && value !== undefined) state.fieldOrigins.set(key, { line, position, key });
    // The role is always the assistant's: the message is rebuilt as one.
    if (key === "role" || value === null || value === undefined) {
      if (key === "content" && value === null) state.contentNull = true;
    } else if (key === "content" && typeof value === "string") state.content = (state.content ?? "") + value;
    else if (key === "refusal" && typeof value === "string") state.refusal = (state.refusal ?? "") + value;
    else if (key === "tool_calls" && Array.isArray(value)) {
      if (state.calls.length === 0) sameIndexTwice(state, value, { line, position, key });
      value.forEach((fragment, k) => {
        const origin = { line, position, key, fragment: k };
        if (isPlainObject(fragment)) pushCallFragment(state, fragment, origin);
        else open.unread.push({ line, path: pathOf(origin), code: "unsupported_item", detail: `the tool call fragment is ${describeValue(fragment)}, not an object: it is not read` });
      });
    } else if (key === "function_call" && isPlainObject(value)) {
      state.legacyCall ??= { arguments: "" };
      const untextual = untextualField(value, ["name", "arguments"]);
      if (untextual !== undefined) state.renamed ??= { line, position, key, field: "untextual", before: "", after: describeValue(value[untextual]), tail: [untextual] };
      if (typeof value.name === "string") state.legacyCall.name = joinName(state, state.legacyCall.name, value.name, { line, position, key }, ["name"]);
      if (typeof value.arguments === "string") state.legacyCall.arguments += value.arguments;
    } else {
      // Kept as sent, so that the message converter says what it says of a stored one.
      state.deltaOdd.set(key, { value, origin: { line, position, key } });
    }
  }
  if ("logprobs" in choice) state.logprobsSeen = true;
  if (isPlainObject(choice.logprobs)) {
    for (const [key, value] of Object.entries(choice.logprobs)) gather(state.logprobs, key, value, { line, position });
    if (state.logprobs.size > 0) state.logprobsOrigin ??= { line, position };
  }
  for (const [key, value] of Object.entries(choice)) {
    if (CHOICE_KEYS.has(key)) continue;
    // The rebuilt choice's message is the deltas' alone: a whole one beside them never replaces it.
    if (key === "message") {
      if (isPresent(value)) open.unread.push({ line, path: pointer("choices", position, "message"), code: "unsupported_field", detail: "a whole message beside the delta is not read: the choice's message is rebuilt from its deltas" });
      continue;
    }
    gather(state.choiceExtra, key, value, { line, position });
  }
  if (choice.finish_reason !== null && choice.finish_reason !== undefined) {
    // Only a reason that ends the calls otherwise matters: `tool_calls` then `stop` completes them either way.
    if (state.finishOrigin !== undefined && state.afterFinish === undefined && callStatusOf(choice.finish_reason) !== callStatusOf(state.finishReason)) {
      state.afterFinish = { line, position, finished: state.finishOrigin.line, replaced: state.finishReason };
    }
    state.finishReason = choice.finish_reason;
    state.finishOrigin = { line, position };
  }
}

/** Whether a delta adds to the message: a key other than `role` with a value that is not null, "" or []. */
function holdsSomething(delta: Fields): boolean {
  for (const key in delta) {
    if (!Object.hasOwn(delta, key) || key === "role") continue;
    const value = delta[key];
    if (value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) continue;
    return true;
  }
  return false;
}

/**
 * The items of a choice whose stream went on after its finish_reason, and the
 * loss that says so, on the late delta's line: as items, its calls are made
 * incomplete; in the rebuilt completion (`whole`), every delta is kept.
 */
function lateDelta(choice: ChoiceState | undefined, items: AssembledResponse["items"], whole: boolean): { items: AssembledResponse["items"]; losses: StreamLoss[] } {
  const late = choice?.afterFinish;
  if (late === undefined) return { items, losses: [] };
  const said =
    late.replaced === undefined
      ? `a delta came after the choice's finish_reason (line ${late.finished}): a reader that stops there and one that reads on see different calls`
      : `the choice said finish_reason ${JSON.stringify(late.replaced)} on line ${late.finished} and another one here: a reader that stops at the first and one that reads on see its calls end two ways`;
  const path = pointer("choices", late.position, late.replaced === undefined ? "delta" : "finish_reason");
  // Either way its calls are incomplete: the record a conversion writes must not hold one the gate would pass.
  const stopped = items.map((item) => stoppedCall(item) ?? item);
  if (whole) return { items: stopped, losses: [{ line: late.line, path, code: "form_changed", detail: `${said}; the completion holds every delta, as the second sees it, and its calls are written incomplete` }] };
  return { items: stopped, losses: [{ line: late.line, path, code: "form_changed", detail: `${said}, so its calls are written incomplete` }] };
}

function pushCallFragment(state: ChoiceState, fragment: Fields, origin: Origin): void {
  const id = typeof fragment.id === "string" && fragment.id !== "" ? fragment.id : undefined;
  const last = state.calls[state.calls.length - 1];
  const index = isPlaceable(fragment.index) ? fragment.index : id === undefined && last ? last.index : state.calls.length;
  const placedBy = isPlaceable(fragment.index) ? "index" : wholeCall(fragment, id, state) ? "whole" : undefined;
  // The SDKs place fragments by index alone. A fragment without one that gives a
  // whole call with an id no call of the choice has (Mistral streams each call so)
  // is that call to every reader that reads it at all: openai-python throws at it
  // and openai-node, keying it under "undefined", lists no call. A fragment that
  // could continue a call, or fragments placed both ways, no one reads alike.
  if (placedBy === undefined || (state.placedBy !== undefined && state.placedBy !== placedBy)) {
    state.renamed ??= { ...origin, field: "index", before: "", after: describeValue(fragment.index), tail: ["index"] };
  }
  state.placedBy ??= placedBy;
  // The latest call at this index takes the fragment, unless the fragment names
  // another call: some providers put every parallel call at index 0. The SDKs
  // key calls by index alone, and add such a fragment to the call there.
  let call = state.callAt.get(index);
  // openai-python adds a call it has not seen at the end of its list, and a later
  // fragment to the call at the position its index names: only calls that come
  // in index order, none left out, are the same calls to it.
  if (!call && isPlaceable(fragment.index) && index !== state.callAt.size) state.renamed ??= { ...origin, field: "position", before: String(state.callAt.size), after: String(index), tail: ["index"] };
  if (call?.id !== undefined && id !== undefined && call.id !== id) {
    state.renamed ??= { ...origin, field: "id", before: call.id, after: id, tail: ["id"] };
    call = undefined;
  }
  if (!call) {
    call = { index, order: state.calls.length, text: "", origin, extra: new Map(), bodyExtra: new Map() };
    state.calls.push(call);
    state.callAt.set(index, call);
  }
  if (id !== undefined) call.id ??= id;
  if (typeof fragment.type === "string") {
    if (call.type !== undefined && call.type !== fragment.type) state.renamed ??= { ...origin, field: "type", before: call.type, after: fragment.type, tail: ["type"] };
    call.type ??= fragment.type;
  }
  const body = isPlainObject(fragment.function) ? fragment.function : isPlainObject(fragment.custom) ? fragment.custom : undefined;
  if (isPlainObject(fragment.custom)) call.type ??= "custom";
  const untextual = untextualField(fragment, ["id", "type"]);
  if (untextual !== undefined) state.renamed ??= { ...origin, field: "untextual", before: "", after: describeValue(fragment[untextual]), tail: [untextual] };
  if (body) {
    const bodyKey = isPlainObject(fragment.function) ? "function" : "custom";
    const untextualBody = untextualField(body, ["name", call.type === "custom" ? "input" : "arguments"]);
    if (untextualBody !== undefined) state.renamed ??= { ...origin, field: "untextual", before: "", after: describeValue(body[untextualBody]), tail: [bodyKey, untextualBody] };
    if (typeof body.name === "string") call.name = joinName(state, call.name, body.name, origin, [isPlainObject(fragment.function) ? "function" : "custom", "name"]);
    const textKey = call.type === "custom" ? "input" : "arguments";
    const text = body[textKey];
    if (typeof text === "string") call.text += text;
    for (const [key, value] of Object.entries(body)) if (key !== "name" && key !== textKey) gather(call.bodyExtra, key, value, origin);
  }
  for (const [key, value] of Object.entries(fragment)) if (!CALL_KEYS.has(key)) gather(call.extra, key, value, origin);
}

/** A fragment that gives a whole call (id, name, arguments) whose id no call of the choice has. */
function wholeCall(fragment: Fields, id: string | undefined, state: ChoiceState): boolean {
  if (fragment.index !== undefined || id === undefined || state.calls.some((call) => call.id === id)) return false;
  const body = fragment.function;
  return isPlainObject(body) && typeof body.name === "string" && body.name !== "" && typeof body.arguments === "string";
}

/**
 * The first of `keys` that a fragment gives as something else than a string
 * (null is nothing): openai-node appends it to the text or sets it as it is (an
 * array's text, a number), openai-python replaces the text with it or skips it,
 * and this reader skips it, so each rebuilds another call.
 */
function untextualField(fields: Fields, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = fields[key];
    if (value !== undefined && value !== null && typeof value !== "string") return key;
  }
  return undefined;
}

/**
 * The first tool_calls list of a choice with one index twice: openai-python
 * takes that list as it is, each entry a call of its own, where openai-node and
 * this reader put fragments of one index together.
 */
function sameIndexTwice(state: ChoiceState, fragments: readonly unknown[], origin: Origin): void {
  const seen = new Set<number>();
  fragments.forEach((fragment, k) => {
    if (!isPlainObject(fragment) || !isPlaceable(fragment.index)) return;
    if (seen.has(fragment.index)) state.renamed ??= { ...origin, fragment: k, field: "twice", before: "", after: String(fragment.index), tail: ["index"] };
    seen.add(fragment.index);
  });
}

/**
 * Whether the SDKs place a choice or a call fragment by this index: an integer
 * from 0. openai-node throws at any other; openai-python throws at a missing
 * one and counts a negative one from the end, adding the fragment to another
 * choice or call; readers that skip what they cannot place read other arguments.
 */
function isPlaceable(index: unknown): index is number {
  return typeof index === "number" && Number.isInteger(index) && index >= 0;
}

/**
 * A name sent again on a later fragment is the same name (the one openai-node
 * keeps); a different one continues it, as openai-python reads it, and is noted
 * (`renamed`): openai-node reads it as the whole name.
 */
function joinName(state: ChoiceState, current: string | undefined, fragment: string, origin: Origin, tail: string[]): string {
  if (current === undefined || current === fragment) return fragment;
  if (current !== "" && fragment !== "") state.renamed ??= { ...origin, field: "name", before: current, after: fragment, tail };
  return current + fragment;
}

/** The items of a choice one of whose calls was renamed by a later fragment, its calls written incomplete, and the loss that says so. */
function renamedCalls(choice: ChoiceState | undefined, items: AssembledResponse["items"]): { items: AssembledResponse["items"]; losses: StreamLoss[] } {
  const renamed = choice?.renamed;
  if (renamed === undefined) return { items, losses: [] };
  const readings =
    renamed.field === "name"
      ? `a fragment names the call ${JSON.stringify(renamed.after)} after it was named ${JSON.stringify(renamed.before)}: openai-python appends the fragment, openai-node reads it as the whole name`
      : renamed.field === "type"
        ? `a fragment gives the call type ${JSON.stringify(renamed.after)} after it was ${JSON.stringify(renamed.before)}: the SDKs take the last type, this reader the first`
        : renamed.field === "id"
          ? `a fragment at the index of the call ${JSON.stringify(renamed.before)} gives the id ${JSON.stringify(renamed.after)}: the SDKs add it to the call at that index, its arguments appended, this reader starts another call`
          : renamed.field === "position"
            ? `the ${renamed.key === undefined ? "choice" : "tool call fragment"} gives the index ${renamed.after} where ${renamed.before} ${renamed.key === undefined ? "choices" : "calls"} came before it: openai-python adds it at the end of its list, and later fragments to the one at the position their index names, where openai-node and this reader place each by its index`
            : renamed.field === "twice"
              ? `the choice's first tool_calls list gives the index ${renamed.after} twice: openai-python keeps each entry as a call of its own, where openai-node and this reader put them together`
              : renamed.field === "untextual"
                ? `the ${renamed.key === "function_call" ? "function_call" : "tool call fragment"} gives ${renamed.tail.join(".")} as ${renamed.after}, not a string: openai-node appends or sets it as it is, openai-python replaces the text with it or skips it, and this reader skips it`
                : `the ${renamed.key === undefined ? "choice" : "tool call fragment"} gives the index ${renamed.after}, not an integer from 0: openai-node throws at it, openai-python throws at a missing one and counts a negative one from the end, and this reader places it otherwise`;
  return {
    items: items.map((item) => stoppedCall(item) ?? item),
    losses: [{ line: renamed.line, path: pathOf(renamed, ...renamed.tail), code: "form_changed", detail: `${readings}, so no one call is the stream's and the choice's calls are written incomplete` }],
  };
}

function valuesOf(fields: ReadonlyMap<string, Gathered>): Fields {
  return Object.fromEntries([...fields].map(([key, { value }]) => [key, value]));
}

/** The choices in index order. */
function choicesOf(open: OpenCompletion): ChoiceState[] {
  return [...open.choices.entries()].sort(([a], [b]) => a - b).map(([, choice]) => choice);
}

/** The calls of a choice in the order the message lists them. */
function callsOf(choice: ChoiceState): CallState[] {
  return [...choice.calls].sort((a, b) => a.index - b.index || a.order - b.order);
}

/** The choice the non-streamed API would have returned: index, message, logprobs, finish_reason, its other fields. */
function rebuildChoice(index: number, choice: ChoiceState): Fields {
  const message: Fields = { role: "assistant" };
  if (choice.content !== undefined) message.content = choice.content;
  else if (choice.contentNull) message.content = null;
  if (choice.refusal !== undefined) message.refusal = choice.refusal;
  for (const [key, { value }] of choice.deltaExtra) setOwn(message, key, value);
  const calls = callsOf(choice);
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => {
      const body = call.type === "custom" ? { name: call.name ?? "", input: call.text } : { name: call.name ?? "", arguments: call.text };
      const kind = call.type === "custom" ? "custom" : "function";
      return { id: call.id, type: call.type ?? "function", [kind]: { ...body, ...valuesOf(call.bodyExtra) }, ...valuesOf(call.extra) };
    });
  }
  if (choice.legacyCall) message.function_call = { name: choice.legacyCall.name ?? "", arguments: choice.legacyCall.arguments };
  for (const [key, { value }] of choice.deltaOdd) if (!Object.hasOwn(message, key)) setOwn(message, key, value);
  const rebuilt: Fields = { index, message };
  if (choice.logprobsSeen) rebuilt.logprobs = choice.logprobs.size > 0 ? { content: null, refusal: null, ...valuesOf(choice.logprobs) } : null;
  rebuilt.finish_reason = choice.finishReason ?? null;
  for (const [key, { value }] of choice.choiceExtra) setOwn(rebuilt, key, value);
  return rebuilt;
}

/** The chat.completion the chunks amount to, as the non-streamed API would have written it. */
function rebuildCompletion(open: OpenCompletion, choices: readonly ChoiceState[]): Fields {
  const indexes = [...open.choices.keys()].sort((a, b) => a - b);
  const value: Fields = { ...open.fields.value, object: "chat.completion" };
  for (const [key, field] of open.later) if (!Object.hasOwn(value, key) || !isPresent(value[key])) setOwn(value, key, field.value);
  value.choices = choices.map((choice, position) => rebuildChoice(indexes[position]!, choice));
  if (open.usage) value.usage = open.usage.value;
  return value;
}

/**
 * One response per choice, in index order, with the items completionToItems
 * gives the rebuilt completion; the completion's own losses go with the first.
 */
function choiceResponses(open: OpenCompletion, sayItemLines: boolean, keepObject: boolean): AssembledResponse[] {
  const choices = choicesOf(open);
  const place = placer(open, choices);
  const completion = rebuildCompletion(open, choices);
  const converted = completionToItems({ completion });
  // Objects written out field by field: a spread of objects of several shapes is
  // V8's slow path, and it ran for every loss of every completion.
  const placed = (losses: readonly Loss[]): StreamLoss[] =>
    losses.map(({ path, code, detail }) => {
      const at = place(path);
      return { line: at.line, path: at.path, code, detail };
    });
  const response = (status: AssembledResponse["status"], items: AssembledResponse["items"], losses: StreamLoss[], line: number, lastLine: number): AssembledResponse =>
    open.id !== undefined ? { id: open.id, status, items, losses, line, lastLine } : { status, items, losses, line, lastLine };
  const responses = converted.value.map((choice, position): AssembledResponse => {
    const first = position === 0;
    const late = lateDelta(choices[position], choice.items, false);
    const renamed = renamedCalls(choices[position], late.items);
    const limited = limitsSaidTwoWays(open, renamed.items);
    const answer = response(choice.status, limited.items, [...placed(choice.losses), ...late.losses, ...renamed.losses, ...limited.losses], first ? open.line : choices[position]!.origin.line, first ? open.lastLine : choices[position]!.lastLine);
    if (!first) answer.laterChoice = true;
    if (sayItemLines) answer.itemLines = choice.items.map(() => completedAt(open, choices[position]));
    // A chunk that repeats its request's limits says them of every choice, as a stored completion does.
    if (keepObject) answer.responseObject = completion;
    return answer;
  });
  // No chunk held a choice object: nothing to rebuild, and the completion's fields still said.
  if (responses.length === 0) return [response("in_progress", [], [...open.unread, ...placed(converted.losses), ...open.unkept], open.line, open.lastLine)];
  responses[0]!.losses.push(...open.unread, ...placed(converted.losses), ...open.unkept);
  return responses;
}

/** One response for the whole completion: the first choice's items, and the chat.completion rebuilt. */
function wholeCompletion(open: OpenCompletion, sayItemLines: boolean): AssembledResponse {
  const choices = choicesOf(open);
  const value = rebuildCompletion(open, choices);
  const [first] = completionToItems({ completion: value }).value;
  const completion: StreamedCompletion = { fields: { value: open.fields.value, line: open.fields.line }, rebuilt: { value, place: placer(open, choices) } };
  const firstChoice = choices[0];
  const late = lateDelta(firstChoice, first?.items ?? [], true);
  const renamed = renamedCalls(firstChoice, late.items);
  const limited = limitsSaidTwoWays(open, renamed.items);
  const items = limited.items;
  if (firstChoice) completion.position = firstChoice.origin.position;
  if (firstChoice?.finishReason !== undefined && firstChoice.finishOrigin) completion.finish = { value: String(firstChoice.finishReason), line: firstChoice.finishOrigin.line, position: firstChoice.finishOrigin.position };
  if (open.usage) completion.usage = open.usage;
  const response: AssembledResponse = {
    ...(open.id !== undefined ? { id: open.id } : {}),
    status: first?.status ?? "in_progress",
    items,
    // What the chunks held that the completion cannot: the converter's losses are the rest.
    losses: [...open.unread, ...open.unkept, ...late.losses, ...renamed.losses, ...limited.losses],
    line: open.line,
    lastLine: open.lastLine,
    completion,
  };
  if (sayItemLines) response.itemLines = items.map(() => completedAt(open, firstChoice));
  return response;
}

/** The line that completed a choice's items: the chunk with its finish_reason, else the completion's last chunk. */
function completedAt(open: OpenCompletion, choice: ChoiceState | undefined): number {
  return choice?.finishOrigin?.line ?? open.lastLine;
}

/**
 * Where a field of the rebuilt completion came from. A field of a choice points
 * into the chunk that first held it; a field of the message into the delta that
 * first held it (a call into its first fragment); the message itself into its
 * choice's first delta; a field of the completion into the chunk that gave it.
 */
function placer(open: OpenCompletion, choices: readonly ChoiceState[]): (path: string) => Pick<StreamLoss, "line" | "path"> {
  return (path) => {
    const tokens = path.split("/").slice(1);
    const [first, second, field, ...rest] = tokens;
    const tail = (from: readonly string[]) => from.map((token) => "/" + token).join("");
    if (first === "choices" && second !== undefined && choices[Number(second)]) {
      const choice = choices[Number(second)]!;
      if (field === undefined || field === "index") return { line: choice.origin.line, path: pathOf(choice.origin) };
      if (field === "message") return placeInMessage(choice, rest);
      if (field === "finish_reason") {
        const origin = choice.finishOrigin ?? choice.origin;
        return { line: origin.line, path: pathOf(origin, "finish_reason") };
      }
      const gathered = field === "logprobs" ? (rest[0] === undefined ? choice.logprobsOrigin : choice.logprobs.get(unescape(rest[0]))?.origin) : choice.choiceExtra.get(unescape(field))?.origin;
      const origin = gathered ?? choice.origin;
      return { line: origin.line, path: pathOf(origin) + "/" + field + tail(rest) };
    }
    if (first === "usage" && open.usage) return { line: open.usage.line, path };
    const later = first === undefined ? undefined : open.later.get(unescape(first));
    return { line: later?.line ?? open.fields.line, path };
  };
}

function placeInMessage(choice: ChoiceState, tokens: readonly string[]): Pick<StreamLoss, "line" | "path"> {
  const [field, second, ...rest] = tokens;
  const tail = (from: ReadonlyArray<string | undefined>) => from.filter((token) => token !== undefined).map((token) => "/" + token).join("");
  if (field === "tool_calls" && second !== undefined) {
    const call = callsOf(choice)[Number(second)];
    if (call) {
      // A field of the call's `function` object sits in the fragment's `function` object too.
      const [inner, key] = rest;
      const extra = inner !== undefined && (inner === "function" || inner === "custom") && key !== undefined ? call.bodyExtra.get(unescape(key)) : inner !== undefined ? call.extra.get(unescape(inner)) : undefined;
      const origin = extra?.origin ?? call.origin;
      return { line: origin.line, path: pathOf(origin) + tail(rest) };
    }
  }
  const key = field === undefined ? undefined : unescape(field);
  const origin = key === undefined ? undefined : (choice.fieldOrigins.get(key) ?? choice.deltaExtra.get(key)?.origin ?? choice.deltaOdd.get(key)?.origin);
  if (origin) return { line: origin.line, path: pathOf(origin) + tail([second, ...rest]) };
  return { line: choice.origin.line, path: pathOf(choice.origin, "delta") };
}

function unescape(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}
