// Writes AWS event-stream frames, for tests: the decoder's input built from
// parts, so that lengths, CRCs and header types can be set right or wrong.
import { crc32 } from "node:zlib";

/** One frame of string headers around a payload; `corrupt` flips a bit of the named CRC. */
export function frame(headers: Record<string, string>, payload: string, corrupt?: "prelude" | "message"): Buffer {
  const headerBytes = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const nameBytes = Buffer.from(name, "utf8");
      const valueBytes = Buffer.from(value, "utf8");
      const head = Buffer.alloc(1 + nameBytes.length + 3);
      head.writeUInt8(nameBytes.length, 0);
      nameBytes.copy(head, 1);
      head.writeUInt8(7, 1 + nameBytes.length);
      head.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
      return Buffer.concat([head, valueBytes]);
    }),
  );
  const body = Buffer.from(payload, "utf8");
  const total = 12 + headerBytes.length + body.length + 4;
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(total, 0);
  prelude.writeUInt32BE(headerBytes.length, 4);
  prelude.writeUInt32BE((crc32(prelude.subarray(0, 8)) ^ (corrupt === "prelude" ? 1 : 0)) >>> 0, 8);
  const withoutCrc = Buffer.concat([prelude, headerBytes, body]);
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE((crc32(withoutCrc) ^ (corrupt === "message" ? 1 : 0)) >>> 0, 0);
  return Buffer.concat([withoutCrc, tail]);
}

/** An event frame as ConverseStream sends one. */
export function eventFrame(eventType: string, payload: unknown): Buffer {
  return frame({ ":event-type": eventType, ":content-type": "application/json", ":message-type": "event" }, JSON.stringify(payload));
}
