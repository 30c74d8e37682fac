import { describe, expect, test } from "vitest";
import { constrainsNumbers, inexactNumber, standsAsDouble } from "../../src/gate/exact-arguments.js";
import { replayGate } from "../../src/gate/replay-gate.js";
import { SchemaCache } from "../../src/gate/schema.js";

const call = (args: string) => ({ type: "function_call", id: "fc_1", call_id: "call_1", name: "tool", status: "completed", arguments: args });
const cache = new SchemaCache();
const gate = (args: string, schema: Record<string, unknown> | boolean) => replayGate(call(args), schema, { cache });
const OK = { reason: "ok", detail: "completed call with arguments valid for its schema" };
const READS_AS_ANOTHER = "which a double reads as another number";
const PAST_SAFE = "which is past ±(2^53 − 1), where one double stands for several whole numbers";
const notCompared = (where: string, literal: string, why = READS_AS_ANOTHER) => ({
  reason: "arguments_schema",
  detail: `arguments${where} is ${literal}, ${why}; the gate does not compare it`,
  path: "/arguments",
});

describe("a literal the double stands for", () => {
  test.each([
    "0",
    "-0",
    "1",
    "-17",
    "0.1",
    "2.50",
    "1.0",
    "1E2",
    "100e-2",
    "0.30000000000000004",
    "1.5e-7",
    "5e-324",
    "123456789012345.6",
    "9007199254740991",
    "-9007199254740991",
  ])("%s is compared as a double", (literal) => {
    expect(standsAsDouble(literal)).toBe(true);
  });
});

describe("a literal the double does not stand for", () => {
  test.each([
    ["an integer past 2^53 that reads as another", "9007199254740993"],
    ["2^53 itself, which 2^53 + 1 also reads as", "9007199254740992"],
    ["a 20-digit integer", "12345678901234567891"],
    ["2^63 written exactly, which int64's largest value also reads as", "9223372036854775808"],
    ["1e300, past the whole numbers a double tells apart", "1e300"],
    ["a fraction that reads as a whole number", "1.0000000000000000001"],
    ["a fraction that reads as a shorter one", "0.30000000000000001"],
    ["a number too small that reads as 0", "1e-400"],
    ["a number too large that reads as Infinity", "1e400"],
    ["a subnormal written with more digits than it holds", "1.23456789e-320"],
  ])("%s: %s", (_label, literal) => {
    expect(standsAsDouble(literal)).toBe(false);
  });
});

describe("finding the literal in the arguments", () => {
  test("gives the literal as written and its JSON Pointer", () => {
    expect(inexactNumber('{"orders":[{"id":1},{"id":9007199254740993}]}')).toEqual({ literal: "9007199254740993", path: "/orders/1/id" });
    expect(inexactNumber('{"a/b":{"~":[1e999]}}')).toEqual({ literal: "1e999", path: "/a~1b/~0/0" });
    expect(inexactNumber("12345678901234567891")).toEqual({ literal: "12345678901234567891", path: "" });
  });
  test("takes the first one", () => {
    expect(inexactNumber("[1e400, 9007199254740993]")).toEqual({ literal: "1e400", path: "/0" });
  });
  test("skips digits inside strings, names included", () => {
    expect(inexactNumber('{"id":"12345678901234567891","e":"1e999","12345678901234567891":1}')).toBeUndefined();
    expect(inexactNumber('{"a":"\\"","b":12345678901234567891}')).toEqual({ literal: "12345678901234567891", path: "/b" });
  });
  test("passes numbers that are written as their double writes them", () => {
    expect(inexactNumber('{"a":0.1,"b":[1,2.5,-3],"c":1e2,"d":"x"}')).toBeUndefined();
  });
  test("walks 100,000 levels deep without running out of stack", () => {
    expect(inexactNumber("[".repeat(100_000) + "1e400" + "]".repeat(100_000))).toEqual({ literal: "1e400", path: "/0".repeat(100_000) });
  });
});

