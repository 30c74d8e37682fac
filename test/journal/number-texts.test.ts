// Numbers keep the text the journal wrote them in: what JSON.stringify would
// write otherwise is put back, and a number a line writes two ways is said.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { infiniteNumberLosses, LineNumberTexts, numberTextsOf, restoreNumberTexts } from "../../src/journal/number-texts.js";

const roundTrip = (line: string) => {
  const texts = numberTextsOf(line);
  const json = JSON.stringify(JSON.parse(line));
  return texts === undefined ? { text: json, losses: [] } : restoreNumberTexts(json, texts);
};

describe("numberTextsOf", () => {
  test("a line whose numbers read back as written needs no table", () => {
    expect(numberTextsOf('{"created":1745960880,"temperature":0.7,"n":-3,"text":"gpt-4o 1.0 e5"}')).toBeUndefined();
  });

  test("remembers each number that does not read back, by the text its double writes and its place", () => {
    expect(numberTextsOf('{"temperature":0.0,"seed":12345678901234567890,"scale":1E3,"tiny":0.0000001,"neg":-0,"usage":{"n":[1.0,[2,1.0]]}}')).toEqual(
      new Map([
        ["0 /temperature", { forms: new Set(["0.0"]), count: 1, at: "/temperature" }],
        ["12345678901234567000 /seed", { forms: new Set(["12345678901234567890"]), count: 1, at: "/seed" }],
        ["1000 /scale", { forms: new Set(["1E3"]), count: 1, at: "/scale" }],
        ["1e-7 /tiny", { forms: new Set(["0.0000001"]), count: 1, at: "/tiny" }],
        ["0 /neg", { forms: new Set(["-0"]), count: 1, at: "/neg" }],
        ["1 /n/0", { forms: new Set(["1.0"]), count: 1, at: "/usage/n/0" }],
        ["1 /n/1/1", { forms: new Set(["1.0"]), count: 1, at: "/usage/n/1/1" }],
      ]),
    );
  });

  test("numbers inside strings are text, not numbers", () => {
    expect(numberTextsOf('{"content":"0.0 and 1E3 and \\"12345678901234567890\\""}')).toBeUndefined();
  });
});

describe("a line written back", () => {
  test("keeps 0.0, exponents and an integer beyond 2^53 exactly", () => {
    const line = '{"temperature":0.0,"id":12345678901234567890,"limits":{"maximum":9007199254740993,"step":1.50,"scale":2e3},"list":[1.0,7]}';
    expect(roundTrip(line)).toEqual({ text: line, losses: [] });
  });

  test("a double the line writes two ways at two places is written each way at its place", () => {
    expect(roundTrip('{"temperature":1.0,"top_p":1}')).toEqual({ text: '{"temperature":1.0,"top_p":1}', losses: [] });
  });

  test("a double the line writes two ways at one place is written as the double writes it, and said", () => {
    const restored = roundTrip('{"tools":[{"maximum":1.0},{"maximum":1}]}');
    expect(restored).toEqual({
      text: '{"tools":[{"maximum":1},{"maximum":1}]}',
      losses: [{ path: "/tools/0/maximum", code: "form_changed", detail: "the line writes the number 1 as 1.0 and as 1: each is written 1" }],
    });
  });

  test("any JSON number text comes back as written, alone or beside numbers that read back", () => {
    const digits = (min: number, max: number) => fc.array(fc.constantFrom(..."0123456789"), { minLength: min, maxLength: max }).map((list) => list.join(""));
    const numberText = fc
      .tuple(
        fc.boolean(),
        fc.oneof(fc.constant("0"), fc.tuple(fc.constantFrom(..."123456789"), digits(0, 24)).map(([head, tail]) => head + tail)),
        fc.option(digits(1, 20), { nil: undefined }),
        fc.option(fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), digits(1, 3)), { nil: undefined }),
      )
      .map(([minus, whole, fraction, exponent]) => `${minus ? "-" : ""}${whole}${fraction === undefined ? "" : "." + fraction}${exponent === undefined ? "" : exponent.join("")}`)
      .filter((text) => Number.isFinite(Number(text)));
    fc.assert(
      fc.property(numberText, fc.integer({ min: 0, max: 1000 }), (text, plain) => {
        const line = `{"value":${text},"other":"${text}","count":${plain === Number(text) ? text : plain}}`;
        const written = roundTrip(line);
        if (written.losses.length === 0) expect(written.text).toBe(line);
        else expect(written.losses[0].code).toBe("form_changed");
      }),
      { numRuns: 3000 },
    );
  });
});

