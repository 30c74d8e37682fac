import { describe, expect, test } from "vitest";
import { jsonTextMeaning, jsonValueMeaning } from "../../src/models/json-meaning.js";

describe("a JSON text", () => {
  test("written with other spacing and member order means the same", () => {
    expect(jsonTextMeaning('{"country": "France", "units" : ["c", "f"]}')).toBe('{"country":"France","units":["c","f"]}');
    expect(jsonTextMeaning('{"units":["c","f"],"country":"France"}')).toBe('{"country":"France","units":["c","f"]}');
    expect(jsonTextMeaning(' \t\r\n{ } ')).toBe("{}");
  });

  test("a string written with escapes means the string it spells", () => {
    expect(jsonTextMeaning('{"city":"\\u0050aris","path":"a\\/b"}')).toBe('{"city":"Paris","path":"a/b"}');
  });

  test("a number keeps its text: 1.0 is not 1, and integers past 2^53 are not rounded", () => {
    expect(jsonTextMeaning('{"a":1.0}')).toBe('{"a":1.0}');
    expect(jsonTextMeaning('{"a":1}')).toBe('{"a":1}');
    expect(jsonTextMeaning("[12345678901234567890, 12345678901234567891]")).toBe("[12345678901234567890,12345678901234567891]");
  });

  test("a member named twice, even through an escape, gives no meaning", () => {
    expect(jsonTextMeaning('{"country":"France","country":"Spain"}')).toBeUndefined();
    expect(jsonTextMeaning('{"a":1,"\\u0061":1}')).toBeUndefined();
    expect(jsonTextMeaning('{"outer":{"a":1,"a":1}}')).toBeUndefined();
  });

  test("text that is not RFC 8259 JSON gives no meaning", () => {
    for (const text of ["", "{", '{"a":1', '{"a":1}}', "{'a':1}", '{"a":01}', '{"a":.5}', '{"a":1,}', "[1,]", "tru", "nul", '"\u0001"', '"\\x41"', "NaN", "{\"a\" 1}", "[1 2]", '"open'])
      expect(jsonTextMeaning(text)).toBeUndefined();
  });

  test("nesting past the limit gives no meaning, and no stack overflow", () => {
    expect(jsonTextMeaning("[".repeat(100_000) + "]".repeat(100_000))).toBeUndefined();
    expect(jsonTextMeaning("[".repeat(100) + "]".repeat(100))).toBe("[".repeat(99) + "[]" + "]".repeat(99));
  });
});

describe("a parsed value", () => {
  test("members in any order mean the same; undefined members are left out", () => {
    expect(jsonValueMeaning({ b: [1, { d: null, c: "x" }], a: true, z: undefined })).toBe('{"a":true,"b":[1,{"c":"x","d":null}]}');
  });

  test("a lossless parser's number is written as its text; a plain object with the same fields stays an object", () => {
    class LosslessNumber {
      readonly isLosslessNumber = true;
      constructor(readonly value: string) {}
    }
    expect(jsonValueMeaning({ id: new LosslessNumber("12345678901234567890") })).toBe('{"id":12345678901234567890}');
    expect(jsonValueMeaning({ id: { isLosslessNumber: true, value: "5" } })).toBe('{"id":{"isLosslessNumber":true,"value":"5"}}');
  });

  test("nesting past the limit throws a RangeError", () => {
    let deep: unknown = [];
    for (let i = 0; i < 1000; i++) deep = [deep];
    expect(() => jsonValueMeaning(deep)).toThrow(RangeError);
  });
});