describe("whether a schema judges numbers", () => {
  test.each([
    ["true", true],
    ["false", false],
    ["an empty schema", {}],
    ["a string type", { type: "string", maxLength: 3 }],
    ["a number type alone", { type: "number" }],
    ["an enum of strings", { enum: ["apac", "emea"] }],
    ["a const string", { const: "x" }],
    ["uniqueItems false", { type: "array", uniqueItems: false }],
    ["a date format", { type: "string", format: "date" }],
    ["counts of items", { type: "array", minItems: 1, maxItems: 3 }],
    ["a $ref within the schema to a string", { $ref: "#/$defs/s", $defs: { s: { type: "string" } } }],
  ])("%s does not", (_label, schema) => {
    expect(constrainsNumbers(schema)).toBe(false);
  });
  test.each([
    ["maximum", { maximum: 9007199254740992 }],
    ["minimum", { minimum: 0 }],
    ["exclusiveMaximum", { exclusiveMaximum: 1 }],
    ["exclusiveMinimum", { exclusiveMinimum: 1 }],
    ["multipleOf", { multipleOf: 0.5 }],
    ["integer", { type: "integer" }],
    ["integer among types", { type: ["null", "integer"] }],
    ["a const number", { const: 12345678901234567890 }],
    ["a number inside a const", { const: { a: [1] } }],
    ["an enum holding a number", { enum: ["a", 1] }],
    ["uniqueItems", { uniqueItems: true }],
    ["int64", { format: "int64" }],
    ["a bound under properties", { type: "object", properties: { n: { type: "number", maximum: 5 } } }],
    ["a bound in $defs", { $ref: "#/$defs/n", $defs: { n: { minimum: 1 } } }],
    ["a bound in anyOf", { anyOf: [{ type: "string" }, { items: { type: "integer" } }] }],
    ["a property named maximum (read as a keyword, which blocks more, never less)", { properties: { maximum: { type: "string" } } }],
    ["a $ref to the 2020-12 meta-schema, whose counts are integers of a minimum", { properties: { schema: { $ref: "https://json-schema.org/draft/2020-12/schema" } } }],
    ["a $dynamicRef out of the schema", { items: { $dynamicRef: "https://json-schema.org/draft/2020-12/schema#meta" } }],
  ])("%s does", (_label, schema) => {
    expect(constrainsNumbers(schema)).toBe(true);
  });
  test("a schema 100,000 levels deep is read without running out of stack", () => {
    const deep = JSON.parse('{"items":'.repeat(100_000) + '{"maximum":1}' + "}".repeat(100_000)) as Record<string, unknown>;
    expect(constrainsNumbers(deep)).toBe(true);
  });
});

