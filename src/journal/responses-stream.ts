// Rebuilds the output items of Open Responses streaming events, response by
// response. Items are keyed by `output_index`; an event's `item_id` must name the
// item found there. Nothing is final until the stream says so: an item keeps the
// status it was last seen with, so a stream cut mid-call leaves an `in_progress`
// call with partial arguments, which the gate blocks.
//
// | event                                            | effect                                           |
// |--------------------------------------------------|--------------------------------------------------|
// | response.created / .queued / .in_progress        | opens a response (another id closes the last;    |
// |                                                  | .created also closes one held after its end)     |
// |                                                  | a response any other event than .created (or a   |
// |                                                  | terminal one) opens stops its calls: the SDKs    |
// |                                                  | throw at that event                              |
// |                                                  | a response object that gives a limit on its      |
// |                                                  | calls otherwise than an earlier one (or leaves   |
// |                                                  | it out) stops its calls                          |
// | response.output_item.added                       | opens the item at `output_index`; until its      |
// |                                                  | `.done`, a `completed` status is in_progress     |
// |                                                  | (one where an item was added stops the calls:    |
// |                                                  | openai-node throws at it)                        |
// | response.function_call_arguments.delta           | appends to the call's arguments                  |
// | response.function_call_arguments.done            | sets the arguments (the status stays); either,   |
// |                                                  | with a text that is no string, leaves the        |
// |                                                  | stream's calls incomplete (openai-node appends   |
// |                                                  | or sets it as it is)                             |
// | response.content_part.added / .done              | sets a content part                              |
// | response.output_text.delta / .done               | appends to / sets an output_text part's text     |
// | response.output_text.annotation.added            | adds an annotation to the part                   |
// | response.refusal.delta / .done                   | appends to / sets a refusal part                 |
// | response.reasoning_summary_part.added / .done    | sets a summary part                              |
// | response.reasoning_summary_text.delta / .done    | appends to / sets a summary part's text          |
// | response.reasoning_text.delta / .done            | appends to / sets a reasoning content part       |
// | response.output_item.done                        | replaces the item: authoritative, with status    |
// |                                                  | (one with another item id than the added one,    |
// |                                                  | or where none was added, stops the calls:        |
// |                                                  | openai-node throws at it)                        |
// | response.completed / .incomplete / .failed       | sets the status; its `output`, if any, wins;     |
// |                                                  | holds the response until the next .created or    |
// |                                                  | the end of the stream: any event between (but    |
// |                                                  | this one again) stops its calls, as the SDKs     |
// |                                                  | read on and take it; a response of another       |
// |                                                  | status than the event names, none, one without   |
// |                                                  | an output array, or an empty output after        |
// |                                                  | streamed items (the SDKs' final response holds   |
// |                                                  | none of them) stops its calls                    |
// | error                                            | the response has failed: the error is a loss;    |
// |                                                  | the response.failed that follows closes it       |
// | an extension event (`acme:trace_event`)          | ignored, as the specification lets clients: one  |
// |                                                  | provider_extension loss per type                 |
// | any other event                                  | ignored: one unsupported_item loss per type      |
// | `obfuscation` of any event read                  | nothing: padding of the transport, said on the   |
// |                                                  | event's line (left_behind)                       |
//
// A stream that ends before its terminal event leaves every call in_progress,
// finished by its `output_item.done` or not: openai-python and the Agents SDKs
// give no final response without one.
//
// An item was completed by its `output_item.done` (or, before that, its call's
// `function_call_arguments.done`), else by the response's last event: the line
// it is reported at.
//
// A stream that says two things of one call is one that a reader running calls
// as they finish, or building them from their events, reads otherwise than the
// gate would: every completed call of its response is written incomplete, with
// a loss, so that the gate runs none. It says two things when:
// - a call is finished (`output_item.done`, `function_call_arguments.done`)
//   twice, each time otherwise, or its terminal output holds it otherwise;
// - an `output_item.done` gives another call_id, name or arguments than the
//   call's `output_item.added` and the deltas after it gave;
// - an output_item event puts another item where a call stood, or opens a call
//   again where one had arguments or was finished;
// - an arguments event fits no open call, or comes after its call was finished;
// - a `function_call_arguments.done` names another function than its call's;
// - an `output_item.added` opens an item at another output_index than the next;
// - a response object gives what its request allowed (`tool_choice`, `tools`,
//   `parallel_tool_calls`, in any spelling a reader folding names reads)
//   otherwise than an earlier response object of the stream gave it, or leaves
//   it out: the gate holds the calls to the last one, and a reader that took
//   the request's limits from `response.created` allows other calls.
// An event that its item_id places where its output_index holds no item (or that
// has none) is applied to the item it names, but the SDKs, which go by
// output_index, fail there: the completed calls of its response are written
// incomplete too.
// A call the stream gave and then put another item in the place of, or that its
// terminal output leaves out, is kept after the response's items: a reader may
// have run it, so it is judged rather than lost.
//
// Output items become input items as they are: `id`, `status` and every field
// the output carried are kept; a reasoning item without `summary` gets the
// empty one the input shape requires. A call of a failed response never ran in
// the recording: a completed one is written incomplete, with a loss, so that
// the gate does not run it now. The last response object the stream showed is
// the response's record: each of its fields but `object` and `output` is
// `left_behind`, as normalize reports a stored response's. Asked to
// (`resource`), the assembler instead gives that object and the line that set
// each item, for the response object the stream amounts to.
import { transportPadding, type AssembledResponse, type StreamedResource, type StreamLoss } from "../models/assembled-response.js";
import type { CanonicalItem } from "../models/open-responses.js";
import { pointerToken } from "../models/json-pointer.js";
import { describeValue } from "../models/json-value.js";
import { isPlainObject } from "./detect.js";

