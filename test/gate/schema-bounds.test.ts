// A tool schema cannot make the gate work without bound. Past a size, a depth or a
// count of subschemas it is refused before compiling; a $ref compiles once, not
// once per use; and each validation runs within a budget of steps that grows with
// the arguments, past which the call is blocked with the bound it broke. The
// verdicts are counted, not timed, so they are the same on every run.
import { describe, expect, test } from "vitest";
import { replayGate, type Verdict } from "../../src/gate/replay-gate.js";
import { SchemaCache, type ToolSchema } from "../../src/gate/schema.js";
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, MAX_SUBSCHEMAS } from "../../src/gate/schema-limits.js";
import { argumentUnits, BASE_STEPS, MAX_CLOSURE_STATES, STEPS_PER_UNIT } from "../../src/gate/schema-work.js";
import { SCHEMA_PROPERTY_BOUND, SCHEMA_STATE_BOUND } from "../../src/gate/linear-regexp.js";
import { call, OK_DETAIL } from "../hostile/support.js";

const gate = (schema: ToolSchema, args: unknown, cache = new SchemaCache()): Verdict => replayGate(call("call_1", JSON.stringify(args)), schema, { cache });
const blocked = (detail: string): Verdict => ({ reason: "arguments_schema", detail, path: "/arguments" });
const refused = (why: string): Verdict => blocked(`tool schema is refused: ${why}`);
const ok: Verdict = { reason: "ok", detail: OK_DETAIL };
const overBudget = (args: unknown): Verdict => blocked(`arguments could not be checked: schema work exceeded ${BASE_STEPS + STEPS_PER_UNIT * argumentUnits(args)} steps, the bound for arguments of this size`);

/** `levels` objects, each the value of "a" in the one around it. */
function nested(levels: number, innermost: unknown): unknown {
  let value = innermost;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** A chain of levels, each an anyOf of two references to the level below: 2^levels paths for a value that fails. */
function refChain(levels: number): ToolSchema {
  const defs: Record<string, unknown> = { d0: { type: "string" } };
  for (let i = 1; i <= levels; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
  return { $defs: defs, $ref: `#/$defs/d${levels}` };
}

describe("the size of a schema", () => {
  // Each {"properties":{"a":…}} adds two levels; {"type":"string"} and its string are the last two.
  const schemaOfDepth = (depth: number): ToolSchema => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let levels = 2; levels < depth; levels += 2) schema = { properties: { a: schema } };
    return schema;
  };

  test(`nested ${MAX_SCHEMA_DEPTH} levels, it compiles`, () => {
    expect(gate(schemaOfDepth(MAX_SCHEMA_DEPTH), {})).toEqual(ok);
  });
  test("nested deeper, it is refused with its depth and the bound", () => {
    expect(gate(schemaOfDepth(MAX_SCHEMA_DEPTH + 2), {})).toEqual(refused(`it is nested ${MAX_SCHEMA_DEPTH + 2} levels deep, over the bound of ${MAX_SCHEMA_DEPTH}`));
  });
  test("nested 100,000 deep, it is refused by the same bound, not by the stack", () => {
    const schema = JSON.parse("{\"items\":".repeat(100_000) + "{}" + "}".repeat(100_000)) as ToolSchema;
    expect(gate(schema, [])).toEqual(refused(`it is nested 100001 levels deep, over the bound of ${MAX_SCHEMA_DEPTH}`));
  });
  test("holding more JSON values than the bound, it is refused", () => {
    const schema = { enum: Array.from({ length: MAX_SCHEMA_NODES }, (_, i) => i) };
    expect(gate(schema, 1)).toEqual(refused(`it holds ${MAX_SCHEMA_NODES + 2} JSON values, over the bound of ${MAX_SCHEMA_NODES}`));
  });
  test(`with ${MAX_SUBSCHEMAS} subschemas, it compiles`, () => {
    const schema = { type: "object", properties: Object.fromEntries(Array.from({ length: MAX_SUBSCHEMAS - 1 }, (_, i) => [`p${i}`, { type: "string" }])) };
    expect(gate(schema, { p1: "x" })).toEqual(ok);
  });
  test("with one subschema more, it is refused with the count and the bound", () => {
    const schema = { type: "object", properties: Object.fromEntries(Array.from({ length: MAX_SUBSCHEMAS }, (_, i) => [`p${i}`, { type: "string" }])) };
    expect(gate(schema, {})).toEqual(refused(`it has ${MAX_SUBSCHEMAS + 1} subschemas, over the bound of ${MAX_SUBSCHEMAS}`));
  });
  test("entries of dependentRequired count as subschemas: Ajv turns each into code", () => {
    const schema = { type: "object", dependentRequired: Object.fromEntries(Array.from({ length: MAX_SUBSCHEMAS }, (_, i) => [`d${i}`, ["x"]])) };
    expect(gate(schema, {})).toEqual(refused(`it has ${MAX_SUBSCHEMAS + 1} subschemas, over the bound of ${MAX_SUBSCHEMAS}`));
  });
});