describe("the gate", () => {
  test("does not compare an integer past 2^53 against a maximum it would pass as a double", () => {
    expect(gate('{"n":9007199254740993}', { type: "object", properties: { n: { maximum: 9007199254740992 } } })).toEqual(notCompared("/n", "9007199254740993"));
  });
  test("does not compare a 20-digit integer against a const it would equal as a double", () => {
    expect(gate('{"n":12345678901234567891}', { type: "object", properties: { n: { const: 12345678901234567890 } } })).toEqual(notCompared("/n", "12345678901234567891"));
  });
  test("does not take a fraction that reads as 1 for an integer", () => {
    expect(gate('{"n":1.0000000000000000001}', { type: "object", properties: { n: { type: "integer" } } })).toEqual(notCompared("/n", "1.0000000000000000001"));
  });
  test("does not compare 2^63 against int64's largest value, which reads as 2^63", () => {
    expect(gate('{"n":9223372036854775808}', { type: "object", properties: { n: { type: "integer", maximum: 9223372036854775807 } } })).toEqual(notCompared("/n", "9223372036854775808"));
  });
  test("does not take an enum member for a longer literal that reads as it", () => {
    expect(gate('{"n":0.30000000000000001}', { type: "object", properties: { n: { enum: [0.3] } } })).toEqual(notCompared("/n", "0.30000000000000001"));
  });
  test("does not take a fraction that reads as 1 for the count of a schema judged by the meta-schema", () => {
    const schema = { type: "object", properties: { schema: { $ref: "https://json-schema.org/draft/2020-12/schema" } } };
    expect(gate('{"schema":{"minLength":1.0000000000000000001}}', schema)).toEqual(notCompared("/schema/minLength", "1.0000000000000000001"));
    expect(gate('{"schema":{"maxItems":-1e-400}}', schema)).toEqual(notCompared("/schema/maxItems", "-1e-400"));
    expect(gate('{"schema":{"minLength":1}}', schema)).toEqual(OK);
  });
  test("blocks such a literal anywhere once the schema judges numbers somewhere", () => {
    expect(gate('{"limit":5,"id":12345678901234567891}', { type: "object", properties: { limit: { maximum: 10 } } })).toEqual(notCompared("/id", "12345678901234567891"));
  });
  test("says which of the two ways a literal fails to stand: a double reads it as another number, or it is past 2^53 − 1", () => {
    const schema = { type: "object", properties: { a: { const: 9007199254740993 } } };
    expect(gate('{"a":9007199254740992}', schema)).toEqual(notCompared("/a", "9007199254740992", PAST_SAFE));
    expect(gate('{"a":9007199254740993}', schema)).toEqual(notCompared("/a", "9007199254740993", READS_AS_ANOTHER));
    expect(gate('{"a":1e400}', { type: "object", properties: { a: { minimum: 0 } } })).toEqual(notCompared("/a", "1e400", "which is past the largest double"));
  });
  test("cuts a long literal in the detail", () => {
    const literal = "1" + "0".repeat(60);
    expect(gate(`[${literal}]`, { type: "array", items: { minimum: 0 } }).detail).toBe(`arguments/0 is ${literal.slice(0, 40)}…, ${PAST_SAFE}; the gate does not compare it`);
  });
  test("compares literals the double stands for", () => {
    const schema = { type: "object", properties: { n: { type: "integer", maximum: 9007199254740991 }, x: { type: "number", minimum: 0, multipleOf: 0.5 }, p: { enum: [0.1, 0.3] } } };
    expect(gate('{"n":9007199254740991,"x":2.50,"p":0.1}', schema)).toEqual(OK);
    expect(gate('{"n":1.0,"x":1e1,"p":0.3}', schema)).toEqual(OK);
  });
  test("passes any literal when the schema judges no number", () => {
    expect(gate('{"n":9007199254740993,"m":1e400}', { type: "object", properties: { n: {}, m: { type: "number" } } })).toEqual(OK);
    expect(gate("12345678901234567891", true)).toEqual(OK);
  });
  test("a literal past the doubles is a number, whichever validator runs the schema (Ajv, or the gate's own for unevaluated*)", () => {
    const properties = { a: { not: { type: "number" } }, b: { if: { type: "number" }, then: false }, c: { oneOf: [{ type: "number" }, {}] }, d: { type: "number" } };
    for (const closing of [{ additionalProperties: false }, { unevaluatedProperties: false }]) {
      const schema = { type: "object", properties, ...closing };
      for (const [name, literal] of [["a", "1e400"], ["b", "-1e400"], ["c", "1e999"]]) expect(gate(`{"${name}":${literal}}`, schema).reason, `${name} ${literal} with ${JSON.stringify(closing)}`).toBe("arguments_schema");
      expect(gate('{"d":1e400}', schema), JSON.stringify(closing)).toEqual(OK);
    }
  });
  test("a value the schema rejects anyway keeps the schema's detail", () => {
    expect(gate('{"n":90071992547409930}', { type: "object", properties: { n: { maximum: 10 } } })).toEqual({ reason: "arguments_schema", detail: "arguments/n must be <= 10", path: "/arguments" });
  });
  test("never lets a literal the double does not stand for pass a numeric keyword", () => {
    const literals = ["9007199254740993", "12345678901234567891", "1.0000000000000000001", "0.30000000000000001", "1e-400", "1e400", "9223372036854775808"];
    const schemas = [{ maximum: 1e300 }, { minimum: -1e300 }, { type: "integer" }, { multipleOf: 1e-9 }, { enum: [Number("1e-400"), 0.3, 1, 9007199254740992, 12345678901234567890, 9223372036854775807] }, { type: "array", uniqueItems: true }];
    for (const literal of literals) {
      for (const schema of schemas) {
        const text = "uniqueItems" in schema ? `[${literal}]` : literal;
        expect(gate(text, schema).reason, `${literal} against ${JSON.stringify(schema)}`).not.toBe("ok");
      }
    }
  });
});

describe("multipleOf, judged exactly on the decimals the doubles write", () => {
  const cases: Array<[number, string, boolean]> = [
    [0.7, "53.2", true],
    [0.7, "53.199999999999996", false],
    [0.1, "0.3", true],
    [0.1, "-0.3", true],
    [0.1, "114821858834.70001", false],
    [0.01, "4.35", true],
    [0.01, "105610348.71000001", false],
    [0.05, "1032864739.9000001", false],
    [1e-320, "1", true],
    [1, "4.5", false],
    [2, "0", true],
  ];
  test.each(cases)("multipleOf %s: %s is %s", (multipleOf, literal, valid) => {
    const verdicts = [{ type: "object", properties: { n: { multipleOf } } }, { type: "object", properties: { n: { multipleOf } }, unevaluatedProperties: false }].map((schema) => gate(`{"n":${literal}}`, schema));
    const expected = valid ? OK : { reason: "arguments_schema", detail: `arguments/n must be multiple of ${multipleOf}`, path: "/arguments" };
    // Through Ajv, and through the project's evaluator (which unevaluatedProperties sends a schema to).
    expect(verdicts).toEqual([expected, expected]);
  });
});
