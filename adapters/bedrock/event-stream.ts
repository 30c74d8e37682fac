// The AWS event-stream framing ConverseStream answers in
// (`application/vnd.amazon.eventstream`), read frame by frame.
//
// | bytes                  | holds                                                        |
// |------------------------|--------------------------------------------------------------|
// | 4, big-endian          | total length of the frame, these 4 bytes and the CRC included |
// | 4, big-endian          | length of the headers                                        |
// | 4, big-endian          | CRC32 of the 8 bytes before it                               |
// | headers                | each: name length (1), name, value type (1), value           |
// | payload                | the rest, up to the last 4 bytes: the event's JSON           |
// | 4, big-endian          | CRC32 of everything before it                                |
//
// The event's name is only in the `:event-type` header; an exception frame
// (`:message-type` "exception") names it in `:exception-type`. A frame whose
// lengths or CRCs do not hold is an error: the bytes after it cannot be trusted.
import { crc32 } from "node:zlib";

export type HeaderValue = boolean | number | bigint | string | Uint8Array;

export interface EventStreamFrame {
  headers: Record<string, HeaderValue>;
  payload: Uint8Array;
  /** Byte offset of the frame in the input. */
  offset: number;
}

export interface DecodedEvents {
  frames: EventStreamFrame[];
  /** Bytes after the last whole frame: a recording cut inside a frame. */
  rest: number;
}

const PRELUDE = 12;

export function decodeEventStream(args: { bytes: Uint8Array }): DecodedEvents {
  const { frames, rest, error } = readEventStream(args);
  if (error !== undefined) throw new Error(error);
  return { frames, rest };
}

/** The whole frames up to the first that does not hold, and why that one does not: what a recording gives before its bytes stop being trustworthy. */
export function readEventStream(args: { bytes: Uint8Array }): DecodedEvents & { error?: string } {
  const { bytes } = args;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames: EventStreamFrame[] = [];
  let offset = 0;
  try {
    while (bytes.length - offset >= PRELUDE) {
      const total = view.getUint32(offset);
      const headersLength = view.getUint32(offset + 4);
      if (view.getUint32(offset + 8) !== crc32(bytes.subarray(offset, offset + 8))) throw new Error(`event-stream frame at byte ${offset}: the prelude CRC does not match`);
      if (total < PRELUDE + headersLength + 4) throw new Error(`event-stream frame at byte ${offset}: its length ${total} cannot hold its ${headersLength} bytes of headers`);
      if (offset + total > bytes.length) break;
      const end = offset + total;
      if (view.getUint32(end - 4) !== crc32(bytes.subarray(offset, end - 4))) throw new Error(`event-stream frame at byte ${offset}: the message CRC does not match`);
      const headersStart = offset + PRELUDE;
      frames.push({ headers: readHeaders(bytes, view, headersStart, headersStart + headersLength), payload: bytes.subarray(headersStart + headersLength, end - 4), offset });
      offset = end;
    }
  } catch (error) {
    return { frames, rest: bytes.length - offset, error: (error as Error).message };
  }
  return { frames, rest: bytes.length - offset };
}

/**
 * Whether bytes open with an event-stream frame: a prelude whose CRC holds, for
 * a frame long enough for it. Text (JSONL, SSE) passes by chance once in 2^32.
 */
export function opensEventStream(head: Uint8Array): boolean {
  if (head.length < PRELUDE) return false;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const total = view.getUint32(0);
  return total >= PRELUDE + view.getUint32(4) + 4 && view.getUint32(8) === crc32(head.subarray(0, 8));
}

/**
 * A frame as the JSON line of its event, `{<event-type>: payload}`, written from
 * the payload's own text, so that the reader of lines sees its numbers and
 * names as the recording wrote them. Throws where `eventOfFrame` would.
 */
export function frameText(frame: EventStreamFrame): string {
  const name = eventName(frame);
  const text = new TextDecoder("utf-8", { fatal: true }).decode(frame.payload);
  if (text.trim() === "") return `{${JSON.stringify(name)}:{}}`;
  // Parsed alone first: a payload that is not one JSON value could otherwise close the object and add members of its own.
  const payload: unknown = JSON.parse(text);
  if (name === "chunk") return modelEventText(payload);
  return `{${JSON.stringify(name)}:${text}}`;
}

/**
 * InvokeModelWithResponseStream wraps each event of the model's own stream (an
 * Anthropic Messages event, for Claude) in a `chunk` frame, base64 in `bytes`,
 * beside the padding `p`: the record is that event, as the model wrote it.
 * Anything else in the chunk, or bytes that are not base64 of UTF-8, refuse it.
 */