import { EVENT_TYPES, TERMINAL_STATUS, type EventType, type Fields, type FinishedCall, type IgnoredEvents, type OpenResponse } from "./open-response.js";
import { outputNotGiven, otherEnd, repeatsEnd, showResponse, unfinishedResponse } from "./response-ends.js";
import { dropCall, finishCall, keepsCallsAfterEnd, keepsFinishedCalls, replaceCall, stopCall } from "./streamed-calls.js";

export type { AssembledResponse } from "../models/assembled-response.js";
export { unfinishedResponse } from "./response-ends.js";

const KNOWN_EVENTS: ReadonlySet<string> = new Set(EVENT_TYPES);

const CUT_BEFORE_END = "the stream ends before its terminal event (response.completed, .incomplete or .failed), where openai-python and the Agents SDKs give no final response: the call is in_progress";

export interface ResponsesStreamOptions {
  /** Also give each response what its events showed of the response object (`AssembledResponse.resource`). */
  resource?: boolean;
  /** Say which event completed each item (`AssembledResponse.itemLines`). */
  itemLines?: boolean;
  /** Report the response object's fields that no item holds (true by default). */
  leftBehind?: boolean;
  /** Also give each response the last response object its events showed (`AssembledResponse.responseObject`). */
  responseObject?: boolean;
}

/**
 * Events that came when no response was open: what they say goes to the next
 * response that opens, or, if none does, is told by `unplaced`.
 */
interface Unplaced {
  losses: StreamLoss[];
  ignored: Map<string, IgnoredEvents>;
  failed: boolean;
}

const nothingUnplaced = (): Unplaced => ({ losses: [], ignored: new Map<string, IgnoredEvents>(), failed: false });

export class ResponsesStreamAssembler {
  private current: OpenResponse | undefined;
  private unplacedEvents: Unplaced = nothingUnplaced();
  private readonly keepResource: boolean;
  private readonly sayItemLines: boolean;
  private readonly sayLeftBehind: boolean;
  private readonly keepObject: boolean;

  constructor(options: ResponsesStreamOptions = {}) {
    this.keepResource = options.resource ?? false;
    this.sayItemLines = options.itemLines ?? false;
    this.sayLeftBehind = options.leftBehind ?? true;
    this.keepObject = options.responseObject ?? false;
  }

  /** One streaming event and the journal line it came from; returns the responses it closes (a terminal event closes none: its response is held). */
  push(event: unknown, line: number): AssembledResponse[] {
    if (!isPlainObject(event) || typeof event.type !== "string") {
      throw new TypeError("a streaming event is an object with a string type");
    }
    const type = event.type;
    if (!KNOWN_EVENTS.has(type)) {
      // Part of the response in progress, which goes on; before any, it opens none.
      if (this.current) this.current.lastLine = line;
      ignore(this.current ?? this.unplacedEvents, type, line, carriesCall(event) && !ofItemNoCall(this.current, event));
      return [];
    }
    if (type === "error" && !this.current) {
      failWith(this.unplacedEvents, event, line);
      if (event.obfuscation !== undefined) this.unplacedEvents.losses.push(transportPadding(line));
      return [];
    }
    return this.apply(type as EventType, event, line);
  }

