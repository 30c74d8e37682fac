// Rebuilds Anthropic responses from their stream events. The blocks of a message
// are put back together into the message the non-streamed API would have
// returned (the twin), and that message goes through messagesToItems, so a
// streamed answer and its non-streamed twin give the same items; only a call's
// arguments keep the bytes streamed. Nothing is final until the stream says so:
// a call whose block never stopped is in_progress, and the gate blocks it.
//
// | event                                  | effect                                                 |
// |----------------------------------------|--------------------------------------------------------|
// | message_start                          | opens a message (one still open is closed, reported);  |
// |                                        |   a stop_reason it says, no message_delta's, ends no call |
// | content_block_start                    | opens the block at `index` as the event gives it (a server tool result whole); |
// |                                        |   an index other than the next position (the SDKs append |
// |                                        |   each block started, one that is no object too) leaves |
// |                                        |   no call of the message completed                     |
// | content_block_delta text_delta         | appends to the block's text                            |
// |   input_json_delta                     | appends to the call's arguments, as streamed; a        |
// |                                        |   partial_json that is no string makes the call        |
// |                                        |   incomplete (the SDKs append it, or throw)            |
// |   thinking_delta / signature_delta     | appends to the thinking / sets the signature           |
// |   citations_delta                      | adds a citation to the text block                      |
// |   another delta type                   | loss: not applied                                      |
// |   an index no block started at         | loss: not applied, and no call of the message completed |
// |                                        |   (the SDKs take at(index): -1 is the last block)      |
// | content_block_stop                     | the block is done; a delta after it is not applied, and|
// |                                        |   makes the call of a tool_use block incomplete        |
// | message_delta                          | stop_reason, stop_sequence and the other delta fields (container, |
// |                                        |   stop_details) set the message's; usage merged; a     |
// |                                        |   stop_reason that replaces another makes the calls    |
// |                                        |   incomplete (reported): which one ended them is not known |
// | message_stop                           | the message is done; it is given at the next           |
// |                                        |   message_start or at the end of the recording, so that |
// |                                        |   a block, delta or message_delta after it, which the  |
// |                                        |   SDKs' accumulators apply, is applied and leaves no   |
// |                                        |   call of the message completed (reported)             |
// | an event the SDKs throw at for a field  | applied as far as it goes, but no call of the message  |
// |   it or message_start lacks (a         |   is completed (reported): they give no message        |
// |   message_delta without usage, a delta |                                                        |
// |   without its delta object, a block    |                                                        |
// |   with no content array to join)       |                                                        |
// | error                                  | closes the message as failed: loss with the error (the |
// |                                        |   response object convert writes holds it as `error`)  |
// | ping, any other event                  | ignored, as Anthropic asks of clients                  |
// | the end of the recording               | the message still open, as far as it got: loss, status |
// |                                        |   from the stop_reason if one came, else in_progress;  |
// |                                        |   without message_stop no call is completed: the SDK   |
// |                                        |   for TypeScript gives no message, and the calls stay  |
// |                                        |   in_progress (reported)                               |
//
// The status of the response and of its calls is the stop_reason's
// (`callStatusOf`); a call whose block did not stop, or of a message the
// recording ends before message_stop, is in_progress whatever it says. A server tool's streamed input is kept as the object it parses to, in
// its extension item: where the streamed text says more than that object (its
// spacing), each fragment's line reports it.
//
// Each response comes two ways. `items` and `losses` are what normalize writes:
// the message's own fields (id, model, usage, stop_reason, stop_sequence,
// container…) are in no item, and each is `left_behind` at the event and path
// that said it. `record` is what convert writes: the twin through
// messageToResponse, as a stored message goes (id, model, usage, the fields the
// spec requires synthesized and reported), its calls' arguments and statuses
// the stream's; a usage count message_start gave and message_delta replaced is
// reported there. Asked to (`message`), the assembler also gives the twin: a
// call's input there is its parsed arguments, or the input its block started
// with when they do not parse.
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { stoppedCall, type AssembledResponse, type StreamLoss, type WholeRecord } from "../../src/models/assembled-response.js";
import type { Loss } from "../../src/models/loss.js";
import { describeValue } from "../../src/models/json-value.js";
import { pointerToken } from "../../src/models/json-pointer.js";
import type { CanonicalItem } from "../../src/models/open-responses.js";
import { isRecord, type Fields } from "./fields.js";
import { messageToResponse, responseStatusOf } from "./message-to-response.js";
import { messagesToItems, toolUseStatusOf } from "./messages-to-items.js";
import type { AnthropicResponse } from "./models.js";

export interface AnthropicStreamOptions {
  /** Also give each response the message the stream amounts to (`AnthropicAssembledResponse.message`). */
  message?: boolean;
}

