// Rebuilds Converse responses from ConverseStream events, each an object whose
// one member names it (`{contentBlockDelta: {…}}`: a JSON-lines journal writes
// them so, and `eventOfFrame` gives them so from event-stream bytes). The
// blocks are put back together into the message Converse would have returned,
// which goes through messagesToItems, so a streamed answer and its non-streamed
// twin give the same items; only a call's arguments keep the bytes streamed.
// Nothing is final until the stream says so: a call whose block never stopped
// is in_progress, and the gate blocks it.
//
// | event                                  | effect                                                 |
// |----------------------------------------|--------------------------------------------------------|
// | messageStart                           | opens a message (one still open is closed, reported)   |
// | contentBlockStart {start {toolUse}}    | opens the call at contentBlockIndex                    |
// | a block event out of order (a block    | still applied by its index, but the message's calls    |
// |   past the next index, started again,  |   are incomplete (reported): readers that go by order  |
// |   or after another block began)        |   or reset a started call read other calls            |
// | contentBlockDelta text                 | appends to the block's text (a block may start with its first delta) |
// |   toolUse.input                        | appends to the call's arguments, as streamed; an input |
// |                                        |   that is no string makes the call incomplete          |
// |   reasoningContent text / signature /  | appends to the reasoning text / sets the signature /   |
// |     redactedContent                    |   appends to the redacted content                      |
// |   another delta                        | loss: not applied                                      |
// |   a delta of two members               | the first applied; the message's calls incomplete      |
// | contentBlockStop                       | the block is done; a toolUse delta after it is still   |
// |                                        |   appended, but makes the call incomplete (reported)   |
// | messageStop {stopReason}               | the stopReason; additionalModelResponseFields kept     |
// | a block's event, or another stopReason, | still applied, but the message's calls are incomplete  |
// |   after messageStop                    |   (reported): the stream ended them two ways           |
// | metadata {usage, metrics}              | usage and metrics; the response is given at the next   |
// |                                        |   messageStart or at the end of the recording          |
// | a block's event or a messageStop after | still applied, but the message's calls are incomplete  |
// |   metadata                             |   (reported): readers that stop there see others       |
// | an exception event                     | closes the message as failed: loss with its message    |
// | a message's events after an exception, | still applied, but the message's calls are incomplete  |
// |   with no messageStart                 |   (reported): the SDKs read nothing after it           |
// | the end of the recording               | the message still open, as far as it got: loss         |
//
// The padding member `p` every payload carries is not content, and is ignored.
// A call whose block never stopped is incomplete when messageStop came (the
// stopReason cut it), in_progress when the recording ends first.
import { isDeepStrictEqual } from "node:util";
import type { AssembledResponse, StreamLoss, WholeRecord } from "../../src/models/assembled-response.js";
import { pointerToken } from "../../src/models/json-pointer.js";
import { describeValue } from "../../src/models/json-value.js";
import type { CanonicalItem } from "../../src/models/open-responses.js";
import { converseToResponse, responseStatusOf } from "./converse-to-response.js";
import { blockKind, isRecord, type Fields } from "./fields.js";
import { callStatusOf, messagesToItems } from "./messages-to-items.js";
import type { BedrockResponse } from "./models.js";

export interface BedrockStreamOptions {
  /** Also give each response the Converse response the stream amounts to (`BedrockAssembledResponse.message`). */
  message?: boolean;
  /** The model the request named (Bedrock streams do not): kept in each reasoning item's provenance. */
  model?: string;
}

export interface BedrockAssembledResponse extends AssembledResponse {
  /** The non-streamed Converse response the events amount to; kept when the assembler is asked to. */
  message?: BedrockResponse;
}

interface BlockState {
  kind?: "text" | "toolUse" | "reasoningContent";
  text: string;
  toolUse?: Fields;
  /** The toolUse.input fragments, joined. */
  json: string;
  signature?: string;
  redacted?: string;
  line: number;
  stopped: boolean;
  /** A delta came after the block's contentBlockStop, or fragments after a start that gave an input: the call is incomplete. */
  late?: boolean;
}

