// Rebuilds Anthropic responses from their stream events. The blocks of a message
// are put back together into the message the non-streamed API would have
// returned, and that message goes through messagesToItems, so a streamed answer
// and its non-streamed twin give the same items; only a call's arguments keep
// the bytes streamed. Nothing is final until the stream says so: a call whose
// block never stopped is in_progress, and the gate blocks it.
//
// | event                                  | effect                                                 |
// |----------------------------------------|--------------------------------------------------------|
// | message_start                          | opens a message (one still open is closed, reported)   |
// | content_block_start                    | opens the block at `index` as the event gives it (a server tool result whole) |
// | content_block_delta text_delta         | appends to the block's text                            |
// |   input_json_delta                     | appends to the call's arguments, as streamed           |
// |   thinking_delta / signature_delta     | appends to the thinking / sets the signature           |
// |   citations_delta                      | adds a citation to the text block                      |
// |   another delta type                   | loss: not applied                                      |
// | content_block_stop                     | the block is done                                      |
// | message_delta                          | stop_reason, stop_sequence and the other delta fields (container, |
// |                                        |   stop_details) set the message's; usage merged        |
// | message_stop                           | closes the message                                     |
// | error                                  | closes the message as failed: loss with the error      |
// | ping, any other event                  | ignored, as Anthropic asks of clients                  |
// | the end of the recording               | the message still open, as far as it got: loss, status |
// |                                        |   from the stop_reason if one came, else in_progress   |
//
// The status of the response and of its calls is the stop_reason's
// (`callStatusOf`); a call whose block did not stop is in_progress whatever it
// says. Asked to (`message`), the assembler also gives the message the stream
// amounts to: a call's input there is its parsed arguments, or the input its
// block started with when they do not parse.
import type { AssembledResponse, StreamLoss } from "../../src/models/assembled-response.js";
import type { Loss } from "../../src/models/loss.js";
import type { CanonicalItem } from "../../src/models/open-responses.js";
import { isRecord, type Fields } from "./fields.js";
import { responseStatusOf } from "./message-to-response.js";
import { messagesToItems } from "./messages-to-items.js";
import type { AnthropicResponse } from "./models.js";

export interface AnthropicStreamOptions {
  /** Also give each response the message the stream amounts to (`AnthropicAssembledResponse.message`). */
  message?: boolean;
}

export interface AnthropicAssembledResponse extends AssembledResponse {
  /** The non-streamed message the events amount to; kept when the assembler is asked to. */
  message?: AnthropicResponse;
}

interface BlockState {
  block: Fields;
  /** Line of the content_block_start. */
  line: number;
  /** The input_json_delta fragments, joined; undefined when none came. */
  json?: string;
  stopped: boolean;
}

interface OpenMessage {
  line: number;
  lastLine: number;
  /** The message of message_start, its content rebuilt from the blocks. */
  message: Fields;
  blocks: Map<number, BlockState>;
  stopped: boolean;
  error?: { line: number; detail: string };
  losses: StreamLoss[];
}