describe("the patterns of one schema, together", () => {
  const PROPERTIES = ["L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "N", "Nd", "P", "S", "Z", "Script=Greek", "Script=Latin", "Script=Cyrillic", "sc=Grek"];
  const stringsOf = (patterns: readonly string[], extra: Record<string, unknown> = {}): ToolSchema => ({
    type: "object",
    properties: Object.fromEntries(patterns.map((pattern, i) => [`p${i}`, { type: "string", pattern }])),
    ...extra,
  });
  const tooManyProperties = (pattern: string, at = "") =>
    blocked(`tool schema does not compile: ${at}pattern "${pattern}" brings the distinct Unicode properties the schema's patterns name past ${SCHEMA_PROPERTY_BOUND}, the bound that keeps its compile short (each one's set is built by testing every code point); the schema is refused`);

  test(`naming ${SCHEMA_PROPERTY_BOUND} distinct Unicode properties, they compile`, () => {
    const patterns = PROPERTIES.slice(0, SCHEMA_PROPERTY_BOUND).map((name) => `^\\p{${name}}*$`);
    expect(gate(stringsOf(patterns), { p0: "abc" })).toEqual(ok);
  });
  test("naming one more, in patterns each within its own bound, the schema is refused, whether or not the sets were built before", () => {
    // sc=Grek is Script=Greek spelled another way: one more set to build all the same.
    const patterns = PROPERTIES.slice(0, SCHEMA_PROPERTY_BOUND + 1).map((name) => `^\\p{${name}}*$`);
    expect(SCHEMA_PROPERTY_BOUND + 1).toBe(PROPERTIES.length);
    const refusal = tooManyProperties(patterns[SCHEMA_PROPERTY_BOUND]!);
    expect([gate(stringsOf(patterns), { p0: "abc" }), gate(stringsOf(patterns), { p0: "abc" })]).toEqual([refusal, refusal]);
  });
  test("one property named in 300 patterns is one set", () => {
    const patterns = Array.from({ length: 300 }, (_, i) => `^\\p{L}{${i}}$`);
    expect(gate(stringsOf(patterns), { p2: "ab" })).toEqual(ok);
  });
  test("a pattern no value reaches counts too, and so does one the evaluator runs", () => {
    const patterns = PROPERTIES.slice(0, SCHEMA_PROPERTY_BOUND).map((name) => `^\\p{${name}}*$`);
    const unreached = stringsOf(patterns, { $defs: { unused: { pattern: "\\p{Nd}\\p{Sc}" } } });
    expect(gate(unreached, { p0: "abc" })).toEqual(tooManyProperties("\\p{Nd}\\p{Sc}", "at /$defs/unused/pattern: "));
    const evaluated = stringsOf([...patterns, "\\p{Sc}"], { unevaluatedProperties: false });
    expect(gate(evaluated, { p0: "abc" })).toEqual(tooManyProperties("\\p{Sc}"));
  });
  test(`patterns of ${SCHEMA_STATE_BOUND} automaton states in all compile; past it, the schema is refused`, () => {
    // ^a{n}$ has n + 3 states: the two anchors and the match.
    const each = 19_000;
    const fitting = Array.from({ length: Math.floor(SCHEMA_STATE_BOUND / (each + 3 + 1)) }, (_, i) => `^a{${each + i}}$`);
    expect(gate(stringsOf(fitting), { p0: "a".repeat(each) })).toEqual(ok);
    const past = [...fitting, `^a{${each + fitting.length}}$`];
    expect(gate(stringsOf(past), {})).toEqual(
      blocked(`tool schema does not compile: pattern "${past[past.length - 1]}" brings the automaton states of the schema's patterns past ${SCHEMA_STATE_BOUND}, the bound that keeps its compile short; the schema is refused`),
    );
  });
  test("a pattern repeated in one schema counts once", () => {
    const patterns = Array.from({ length: 40 }, () => "^a{19000}$");
    expect(gate(stringsOf(patterns), { p0: "a".repeat(19_000) })).toEqual(ok);
  });
});

describe("$ref", () => {
  // Inlined, 300 uses of a 300-property definition would be 90,000 properties of code.
  test("a definition used 300 times compiles once and judges every use", () => {
    const schema = {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`r${i}`, { $ref: "#/$defs/record" }])),
      $defs: { record: { type: "object", properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}`, { type: "integer" }])) } },
    };
    const cache = new SchemaCache();
    expect(gate(schema, { r0: { f1: 1 }, r299: { f2: 2 } }, cache)).toEqual(ok);
    expect(gate(schema, { r0: { f1: 1 }, r299: { f2: "two" } }, cache)).toEqual(blocked("arguments/r299/f2 must be integer"));
  });
  test("a chain of 32 levels, each anyOf of two references to the one below, compiles; a string passes", () => {
    expect(gate(refChain(32), "x")).toEqual(ok);
  });
  test("the same chain blocks a value that fails, at the budget, instead of trying 2^32 paths", () => {
    expect(gate(refChain(32), 5)).toEqual(overBudget(5));
  });
  test("references that lead back through $ref and allOf alone are refused: validation would never end", () => {
    const schema = { $ref: "#/$defs/a", $defs: { a: { allOf: [{ $ref: "#/$defs/b" }] }, b: { $ref: "#/$defs/a" } } };
    expect(gate(schema, 1)).toEqual(blocked("tool schema does not compile: $ref \"#/$defs/a\" leads back to a schema it started from through $ref and allOf alone, so validation would never end"));
  });
  test("a schema that refers to itself under anyOf judges what an earlier branch settles, and stops at the budget otherwise", () => {
    const schema = { anyOf: [{ type: "string" }, { $ref: "#" }] };
    expect(gate(schema, "a")).toEqual(ok);
    expect(gate(schema, 1)).toEqual(overBudget(1));
  });
  test("a $ref into data is refused: an enum value is not a schema", () => {
    expect(gate({ enum: [{ type: "string" }], properties: { a: { $ref: "#/enum/0" } } }, {})).toEqual(refused("$ref \"#/enum/0\" points into data, not at a schema"));
    expect(gate({ default: { anyOf: [] }, $ref: "#/default" }, 1)).toEqual(refused("$ref \"#/default\" points into data, not at a schema"));
  });
  test("a $ref to a keyword's map or list of schemas itself is refused: its entries are schemas, not keyword values", () => {
    // Read as a schema, this $defs would say {"const": {"mode": "admin"}}: the counted copy's const held one more key.
    const schema = { type: "object", properties: { opts: { not: { $ref: "#/$defs" } } }, $defs: { const: { mode: "admin" } } };
    expect(gate(schema, { opts: { mode: "admin" } })).toEqual(refused('$ref "#/$defs" points at a map of schemas, not at a schema'));
    expect(gate({ properties: { a: { type: "string" }, b: { $ref: "#/properties" } } }, { b: {} })).toEqual(refused('$ref "#/properties" points at a map of schemas, not at a schema'));
    expect(gate({ $defs: { x: { allOf: [{ type: "string" }] } }, $ref: "#/$defs/x/allOf" }, 1)).toEqual(refused('$ref "#/$defs/x/allOf" points at a list of schemas, not at a schema'));
    // With unevaluatedProperties the gate's own evaluator runs the schema: refused the same.
    expect(gate({ ...schema, unevaluatedProperties: true }, { opts: { mode: "admin" } })).toEqual(refused('$ref "#/$defs" points at a map of schemas, not at a schema'));
  });
  test("a $ref to a property named like a data keyword is a schema", () => {
    expect(gate({ properties: { enum: { type: "string" }, b: { $ref: "#/properties/enum" } } }, { b: 1 })).toEqual(blocked("arguments/b must be string"));
  });
});

describe("the work budget", () => {
  // Each level tries a branch that descends to the bottom and then fails, then the
  // other: work doubles with each level of the arguments.
  const doubling = {
    $defs: { n: { anyOf: [{ allOf: [{ properties: { a: { $ref: "#/$defs/n" } } }, false] }, { properties: { a: { $ref: "#/$defs/n" } } }] } },
    $ref: "#/$defs/n",
  };

  test("arguments that make the work double per level are blocked with the bound for their size", () => {
    expect(gate(doubling, nested(40, 1))).toEqual(overBudget(nested(40, 1)));
  });
  test("the same schema passes shallow arguments", () => {
    expect(gate(doubling, nested(3, 1))).toEqual(ok);
  });
  test("the verdict is the same on every run", () => {
    const cache = new SchemaCache();
    const verdicts = Array.from({ length: 5 }, () => gate(doubling, nested(40, 1), cache));
    expect(new Set(verdicts.map((verdict) => verdict.detail)).size).toBe(1);
  });
  test("the budget grows with the arguments: 5,000 items each checked against 10 branches pass", () => {
    const schema = { type: "array", items: { oneOf: Array.from({ length: 10 }, (_, i) => ({ type: "object", required: ["kind"], properties: { kind: { const: `k${i}` }, value: { type: "number" } } })) } };
    expect(gate(schema, Array.from({ length: 5000 }, (_, i) => ({ kind: `k${i % 10}`, value: i })))).toEqual(ok);
  });
  test("schemas validated by the project's evaluator run within the same budget", () => {
    expect(gate({ ...doubling, unevaluatedProperties: false }, nested(40, 1))).toEqual(overBudget(nested(40, 1)));
  });
  test("in the evaluator, a schema that comes back to itself on the same value stops with the reason", () => {
    const schema = { $dynamicAnchor: "node", anyOf: [{ type: "string" }, { $dynamicRef: "#node" }] };
    expect(gate(schema, "leaf")).toEqual(ok);
    expect(gate(schema, 1)).toEqual(blocked("arguments could not be checked: the schema refers back to itself here without moving into the value"));
  });
});

describe("uniqueItems", () => {
  const unique = { type: "array", uniqueItems: true };

  // Ajv compares objects pair by pair: 20,000 of them would be 200 million comparisons.
  test("20,000 distinct objects are checked in one pass and pass", () => {
    expect(gate(unique, Array.from({ length: 20_000 }, (_, i) => ({ id: i, tags: ["a", "b"] })))).toEqual(ok);
  });
  test("two equal objects are blocked with the pair Ajv names", () => {
    expect(gate(unique, [{ a: 1 }, { b: 2 }, { a: 1 }])).toEqual(blocked("arguments must NOT have duplicate items (items ## 0 and 2 are identical)"));
  });
  test("objects equal but for the order of their keys are equal", () => {
    expect(gate(unique, [{ a: 1, b: [2] }, { b: [2], a: 1 }])).toEqual(blocked("arguments must NOT have duplicate items (items ## 0 and 1 are identical)"));
  });
  test("1 and 1.0 are one number, \"1\" is another value", () => {
    expect(gate(unique, [[1], [1.0]])).toEqual(blocked("arguments must NOT have duplicate items (items ## 0 and 1 are identical)"));
    expect(gate(unique, [1, "1", [1], { "1": 1 }])).toEqual(ok);
  });
  test("items declared of a scalar type: the same one-pass check", () => {
    expect(gate({ type: "array", items: { type: "integer" }, uniqueItems: true }, [1, 2, 1])).toEqual(blocked("arguments must NOT have duplicate items (items ## 0 and 2 are identical)"));
  });
  // Ajv keeps scalars seen as the keys of a plain object, where "__proto__" reads as the prototype.
  test.each([
    ["strings", { type: "string" }, ["__proto__", "__proto__"], ["__proto__", "b"]],
    ["strings of a bound length", { type: "string", maxLength: 20 }, ["__proto__", "x", "__proto__"], ["__proto__", "x"]],
    ["strings of an enum", { type: "string", enum: ["__proto__", "b"] }, ["__proto__", "__proto__"], ["__proto__", "b"]],
    ["strings or null, which Ajv keys with a mark added", { type: ["string", "null"] }, ["__proto_", "__proto_"], ["__proto_", null]],
    ["strings or integers", { type: ["string", "integer"] }, ["__proto_", "__proto_"], ["__proto_", 1]],
  ])("items declared %s: \"__proto__\" given twice is blocked, distinct items pass", (_, items, twice, distinct) => {
    const schema = { type: "array", items, uniqueItems: true };
    expect(gate(schema, twice)).toEqual(blocked(`arguments must NOT have duplicate items (items ## 0 and ${twice.length - 1} are identical)`));
    expect(gate(schema, distinct)).toEqual(ok);
  });
  test("prefixItems, then items of strings: \"__proto__\" given twice is blocked", () => {
    expect(gate({ type: "array", prefixItems: [{ type: "string" }], items: { type: "string" }, uniqueItems: true }, ["__proto__", "__proto__"]).reason).toBe("arguments_schema");
  });
});

describe("patterns whose automaton states never recur", () => {
  // A string of a and b that no small cycle repeats: the DFA of [ab]*a[ab]{n} needs 2^n states.
  function letters(length: number): string {
    let seed = 20261206;
    let text = "";
    for (let i = 0; i < length; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      text += seed & 0x10000 ? "a" : "b";
    }
    return text;
  }
  const patterned = (pattern: string) => ({ type: "object", properties: { s: { type: "string", pattern } } });

  test("a walk of thousands of states a code point stops at the budget for the arguments' size", () => {
    const args = { s: letters(20_000) };
    expect(gate(patterned("^[ab]*a[ab]{2000}c"), args)).toEqual(overBudget(args));
  });
  test("however long the string, the walks stop at a bound of their own", () => {
    const args = { s: letters(2_000_000) };
    expect(gate(patterned("^[ab]*a[ab]{2000}c"), args)).toEqual(blocked(`arguments could not be checked: its patterns walked more than ${MAX_CLOSURE_STATES.toLocaleString("en-US")} automaton states, the bound for arguments of any size`));
  }, 30_000);
  test("the same pattern judges a short string", () => {
    expect(gate(patterned("^[ab]*a[ab]{2000}c"), { s: "ab" })).toEqual(blocked('arguments/s must match pattern "^[ab]*a[ab]{2000}c"'));
    expect(gate(patterned("^[ab]*a[ab]{2000}c"), { s: "a" + "b".repeat(2000) + "c" })).toEqual(ok);
  });
  test("patterns whose states recur pass long strings: the walks while they are learnt are free up to a bound", () => {
    expect(gate(patterned("(?:a|ab|abc|abcd){1,200}x"), { s: "abcd".repeat(2000) + "x" })).toEqual(ok);
    expect(gate(patterned("^[ab]*a[ab]{12}c"), { s: letters(200_000) + "a" + "b".repeat(12) + "c" })).toEqual(ok);
    expect(gate(patterned("^[\\p{L}\\p{N} ]{1,1000}$"), { s: "héllo wörld ".repeat(83) })).toEqual(ok);
  });
});

describe("names the gate keeps for itself", () => {
  test("a schema that uses the budget's keyword is refused", () => {
    expect(gate({ type: "object", "orbridge:steps": 1 }, {})).toEqual(refused("the keyword \"orbridge:steps\" is reserved by the gate"));
  });
});

describe("entries named __proto__", () => {
  // Ajv's code reads such an entry as the prototype and skips it: the schema is refused, on either path.
  test.each([
    ['{"type":"object","properties":{"__proto__":{"type":"integer"}}}', "a property"],
    ['{"type":"object","patternProperties":{"__proto__":false}}', 'a "patternProperties" entry'],
    ['{"type":"object","dependencies":{"__proto__":["x"]}}', 'a "dependencies" entry'],
  ])("%s", (text, named) => {
    // Read from JSON text, as a tools file gives it: "__proto__" is then a key like any other.
    const schema = JSON.parse(text) as Record<string, unknown>;
    const args = JSON.parse('{"__proto__":"str","my__proto__x":"str"}') as unknown;
    const detail = `tool schema does not compile: ${named} named "__proto__" cannot be checked`;
    expect(gate(schema, args)).toEqual(blocked(detail));
    expect(gate({ ...schema, unevaluatedProperties: true }, args)).toEqual(blocked(detail));
  });
  test.each([
    ['{"type":"object","dependentSchemas":{"__proto__":{"required":["x"]}}}', "arguments must have required property 'x'"],
    ['{"type":"object","dependentRequired":{"__proto__":["x"]}}', "arguments must have property x when property __proto__ is present"],
  ])("%s is read as it should be", (text, detail) => {
    const schema = JSON.parse(text) as Record<string, unknown>;
    expect(gate(schema, JSON.parse('{"__proto__":1}'))).toEqual(blocked(detail));
    expect(gate(schema, JSON.parse('{"__proto__":1,"x":2}'))).toEqual(ok);
  });
});

describe("names Ajv cannot write into a JSON Pointer", () => {
  test("a property name or pattern with a lone surrogate refuses the schema, and says why", () => {
    const why = "tool schema does not compile: a property name or pattern in it holds a lone surrogate (half of a UTF-16 pair), which Ajv cannot write into a JSON Pointer";
    expect(gate({ type: "object", patternProperties: { "^\ud800": { type: "integer" } } }, { "\ud800": "x" })).toEqual(blocked(why));
    // The same pattern written with an escape is text Ajv can write.
    expect(gate({ type: "object", patternProperties: { "^\\ud800": { type: "integer" } } }, { "\ud800": 1 })).toEqual(ok);
  });
});