interface OpenMessage {
  line: number;
  lastLine: number;
  role: unknown;
  blocks: Map<number, BlockState>;
  stopReason: string | null;
  /** The line of the first messageStop. */
  stoppedAt?: number;
  /** A content event, or a messageStop with another stopReason, after messageStop: its line. */
  afterStop?: number;
  /** The line of the first metadata event, the stream's last. */
  metadataAt?: number;
  /** The contentBlockIndex of the last block event. */
  lastIndex?: number;
  /** The first block event out of order (a block opened past the next position, started again, or an event for a block after another began): its line. */
  misordered?: number;
  /** The line of the first delta that names two members (`text` and `toolUse`): readers pick one each, in their own order. */
  twoMemberDelta?: number;
  /** The line of the event that opened the message after an exception ended the one before, with no messageStart: the SDKs read nothing after the exception. */
  afterFailure?: number;
  fields: Fields;
  /** Where each of `fields` was said: the line and the path in it (`/metadata/usage`). */
  origins: Map<string, { line: number; path: string }>;
  error?: string;
  losses: StreamLoss[];
}

/** Whether an event after messageStop says something of the content or its end: a block's event, or another stopReason. */
function saysAfterStop(name: string, body: Fields, stopReason: string | null): boolean {
  if (isBlockEvent(name)) return true;
  // Only a reason that ends the calls otherwise matters: end_turn then tool_use completes them either way.
  return name === "messageStop" && callStatusOf(typeof body.stopReason === "string" ? body.stopReason : null, true) !== callStatusOf(stopReason, true);
}

function isBlockEvent(name: string): boolean {
  return name === "contentBlockStart" || name === "contentBlockDelta" || name === "contentBlockStop";
}

export class BedrockStreamAssembler {
  private current: OpenMessage | undefined;
  /** An exception ended the last message, and no messageStart has come since. */
  private failed = false;
  private readonly keepMessage: boolean;
  private readonly model: string | undefined;

  constructor(options: BedrockStreamOptions = {}) {
    this.keepMessage = options.message ?? false;
    this.model = options.model;
  }

  /** One stream event and the journal line it came from; returns the responses it closes. */
  push(event: unknown, line: number): BedrockAssembledResponse[] {
    const name = isRecord(event) ? blockKind(event) : undefined;
    if (!isRecord(event) || name === undefined) throw new TypeError("a Bedrock stream event is an object of one member, the event's name");
    const body = isRecord(event[name]) ? (event[name] as Fields) : {};
    const closed: BedrockAssembledResponse[] = [];
    if (name === "messageStart" && this.current) {
      if (this.current.metadataAt === undefined) this.current.losses.push({ path: "", code: "unsupported_item", detail: "a message opened before the one before it ended: that one is closed as far as it got", line });
      closed.push(...this.finish());
    }
    const opening = this.current === undefined;
    const open = this.current ?? this.open(line);
    open.lastLine = line;
    if (name === "messageStart") this.failed = false;
    else if (opening && this.failed) {
      // The AWS SDKs throw at the exception and read nothing after it: what follows opens no message they give.
      open.afterFailure = line;
      open.losses.push({ path: `/${name}`, code: "form_changed", detail: "a message's events came after the exception that ended the stream, with no messageStart: the AWS SDKs throw at the exception and read nothing after it, so the message's calls are written incomplete", line });
    }
    const index = typeof body.contentBlockIndex === "number" ? body.contentBlockIndex : 0;
    if (open.afterStop === undefined) {
      // A reader that stops at messageStop, or at metadata, and one that reads on see the calls end two ways.
      const end = open.metadataAt !== undefined && (isBlockEvent(name) || name === "messageStop") ? { name: "metadata", line: open.metadataAt } : open.stoppedAt !== undefined && saysAfterStop(name, body, open.stopReason) ? { name: "messageStop", line: open.stoppedAt } : undefined;
      if (end !== undefined) {
        open.afterStop = line;
        open.losses.push({ path: `/${name}`, code: "form_changed", detail: `a ${name} event came after ${end.name} (line ${end.line}): a reader that stops there and one that reads on see different calls, so the message's calls are written incomplete`, line });
      }
    }
    if (isBlockEvent(name)) this.order(open, name, index, line);
    switch (name) {
      case "messageStart":
        open.role = body.role;
        break;
      case "contentBlockStart": {
        const start = isRecord(body.start) ? body.start : {};
        const block = this.block(open, index, line);
        if (isRecord(start.toolUse)) {
          block.kind = "toolUse";
          block.toolUse = { ...start.toolUse };
        } else {
          open.losses.push({ path: "/contentBlockStart/start", code: "unsupported_part", detail: `a block starting as ${JSON.stringify(Object.keys(start))} is not rebuilt`, line });
        }
        break;
      }
      case "contentBlockDelta":
        this.delta(open, this.block(open, index, line), body.delta, line);
        break;
      case "contentBlockStop":
        this.block(open, index, line).stopped = true;
        break;
      case "messageStop":
        open.stoppedAt ??= line;
        open.stopReason = typeof body.stopReason === "string" ? body.stopReason : null;
        for (const [key, value] of Object.entries(body)) if (key !== "stopReason" && key !== "p") this.field(open, key, value, line, `/messageStop/${pointerToken(key)}`);
        break;
      case "metadata":
        for (const [key, value] of Object.entries(body)) if (key !== "p") this.field(open, key, value, line, `/metadata/${pointerToken(key)}`);
        // Not given yet: an event after it still reaches the readers that read the stream to its end.
        open.metadataAt ??= line;
        break;
      default:
        if (/Exception$/.test(name)) {
          open.error = typeof body.message === "string" ? body.message : name;
          open.losses.push({ path: `/${name}`, code: "unsupported_item", detail: `the stream failed: ${name}: ${open.error}`, line });
          closed.push(...this.finish());
          this.failed = true;
        } else {
          open.losses.push({ path: `/${name}`, code: "unsupported_item", detail: `a ${name} event is not one of ConverseStream's: not applied`, line });
        }
    }
    return closed;
  }