export interface AnthropicAssembledResponse extends AssembledResponse {
  /** The non-streamed message the events amount to; kept when the assembler is asked to. */
  message?: AnthropicResponse;
}

/** Where a value of the message was said: the event's line and the path in it. */
interface Origin {
  line: number;
  path: string;
}

interface BlockState {
  block: Fields;
  /** Line of the event that opened the block, and the block's path in it. */
  line: number;
  path: string;
  /** The input_json_delta fragments, joined; undefined when none came. */
  json?: string;
  /** The lines of those fragments. */
  jsonLines: number[];
  stopped: boolean;
  /** The line of the first delta after the block's content_block_stop. */
  late?: number;
  /** Set when the block started with an input of its own and fragments came too: a reader of either sees its own call. */
  twoInputs?: boolean;
  /** The line of the first input_json_delta whose partial_json is no string, which the SDKs append to the input text and this reader does not. */
  untextual?: number;
}

interface OpenMessage {
  line: number;
  lastLine: number;
  /** The message of message_start, its content rebuilt from the blocks. */
  message: Fields;
  /** Where each field of the message, and each usage count, was last said. */
  origins: Map<string, Origin>;
  usageOrigins: Map<string, Origin>;
  /** Values message_start said that message_delta replaced: what convert cannot write. */
  replaced: StreamLoss[];
  /** Each field of the message an event said, for normalize to leave behind. */
  said: Array<Origin & { key: string }>;
  blocks: Map<number, BlockState>;
  stopped: boolean;
  /** Where message_start said the message's content, when it did. */
  contentOrigin?: Origin;
  error?: { line: number; detail: string; code: unknown; message: unknown };
  losses: StreamLoss[];
  /** Set when a block started over a tool_use block: the stream says two things of its calls, so none of them is completed. */
  replacedCall?: boolean;
  /** The stop_reason a message_delta said, and its line, when a later one said another: which one ended the calls is not known. */
  replacedStop?: { reason: unknown; line: number };
  /**
   * The positions the message's content holds: message_start's blocks, then one
   * more per content_block_start. The SDKs' accumulators append each started
   * block and apply each delta to the block at its `index` as a position.
   */
  positions: number;
  /** The first content_block_start whose index is not the next position: the SDKs read its deltas into another block than this assembler does. */
  misplaced?: { line: number; position: number };
  /** The stop_reason message_start gave, which no message_delta replaced: a stream's message_start has none, so it ends no call. */
  startStop?: { reason: unknown; line: number };
  /** Set when a block event came: the message is no longer the one message_start gave whole. */
  streamedBlocks?: boolean;
  /** The first event after message_stop that changes the message: a reader that stops at message_stop reads another message than the SDKs. */
  afterStop?: { line: number; type: string };
  /** The line of the first delta whose index names no block started here: the SDKs may apply it to one (`.at(-1)` is the last block, `.at("0")` the first). */
  strayDelta?: number;
  /** The line of the event that opened the message without message_start: the SDKs throw at it, so they run none of its calls. */
  withoutStart?: number;
  /** What message_start's message lacks that the SDKs' accumulators write into: a content array (each block is appended to it), a usage object (each message_delta sets its output_tokens). */
  startLacks?: { content: boolean; usage: boolean };
  /** The first event the SDKs' accumulators throw at, for a field it or message_start lacks, and what: they give no message, so none of its calls runs. */
  sdksThrow?: { line: number; why: string };
}

const CALL_TYPES = new Set(["tool_use", "server_tool_use"]);
/** The events that change a message; after message_stop, one of them means two readings of the stream. */
const CHANGES_MESSAGE = new Set(["content_block_start", "content_block_delta", "content_block_stop", "message_delta"]);
/** What the twin's items hold of the message; every other field is left behind by normalize. */
const ITEM_FIELDS = new Set(["type", "role", "content"]);

export class AnthropicStreamAssembler {
  private current: OpenMessage | undefined;
  private readonly keepMessage: boolean;

  constructor(options: AnthropicStreamOptions = {}) {
    this.keepMessage = options.message ?? false;
  }

