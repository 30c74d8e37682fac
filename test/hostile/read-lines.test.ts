import { Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { readLines, type JournalLine } from "../../src/journal/read.js";

/** Reads `chunks` as one source, each chunk arriving on its own. */
async function linesOf(chunks: Array<Buffer | string>, maxLineBytes?: number): Promise<JournalLine[]> {
  const lines: JournalLine[] = [];
  const options = maxLineBytes === undefined ? undefined : { maxLineBytes };
  for await (const line of readLines("journal.jsonl", Readable.from(chunks, { objectMode: false }), options)) lines.push(line);
  return lines;
}

const at = (line: number, text: string): JournalLine => ({ source: "journal.jsonl", line, text });
const failed = (line: number, error: string): JournalLine => ({ source: "journal.jsonl", line, text: error, error });

describe("line endings", () => {
  test("LF ends a line and a final LF opens no empty line", async () => {
    expect(await linesOf(["{\"a\":1}\n{\"b\":2}\n"])).toEqual([at(1, "{\"a\":1}"), at(2, "{\"b\":2}")]);
  });
  test("CRLF ends a line and the CR is not content", async () => {
    expect(await linesOf(["{\"a\":1}\r\n{\"b\":2}\r\n"])).toEqual([at(1, "{\"a\":1}"), at(2, "{\"b\":2}")]);
  });
  test("a CRLF split between two chunks is still one ending", async () => {
    expect(await linesOf(["{\"a\":1}\r", "\n{\"b\":2}"])).toEqual([at(1, "{\"a\":1}"), at(2, "{\"b\":2}")]);
  });
  test("a lone CR is content, as JSON allows it between tokens", async () => {
    const lines = await linesOf(["{\"a\":1,\r\"b\":2}\n"]);
    expect(lines).toEqual([at(1, "{\"a\":1,\r\"b\":2}")]);
    expect(JSON.parse(lines[0].text)).toEqual({ a: 1, b: 2 });
  });
  test("U+2028 and U+2029 are content, not line breaks", async () => {
    expect(await linesOf(["{\"a\":\"x\u2028y\u2029z\"}\n"])).toEqual([at(1, "{\"a\":\"x\u2028y\u2029z\"}")]);
  });
  test("a last line without its newline is still read", async () => {
    expect(await linesOf(["{\"a\":1}\n{\"type\":\"function_call\",\"argu"])).toEqual([at(1, "{\"a\":1}"), at(2, "{\"type\":\"function_call\",\"argu")]);
  });
});

describe("blank lines", () => {
  test("keep their numbers, so later lines keep theirs", async () => {
    expect(await linesOf(["\n\n{\"a\":1}\n  \n\n{\"b\":2}\n"])).toEqual([at(1, ""), at(2, ""), at(3, "{\"a\":1}"), at(4, "  "), at(5, ""), at(6, "{\"b\":2}")]);
  });
  test("an empty source has no lines", async () => {
    expect(await linesOf([])).toEqual([]);
    expect(await linesOf([""])).toEqual([]);
  });
});

describe("byte order mark", () => {
  test("a BOM before the first line is framing and is dropped", async () => {
    expect(await linesOf([Buffer.from([0xef, 0xbb, 0xbf]), "{\"a\":1}\n"])).toEqual([at(1, "{\"a\":1}")]);
  });
  test("a BOM before an SSE data or event line, which openai-python reads as part of the field's name and skips, makes the line one not read", async () => {
    const chunk = 'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[]}';
    const error = (field: string) => `line starts with a byte order mark before the SSE field "${field}": openai-python reads the mark as part of the field's name and skips the field, where openai-node and the SSE standard take the mark off, so they read its event apart; it was not read`;
    expect(await linesOf(["\ufeff" + chunk + "\n\n"])).toEqual([failed(1, error("data")), at(2, "")]);
    expect(await linesOf(["\ufeffevent: response.created\n" + chunk + "\n"])).toEqual([failed(1, error("event")), at(2, chunk)]);
    // A comment or an id after it is no field of the event to either reader.
    expect(await linesOf(["\ufeff: keep-alive\n" + chunk + "\n"])).toEqual([at(1, ": keep-alive"), at(2, chunk)]);
  });
  test("a BOM inside the journal is content, and the line will not parse", async () => {
    expect(await linesOf(["{\"a\":1}\n\ufeff{\"b\":2}\n"])).toEqual([at(1, "{\"a\":1}"), at(2, "\ufeff{\"b\":2}")]);
  });
});

describe("bytes that are not text", () => {
  test("a NUL byte is kept, so the record fails to parse rather than being cut at it", async () => {
    expect(await linesOf([Buffer.from("{\"a\":\"x\0y\"}\n{\"b\":2}\n")])).toEqual([at(1, "{\"a\":\"x\0y\"}"), at(2, "{\"b\":2}")]);
  });
  test("invalid UTF-8 is an error line naming the first bad byte, and the next lines are read", async () => {
    const bad = Buffer.concat([Buffer.from("{\"type\":\"function_ca"), Buffer.from([0xff]), Buffer.from("ll\"}\n{\"b\":2}\n")]);
    expect(await linesOf([bad])).toEqual([failed(1, "line is not valid UTF-8 (byte 21 of 25); it was not read"), at(2, "{\"b\":2}")]);
  });
  test.each([
    ["an overlong slash", [0xc0, 0xaf], 1],
    ["a UTF-16 surrogate", [0xed, 0xa0, 0x80], 1],
    ["a truncated sequence", [0x61, 0xe2, 0x82], 2],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 1],
    ["a stray continuation byte", [0x61, 0x62, 0x80], 3],
  ])("%s is not UTF-8", async (_label, bytes, firstBad) => {
    expect(await linesOf([Buffer.from([...bytes, 0x0a])])).toEqual([failed(1, `line is not valid UTF-8 (byte ${firstBad} of ${bytes.length}); it was not read`)]);
  });
  test("a multi-byte character split between chunks is decoded whole", async () => {
    const text = "{\"city\":\"Zürich 東京 🌏\"}";
    const bytes = Buffer.from(text + "\n");
    const chunks = [...bytes].map((byte) => Buffer.from([byte]));
    expect(await linesOf(chunks)).toEqual([at(1, text)]);
  });
  test("string chunks are read as their UTF-8 bytes", async () => {
    expect(await linesOf(["{\"a\":\"é", "\"}\n"])).toEqual([at(1, "{\"a\":\"é\"}")]);
  });
});