const CALL_TYPES = new Set(["tool_use", "server_tool_use"]);

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
    switch (event.type) {
      case "message_start": {
        if (this.current) closed.push(...this.finish());
        const message = isRecord(event.message) ? { ...event.message } : {};
        const open = this.open(line, message);
        if (Array.isArray(message.content)) {
          message.content.forEach((block, index) => {
            if (isRecord(block)) open.blocks.set(index, { block: { ...block }, line, stopped: true });
          });
        }
        return closed;
      }
      case "content_block_start": {
        const open = this.ensure(line);
        const index = event.index;
        if (!isIndex(index) || !isRecord(event.content_block)) {
          open.losses.push({ line, path: "", code: "unsupported_field", detail: "content_block_start without an index and a content_block: no block opened" });
          return closed;
        }
        if (open.blocks.has(index)) open.losses.push({ line, path: "/index", code: "form_changed", detail: `a second block started at index ${index}: it replaces the first` });
        open.blocks.set(index, { block: copyBlock(event.content_block), line, stopped: false });
        return closed;
      }
      case "content_block_delta":
        this.delta(this.ensure(line), event, line);
        return closed;
      case "content_block_stop": {
        const open = this.ensure(line);
        const state = isIndex(event.index) ? open.blocks.get(event.index) : undefined;
        if (state) state.stopped = true;
        else open.losses.push({ line, path: "/index", code: "unsupported_field", detail: `content_block_stop for index ${JSON.stringify(event.index)}, which no block started at` });
        return closed;
      }
      case "message_delta": {
        const open = this.ensure(line);
        if (isRecord(event.delta)) Object.assign(open.message, event.delta);
        if (isRecord(event.usage)) {
          const usage: Fields = isRecord(open.message.usage) ? { ...open.message.usage } : {};
          for (const [key, value] of Object.entries(event.usage)) if (value !== null && value !== undefined) usage[key] = value;
          open.message.usage = usage;
        }
        return closed;
      }
      case "message_stop": {
        const open = this.ensure(line);
        open.stopped = true;
        closed.push(...this.finish());
        return closed;
      }
      case "error": {
        const open = this.ensure(line);
        const error = isRecord(event.error) ? event.error : {};
        open.error = { line, detail: `the stream failed with ${String(error.type)}: ${String(error.message)}; the response is failed, its calls in_progress` };
        closed.push(...this.finish());
        return closed;
      }
      default:
        if (this.current) this.current.lastLine = line;
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
    this.current = { line, lastLine: line, message: { ...message, content: [] }, blocks: new Map(), stopped: false, losses: [] };
    return this.current;
  }

  /** The open message; an event before any message_start opens one, reported. */
  private ensure(line: number): OpenMessage {
    if (this.current) {
      this.current.lastLine = line;
      return this.current;
    }
    const open = this.open(line, { type: "message", role: "assistant" });
    open.losses.push({ line, path: "", code: "form_changed", detail: "an event before message_start: the message has no id, model or usage" });
    return open;
  }

  private delta(open: OpenMessage, event: Fields, line: number): void {
    const delta = isRecord(event.delta) ? event.delta : {};
    const state = isIndex(event.index) ? open.blocks.get(event.index) : undefined;
    if (!state) {
      open.losses.push({ line, path: "/delta", code: "unsupported_field", detail: `a delta for index ${JSON.stringify(event.index)}, which no block started at: not applied` });
      return;
    }
    const block = state.block;
    const notApplied = (why: string): void => {
      open.losses.push({ line, path: "/delta", code: "unsupported_field", detail: `${why}: not applied` });
    };
    if (state.stopped) return notApplied(`a ${String(delta.type)} after the block's content_block_stop`);
    switch (delta.type) {
      case "text_delta":
        if (block.type !== "text" || typeof delta.text !== "string") return notApplied(`a text_delta for a ${String(block.type)} block`);
        block.text = (typeof block.text === "string" ? block.text : "") + delta.text;
        return;
      case "input_json_delta":
        if (!CALL_TYPES.has(String(block.type)) || typeof delta.partial_json !== "string") return notApplied(`an input_json_delta for a ${String(block.type)} block`);
        state.json = (state.json ?? "") + delta.partial_json;
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

function assemble(open: OpenMessage, keepMessage: boolean): AnthropicAssembledResponse {
  const losses = [...open.losses];
  const states = [...open.blocks.entries()].sort(([a], [b]) => a - b).map(([, state]) => state);
  const message = open.message;
  const stopReason = open.error ? null : message.stop_reason === undefined ? null : (message.stop_reason as string | null);
  const content = states.map((state) => twinBlock(state));
  message.content = content;

  const converted = messagesToItems({
    messages: [{ role: "assistant", content: content as AnthropicResponse["content"] }],
    model: typeof message.model === "string" ? message.model : undefined,
    stopReason,
  });
  losses.push(...converted.losses.map((loss) => placeLoss(loss, states)));
  const calls = states.filter((state) => state.block.type === "tool_use");
  let call = 0;
  const items = converted.value.map((item): CanonicalItem => {
    if (item.type !== "function_call") return item;
    const state = calls[call++];
    if (!state) return item;
    const patched = { ...item } as Fields;
    if (state.json !== undefined && state.json !== "") patched.arguments = state.json;
    if (!state.stopped) patched.status = "in_progress";
    return patched as CanonicalItem;
  });

  for (const state of states) {
    if (state.stopped) continue;
    const what = state.block.type === "tool_use" ? "its call is in_progress" : CALL_TYPES.has(String(state.block.type)) ? "its partial input is not kept" : "it may be cut";
    losses.push({ line: state.line, path: "/content_block", code: "form_changed", detail: `the stream ended before this ${String(state.block.type)} block's content_block_stop: ${what}` });
  }
  if (open.error) losses.push({ line: open.error.line, path: "/error", code: "unsupported_field", detail: open.error.detail });
  else if (!open.stopped) {
    const detail = stopReason === null ? "the stream ended without message_stop or a stop_reason: the response is in_progress" : `the stream ended without message_stop; the status comes from the stop_reason ${JSON.stringify(stopReason)} of message_delta`;
    losses.push({ line: open.lastLine, path: "", code: "form_changed", detail });
  }
  const status = open.error ? "failed" : responseStatusOf(stopReason).status;
  const response: AnthropicAssembledResponse = {
    ...(typeof message.id === "string" ? { id: message.id } : {}),
    status,
    items,
    losses: losses.sort((a, b) => a.line - b.line),
    line: open.line,
    lastLine: open.lastLine,
  };
  if (keepMessage) response.message = { ...message, stop_reason: stopReason } as AnthropicResponse;
  return response;
}

/** The block as the non-streamed message holds it: a call's input parsed from its arguments when they parse. */
function twinBlock(state: BlockState): Fields {
  const block = { ...state.block };
  if (CALL_TYPES.has(String(block.type)) && state.json !== undefined && state.json !== "") {
    try {
      block.input = JSON.parse(state.json);
    } catch {
      // Arguments cut short keep the input the block started with; the call's item holds what came.
    }
  }
  return block;
}

/** Moves a loss found in the rebuilt message to the content_block_start that carried the block. */
function placeLoss(loss: Loss, states: readonly BlockState[]): StreamLoss {
  const match = /^\/messages\/0\/content\/(\d+)(.*)$/.exec(loss.path);
  const state = match ? states[Number(match[1])] : undefined;
  if (!match || !state) return { ...loss, line: states[0]?.line ?? 0, path: "" };
  return { ...loss, line: state.line, path: "/content_block" + match[2] };
}

function copyBlock(block: Fields): Fields {
  const copy: Fields = { ...block };
  if (Array.isArray(block.citations)) copy.citations = [...block.citations];
  return copy;
}

function isIndex(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}