  /** One stream event and the journal line it came from; returns the responses it closes. */
  push(event: unknown, line: number): AnthropicAssembledResponse[] {
    if (!isRecord(event) || typeof event.type !== "string") throw new TypeError("an Anthropic stream event is an object with a string type");
    const closed: AnthropicAssembledResponse[] = [];
    if (this.current?.stopped && CHANGES_MESSAGE.has(event.type)) this.changedAfterStop(this.current, event.type, line);
    switch (event.type) {
      case "message_start": {
        if (this.current) closed.push(...this.finish());
        const message = isRecord(event.message) ? { ...event.message } : {};
        const open = this.open(line, message);
        for (const [key, value] of Object.entries(message)) {
          if (key === "content") {
            open.contentOrigin = { line, path: "/message/content" };
            continue;
          }
          const origin = { line, path: `/message/${pointerToken(key)}` };
          if (key !== "usage") open.origins.set(key, origin);
          if (!ITEM_FIELDS.has(key) && holdsSomething(value)) open.said.push({ ...origin, key });
        }
        if (isRecord(message.usage)) for (const key of Object.keys(message.usage)) open.usageOrigins.set(key, { line, path: `/message/usage/${pointerToken(key)}` });
        if (message.stop_reason !== null && message.stop_reason !== undefined) open.startStop = { reason: message.stop_reason, line };
        open.startLacks = { content: !Array.isArray(message.content), usage: !isRecord(message.usage) };
        if (Array.isArray(message.content)) {
          open.positions = message.content.length;
          message.content.forEach((block, index) => {
            if (isRecord(block)) open.blocks.set(index, { block: { ...block }, line, path: `/message/content/${index}`, jsonLines: [], stopped: true });
          });
        }
        return closed;
      }
      case "content_block_start": {
        const open = this.ensure(line);
        open.streamedBlocks = true;
        if (open.startLacks?.content) sdksThrowAt(open, line, "", "a content_block_start, whose block they append to a content array message_start did not give");
        const index = event.index;
        // The SDKs append every block started, whatever its index says, and
        // whatever its content_block is: the SDK for TypeScript appends a copy of
        // one that is no object ({...null} is {}), which takes a position too.
        const position = open.positions++;
        if (index !== position && open.misplaced === undefined) {
          // Anthropic numbers blocks in the order it starts them; a reader that appends and one that places by index would see different calls.
          open.misplaced = { line, position };
          // A block started over another is reported as such below.
          if (!(isIndex(index) && open.blocks.has(index))) open.losses.push({ line, path: "/index", code: "unsupported_tool_call", detail: `a block started at index ${JSON.stringify(index)}, where the SDKs' accumulators, which append each block, put it at ${position}: their deltas then go to other blocks than here, so no call of the message is written completed` });
        }
        if (!isIndex(index) || !isRecord(event.content_block)) {
          open.losses.push({ line, path: "", code: "unsupported_field", detail: "content_block_start without an index and a content_block: no block opened" });
          return closed;
        }
        const replaced = open.blocks.get(index)?.block;
        if (replaced !== undefined && typeof replaced.type === "string" && replaced.type.endsWith("tool_use")) {
          // The SDK's accumulator keeps both blocks: the call replaced here would run unjudged, so it blocks the stream's line.
          open.losses.push({ line, path: "/index", code: "unsupported_tool_call", detail: `a second block started at index ${index}: it replaces a ${replaced.type} block whose call then gives no item and is not checked` });
          open.replacedCall = true;
        } else if (replaced !== undefined) {
          open.losses.push({ line, path: "/index", code: "form_changed", detail: `a second block started at index ${index}: it replaces the first` });
        }
        open.blocks.set(index, { block: copyBlock(event.content_block), line, path: "/content_block", jsonLines: [], stopped: false });
        return closed;
      }
      case "content_block_delta": {
        const open = this.ensure(line);
        open.streamedBlocks = true;
        if (!isRecord(event.delta)) sdksThrowAt(open, line, "", "a content_block_delta without a delta object, whose type they read");
        this.delta(open, event, line);
        return closed;
      }
      case "content_block_stop": {
        const open = this.ensure(line);
        open.streamedBlocks = true;
        const state = isIndex(event.index) ? open.blocks.get(event.index) : undefined;
        if (state) state.stopped = true;
        else open.losses.push({ line, path: "/index", code: "unsupported_field", detail: `content_block_stop for index ${JSON.stringify(event.index)}, which no block started at` });
        return closed;
      }
      case "message_delta": {
        const open = this.ensure(line);
        if (!isRecord(event.usage)) sdksThrowAt(open, line, "", "a message_delta without a usage object, whose output_tokens they read");
        else if (open.startLacks?.usage) sdksThrowAt(open, line, "", "a message_delta, whose output_tokens they set on a usage object message_start did not give");
        const fields = isRecord(event.delta) ? event.delta : {};
        // The SDKs set stop_reason from every message_delta: one that leaves it out (or has no delta) clears it.
        const cleared = !Object.hasOwn(fields, "stop_reason");
        for (const [key, value] of Object.entries(cleared ? { ...fields, stop_reason: null } : fields)) {
          const path = cleared && key === "stop_reason" ? (isRecord(event.delta) ? "/delta" : "") : `/delta/${pointerToken(key)}`;
          const before = open.message[key];
          // Only a reason that ends the calls otherwise matters: end_turn then tool_use completes them either way.
          if (key === "stop_reason" && before !== null && before !== undefined && endsCallsOtherwise(before, value)) open.replacedStop ??= { reason: before, line: open.origins.get(key)?.line ?? line };
          if (key === "stop_reason") open.startStop = undefined;
          if (key === "stop_reason" && cleared && before !== null && before !== undefined) open.losses.push({ line, path, code: "form_changed", detail: `a message_delta without stop_reason clears the ${JSON.stringify(before)} said before, as the SDKs set it from each message_delta: the message has none, and its calls are not completed` });
          replace(open, before, value, open.origins.get(key), key);
          open.message[key] = value;
          open.origins.set(key, { line, path });
          if (holdsSomething(value)) open.said.push({ line, path, key });
        }
        if (isRecord(event.usage)) {
          const usage: Fields = isRecord(open.message.usage) ? { ...open.message.usage } : {};
          for (const [key, value] of Object.entries(event.usage)) {
            if (value === null || value === undefined) continue;
            replace(open, usage[key], value, open.usageOrigins.get(key), `usage ${key}`);
            usage[key] = value;
            open.usageOrigins.set(key, { line, path: `/usage/${pointerToken(key)}` });
          }
          open.message.usage = usage;
          if (holdsSomething(event.usage)) open.said.push({ line, path: "/usage", key: "usage" });
        }
        return closed;
      }
      case "message_stop": {
        // Not given yet: the SDKs' accumulators go on applying events to the message after it.
        if (!this.current?.stopped) this.ensure(line).stopped = true;
        return closed;
      }
      case "error": {
        const open = this.ensure(line);
        const error = isRecord(event.error) ? event.error : {};
        open.error = { line, code: error.type, message: error.message, detail: `the stream failed with ${String(error.type)}: ${String(error.message)}; the response is failed, its calls in_progress` };
        closed.push(...this.finish());
        return closed;
      }
      case "ping":
        // Keep-alive: it says nothing of the message.
        if (this.current) this.current.lastLine = line;
        return closed;
      default:
        // Anthropic may add event types, to be skipped: one the stream does not have is reported, not applied.
        if (this.current) {
          this.current.lastLine = line;
          this.current.losses.push({ line, path: "/type", code: "unsupported_item", detail: `an event of type ${JSON.stringify(event.type)} is not one of the Messages stream's: not applied` });
        }
        return closed;
    }
  }