  /** End of the recording: the response still open, or held after its terminal event, as it was last seen. */
  finish(): AssembledResponse[] {
    const open = this.current;
    this.current = undefined;
    return open ? [assemble(open, this.keepResource, this.sayItemLines, this.sayLeftBehind, this.keepObject)] : [];
  }

  /**
   * What the events that went into no response said, each loss with its line;
   * empty when every event went into one. Taken once: the assembler forgets them.
   */
  unplaced(): StreamLoss[] {
    const { losses, ignored } = this.unplacedEvents;
    this.unplacedEvents = nothingUnplaced();
    describeIgnored(ignored);
    return losses;
  }

  private apply(type: EventType, event: Fields, line: number): AssembledResponse[] {
    const closed: AssembledResponse[] = [];
    const response = isPlainObject(event.response) ? event.response : undefined;
    const responseId = typeof response?.id === "string" ? response.id : undefined;
    // Another response's event ends the one in progress, as far as it got.
    if (this.current && responseId !== undefined && this.current.id !== undefined && this.current.id !== responseId) {
      closed.push(...this.finish());
    }
    // A response held after its terminal event ends at the next response.created.
    if (this.current?.ended !== undefined && type === "response.created") closed.push(...this.finish());
    const opening = this.current === undefined;
    const open: OpenResponse = (this.current ??= this.open(line));
    if (open.ended !== undefined && !repeatsEnd(open.ended, type, response)) {
      open.afterEnd ??= { line, detail: `${type} comes after the response's ${open.ended.type} of line ${open.ended.line}: openai-node, openai-python and the Agents SDKs read on and take what it says, where a reader that stops at the terminal event does not` };
    }
    // openai-python and openai-node take the response from its response.created
    // and throw at any other first event. A terminal event on its own is the
    // whole response as a record, as a logger that keeps only the last event
    // writes it: a reader takes its output, which is what is judged here.
    if (opening && type !== "response.created" && !Object.hasOwn(TERMINAL_STATUS, type)) {
      open.sdksFail ??= `the response's first event is ${type} (line ${line}), not response.created: openai-python and openai-node throw at a stream that does not open with it, and give no final response`;
    }
    open.lastLine = line;
    if (event.obfuscation !== undefined) open.losses.push(transportPadding(line));
    if (responseId !== undefined) open.id ??= responseId;
    if (typeof response?.status === "string") open.status = response.status;

    switch (type) {
      case "error":
        // The response.failed that follows (the specification's order) closes the response, so the error does not end it here.
        failWith(open, event, line);
        return closed;
      case "response.created":
      case "response.queued":
      case "response.in_progress":
        if (response) showResponse(open, type, response, line);
        return closed;
      case "response.completed":
      case "response.incomplete":
      case "response.failed": {
        if (response) showResponse(open, type, response, line);
        open.stoppedBy = (response ? (unfinishedResponse(response) ?? otherEnd(type, response)) : undefined) ?? outputNotGiven(type, response, open.items.size > 0);
        if (typeof response?.status !== "string") open.status = TERMINAL_STATUS[type];
        // An empty output next to streamed items is a terminal event that omits
        // the output, not one that says there was none: the items stay as last
        // seen, but their calls are stopped (outputNotGiven).
        if (Array.isArray(response?.output) && (response.output.length > 0 || open.items.size === 0)) {
          open.output = response.output;
          open.outputLine = line;
          keepsFinishedCalls(open, response.output, line);
        }
        // Held, not given: what comes after it before the next response.created is still this response's.
        open.ended ??= { line, type, response };
        return closed;
      }
      case "response.output_item.added":
      case "response.output_item.done": {
        const index = event.output_index;
        if (!isIndex(index)) open.losses.push(unplaced(line, "/output_index", "output_index is not a non-negative integer; the item is not placed"));
        else if (!isPlainObject(event.item)) open.losses.push(unplaced(line, "/item", "the event carries no item object"));
        else {
          const item = copyItem(event.item);
          const replaced = open.items.get(index);
          // The SDKs append each added item and apply the events after it by
          // output_index: openai-node throws at an item added at another index
          // than the next, openai-python puts it at the next one. Its events then
          // reach other items than here (or none), and its call is not theirs.
          if (type === "response.output_item.added" && replaced === undefined && index !== open.items.size) {
            open.contradiction ??= { line, detail: `output_item.added at output_index ${index}, where the next item is at ${open.items.size}: the SDKs append each item, so they place it, and the events after it, otherwise` };
          }
          // openai-node appends each added item and throws at one added where an
          // item stands; openai-python appends it after the first, and places
          // the events that follow by output_index, at the first.
          if (type === "response.output_item.added" && replaced !== undefined) {
            open.sdksFail ??= `output_item.added on line ${line} adds an item at output_index ${index}, where one was added already: openai-node throws there and gives no final response, and openai-python holds both`;
          }
          // openai-node finds the item a done replaces by its output_index, and throws where none was added; openai-python does not read the done.
          if (type === "response.output_item.done" && replaced === undefined) {
            open.sdksFail ??= `output_item.done on line ${line} finishes an item at output_index ${index} that no output_item.added opened: openai-node throws there and gives no final response`;
          }
          // openai-node keeps an item's id from its output_item.added to its .done, and throws at a done that gives another (or none).
          if (type === "response.output_item.done" && replaced !== undefined && replaced.id !== item.id) {
            open.sdksFail ??= `output_item.done on line ${line} gives the item at output_index ${index} the id ${describeValue(item.id)}, where it was added as ${describeValue(replaced.id)}: openai-node throws there and gives no final response`;
          }
          if (replaced !== undefined) replaceCall(open, type, index, replaced, item, line);
          if (type === "response.output_item.done") finishCall(open, index, item, line, replaced);
          if (typeof replaced?.id === "string" && open.byId.get(replaced.id) === replaced) open.byId.delete(replaced.id);
          open.items.set(index, item);
          open.itemLines.set(index, line);
          if (type === "response.output_item.done") open.doneLines.set(item, line);
          if (type === "response.output_item.added") open.unfinished.add(index);
          else open.unfinished.delete(index);
          if (typeof item.id === "string") open.byId.set(item.id, item);
        }
        return closed;
      }
      case "response.function_call_arguments.delta":
      case "response.function_call_arguments.done": {
        const item = this.itemFor(open, event, line);
        // Arguments that fit no call here may belong to one a reader places them in.
        if (!item || item.type !== "function_call") {
          open.contradiction ??= { line, detail: `${type} at ${isIndex(event.output_index) ? `output_index ${event.output_index}` : "no output_index"} fits no call the stream opened: a reader that places it otherwise runs other arguments` };
          if (item) open.losses.push(unplaced(line, "", `${type} is about an item of type ${describeValue(item.type)}, not a function_call; not applied`));
          return closed;
        }
        const field = type === "response.function_call_arguments.delta" ? "delta" : "arguments";
        const text = event[field];
        if (typeof text !== "string") {
          open.losses.push(unusable(line, field, text, type));
          // openai-node adds it to the arguments as it is (`undefined`, an array's text), or sets them to it.
          open.contradiction ??= { line, detail: `${type} gives ${field} as ${describeValue(text)}, not a string: openai-node appends or sets it as it is, and this reader does not apply it` };
        } else if (field === "delta") {
          if (open.doneLines.has(item)) open.contradiction ??= { line, detail: "function_call_arguments.delta comes after its call was finished, and changes its arguments" };
          item.arguments = (typeof item.arguments === "string" ? item.arguments : "") + text;
          open.streamedArguments.add(item);
        } else {
          // A reader that builds the call from its deltas runs what they spell.
          if (open.streamedArguments.has(item) && item.arguments !== text) open.contradiction ??= { line, detail: "function_call_arguments.done says otherwise than the deltas before it spell" };
          // The OpenAI API names the function on this event too: a reader that runs the call as the event gives it runs the function it names.
          if (event.name !== undefined && event.name !== item.name) open.contradiction ??= { line, detail: `function_call_arguments.done names the function ${describeValue(event.name)}, where the call it finishes is ${describeValue(item.name)}` };
          item.arguments = text;
          open.doneLines.set(item, line);
          if (isIndex(event.output_index) && open.items.get(event.output_index) === item) finishCall(open, event.output_index, item, line);
        }
        return closed;
      }
      case "response.content_part.added":
      case "response.content_part.done":
      case "response.reasoning_summary_part.added":
      case "response.reasoning_summary_part.done": {
        const item = this.itemFor(open, event, line);
        if (!item) return closed;
        const list = type.startsWith("response.reasoning_summary_part") ? "summary" : "content";
        const index = this.partIndex(open, item, list, event, line);
        if (index === undefined) return closed;
        if (!isPlainObject(event.part)) open.losses.push(unusable(line, "part", event.part, type));
        else partsOf(item, list)[index] = { ...event.part };
        return closed;
      }
      case "response.output_text.delta":
      case "response.output_text.done":
        this.text(open, event, line, "content", "output_text", "text", type.endsWith(".delta"));
        return closed;
      case "response.refusal.delta":
      case "response.refusal.done":
        this.text(open, event, line, "content", "refusal", "refusal", type.endsWith(".delta"));
        return closed;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_summary_text.done":
        this.text(open, event, line, "summary", "summary_text", "text", type.endsWith(".delta"));
        return closed;
      case "response.reasoning_text.delta":
      case "response.reasoning_text.done":
        this.text(open, event, line, "content", "reasoning_text", "text", type.endsWith(".delta"));
        return closed;
      case "response.output_text.annotation.added": {
        const item = this.itemFor(open, event, line);
        if (!item) return closed;
        const index = this.partIndex(open, item, "content", event, line);
        if (index === undefined) return closed;
        if (event.annotation === undefined) {
          open.losses.push(unusable(line, "annotation", undefined, type));
          return closed;
        }
        const part = partAt(item, "content", index, "output_text", "text");
        const annotations = Array.isArray(part.annotations) ? [...part.annotations] : [];
        const at = event.annotation_index;
        // A hostile index must not size the array: one past the end at most.
        if (at === undefined || at === annotations.length) annotations.push(event.annotation);
        else if (isIndex(at) && at < annotations.length) annotations[at] = event.annotation;
        else {
          open.losses.push(unusable(line, "annotation_index", at, type));
          return closed;
        }
        part.annotations = annotations;
        return closed;
      }
      default:
        return assertNever(type);
    }
  }

