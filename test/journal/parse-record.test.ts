import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseRecord } from "../../src/journal/parse-record.js";
import { countWrittenCalls } from "../../src/journal/count-written-calls.js";
import { holdsParsedArguments } from "../../src/journal/parsed-arguments-numbers.js";
import { StreamRecords } from "../../src/journal/stream-records.js";
import { pointerToken } from "../../src/models/json-pointer.js";
import { quoteVisible } from "../../src/models/quote-visible.js";
import { dataPlace, describeNamesFoldedTwice, firstNamesFoldedTwice, RECORD_NAMES } from "../../src/models/names-folded-twice.js";
import { foldName } from "../../src/models/folded-name.js";

const twice = (what: string, name: string, path: string) => ({
  ok: false,
  detail: `${what} has the name ${name} twice in one object, at ${path}; JSON.parse keeps the last value, other readers keep the first`,
});

describe("a line with each name once", () => {
  test.each([
    ["an item", '{"type":"function_call","status":"completed","arguments":"{\\"a\\":1,\\"a\\":2}"}'],
    ["the same name in sibling objects", '{"a":{"x":1},"b":{"x":2},"c":[{"x":3},{"x":4}]}'],
    ["quotes, colons and backslashes inside strings", '{"a":"\\"b\\":1","b":"c:","c":"\\\\","d":"\\\\\\"e\\":"}'],
    ["spaces around the colons", '{ "a" : 1 ,\t"b"\r\n:\n2 }'],
    ["a scalar", "12"],
    ["a string", '"a:b"'],
    ["null", "null"],
    ["empty containers", '{"a":{},"b":[],"c":[{}]}'],
    ["__proto__ once", '{"__proto__":{"admin":true}}'],
  ])("%s is its value", (_label, text) => {
    expect(parseRecord(text, "line")).toEqual({ ok: true, value: JSON.parse(text), counted: { writtenCalls: countWrittenCalls(JSON.parse(text)), parsedArguments: false } });
  });
});

describe("a line that is not JSON", () => {
  test("says so, with JSON.parse's message", () => {
    expect(parseRecord('{"a":', "line")).toEqual({ ok: false, detail: "line is not JSON: Unexpected end of JSON input" });
    expect(parseRecord("[1,]", "SSE data")).toEqual({ ok: false, detail: expect.stringMatching(/^SSE data is not JSON: /) });
  });
});

describe("a line with a name given twice", () => {
  test("the type of an extension written over with function_call", () => {
    expect(parseRecord('{"type":"openai:shell_call","type":"function_call","call_id":"c","arguments":"{}"}', "line")).toEqual(twice("line", '"type"', '"/type"'));
  });
  test("the status of a streaming call written over with completed", () => {
    expect(parseRecord('{"type":"function_call","status":"in_progress","status":"completed"}', "line")).toEqual(twice("line", '"status"', '"/status"'));
  });
  test("deep inside, with its JSON Pointer", () => {
    expect(parseRecord('{"output":[{"type":"message"},{"type":"function_call","call_id":"a","call_id":"b"}]}', "line")).toEqual(twice("line", '"call_id"', '"/output/1/call_id"'));
  });
  test("escaped one way and written another", () => {
    expect(parseRecord('{"type":"x","\\u0074ype":"function_call"}', "line")).toEqual(twice("line", '"type"', '"/type"'));
    expect(parseRecord('{"a/b":1,"a\\/b":2}', "line")).toEqual(twice("line", '"a/b"', '"/a~1b"'));
  });
  test("__proto__, which JSON.parse makes an own key", () => {
    expect(parseRecord('{"__proto__":1,"__proto__":2}', "line")).toEqual(twice("line", '"__proto__"', '"/__proto__"'));
  });
  test("a name that ends with an escaped backslash", () => {
    expect(parseRecord('{"a\\\\":1,"a\\\\":2}', "line")).toEqual(twice("line", '"a\\\\"', '"/a\\\\"'));
  });
  test("a name with a character that does not show", () => {
    expect(parseRecord('{"type\u200b":1,"type\\u200b":2}', "line")).toEqual(twice("line", '"type\\u200b"', '"/type\\u200b"'));
  });
  test("the first name given twice, when there are several", () => {
    expect(parseRecord('{"a":{"b":1,"b":2},"c":1,"c":2}', "line")).toEqual(twice("line", '"b"', '"/a/b"'));
  });
  test("next to a string that opens with a colon, which the first count takes for a member", () => {
    expect(parseRecord('{"a":":x","b":" :y","a":1}', "line")).toEqual(twice("line", '"a"', '"/a"'));
    expect(parseRecord('{"a":":x","b":" :y"}', "line")).toEqual({ ok: true, value: { a: ":x", b: " :y" }, counted: { writtenCalls: 0, parsedArguments: false } });
  });
  test("next to escaped quotes followed by colons, inside strings and arguments", () => {
    expect(parseRecord('{"arguments":"{\\"a\\":1}","s":"\\\\\\" :","arguments":"{}"}', "line")).toEqual(twice("line", '"arguments"', '"/arguments"'));
  });
  test("with spaces and line breaks between a name and its colon", () => {
    expect(parseRecord('{"a" \r\n\t: 1, "a"  :2}', "line")).toEqual(twice("line", '"a"', '"/a"'));
  });
  test("when Object.prototype has an enumerable member, which a walk by for-in would count", () => {
    Object.defineProperty(Object.prototype, "injected", { value: 1, enumerable: true, configurable: true, writable: true });
    try {
      expect(parseRecord('{"a":1,"a":2}', "line")).toEqual(twice("line", '"a"', '"/a"'));
    } finally {
      delete (Object.prototype as Record<string, unknown>).injected;
    }
  });
  test("in SSE data", () => {
    expect(parseRecord('{"type":"response.output_item.done","item":{"status":"incomplete","status":"completed"}}', "SSE data")).toEqual(twice("SSE data", '"status"', '"/item/status"'));
  });
});