  /** End of the recording: the message still open, as far as it got. */
  finish(): AnthropicAssembledResponse[] {
    const open = this.current;
    this.current = undefined;
    return open ? [assemble(open, this.keepMessage)] : [];
  }

  private open(line: number, message: Fields): OpenMessage {
    this.current = { line, lastLine: line, message: { ...message, content: [] }, origins: new Map(), usageOrigins: new Map(), replaced: [], said: [], blocks: new Map(), stopped: false, losses: [], positions: 0 };
    return this.current;
  }

  private changedAfterStop(open: OpenMessage, type: string, line: number): void {
    open.afterStop ??= { line, type };
    open.losses.push({ line, path: "/type", code: "form_changed", detail: `a ${type} event after the message's message_stop: the SDKs' accumulators apply it, a reader that stops at message_stop does not, so no call of the message is written completed` });
  }

  /** The open message; an event before any message_start opens one, reported. */
  private ensure(line: number): OpenMessage {
    if (this.current) {
      this.current.lastLine = line;
      return this.current;
    }
    const open = this.open(line, { type: "message", role: "assistant" });
    // The SDKs' accumulators throw at an event before message_start: after an error event, the stream they read is over.
    open.withoutStart = line;
    open.losses.push({ line, path: "", code: "form_changed", detail: "an event before message_start: the message has no id, model or usage, and the SDKs throw at it, so no call of the message is written completed" });
    return open;
  }