  /** A response opened on this line, holding what the events before it said. */
  private open(line: number): OpenResponse {
    const { losses, ignored, failed } = this.unplacedEvents;
    this.unplacedEvents = nothingUnplaced();
    return {
      line,
      lastLine: line,
      items: new Map<number, Fields>(),
      byId: new Map<string, Fields>(),
      losses,
      itemLines: new Map<number, number>(),
      doneLines: new WeakMap<Fields, number>(),
      unfinished: new Set<number>(),
      finishedCalls: new Map<number, FinishedCall>(),
      streamedArguments: new WeakSet<Fields>(),
      dropped: [],
      failed,
      ignored,
    };
  }

  /** Appends a delta to, or sets the final value of, one text field of a part. */
  private text(open: OpenResponse, event: Fields, line: number, list: "content" | "summary", partType: string, field: string, isDelta: boolean): void {
    const item = this.itemFor(open, event, line);
    if (!item) return;
    const index = this.partIndex(open, item, list, event, line);
    if (index === undefined) return;
    const eventField = isDelta ? "delta" : field;
    const value = event[eventField];
    if (typeof value !== "string") {
      open.losses.push(unusable(line, eventField, value, event.type as string));
      return;
    }
    const part = partAt(item, list, index, partType, field);
    if (isDelta) {
      part[field] = (typeof part[field] === "string" ? part[field] : "") + value;
      if (Array.isArray(event.logprobs) && event.logprobs.length > 0) part.logprobs = appended(part.logprobs, event.logprobs);
    } else {
      part[field] = value;
      if (Array.isArray(event.logprobs)) part.logprobs = event.logprobs;
    }
  }

