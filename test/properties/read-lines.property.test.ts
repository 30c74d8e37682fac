import { isUtf8 } from "node:buffer";
import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { readLines } from "../../src/journal/read.js";

async function textsOf(chunks: Buffer[], maxLineBytes?: number): Promise<Array<string | undefined>> {
  const texts: Array<string | undefined> = [];
  for await (const line of readLines("-", Readable.from(chunks), { maxLineBytes })) texts.push(line.error === undefined ? line.text : undefined);
  return texts;
}

/** Cuts `bytes` at the given offsets, in order, into chunks. */
function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

// Line content: any text without "\n", possibly with "\r" inside and a CRLF ending.
const lineText = fc.string({ unit: fc.oneof(fc.constant("\r"), fc.constant("\u2028"), fc.constant("\0"), fc.constant("é"), fc.constant("🌏"), fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }).filter((c) => c !== "\n")) });

describe("lines read from any chunking of the bytes", () => {
  test("are the journal's lines, whatever the chunk boundaries", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(lineText, fc.boolean())), fc.boolean(), fc.array(fc.nat(), { maxLength: 20 }), async (lines, finalNewline, offsets) => {
        let journal = lines.map(([text, crlf]) => text + (crlf ? "\r\n" : "\n")).join("");
        if (!finalNewline && journal.endsWith("\n")) journal = journal.slice(0, -1);
        // The definition of a line: the text between "\n"s, one "\r" at its end
        // dropped (an unterminated last line too), and nothing after a final "\n".
        const pieces = journal.split("\n");
        if (pieces[pieces.length - 1] === "") pieces.pop();
        const expected = pieces.map((text) => (text.endsWith("\r") ? text.slice(0, -1) : text));
        expect(await textsOf(cut(Buffer.from(journal), offsets))).toEqual(expected);
      }),
    );
  });
  test("a limit reports exactly the lines longer than it, and reads the others whole", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: "grapheme-ascii", maxLength: 40 }).map((text) => text.replace(/[\r\n]/g, " "))), fc.nat({ max: 30 }), fc.array(fc.nat(), { maxLength: 20 }), async (lines, limit, offsets) => {
        const bytes = Buffer.from(lines.map((text) => text + "\n").join(""));
        const expected = lines.map((text) => (Buffer.byteLength(text) > limit ? undefined : text));
        expect(await textsOf(cut(bytes, offsets), limit)).toEqual(expected);
      }),
    );
  });
  test("any bytes: a line is its text when it is UTF-8, and an error line when it is not", async () => {
    // Lines of any bytes but "\n", some of them not UTF-8, cut anywhere.
    const lineBytes = fc.uint8Array({ maxLength: 12 }).map((bytes) => Buffer.from(bytes.map((byte) => (byte === 0x0a ? 0x20 : byte))));
    const utf8Line = fc.string({ unit: "binary", maxLength: 12 }).map((text) => Buffer.from(text.replace(/\n/g, " ")));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(lineBytes, utf8Line), { minLength: 1 }), fc.array(fc.nat(), { maxLength: 20 }), async (lines, offsets) => {
        const journal = Buffer.concat(lines.flatMap((bytes) => [bytes, Buffer.from("\n")]));
        const expected = lines.map((bytes, i) => {
          const content = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
          if (!isUtf8(content)) return undefined;
          const text = content.toString("utf8");
          return i === 0 && text.startsWith("\ufeff") ? text.slice(1) : text;
        });
        expect(await textsOf(cut(journal, offsets))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