  private delta(open: OpenMessage, event: Fields, line: number): void {
    const delta = isRecord(event.delta) ? event.delta : {};
    const state = isIndex(event.index) ? open.blocks.get(event.index) : undefined;
    if (!state) {
      // The SDKs take the block at(index): a negative index counts from the last block, a string or a fraction is read as a number.
      open.strayDelta ??= line;
      open.losses.push({ line, path: "/delta", code: "unsupported_field", detail: `a delta for index ${JSON.stringify(event.index)}, which no block started at: not applied; the SDKs may apply it to a block by position, so no call of the message is written completed` });
      return;
    }
    const block = state.block;
    const notApplied = (why: string): void => {
      open.losses.push({ line, path: "/delta", code: "unsupported_field", detail: `${why}: not applied` });
    };
    if (state.stopped) {
      if (block.type !== "tool_use") return notApplied(`a ${String(delta.type)} after the block's content_block_stop`);
      // The SDKs' accumulators apply it, a reader that stops at content_block_stop does not: neither reading is sure to be the call.
      state.late ??= line;
      open.losses.push({ line, path: "/delta", code: "unsupported_field", detail: `a ${String(delta.type)} after the block's content_block_stop: not applied; a reader that applies it reads another call, so the call is written incomplete` });
      return;
    }
    switch (delta.type) {
      case "text_delta":
        if (block.type !== "text" || typeof delta.text !== "string") return notApplied(`a text_delta for a ${String(block.type)} block`);
        block.text = (typeof block.text === "string" ? block.text : "") + delta.text;
        return;
      case "input_json_delta":
        if (CALL_TYPES.has(String(block.type)) && typeof delta.partial_json !== "string") {
          // The SDKs add it to the input text as it is (`null`, an array's text) or throw at it: their call is not this reader's.
          state.untextual ??= line;
          open.losses.push({ line, path: "/delta/partial_json", code: "form_changed", detail: `the input_json_delta gives partial_json as ${describeValue(delta.partial_json)}, not a string: the SDKs append it to the call's input text or throw at it, and this reader skips it, so the call is written incomplete` });
          return;
        }
        if (!CALL_TYPES.has(String(block.type))) return notApplied(`an input_json_delta for a ${String(block.type)} block`);
        if (state.json === undefined && block.type === "tool_use" && isRecord(block.input) && Object.keys(block.input).length > 0) {
          state.twoInputs = true;
          open.losses.push({ line, path: "/delta/partial_json", code: "form_changed", detail: "the tool_use block started with an input of its own, and input_json_delta fragments follow: the fragments make the arguments, a reader that keeps the started input sees another call, so the call is written incomplete" });
        }
        state.json = (state.json ?? "") + delta.partial_json;
        state.jsonLines.push(line);
        return;
      case "thinking_delta":
        if (block.type !== "thinking" || typeof delta.thinking !== "string") return notApplied(`a thinking_delta for a ${String(block.type)} block`);
        block.thinking = (typeof block.thinking === "string" ? block.thinking : "") + delta.thinking;
        return;
      case "signature_delta":
        if (block.type !== "thinking" || typeof delta.signature !== "string") return notApplied(`a signature_delta for a ${String(block.type)} block`);
        block.signature = delta.signature;
        return;
      case "citations_delta":
        if (block.type !== "text" || delta.citation === undefined) return notApplied(`a citations_delta for a ${String(block.type)} block`);
        block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
        return;
      default:
        return notApplied(`a delta of type ${JSON.stringify(delta.type)} is not one this assembler knows`);
    }
  }
}

/**
 * Notes the first event the SDKs' accumulators throw at for a field it, or
 * message_start, lacks: both read and write those fields unchecked, so they
 * give no message, and run none of its calls.
 */
function sdksThrowAt(open: OpenMessage, line: number, path: string, why: string): void {
  if (open.sdksThrow !== undefined) return;
  open.sdksThrow = { line, why };
  open.losses.push({ line, path, code: "form_changed", detail: `the SDKs throw at ${why}: they give no message, so no call of the message is written completed` });
}

/** A value message_delta replaces: said where it was said, unless it held nothing or the same. */
function replace(open: OpenMessage, before: unknown, after: unknown, origin: Origin | undefined, what: string): void {
  if (origin === undefined || before === null || before === undefined || isDeepStrictEqual(before, after)) return;
  open.replaced.push({ ...origin, code: "form_changed", detail: `${what} ${JSON.stringify(before)} is replaced by message_delta's ${JSON.stringify(after)}, which the response holds` });
}

/**
 * A message that message_start gave whole, with its stop_reason, and that
 * message_stop closed with no block event between: Anthropic sends a call that
 * code execution made (programmatic tool calling) so, its tool_use block in
 * message_start's content. The SDKs' accumulators and readers that take
 * message_start's content read this one message, stop_reason and all.
 */
function givenWhole(open: OpenMessage): boolean {
  return open.startStop !== undefined && open.stopped && !open.streamedBlocks && open.afterStop === undefined;
}