  /**
   * The part an event is about (`content_index`, or `summary_index` for a
   * summary): an existing part, or the next one. Any other index is reported:
   * a hostile index must not size the item's list.
   */
  private partIndex(open: OpenResponse, item: Fields, list: "content" | "summary", event: Fields, line: number): number | undefined {
    const key = list === "summary" ? "summary_index" : "content_index";
    const index = event[key];
    const length = Array.isArray(item[list]) ? (item[list] as unknown[]).length : 0;
    if (isIndex(index) && index <= length) return index;
    open.losses.push(unusable(line, key, index, event.type as string, `not an index of the item's ${list} parts (${length} so far)`));
    return undefined;
  }

  /**
   * The item an event is about: the one at its `output_index`, which must be the
   * item its `item_id` names. An event that names another item is applied to that
   * item if it is open; when another item is at that index the stream says two
   * things of its items: the SDKs (openai-node, openai-python) place an event by
   * its output_index alone, so no call of the response is completed.
   * An event that fits no open item is reported, not guessed.
   */
  private itemFor(open: OpenResponse, event: Fields, line: number): Fields | undefined {
    const index = event.output_index;
    const itemId = typeof event.item_id === "string" ? event.item_id : undefined;
    const item = isIndex(index) ? open.items.get(index) : undefined;
    if (item && (itemId === undefined || item.id === undefined || item.id === itemId)) {
      // openai-node checks the item_id of every event about an item against the id of the item at its output_index, and throws at one that has none.
      if (itemId === undefined || itemId === "" || item.id === undefined) {
        open.sdksFail ??= `${String(event.type)} on line ${line} ${itemId === undefined || itemId === "" ? "gives no item_id" : `names item ${itemId}`} for the item at output_index ${index as number}${item.id === undefined ? ", which has no id" : ""}: openai-node throws there and gives no final response`;
      }
      return item;
    }
    const named = itemId === undefined ? undefined : open.byId.get(itemId);
    if (named) {
      if (item) open.contradiction ??= { line, detail: `${String(event.type)} names item ${itemId}, which is not the item at its output_index ${index}: a reader that places it by output_index applies it to that item` };
      // Where no item is at that index, those readers fail rather than run another call: they run none.
      else open.sdksFail ??= `${String(event.type)} on line ${line} names item ${itemId} at ${isIndex(index) ? `output_index ${index}` : "no output_index"}, where no item is: readers that place events by output_index fail there (openai-python throws, as openai-node does at a missing or wrong index) and give no final response`;
      return named;
    }
    const where = isIndex(index) ? `output_index ${index}` : "no output_index";
    const which = itemId === undefined ? "" : ` for item ${itemId}`;
    const field = "delta" in event ? "/delta" : "";
    open.losses.push(unplaced(line, field, `${event.type as string}${which} at ${where} matches no open item; not applied`));
    return undefined;
  }
}

