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
  const { bytes } = args;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames: EventStreamFrame[] = [];
  let offset = 0;
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
  return { frames, rest: bytes.length - offset };
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