function assemble(open: OpenMessage, keepMessage: boolean): AnthropicAssembledResponse {
  const streamLosses = [...open.losses];
  const states = [...open.blocks.entries()].sort(([a], [b]) => a - b).map(([, state]) => state);
  const message = open.message;
  // Only message_delta says why a message stopped: a stop_reason message_start gave and none replaced ends no call,
  // unless message_start gave the message whole and message_stop closed it.
  const startStop = givenWhole(open) ? undefined : open.startStop;
  const stopReason = open.error || startStop ? null : message.stop_reason === undefined ? null : (message.stop_reason as string | null);
  if (startStop && !open.error) {
    streamLosses.push({ line: startStop.line, path: "/message/stop_reason", code: "form_changed", detail: `message_start says stop_reason ${JSON.stringify(startStop.reason)}, and no message_delta says one: a stream's message starts with none, so this one ends no call; the response is written as if none came` });
  }
  const content = states.map((state) => twinBlock(state, streamLosses));
  message.content = content;
  const twin = { ...message, type: "message", content, stop_reason: stopReason } as AnthropicResponse;

  for (const state of states) {
    if (state.stopped) continue;
    const what = state.block.type === "tool_use" ? "its call is in_progress" : CALL_TYPES.has(String(state.block.type)) ? "its partial input is not kept" : "it may be cut";
    streamLosses.push({ line: state.line, path: state.path, code: "form_changed", detail: `the stream ended before this ${String(state.block.type)} block's content_block_stop: ${what}` });
  }
  if (open.error) streamLosses.push({ line: open.error.line, path: "/error", code: "unsupported_field", detail: open.error.detail });
  else if (!open.stopped) {
    const detail = stopReason === null ? "the stream ended without message_stop or a stop_reason: the response is in_progress" : `the stream ended without message_stop; the status comes from the stop_reason ${JSON.stringify(stopReason)} of message_delta`;
    streamLosses.push({ line: open.lastLine, path: "", code: "form_changed", detail });
  }

  const converted = messagesToItems({
    messages: [{ role: "assistant", content: content as AnthropicResponse["content"] }],
    model: typeof message.model === "string" ? message.model : undefined,
    stopReason,
  });
  const place = placer(open, states);
  const itemLosses = converted.losses.filter((loss) => !ofStreamedInput(loss.path, states)).map((loss) => place(loss, loss.path.replace(/^\/messages\/0(?=\/|$)/, "")));
  const status = open.error ? "failed" : responseStatusOf(stopReason).status;
  const response: AnthropicAssembledResponse = {
    ...(typeof message.id === "string" ? { id: message.id } : {}),
    status,
    items: unendedCalls(stopsCalls(open) ? stopCalls(withStreamedCalls(converted.value, states), open, streamLosses) : withStreamedCalls(converted.value, states), open, streamLosses),
    losses: byLine([...streamLosses, ...itemLosses, ...leftBehind(open)]),
    line: open.line,
    lastLine: open.lastLine,
    record: () => wholeRecord(twin, status, states, place, open, streamLosses),
  };
  if (keepMessage) response.message = twin;
  return response;
}

/** Whether the stream says two things of its calls, so that none of them may be written completed. */
function stopsCalls(open: OpenMessage): boolean {
  return open.replacedCall === true || open.replacedStop !== undefined || open.misplaced !== undefined || open.afterStop !== undefined || open.strayDelta !== undefined || open.withoutStart !== undefined || open.sdksThrow !== undefined;
}

/**
 * The completed calls of a stream that says two things of its calls, written
 * incomplete: which of its readings runs is not known. `losses`, when given,
 * gets one per call (the items' pass); the response object's pass adds none.
 */
function stopCalls(items: CanonicalItem[], open: OpenMessage, losses?: StreamLoss[]): CanonicalItem[] {
  return items.map((item) => {
    const stopped = stoppedCall(item);
    if (stopped === undefined) return item;
    const why = open.afterStop
      ? `a ${open.afterStop.type} event came on line ${open.afterStop.line}, after message_stop`
      : open.replacedCall
        ? "a block started over a tool_use block"
        : open.misplaced
          ? `a block started on line ${open.misplaced.line} at another index than the position ${open.misplaced.position} the SDKs put it at`
          : open.strayDelta !== undefined
            ? `a delta on line ${open.strayDelta} names an index no block started at, which the SDKs may read as another block's`
            : open.withoutStart !== undefined
              ? `the message opened on line ${open.withoutStart} without message_start, where the SDKs throw`
              : open.sdksThrow !== undefined
                ? `the SDKs throw at ${open.sdksThrow.why} (line ${open.sdksThrow.line}), and give no message`
                : `a message_delta said stop_reason ${JSON.stringify(open.replacedStop!.reason)} on line ${open.replacedStop!.line} and a later one another`;
    losses?.push({ line: open.lastLine, path: "", code: "form_changed", detail: `${why}: the call ${JSON.stringify((item as Fields).call_id)} is written incomplete, as no one reading of the stream runs it` });
    return stopped;
  });
}

/**
 * The completed calls of a message the recording ends before its message_stop,
 * written in_progress: the stream was cut, and a reader that reads on may see
 * its calls end otherwise. The SDK for TypeScript gives a message only at
 * message_stop (its finalMessage() rejects without one, and its tool runner
 * runs no call of such a stream), where the one for Python gives the message
 * as far as it got: no one reading of the stream runs the call. `losses`, when
 * given, gets one per call (the items' pass); the response object's pass adds none.
 */