function modelEventText(payload: unknown): string {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) throw new Error("its chunk is not an object");
  const { bytes, p: _padding, ...rest } = payload as Record<string, unknown>;
  const others = Object.keys(rest);
  if (others.length > 0) throw new Error(`its chunk holds ${others.map((key) => JSON.stringify(key)).join(", ")} beside the model's bytes, which no record would keep`);
  if (typeof bytes !== "string" || bytes.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(bytes)) throw new Error("the bytes of its chunk are not base64");
  return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(bytes, "base64"));
}

/**
 * Event-stream bytes as a journal's records: each frame's line (frameText), or
 * why it could not be read; and why the bytes after the last whole frame were
 * not read, if they were not (a frame that does not hold, a recording cut
 * inside a frame).
 */
export function eventStreamRecords(bytes: Uint8Array): { records: Array<{ text: string } | { error: string }>; stopped?: string } {
  const { frames, rest, error } = readEventStream({ bytes });
  const records = frames.map((frame) => {
    try {
      return { text: frameText(frame) };
    } catch (reason) {
      // eventName's errors name the frame already; a payload's JSON error does not.
      const message = (reason as Error).message;
      return { error: message.startsWith("event-stream frame at byte") ? `${message}; it is not read` : `event-stream frame at byte ${frame.offset} is not read: ${message}` };
    }
  });
  if (error !== undefined) return { records, stopped: `${error}: the ${rest} bytes from it on are not read` };
  if (rest > 0) return { records, stopped: `the recording ends inside an event-stream frame: its last ${rest} bytes are not read` };
  return { records };
}

/**
 * A frame as the JSON-lines event it stands for: `{<event-type>: payload}`.
 * Only an event or an exception frame stands for one: the AWS SDKs throw at an
 * `error` frame and at one of any other `:message-type`, whatever its
 * `:event-type` says, so such a frame is an error here too, never an event
 * that would go on the stream the SDKs stopped.
 */
export function eventOfFrame(frame: EventStreamFrame): Record<string, unknown> {
  const name = eventName(frame);
  const text = new TextDecoder("utf-8", { fatal: true }).decode(frame.payload);
  return { [name]: text === "" ? {} : (JSON.parse(text) as unknown) };
}

function eventName(frame: EventStreamFrame): string {
  const { headers, offset } = frame;
  const type = headers[":message-type"];
  const name = type === "exception" ? headers[":exception-type"] : type === "event" ? headers[":event-type"] : undefined;
  if (type === "error") throw new Error(`event-stream frame at byte ${offset} is an error frame (${String(headers[":error-code"])}: ${String(headers[":error-message"])}): the stream failed there`);
  if (type !== "event" && type !== "exception") throw new Error(`event-stream frame at byte ${offset} has ${type === undefined ? "no :message-type" : `the :message-type ${JSON.stringify(type)}`}, neither event nor exception: the AWS SDKs read no event of it and fail the stream`);
  if (typeof name !== "string") throw new Error(`event-stream frame at byte ${offset} names no event`);
  // The stream's events are read as exceptions by their name alone: one named otherwise would go on as the event it names.
  if (type === "exception" && !/Exception$/.test(name)) throw new Error(`event-stream frame at byte ${offset} is an exception named ${JSON.stringify(name)}: the AWS SDKs throw at it, and as an event of that name it would be read as no exception`);
  return name;
}

function readHeaders(bytes: Uint8Array, view: DataView, start: number, end: number): Record<string, HeaderValue> {
  const headers: Record<string, HeaderValue> = {};
  const text = new TextDecoder("utf-8", { fatal: true });
  let at = start;
  while (at < end) {
    const nameLength = bytes[at];
    const name = text.decode(bytes.subarray(at + 1, at + 1 + nameLength));
    at += 1 + nameLength;
    const type = bytes[at];
    at += 1;
    let value: HeaderValue;
    switch (type) {
      case 0:
      case 1:
        value = type === 0;
        break;
      case 2:
        value = view.getInt8(at);
        at += 1;
        break;
      case 3:
        value = view.getInt16(at);
        at += 2;
        break;
      case 4:
        value = view.getInt32(at);
        at += 4;
        break;
      case 5:
      case 8:
        value = view.getBigInt64(at);
        at += 8;
        break;
      case 6:
      case 7: {
        const length = view.getUint16(at);
        const raw = bytes.subarray(at + 2, at + 2 + length);
        value = type === 7 ? text.decode(raw) : raw;
        at += 2 + length;
        break;
      }
      case 9:
        value = bytes.subarray(at, at + 16);
        at += 16;
        break;
      default:
        throw new Error(`event-stream header ${JSON.stringify(name)}: unknown value type ${type}`);
    }
    if (Object.hasOwn(headers, name) || name === "__proto__") throw new Error(`event-stream header ${JSON.stringify(name)} is given twice or is not a name`);
    headers[name] = value;
  }
  if (at !== end) throw new Error("event-stream headers overrun their length");
  return headers;
}