function assemble(open: OpenResponse, keepResource: boolean, sayItemLines: boolean, sayLeftBehind: boolean, keepObject: boolean): AssembledResponse {
  const placed = [...open.items.entries()].sort(([a], [b]) => a - b);
  if (!open.output) {
    // An item is done only at its `output_item.done`: one the stream added as
    // completed and never finished may lack the rest of its arguments.
    for (const [index, item] of placed) {
      if (!open.unfinished.has(index) || item.status !== "completed") continue;
      item.status = "in_progress";
      const detail = "added as completed, but the stream ended before the item was done: it is in_progress";
      open.losses.push({ line: open.itemLines.get(index)!, path: "/item/status", code: "form_changed", detail });
    }
  }
  describeIgnored(open.ignored);
  const source = open.output ?? placed.map(([, item]) => item);
  // An error fails the response whatever the events after it say.
  const status = open.failed ? "failed" : open.status;
  if (open.afterEnd !== undefined && open.output !== undefined) keepsCallsAfterEnd(open, open.output);
  // Calls put out of place go after the items, each with a loss; only a stream that said two things, or went on after its end, drops one.
  const dropped = open.contradiction || open.afterEnd ? open.dropped : [];
  let items = [...source.map(toInputItem), ...dropped.map(({ item }) => toInputItem(item))];
  if (status === "failed" || open.contradiction || open.afterEnd || open.stoppedBy !== undefined || open.sdksFail !== undefined) {
    // Where each item was set: the terminal event's output, or the output_item event; a call put out of place, the event that last set it.
    const where = (index: number): Pick<StreamLoss, "line" | "path"> =>
      index >= source.length
        ? { line: dropped[index - source.length]!.line, path: "/item/status" }
        : open.output
          ? { line: open.outputLine ?? open.lastLine, path: `/response/output/${index}/status` }
          : { line: open.itemLines.get(placed[index]![0])!, path: "/item/status" };
    const contradiction = status === "failed" ? undefined : open.contradiction;
    if (contradiction) open.losses.push({ line: contradiction.line, path: "", code: "form_changed", detail: contradiction.detail });
    if (open.afterEnd) open.losses.push({ line: open.afterEnd.line, path: "", code: "form_changed", detail: open.afterEnd.detail });
    for (const { line } of dropped) {
      open.losses.push({ line, path: "/item", code: "form_changed", detail: "the stream later put another item in this call's place, or left it out of its terminal output: the call is kept, after the response's items" });
    }
    const why =
      status === "failed"
        ? "the response failed"
        : contradiction !== undefined
          ? "the stream said two things of one call"
          : open.afterEnd !== undefined
            ? "the stream goes on after its terminal event"
            : (open.stoppedBy ?? open.sdksFail!);
    items = items.map((item, index) => stopCall(item, () => where(index), open.losses, why));
  }
  // A stream cut before its terminal event gives no final response to
  // openai-python (it raises) or the Agents SDKs, and openai-node's is in
  // progress: a call its output_item.done finished is not taken to have run.
  if (open.ended === undefined) {
    const lineOf = (index: number): number => (index < placed.length ? (open.doneLines.get(placed[index]![1]) ?? open.itemLines.get(placed[index]![0])!) : dropped[index - placed.length]!.line);
    items = items.map((item, index) => {
      if (!isPlainObject(item) || item.type !== "function_call" || item.status !== "completed") return item;
      open.losses.push({ line: lineOf(index), path: "/item/status", code: "form_changed", detail: CUT_BEFORE_END });
      return { ...item, status: "in_progress" } as CanonicalItem;
    });
  }
  const response = assembledResponse(open.id, status, items, open.losses, open.line, open.lastLine);
  if (sayItemLines) {
    // The terminal event's output stands where the streamed items stood, index for index.
    response.itemLines = items.map((_item, index) => {
      if (index >= source.length) return dropped[index - source.length]!.line;
      const streamed = open.output ? open.items.get(index) : placed[index]?.[1];
      return (streamed && open.doneLines.get(streamed)) ?? open.lastLine;
    });
  }
  if (keepObject && open.snapshot) response.responseObject = open.snapshot.value;
  if (keepResource) {
    const resource: StreamedResource = {};
    if (open.snapshot) resource.snapshot = open.snapshot;
    if (!open.output) resource.itemLines = [...placed.map(([index]) => open.itemLines.get(index)!), ...dropped.map(({ line }) => line)];
    response.resource = resource;
  } else if (open.snapshot && sayLeftBehind) response.losses.push(...leftBehind(open.snapshot));
  return response;
}