describe("hostile lines", () => {
  test("a name given twice 100,000 levels deep is found without running out of stack", () => {
    const text = '{"a":'.repeat(100_000) + '{"z":1,"z":2}' + "}".repeat(100_000);
    const parsed = parseRecord(text, "line");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.detail).toMatch(/^line has the name "z" twice in one object, at "(\/a){100}"…; /);
  });
  test("a value 100,000 levels deep with each name once is read", () => {
    const text = '{"a":'.repeat(100_000) + "[]" + "}".repeat(100_000);
    expect(parseRecord(text, "line").ok).toBe(true);
  });
  test("a string of five million escapes, which exhausts a regular expression's stack, is read", () => {
    const text = '{"s":"' + "\\n".repeat(5_000_000) + '","t":1}';
    expect(parseRecord(text, "line").ok).toBe(true);
    expect(parseRecord(text.replace('"t"', '"s"'), "line")).toEqual(twice("line", '"s"', '"/s"'));
  });
  test("an object of 30,000 names that are not their own fold is read in a time that grows with its names", () => {
    const names = Array.from({ length: 30_000 }, (_, index) => `K${index}`);
    const text = `{"metadata":{${names.map((name, index) => `${JSON.stringify(name)}:${index}`).join(",")}}}`;
    expect(parseRecord(text, "line").ok).toBe(true);
    // A map's keys that fold to one are a map's to every reader; a name that decides a call is not.
    expect(parseRecord(text.replace("}}", ',"k29999":0}}'), "line").ok).toBe(true);
    const folded = text.replace("}}", ',"TYPE":0,"type":1}}');
    expect(parseRecord(folded, "line")).toEqual({ ok: false, detail: describeNamesFoldedTwice("line", { names: ["TYPE", "type"], path: "/metadata" }) });
    const foldedOnAnother = text.replace("}}", ',"TYPE":0,"\\uff34YPE":0}}');
    expect(parseRecord(foldedOnAnother, "line")).toEqual({ ok: false, detail: describeNamesFoldedTwice("line", { names: ["TYPE", "\uff34YPE"], path: "/metadata" }) });
  }, 10_000);
});

describe("the calls a record writes, counted in the same walk", () => {
  test("a line that may hold calls is counted as countWrittenCalls counts it; one that cannot is 0", () => {
    const completion = { object: "chat.completion", choices: [{ message: { role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }, { id: "c2", type: "function", function: { name: "g", arguments: "{}" } }] } }] };
    expect(parseRecord(JSON.stringify(completion), "line")).toEqual({ ok: true, value: completion, counted: { writtenCalls: 2, parsedArguments: false } });
    expect(parseRecord('{"role":"user","content":"hi"}', "line")).toEqual({ ok: true, value: { role: "user", content: "hi" }, counted: { writtenCalls: 0, parsedArguments: false } });
  });

  test("past the depth of the walk, the count is left to the normalizer, which keeps a stack of its own", () => {
    const text = '{"type":"function_call","x":' + "[".repeat(300) + "]".repeat(300) + "}";
    expect(parseRecord(text, "line")).toEqual({ ok: true, value: JSON.parse(text) });
  });
});

describe("whether a record names parsed_arguments, found in the same walk", () => {
  test.each([
    ["on a Responses item", '{"type":"function_call","arguments":"{}","parsed_arguments":{}}', true],
    ["deep in a Chat completion", '{"object":"chat.completion","choices":[{"message":{"tool_calls":[{"function":{"name":"f","arguments":"{}","parsed_arguments":null}}]}}]}', true],
    ["written with an escape", '{"type":"function_call","parsed\\u005farguments":{"a":1}}', true],
    ["only as a string value", '{"type":"message","content":"parsed_arguments"}', false],
    ["as a longer name", '{"type":"function_call","parsed_arguments_x":{}}', false],
  ])("%s", (_label, text, named) => {
    const parsed = parseRecord(text, "line");
    expect(parsed.ok && parsed.counted?.parsedArguments).toBe(named);
  });
});