function unendedCalls(items: CanonicalItem[], open: OpenMessage, losses?: StreamLoss[]): CanonicalItem[] {
  if (open.stopped || open.error) return items;
  return items.map((item) => {
    const call = item as Fields;
    if (call.type !== "function_call" || call.status !== "completed") return item;
    losses?.push({ line: open.lastLine, path: "", code: "form_changed", detail: `the recording ends before message_stop: the call ${JSON.stringify(call.call_id)} is written in_progress, as the SDK for TypeScript gives no message without message_stop and runs none of its calls` });
    return { ...item, status: "in_progress" } as CanonicalItem;
  });
}

/**
 * The response object the stream amounts to: the twin through the converter a
 * stored message goes through, with each call's arguments as streamed and its
 * status the stream's. A loss pointing into the twin goes to the event that
 * said the value; one pointing into the object written (a synthesized field)
 * stays on the stream's first line.
 */
function wholeRecord(twin: AnthropicResponse, status: string, states: readonly BlockState[], place: Placer, open: OpenMessage, streamLosses: readonly StreamLoss[]): WholeRecord {
  const synthesized: StreamLoss[] = [];
  const whole = { ...twin } as Fields;
  // A stream without message_start says neither; the response object needs both.
  if (typeof whole.id !== "string") {
    whole.id = `msg_${createHash("sha256").update(JSON.stringify(twin.content)).digest("hex").slice(0, 24)}`;
    synthesized.push({ line: open.line, path: "/id", code: "synthesized", detail: `the stream has no message id: ${String(whole.id)} written, from its content` });
  }
  if (typeof whole.model !== "string") {
    whole.model = "";
    synthesized.push({ line: open.line, path: "/model", code: "synthesized", detail: "the stream does not name its model: \"\" written" });
  }
  const converted = messageToResponse({ message: whole as AnthropicResponse });
  const value = converted.value as unknown as Fields;
  value.status = status;
  value.output = withStreamedCalls(value.output as CanonicalItem[], states);
  // The same calls as the items give: a converted journal must not pass a call this stream's items block.
  if (stopsCalls(open)) value.output = stopCalls(value.output as CanonicalItem[], open);
  value.output = unendedCalls(value.output as CanonicalItem[], open);
  const losses: StreamLoss[] = [...streamLosses, ...open.replaced, ...synthesized];
  const error = open.error;
  if (error && typeof error.code === "string" && typeof error.message === "string") {
    // The response object has a place for the error: it is kept there, not lost.
    value.error = { code: error.code, message: error.message };
    const at = losses.findIndex((loss) => loss.line === error.line && loss.path === "/error");
    losses[at] = { line: error.line, path: "/error", code: "form_changed", detail: "the stream failed: the response is written failed, with the error, and its calls in_progress" };
  }
  const written = (loss: StreamLoss) => !(loss.code === "synthesized" && loss.path === "/error" && value.error !== null);
  // A call's arguments written from the streamed text are the text, not a value re-serialized.
  const streamedArguments = new Set((value.output as Fields[]).flatMap((item, index) => (item.type === "function_call" && streamedText(item, states) ? [`/output/${index}/arguments`] : [])));
  for (const loss of converted.losses) {
    if (ofStreamedInput(loss.path, states) || (loss.code === "synthesized" && streamedArguments.has(loss.path))) continue;
    losses.push(loss.code === "synthesized" ? { line: open.line, ...loss } : place(loss, loss.path));
  }
  const where = (path: string) => {
    const placed = place({ path, code: "form_changed", detail: "" }, path);
    return { line: placed.line, path: placed.path };
  };
  return { value, losses: byLine(losses.filter(written)), place: where };
}

/**
 * The items of the twin with each tool_use call's arguments the text streamed,
 * byte for byte (the twin's input is that text parsed, and JSON.stringify of it
 * would lose its spacing), in_progress where its block never stopped, and
 * incomplete where a delta came after its block stopped.
 */
function withStreamedCalls(items: readonly CanonicalItem[], states: readonly BlockState[]): CanonicalItem[] {
  const calls = states.filter((state) => state.block.type === "tool_use");
  let call = 0;
  return items.map((item): CanonicalItem => {
    if (item.type !== "function_call") return item;
    const state = calls[call++];
    if (!state) return item;
    const patched = { ...item } as Fields;
    if (state.json !== undefined && state.json !== "") patched.arguments = state.json;
    if (!state.stopped) patched.status = "in_progress";
    else if ((state.late !== undefined || state.twoInputs || state.untextual !== undefined) && patched.status === "completed") patched.status = "incomplete";
    return patched as CanonicalItem;
  });
}