/**
 * A response's fields, `id` and `status` only when the stream gave them.
 * Written out for each case: a spread of objects of several shapes is V8's
 * slow path, and it ran for every response of every stream.
 */
function assembledResponse(id: string | undefined, status: string | undefined, items: CanonicalItem[], losses: StreamLoss[], line: number, lastLine: number): AssembledResponse {
  if (id !== undefined) return status !== undefined ? { id, status, items, losses, line, lastLine } : { id, items, losses, line, lastLine };
  return status !== undefined ? { status, items, losses, line, lastLine } : { items, losses, line, lastLine };
}

/** The fields of the response object no item holds (null, [] and {} hold nothing), at the event that showed it. */
function leftBehind(snapshot: NonNullable<StreamedResource["snapshot"]>): StreamLoss[] {
  const losses: StreamLoss[] = [];
  const fields = snapshot.value;
  // The response object's own fields, as Object.entries gives them, without a list of pairs for each response.
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const value = fields[key];
    if (key === "object" || key === "output" || value === null || value === undefined || (typeof value === "object" && !holdsAnyKey(value))) continue;
    losses.push({ line: snapshot.line, path: `/response/${pointerToken(key)}`, code: "left_behind", detail: `${key} of the response is in no item: normalize writes items only` });
  }
  return losses;
}

/** Whether an object or array has an own enumerable key (`Object.keys(value).length > 0`), found without listing them: a response's `tools` may be long. */
function holdsAnyKey(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}


/**
 * Notes an event of no known type: one loss per type, its detail written by
 * `describeIgnored`. One that carries a call's fields is an
 * `unsupported_tool_call`: a call no item holds, which the gate must not pass
 * by in silence.
 */
function ignore(target: Unplaced, type: string, line: number, withCall: boolean): void {
  const seen = target.ignored.get(type);
  if (seen) {
    seen.count += 1;
    seen.lastLine = line;
    if (withCall) seen.loss.code = "unsupported_tool_call";
    return;
  }
  const loss: StreamLoss = { line, path: "", code: withCall ? "unsupported_tool_call" : type.includes(":") ? "provider_extension" : "unsupported_item", detail: "" };
  target.losses.push(loss);
  target.ignored.set(type, { loss, count: 1, lastLine: line });
}

/** Whether an event holds what a call is made of: its arguments, its call_id, or an item. */
function carriesCall(event: Fields): boolean {
  return event.arguments !== undefined || event.call_id !== undefined || event.item !== undefined;
}

