// The lines of a journal cross to the thread that normalizes them as they were
// split: every field of every line, in order, whatever the bytes held.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ChunkLines } from "../../src/journal/chunk-lines.js";
import { LineSplitter, type JournalLine } from "../../src/journal/read.js";
import { textFactsOf } from "../../src/journal/text-facts.js";
import { decodeLines, encodeLines } from "../../src/journal/transfer-lines.js";

const crossed = (lines: JournalLine[]) => decodeLines(structuredClone(encodeLines(lines)));
/** The lines as they arrive: each line read with what was read of its text on the way. */
const withFacts = (lines: JournalLine[]) => lines.map((line) => (line.error === undefined ? { ...line, textFacts: textFactsOf(line.text) } : line));

describe("lines after the crossing", () => {
  test("a line's text facts are the ones its text gives", () => {
    const text = '{"a":"x\\":","b":{"c":12345678901234567890}}';
    expect(crossed([{ source: "-", line: 1, text }])[0]!.textFacts).toEqual({ colons: 3, mayHoldInexact: true });
  });

  test("lines of two sources, one not read and one not read that may be a request, are the lines split", () => {
    const reader = new ChunkLines({ maxLineBytes: 40 });
    const lines = [
      ...reader.push("a.jsonl", Buffer.from('{"role":"user","content":"hi"}\r\n{"tools":[' + "x".repeat(50) + "]}\n\xff\n", "latin1")),
      ...reader.push("b.jsonl", Buffer.from('{"type":"message"}\nno newline')),
      ...reader.end(),
    ];
    expect(lines.map(({ source, line, error, mayBeRequest }) => [source, line, error !== undefined, mayBeRequest === true])).toEqual([
      ["a.jsonl", 1, false, false],
      ["a.jsonl", 2, true, true],
      ["a.jsonl", 3, true, false],
      ["b.jsonl", 1, false, false],
      ["b.jsonl", 2, false, false],
    ]);
    expect(crossed(lines)).toEqual(withFacts(lines));
  });

  test("lines whose numbers do not follow on, as a library caller may hand them, keep their numbers", () => {
    const lines: JournalLine[] = [
      { source: "-", line: 7, text: "{}" },
      { source: "-", line: 7, text: "[]" },
      { source: "-", line: 3, text: "1" },
      { source: "x", line: 4, text: "2" },
    ];
    expect(crossed(lines)).toEqual(withFacts(lines));
  });

  test("no lines cross as none", () => {
    expect(crossed([])).toEqual([]);
  });

  test("a line not read whose text is not its error is refused rather than sent as another", () => {
    expect(() => encodeLines([{ source: "-", line: 1, text: "{}", error: "line is not valid UTF-8" }])).toThrow("its text is not its error");
  });

  test("any bytes, in any chunks, split on either side give the same lines (property)", () => {
    const bytes = fc.uint8Array({ maxLength: 300 }).map((array) => Buffer.from(array.map((byte) => (byte % 7 === 0 ? 0x0a : byte))));
    fc.assert(
      fc.property(fc.array(bytes, { maxLength: 6 }), fc.integer({ min: 1, max: 64 }), (chunks, limit) => {
        const whole = new LineSplitter("j", { maxLineBytes: limit });
        const expected = [...chunks.flatMap((chunk) => whole.push(chunk)), ...whole.finish()];
        const reader = new ChunkLines({ maxLineBytes: limit });
        const lines = [...chunks.flatMap((chunk) => crossed(reader.push("j", chunk))), ...crossed(reader.end())];
        expect(lines).toEqual(withFacts(expected));
      }),
      { numRuns: 300 },
    );
  });
});