describe("LineNumberTexts", () => {
  test("gives the texts of the lines a record comes from, and none of another line's", () => {
    const lines = new LineNumberTexts();
    lines.read({ line: 1, text: '{"a":0.0}' });
    lines.read({ line: 2, text: '{"b":1}' });
    lines.read({ line: 3, text: '{"c":2.50}' });
    expect(lines.between(1, 1)).toEqual(new Map([["0 /a", { forms: new Set(["0.0"]), count: 1, at: "/a" }]]));
    expect(lines.between(2, 2)).toBeUndefined();
    // Line 2 is not kept, so which numbers it writes is not known: it may write 0 and 2.5 as their doubles do, at the same places.
    expect(lines.between(1, 3)).toEqual(
      new Map([
        ["0 /a", { forms: new Set(["0.0", "0"]), count: 1 }],
        ["2.5 /c", { forms: new Set(["2.50", "2.5"]), count: 1 }],
      ]),
    );
    expect(lines.between(3, 3)).toEqual(new Map([["2.5 /c", { forms: new Set(["2.50"]), count: 1, at: "/c" }]]));
  });

  test("across lines some of which are not kept, each number's forms come in the order the lines write them, its shortest after the first line's", () => {
    const lines = new LineNumberTexts();
    const forms = ["1.0", "1.00", "1E0", "10E-1", "1.000", "100E-2"];
    forms.forEach((form, index) => {
      lines.read({ line: 2 * index + 1, text: `{"a":${form}}` });
      lines.read({ line: 2 * index + 2, text: '{"b":"none"}' });
    });
    expect([...lines.between(1, 2 * forms.length)!.get("1 /a")!.forms]).toEqual(["1.0", "1", ...forms.slice(1)]);
  });

  test("a number one kept line writes otherwise and another as its double writes it at the same place is written both ways across them", () => {
    const lines = new LineNumberTexts();
    lines.read({ line: 1, text: '{"args":{"a":7.0},"scale":1E3}' });
    lines.read({ line: 2, text: '{"args":{"a":7},"tokens":7.0,"scale":1E3}' });
    expect(lines.between(1, 2)).toEqual(
      new Map([
        ["7 /a", { forms: new Set(["7.0", "7"]), count: 2 }],
        ["1000 /scale", { forms: new Set(["1E3"]), count: 2 }],
        ["7 /tokens", { forms: new Set(["7.0"]), count: 1 }],
      ]),
    );
    expect(lines.between(2, 2)).toEqual(
      new Map([
        ["7 /tokens", { forms: new Set(["7.0"]), count: 1, at: "/tokens" }],
        ["1000 /scale", { forms: new Set(["1E3"]), count: 1, at: "/scale" }],
      ]),
    );
  });

  test("texts are kept for a window of lines; a record from before it is told which of its lines were let go", () => {
    const lines = new LineNumberTexts(3);
    lines.read({ line: 1, text: '{"a":1}' });
    lines.read({ line: 2, text: '{"a":0.0}' });
    for (let line = 3; line <= 5; line++) lines.read({ line, text: '{"b":1}' });
    expect(lines.forgottenFrom(1)).toBeUndefined();
    lines.read({ line: 6, text: '{"b":1}' });
    expect(lines.between(1, 6)).toBeUndefined();
    expect(lines.forgottenFrom(1)).toBe(2);
    expect(lines.forgottenFrom(3)).toBeUndefined();
  });

  test("a line that could not be read holds no number", () => {
    const lines = new LineNumberTexts();
    lines.read({ line: 1, text: "line 1 is longer than 10 bytes: 0.0", error: "too long" });
    expect(lines.between(1, 1)).toBeUndefined();
  });
});

describe("infiniteNumberLosses", () => {
  test("a number past the largest double, written null by JSON.stringify, is said where it is written", () => {
    const line = '{"args":{"amount":1e400,"count":2},"list":[-1e400]}';
    expect(infiniteNumberLosses([JSON.parse(line)], numberTextsOf(line))).toEqual([
      { path: "", code: "form_changed", detail: "the number 1e400 or -1e400 of the line is past the largest double: the value written at /args/amount is null, as JSON.stringify writes it" },
      { path: "", code: "form_changed", detail: "the number 1e400 or -1e400 of the line is past the largest double: the value written at /list/0 is null, as JSON.stringify writes it" },
    ]);
  });

  test("among several records written, the record is named", () => {
    const line = '{"a":1e400}';
    expect(infiniteNumberLosses([{ b: 1 }, JSON.parse(line)], numberTextsOf(line)).map((loss) => loss.detail)).toEqual([
      "the number 1e400 of the line is past the largest double: the value written at /a of output record 2 is null, as JSON.stringify writes it",
    ]);
  });

  test("lines that wrote no such number: nothing walked, nothing said", () => {
    expect(infiniteNumberLosses([{ a: Infinity }], numberTextsOf('{"a":7.0}'))).toEqual([]);
    expect(infiniteNumberLosses([{ a: Infinity }], undefined)).toEqual([]);
  });
});