  /** Closes the message still open, as far as it got. */
  finish(): BedrockAssembledResponse[] {
    const open = this.current;
    if (!open) return [];
    this.current = undefined;
    const known = open.stopReason !== null || open.error !== undefined;
    if (!known) open.losses.push({ path: "", code: "unsupported_item", detail: "the recording ends before messageStop: the response is in_progress", line: open.lastLine });
    const ordered = [...open.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
    const content: Fields[] = [];
    const streamed: Array<{ id: unknown; json: string; stopped: boolean; late: boolean }> = [];
    for (const block of ordered) {
      switch (block.kind) {
        case "text":
          content.push({ text: block.text });
          break;
        case "toolUse":
          content.push({ toolUse: { ...block.toolUse, input: parsedInput(block.json) } });
          streamed.push({ id: block.toolUse?.toolUseId, json: block.json, stopped: block.stopped, late: block.late === true });
          break;
        case "reasoningContent":
          if (block.redacted !== undefined) content.push({ reasoningContent: { redactedContent: block.redacted } });
          else content.push({ reasoningContent: { reasoningText: block.signature === undefined ? { text: block.text } : { text: block.text, signature: block.signature } } });
          break;
        case undefined:
          break;
        default: {
          const unknownKind: never = block.kind;
          throw new Error(`unhandled block kind ${String(unknownKind)}`);
        }
      }
    }
    const stopReason = open.error !== undefined ? "error" : open.stopReason;
    const converted = messagesToItems({ messages: [{ role: "assistant", content } as never], model: this.model, stopReason });
    const items = converted.value as Fields[];
    for (const item of items) {
      if (item.type !== "function_call") continue;
      // Paired by toolUseId, never by place: a toolUse of another type is no function_call, and would shift every later call onto its neighbour's input.
      const blocks = streamed.filter((block) => block.id === item.call_id);
      const state = blocks.length === 1 ? blocks[0]! : undefined;
      if (state === undefined) {
        if (item.status === "completed" || item.status === undefined) item.status = known ? "incomplete" : "in_progress";
        const which = blocks.length === 0 ? `no toolUse block streamed with the toolUseId ${JSON.stringify(item.call_id)}` : `${blocks.length} toolUse blocks have the toolUseId ${JSON.stringify(item.call_id)}`;
        open.losses.push({ path: "", code: "form_changed", detail: `${which}: which streamed input is the call's cannot be told, so the call is written ${String(item.status)}`, line: open.lastLine });
        continue;
      }
      item.arguments = state.json;
      // A block the message ended without stopping was cut: by max_tokens or
      // the like when the message said it stopped (terminal), by the recording
      // otherwise (still streaming). The gate blocks both.
      if (!state.stopped) item.status = known ? "incomplete" : "in_progress";
      else if ((state.late || open.afterStop !== undefined || open.misordered !== undefined || open.twoMemberDelta !== undefined || open.afterFailure !== undefined) && item.status === "completed") item.status = "incomplete";
    }
    const status = open.error !== undefined ? "failed" : responseStatusOf(open.stopReason).status;
    const message: Fields = { output: { message: { role: "assistant", content } }, stopReason: open.stopReason };
    for (const [key, value] of Object.entries(open.fields)) message[key] = value;
    // What normalize writes holds the items alone: each field the events said is left behind where it was said.
    const leftBehind = [...open.origins].map(([key, origin]): StreamLoss => ({ ...origin, code: "left_behind", detail: `${key} of the response is in no item: normalize writes items only` }));
    const response: BedrockAssembledResponse = {
      status,
      items: items as CanonicalItem[],
      losses: [...open.losses, ...leftBehind].sort((a, b) => a.line - b.line),
      line: open.line,
      lastLine: open.lastLine,
      record: () => wholeRecord(message as BedrockResponse, items, status, open, ordered, this.model),
    };
    if (this.keepMessage) response.message = message as BedrockResponse;
    return [response];
  }

  private open(line: number): OpenMessage {
    this.current = { line, lastLine: line, role: undefined, blocks: new Map(), stopReason: null, fields: {}, origins: new Map(), losses: [] };
    return this.current;
  }

  /** A field of the response an event says; a later event that says it again replaces it, and the value replaced is reported there. */
  private field(open: OpenMessage, key: string, value: unknown, line: number, path: string): void {
    const before = open.origins.get(key);
    if (before !== undefined && !isDeepStrictEqual(open.fields[key], value)) {
      open.losses.push({ ...before, code: "form_changed", detail: `${key} ${JSON.stringify(open.fields[key])} is replaced by the one on line ${line}, which the response holds` });
    }
    open.fields[key] = value;
    open.origins.set(key, { line, path });
  }

  /**
   * Checks that block events come block after block, in contentBlockIndex order.
   * Readers differ where they do not: one places each event by its index, one
   * keeps a current block and applies each event to it, one resets a call's
   * input when its block starts again; the calls of such a message are written
   * incomplete, since no one reading of it is sure to be the call.
   */
  private order(open: OpenMessage, name: string, index: number, line: number): void {
    const known = open.blocks.has(index);
    const why =
      !known && index !== open.blocks.size
        ? `block ${index} opens where the blocks before it make it block ${open.blocks.size}`
        : known && name === "contentBlockStart"
          ? `block ${index} starts again`
          : known && index !== open.lastIndex
            ? `an event for block ${index} comes after block ${String(open.lastIndex)} began`
            : undefined;
    open.lastIndex = index;
    if (why === undefined || open.misordered !== undefined) return;
    open.misordered = line;
    open.losses.push({ path: `/${name}/contentBlockIndex`, code: "form_changed", detail: `${why}: a reader that takes the events in order and one that places them by contentBlockIndex see different calls, so the message's calls are written incomplete`, line });
  }

  private block(open: OpenMessage, index: number, line: number): BlockState {
    let block = open.blocks.get(index);
    if (!block) {
      block = { text: "", json: "", line, stopped: false };
      open.blocks.set(index, block);
    }
    return block;
  }

  private delta(open: OpenMessage, block: BlockState, delta: unknown, line: number): void {
    const members = isRecord(delta) ? Object.keys(delta).filter((key) => key !== "p") : [];
    if (members.length > 1 && open.twoMemberDelta === undefined) {
      // The AWS SDK for JavaScript reads a union's text before its toolUse; boto3 gives both, and its readers test toolUse first.
      open.twoMemberDelta = line;
      open.losses.push({ path: "/contentBlockDelta/delta", code: "form_changed", detail: `a delta names ${members.map((key) => JSON.stringify(key)).join(" and ")}: readers of ConverseStream take one of them each, not the same one, so the message's calls are written incomplete`, line });
    }
    const kind = members[0];
    const value = isRecord(delta) && kind !== undefined ? delta[kind] : undefined;
    if (kind === "text" && typeof value === "string" && (block.kind ?? "text") === "text") {
      block.kind = "text";
      block.text += value;
    } else if (kind === "toolUse" && isRecord(value) && typeof value.input === "string" && block.kind === "toolUse") {
      const started = block.toolUse?.input;
      if (block.json === "" && !block.late && started !== undefined && !(isRecord(started) && Object.keys(started).length === 0)) {
        // ConverseStream's start names the call only: an input there and fragments after it are two readings of the call.
        block.late = true;
        open.losses.push({ path: "/contentBlockDelta/delta", code: "form_changed", detail: "the toolUse block started with an input of its own, and input fragments follow: the fragments make the arguments, a reader that keeps the started input sees another call, so the call is written incomplete", line });
      }
      block.json += value.input;
      if (block.stopped && !block.late) {
        // A reader that stops at contentBlockStop and one that reads on see different calls: neither is sure to be the call.
        block.late = true;
        open.losses.push({ path: "/contentBlockDelta/delta", code: "form_changed", detail: "a toolUse delta after the block's contentBlockStop: appended, as a reader that reads on sees it; one that stops there sees another call, so the call is written incomplete", line });
      }
    } else if (kind === "toolUse" && block.kind === "toolUse") {
      // A reader that appends each fragment's input as it comes (`input += delta.toolUse.input`) reads another call than this one, which skips it.
      block.late = true;
      const input = isRecord(value) ? value.input : undefined;
      open.losses.push({ path: "/contentBlockDelta/delta/toolUse", code: "form_changed", detail: `a toolUse delta gives input as ${describeValue(input)}, not a string: a reader that appends each fragment reads another call, and this reader skips it, so the call is written incomplete`, line });
    } else if (kind === "reasoningContent" && isRecord(value) && (block.kind ?? "reasoningContent") === "reasoningContent") {
      block.kind = "reasoningContent";
      if (typeof value.text === "string") block.text += value.text;
      if (typeof value.signature === "string") block.signature = (block.signature ?? "") + value.signature;
      if (typeof value.redactedContent === "string") block.redacted = (block.redacted ?? "") + value.redactedContent;
    } else {
      open.losses.push({ path: "/contentBlockDelta/delta", code: "unsupported_part", detail: `a ${JSON.stringify(kind)} delta does not fit its block: not applied`, line });
    }
  }
}

/**
 * The response object the stream amounts to: the Converse response its events
 * rebuild, through the converter a stored one goes through, with each call's
 * arguments as streamed and its status the stream's. A loss of that converter
 * goes to the event that said the value (a block's first event, the
 * messageStop or metadata member); one of a value the stream never said (an
 * id, a creation time) to the stream's first line.
 */
function wholeRecord(message: BedrockResponse, items: readonly Fields[], status: string, open: OpenMessage, blocks: readonly BlockState[], model: string | undefined): WholeRecord {
  const converted = converseToResponse({ response: message, ...(model === undefined ? {} : { model }) });
  const value = converted.value as unknown as Fields;
  value.status = status;
  // The stream's calls as streamed: their arguments the text, their status what the stream left them.
  const calls = items.filter((item) => item.type === "function_call");
  let call = 0;
  value.output = (value.output as Fields[]).map((item) => {
    if (item.type !== "function_call") return item;
    const streamed = calls[call++];
    return streamed === undefined ? item : { ...item, arguments: streamed.arguments, status: streamed.status };
  });
  const place = (path: string): { line: number; path: string } => {
    const block = /^\/output\/message\/content\/(\d+)(.*)$/.exec(path);
    if (block) {
      const state = blocks[Number(block[1])];
      return state === undefined ? { line: open.line, path: "" } : { line: state.line, path: "" };
    }
    if (path === "/stopReason" && open.stoppedAt !== undefined) return { line: open.stoppedAt, path: "/messageStop/stopReason" };
    const field = /^\/([^/]+)(.*)$/.exec(path);
    const origin = field ? open.origins.get(field[1]!.replace(/~1/g, "/").replace(/~0/g, "~")) : undefined;
    return origin === undefined ? { line: open.line, path: "" } : { line: origin.line, path: origin.path + field![2] };
  };
  const losses: StreamLoss[] = [...open.losses];
  for (const loss of converted.losses) {
    // The stream's arguments are written as streamed: nothing of the twin's parsed input is lost there.
    if (/^\/output\/\d+\/arguments$/.test(loss.path)) continue;
    losses.push(loss.code === "synthesized" ? { ...loss, line: open.line } : { ...loss, ...place(loss.path) });
  }
  return { value, losses: losses.sort((a, b) => a.line - b.line), place };
}

function parsedInput(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return {};
  }
}