// A 50 MB line takes a second or two; the timeout only guards against a hang.
const BIG_LINE_TIMEOUT = 60_000;

describe("long lines", () => {
  test("a 50 MB line is read whole when no limit is set", async () => {
    const big = `{"type":"message","role":"user","content":"${"x".repeat(50 * 1024 * 1024)}"}`;
    const lines = await linesOf([big.slice(0, 1000), big.slice(1000) + "\n{\"b\":2}\n"]);
    expect(lines.map((line) => [line.line, line.text.length, line.error])).toEqual([[1, big.length, undefined], [2, 7, undefined]]);
    expect(lines[0].text === big).toBe(true);
  }, BIG_LINE_TIMEOUT);
  test("a 50 MB line over the limit is an error line with its size, and the rest of the journal is read", async () => {
    const size = 50 * 1024 * 1024;
    const chunks: Buffer[] = [Buffer.from("{\"a\":1}\n")];
    for (let sent = 0; sent < size; sent += 64 * 1024) chunks.push(Buffer.alloc(64 * 1024, 0x78));
    chunks.push(Buffer.from("\n{\"b\":2}\n\n{\"c\":3}"));
    expect(await linesOf(chunks, 1024 * 1024)).toEqual([
      at(1, "{\"a\":1}"),
      failed(2, `line is ${size} bytes, over the limit of 1048576 bytes; it was not read`),
      at(3, "{\"b\":2}"),
      at(4, ""),
      at(5, "{\"c\":3}"),
    ]);
  }, BIG_LINE_TIMEOUT);
  test("the limit counts the bytes of a line, without its ending", async () => {
    expect(await linesOf(["abcd\r\nabcde\nab\u00e9\nabcd"], 4)).toEqual([
      at(1, "abcd"),
      failed(2, "line is 5 bytes, over the limit of 4 bytes; it was not read"),
      at(3, "ab\u00e9"),
      at(4, "abcd"),
    ]);
  });
  test("a CR past the limit that turns out to be the line ending is not counted", async () => {
    expect(await linesOf(["abcd\r", "\nabcd\r", "x\n"], 4)).toEqual([at(1, "abcd"), failed(2, "line is 6 bytes, over the limit of 4 bytes; it was not read")]);
  });
  test("an unterminated last line over the limit is still reported", async () => {
    expect(await linesOf(["{}\n", "x".repeat(10)], 4)).toEqual([at(1, "{}"), failed(2, "line is 10 bytes, over the limit of 4 bytes; it was not read")]);
  });
  test("a limit of zero reads only blank lines", async () => {
    expect(await linesOf(["\n{}\n"], 0)).toEqual([at(1, ""), failed(2, "line is 2 bytes, over the limit of 0 bytes; it was not read")]);
  });
  test("the text of an error line is not JSON, so a reader that ignores `error` still reports the line", async () => {
    const [line] = await linesOf(["12345678\n"], 3);
    expect(() => JSON.parse(line.text)).toThrow(SyntaxError);
    expect(line.text.trim()).not.toBe("");
  });
  test.each([[-1], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])("a limit of %s is refused", async (limit) => {
    await expect(linesOf(["{}\n"], limit)).rejects.toThrow(new RangeError(`maxLineBytes must be a whole number of bytes, not ${limit}`));
  });
});