/**
 * Whether an event names, by `item_id` and `output_index`, an item of the open
 * response that is no function_call (`response.mcp_call_arguments.done` names
 * its `mcp_call`): a reader that knows the event applies it to that item, which
 * the gate judges as the item it is, and no reader makes a function call of it.
 */
function ofItemNoCall(open: OpenResponse | undefined, event: Fields): boolean {
  if (open === undefined || typeof event.item_id !== "string" || typeof event.output_index !== "number") return false;
  const item = open.items.get(event.output_index);
  return item !== undefined && item.id === event.item_id && typeof item.type === "string" && item.type !== "function_call";
}

function describeIgnored(ignored: ReadonlyMap<string, IgnoredEvents>): void {
  for (const [type, { loss, count, lastLine }] of ignored) {
    const where = count === 1 ? `line ${loss.line}` : `${count} events, lines ${loss.line}–${lastLine}`;
    const what = type.includes(":") ? "an extension event: ignored, as the specification lets clients" : "an event of no known type: ignored";
    loss.detail = loss.code === "unsupported_tool_call" ? `${type} (${where}) is ${what}; it holds a call's fields, which are not read: the call is not checked` : `${type} (${where}) is ${what}; its fields are not read`;
  }
}

/** An error event: the response fails, and the error is kept as a loss on its line. */
function failWith(target: Unplaced, event: Fields, line: number): void {
  target.failed = true;
  target.losses.push({ line, path: "", code: "unsupported_item", detail: `error event: ${describeError(event)}; the response failed` });
}

/** An error event's error, as `type code: message` (the specification nests it under `error`; OpenAI writes it flat). */
function describeError(event: Fields): string {
  const error = isPlainObject(event.error) ? event.error : event;
  const words = [error.type, error.code].filter((word, index, all): word is string => typeof word === "string" && word !== "" && all.indexOf(word) === index && word !== "error");
  const message = typeof error.message === "string" ? error.message : "no message";
  return `${words.length > 0 ? words.join(" ") + ": " : ""}${JSON.stringify(message)}`;
}

/** An output item in the input-item shape; nothing it carried is dropped. */
function toInputItem(item: unknown): CanonicalItem {
  if (isPlainObject(item) && item.type === "reasoning" && !Array.isArray(item.summary)) {
    return { ...item, summary: [] } as unknown as CanonicalItem;
  }
  return item as CanonicalItem;
}

/** A copy the assembler may change without touching the caller's event. */
function copyItem(item: Fields): Fields {
  const copy: Fields = { ...item };
  if (Array.isArray(item.content)) copy.content = item.content.map(copyPart);
  if (Array.isArray(item.summary)) copy.summary = item.summary.map(copyPart);
  return copy;
}

function copyPart(part: unknown): unknown {
  return isPlainObject(part) ? { ...part } : part;
}

function partsOf(item: Fields, list: "content" | "summary"): unknown[] {
  if (!Array.isArray(item[list])) item[list] = [];
  return item[list] as unknown[];
}

/** The part at `index`, opened with an empty value when its `.added` event is missing. */
function partAt(item: Fields, list: "content" | "summary", index: number, partType: string, field: string): Fields {
  const parts = partsOf(item, list);
  const existing = parts[index];
  if (isPlainObject(existing)) return existing;
  const part: Fields = partType === "output_text" ? { type: partType, [field]: "", annotations: [] } : { type: partType, [field]: "" };
  parts[index] = part;
  return part;
}

/** Lists the assembler made, which it may append to; any other list is a caller's. */
const ownLists = new WeakSet<unknown[]>();

/** `list` with `more` after it: appended in place when the list is the assembler's own, so that a long stream costs what its tokens do. */
function appended(list: unknown, more: readonly unknown[]): unknown[] {
  let own: unknown[];
  if (Array.isArray(list) && ownLists.has(list)) own = list;
  else {
    own = Array.isArray(list) ? [...list] : [];
    ownLists.add(own);
  }
  for (const element of more) own.push(element);
  return own;
}

/** An event field the assembler cannot use: the event is not applied, and says so. */
function unusable(line: number, field: string, value: unknown, type: string, why = value === undefined ? "missing" : `not usable (${describeValue(value)})`): StreamLoss {
  return { line, path: `/${field}`, code: "unsupported_field", detail: `${type}: ${field} is ${why}; the event is not applied` };
}

function unplaced(line: number, path: string, detail: string): StreamLoss {
  return { line, path, code: "unsupported_field", detail };
}

function isIndex(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function assertNever(value: never): never {
  throw new Error(`unhandled streaming event ${String(value)}`);
}