describe("any JSON value (property)", () => {
  test("written by JSON.stringify, it is read as JSON.parse reads it, unless two names of an object fold to one", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const folded = firstNamesFoldedTwice(JSON.parse(text), RECORD_NAMES, true);
        const expected = folded !== undefined ? { ok: false, detail: describeNamesFoldedTwice("line", folded) } : { ok: true, value: JSON.parse(text), counted: { writtenCalls: countWrittenCalls(JSON.parse(text)), parsedArguments: holdsParsedArguments(JSON.parse(text)) } };
        expect(parseRecord(text, "line")).toEqual(expected);
      }),
    );
  });

  const nested = (text: string, outer: readonly string[]) => [...outer].reverse().reduce((inner, token) => `{${JSON.stringify(token)}:${inner}}`, text);
  // Outside the places that hold data (a tool's result, a schema's properties), whose names a loose reader keeps apart.
  const holdsNoData = (outer: readonly string[]) => outer.every((token, i) => dataPlace(i === 0 ? undefined : foldName(outer[i - 1]!), foldName(token), {}) === undefined);
  test("two names of one object that fold to a name a call is read by make the text no record, wherever the object is", () => {
    fc.assert(
      fc.property(fc.constantFrom("type", "arguments", "tool_calls", "call_id", "status", "name", "functioncall", "tooluse"), fc.array(fc.string(), { maxLength: 3 }).filter(holdsNoData), (name, outer) => {
        expect(parseRecord(nested(`{${JSON.stringify(name)}:1,${JSON.stringify(name.toUpperCase())}:2}`, outer), "line").ok).toBe(false);
      }),
    );
  });
  test("two names of a map that fold to one of no such name are read as written", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((name) => name.toUpperCase() !== name.toLowerCase() && !RECORD_NAMES(foldName(name))),
        fc.array(fc.string(), { maxLength: 3 }),
        (name, outer) => {
          const parsed = parseRecord(nested(`{${JSON.stringify(name.toLowerCase())}:1,${JSON.stringify(name.toUpperCase())}:2}`, outer), "line");
          expect(parsed.ok).toBe(true);
        },
      ),
    );
  });
  test("with a member written again at the end of an object, the name and its path are given", () => {
    const member = fc.tuple(fc.string(), fc.jsonValue());
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.nat(3))), fc.uniqueArray(member, { selector: ([name]) => name, minLength: 1 }), fc.nat(), fc.jsonValue(), (outer, members, pick, again) => {
        const [name] = members[pick % members.length];
        let text = `{${members.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(",")},${JSON.stringify(name)}:${JSON.stringify(again)}}`;
        const path = [...outer];
        for (const token of [...outer].reverse()) text = typeof token === "number" ? `[${"0,".repeat(token)}${text}]` : `{${JSON.stringify(token)}:${text}}`;
        const parsed = parseRecord(text, "line");
        const pointer = [...path, name].map((token) => "/" + pointerToken(token)).join("");
        expect(parsed).toEqual(twice("line", quoteVisible(name), quoteVisible(pointer, 200)));
      }),
    );
  });
});

describe("names quoted so that every character shows", () => {
  test.each([
    ["printable ASCII as JSON.stringify writes it", 'a "b" \\', '"a \\"b\\" \\\\"'],
    ["control characters as JSON escapes", "a\nb", '"a\\nb"'],
    ["invisible and non-ASCII characters as \\u escapes", "a\u200b\u00a0\uff1a\u00e9", '"a\\u200b\\u00a0\\uff1a\\u00e9"'],
    ["a lone surrogate", "\ud800", '"\\ud800"'],
  ])("%s", (_label, text, quoted) => {
    expect(quoteVisible(text)).toBe(quoted);
  });
  test("a long name is cut", () => {
    expect(quoteVisible("x".repeat(61))).toBe(`"${"x".repeat(60)}"…`);
  });
});

describe("through StreamRecords", () => {
  test("a JSON line with a name given twice is an error record, and the next line is read", () => {
    const records = new StreamRecords();
    expect(records.push({ source: "-", line: 1, text: '{"type":"openai:shell_call","type":"function_call"}' })).toEqual([
      { kind: "error", line: 1, detail: twice("line", '"type"', '"/type"').detail },
    ]);
    expect(records.push({ source: "-", line: 2, text: '{"type":"message","role":"user","content":"hi"}' })).toEqual([
      { kind: "plain", line: 2, record: { type: "message", role: "user", content: "hi" }, recordKind: "responses_item", writtenCalls: 0 },
    ]);
  });
  test("SSE data with a name given twice is an error record", () => {
    const records = new StreamRecords();
    const out = [
      ...records.push({ source: "-", line: 1, text: 'data: {"type":"function_call","status":"in_progress","status":"completed"}' }),
      ...records.push({ source: "-", line: 2, text: "" }),
      ...records.finish(),
    ];
    expect(out).toEqual([{ kind: "error", line: 1, detail: twice("SSE data", '"status"', '"/status"').detail }]);
  });
});
