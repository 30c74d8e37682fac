// The text tests that spare a line the walk must never spare one that holds a
// number its double does not stand for, however the JSON around it is spaced.
import { describe, expect, test } from "vitest";
import { inexactLiterals, inexactSchemaNumber, inexactSchemaNumbers } from "../../src/journal/inexact-numbers.js";

describe("inexactSchemaNumbers", () => {
  test("finds each number under a judging keyword, after a colon, a bracket or a comma and any JSON white space", () => {
    const text = '{\n  "maximum":\n\t0.29999999999999999,\n  "enum": [1,\r\n 1e-400],\n  "default": 0.29999999999999999\n}';
    expect(inexactSchemaNumbers(text)).toEqual([
      { literal: "0.29999999999999999", path: "/maximum", tokens: ["maximum"] },
      { literal: "1e-400", path: "/enum/1", tokens: ["enum", 1] },
    ]);
    expect(inexactSchemaNumber(text)).toEqual({ literal: "0.29999999999999999", path: "/maximum" });
  });

  test("counts are judged too: a count a double reads as a whole number is not one as written", () => {
    expect(inexactSchemaNumbers('{"properties":{"s":{"maxLength":1.9999999999999999999},"a":{"minItems":1e-400,"maxContains":3}}}')).toEqual([
      { literal: "1.9999999999999999999", path: "/properties/s/maxLength", tokens: ["properties", "s", "maxLength"] },
      { literal: "1e-400", path: "/properties/a/minItems", tokens: ["properties", "a", "minItems"] },
    ]);
  });

  test("a keyword written with escapes is found by its name", () => {
    expect(inexactSchemaNumbers(String.raw`{"tools":[{"m\u0069nimum":-0.10000000000000000555}]}`)).toEqual([{ literal: "-0.10000000000000000555", path: "/tools/0/minimum", tokens: ["tools", 0, "minimum"] }]);
  });

  test("none where the numbers stand for their doubles, or the long digits are inside strings", () => {
    expect([
      inexactSchemaNumbers('{"maximum":0.30000000000000000,"minimum":1e3,"enum":[12345678901234]}'),
      inexactSchemaNumbers('{"maximum":0.3,"id":"rs_2f571835933f77ab8194e45aa42e","note":"x: 12345678901234567890"}'),
    ]).toEqual([undefined, undefined]);
  });
});

describe("inexactLiterals", () => {
  test("finds a number at the start of an array and after white space, by the text its double writes", () => {
    expect(inexactLiterals('[ 12345678901234567890 ,\n-1e400]')).toEqual(
      new Map([
        ["12345678901234567000", "12345678901234567890"],
        ["null", "-1e400"],
      ]),
    );
  });
});
