// A JSON text a conversion made of an object of the record, joined by a later
// step to other text: its numbers are put back as the record wrote them where
// a double stands for them, and said at their place in the record where not.
import { describe, expect, test } from "vitest";
import { inexactLiterals } from "../../src/journal/inexact-numbers.js";
import { madeObjectTexts, numberPointer, restoreJoinedTexts } from "../../src/journal/inexact-texts.js";
import { exactForms, numberTextsOf } from "../../src/journal/number-texts.js";

/** What the journal layer reads of a line: its record, the forms to put back, the literals no double stands for. */
const lineOf = (text: string) => ({ source: JSON.parse(text) as unknown, texts: exactForms(numberTextsOf(text)), inexact: inexactLiterals(text) });

describe("restoreJoinedTexts", () => {
  const line = '{"content":[{"json":{"account":12345678901234567890,"ratio":7.0}},{"text":"done"}]}';
  const made = '{"account":12345678901234567000,"ratio":7}';

  test("a made text joined to another: its forms put back, its inexact number said at its place in the record", () => {
    const { source, texts, inexact } = lineOf(line);
    const written = [{ response: { output: `${made}done` } }];
    const losses = restoreJoinedTexts({ written, made: [{ output: [{ text: made }, { text: "done" }] }], source, texts, inexact });
    expect({ written, losses }).toEqual({
      written: [{ response: { output: '{"account":12345678901234567000,"ratio":7.0}done' } }],
      losses: [
        {
          path: "/content/0/json/account",
          code: "form_changed",
          detail: "the text written at /response/output joins a JSON text made of the record to other text, and holds the number 12345678901234567890 of the record as its double writes it, 12345678901234567000: a double does not stand for the number as written",
        },
      ],
    });
  });

  test("the text the record wrote beside it keeps its own numbers", () => {
    const { source, texts, inexact } = lineOf('{"content":[{"text":"7 items: "},{"json":{"count":7.0}}]}');
    const written = [{ output: '7 items: {"count":7}' }];
    const losses = restoreJoinedTexts({ written, made: [{ output: [{ text: "7 items: " }, { text: '{"count":7}' }] }], source, texts, inexact });
    expect({ written, losses }).toEqual({ written: [{ output: '7 items: {"count":7.0}' }], losses: [] });
  });

  test("a made text written whole is left to the writers of whole texts", () => {
    const { source, texts, inexact } = lineOf(line);
    const written = [{ text: made }];
    expect({ losses: restoreJoinedTexts({ written, made: [{ text: made }], source, texts, inexact }), written }).toEqual({ losses: [], written: [{ text: made }] });
  });

  test("a made text read back into an object: a number past the largest double, written null there, is said", () => {
    const { source, texts, inexact } = lineOf('{"input":{"amount":1e400,"rate":7.0}}');
    const written = [{ args: { amount: null, rate: 7 } }];
    expect(restoreJoinedTexts({ written, made: [{ arguments: '{"amount":null,"rate":7}' }], source, texts, inexact })).toEqual([
      { path: "/input/amount", code: "form_changed", detail: "the number 1e400 of the record is past the largest double: the JSON text made of its object writes it null, and so does the object written from that text" },
    ]);
  });

  test("a stream's response, of several records, says the number of the record as a whole, and changes no text: the stream's own text may hold the same", () => {
    const { texts, inexact } = lineOf(line);
    const written = [{ output: `${made}done` }];
    expect(restoreJoinedTexts({ written, made: [{ output: [{ text: made }] }], source: undefined, texts, inexact }).map((loss) => [loss.path, loss.detail.includes("a stream's own text may hold it too")])).toEqual([
      ["", false],
      ["", true],
    ]);
    expect(written).toEqual([{ output: `${made}done` }]);
  });

  test("nothing made holds such a number: nothing to do", () => {
    const written = [{ output: '{"a":1}done' }];
    expect(restoreJoinedTexts({ written, made: [{ text: '{"a":1}' }], source: {}, texts: undefined, inexact: undefined })).toEqual([]);
    expect(written).toEqual([{ output: '{"a":1}done' }]);
  });
});

describe("numberPointer", () => {
  test("points at the one number of the record that reads as the literal's double", () => {
    expect(numberPointer({ a: [1, { "b/c": 12345678901234567890 }] }, "12345678901234567890")).toBe("/a/1/b~1c");
    expect(numberPointer({ big: Infinity }, "1e400")).toBe("/big");
  });

  test("the record as a whole when two of its numbers read as that double: which one was written so is not known", () => {
    // `{"a":1,"b":1.0000000000000001}`, parsed: both are 1.
    expect(numberPointer({ a: 1, b: 1 }, "1.0000000000000001")).toBe("");
  });

  test("the record as a whole when it holds none, or is not one record", () => {
    expect(numberPointer({ a: 1 }, "2")).toBe("");
    expect(numberPointer(undefined, "2")).toBe("");
  });
});

describe("madeObjectTexts", () => {
  test("a text the record wrote itself is its own, as many times as it wrote it, first where the values write it first", () => {
    const isMade = madeObjectTexts([{ text: '{"a":7}' }, { arguments: '{"a":7}' }, { output: "7" }, { arguments: '{"b":7}' }, { output: "[7]" }, { output: "{not json" }], { content: '{"a":7}', other: "7" });
    expect(['{"a":7}', "7", '{"b":7}', "[7]", "{not json", '{"b":7}'].map(isMade)).toEqual([true, false, true, true, false, false]);
  });
});