/**
 * The block as the non-streamed message holds it: a call's input parsed from
 * its streamed text when that parses. A server tool keeps only the parsed
 * object: where the text says more (its spacing), each fragment's line says so.
 */
function twinBlock(state: BlockState, losses: StreamLoss[]): Fields {
  const block = { ...state.block };
  if (!CALL_TYPES.has(String(block.type)) || state.json === undefined || state.json === "") return block;
  let parsed: unknown;
  try {
    parsed = JSON.parse(state.json);
  } catch {
    // Arguments cut short keep the input the block started with; the call's item holds what came.
    if (block.type === "server_tool_use" && state.stopped) {
      for (const line of state.jsonLines) losses.push({ line, path: "/delta/partial_json", code: "unsupported_field", detail: "the server tool's streamed input does not parse: its block keeps the input it started with" });
    }
    return block;
  }
  block.input = parsed;
  if (block.type === "server_tool_use" && JSON.stringify(parsed) !== state.json) {
    for (const line of state.jsonLines) losses.push({ line, path: "/delta/partial_json", code: "form_changed", detail: "the server tool's streamed input is kept as the object it parses to: the spacing of its text is not" });
  }
  return block;
}

/** Whether a call's arguments are the text a tool_use block streamed. */
function streamedText(item: Fields, states: readonly BlockState[]): boolean {
  return states.some((state) => state.block.type === "tool_use" && state.block.id === item.call_id && state.json !== undefined && state.json !== "");
}

/** A loss about a tool_use input the stream gave as text: the arguments are that text, so it does not hold. */
function ofStreamedInput(path: string, states: readonly BlockState[]): boolean {
  const match = /^(?:\/messages\/0)?\/content\/(\d+)\/input$/.exec(path);
  const state = match ? states[Number(match[1])] : undefined;
  return state !== undefined && state.block.type === "tool_use" && state.json !== undefined && state.json !== "";
}

type Placer = (loss: Loss, path: string) => StreamLoss;

/**
 * Moves a loss found in the twin (`path` into it) to the event that said the
 * value: a block's to the event that opened it, a usage count's to the event
 * that last said it, a field's to message_start or message_delta.
 */
function placer(open: OpenMessage, states: readonly BlockState[]): Placer {
  return (loss, path) => {
    const [, first = "", second = ""] = path.split("/");
    const rest = (tokens: number) => path.split("/").slice(tokens + 1).map((token) => "/" + token).join("");
    if (first === "content" && /^\d+$/.test(second)) {
      const state = states[Number(second)];
      if (state) return { line: state.line, ...loss, path: state.path + rest(2) };
    }
    // The content as a whole (another envelope's step names no block): message_start's, which every stream opens with.
    if (first === "content" && second === "" && open.contentOrigin !== undefined) return { ...loss, ...open.contentOrigin };
    if (first === "usage" && second !== "") {
      const origin = open.usageOrigins.get(second.replace(/~1/g, "/").replace(/~0/g, "~"));
      if (origin) return { line: origin.line, ...loss, path: origin.path + rest(2) };
    }
    const origin = open.origins.get(first.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (origin && first !== "usage") return { line: origin.line, ...loss, path: origin.path + rest(1) };
    // The usage as a whole: where its last count was said.
    const usage = first === "usage" ? [...open.usageOrigins.values()].pop() : undefined;
    return { line: usage?.line ?? open.line, ...loss, path: usage ? usage.path.replace(/\/[^/]*$/, "") + rest(1) : path };
  };
}

/**
 * The fields of the message no item holds, each where the stream said it:
 * message_start's id, model and usage, message_delta's stop_reason,
 * stop_sequence, container and usage. A field that holds nothing (null, [], {})
 * has nothing to leave.
 */
function leftBehind(open: OpenMessage): StreamLoss[] {
  return open.said.map(({ line, path, key }) => ({ line, path, code: "left_behind", detail: `${key} of the message is in no item: normalize writes items only` }));
}

function holdsSomething(value: unknown): boolean {
  return value !== null && value !== undefined && (typeof value !== "object" || Object.keys(value).length > 0);
}

function copyBlock(block: Fields): Fields {
  const copy: Fields = { ...block };
  if (Array.isArray(block.citations)) copy.citations = [...block.citations];
  return copy;
}

function isIndex(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function byLine(losses: StreamLoss[]): StreamLoss[] {
  return losses.sort((a, b) => a.line - b.line);
}

/** Whether two stop_reasons give a call that ends the message different statuses. */
function endsCallsOtherwise(before: unknown, after: unknown): boolean {
  const status = (reason: unknown) => (typeof reason === "string" ? toolUseStatusOf(reason, true) : reason === null ? "in_progress" : "incomplete");
  return status(before) !== status(after);
}
