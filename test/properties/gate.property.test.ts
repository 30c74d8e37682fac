// The gate answers every input with one of its reasons and never throws; when it
// says `ok`, every condition of the table holds.
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { GATE_REASONS, replayGate } from "../../src/gate/replay-gate.js";
import { SchemaCache } from "../../src/gate/schema.js";

const salesSchema = {
  type: "object",
  additionalProperties: false,
  required: ["region"],
  properties: { region: { type: "string", enum: ["apac", "emea", "amer"] } },
};
const cache = new SchemaCache();

// Schemas that compile, that do not, and values that are not schemas at all.
const schemas = fc.constantFrom<unknown>(
  salesSchema,
  true,
  false,
  { type: "object", required: ["constructor"] },
  { type: "array", items: { $ref: "#" } },
  { type: "string", pattern: "^(a+)+$" },
  { $ref: "#/$defs/missing" },
  { $ref: "https://schemas.example/tool.json" },
  { type: "nonsense" },
  { pattern: "(a)\\1" },
  [],
  null,
  7,
  "object",
);

// Object text built key by key, so that "__proto__" is an own key as JSON.parse makes it.
const hostileObjectText = fc
  .array(fc.tuple(fc.constantFrom("__proto__", "constructor", "prototype", "type", "status", "arguments", "toString", "valueOf", "region"), fc.jsonValue({ maxDepth: 2 })), { maxLength: 6 })
  .map((entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(",")}}`);

const argumentsText = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.string(),
  hostileObjectText,
  fc.constantFrom("{\"region\":\"apac\"}", "{\"region\":\"global\"}", "{\"region\":", "", "[[[[[[]]]]]]", "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\""),
);

// Items shaped like calls, each field drawn from values that pass or fail its check.
const callLike = fc.record(
  {
    type: fc.oneof(fc.constantFrom<unknown>("function_call", "function_call_output", "message", "openai:function_call", "Function_call", null, 3), fc.string()),
    status: fc.oneof(fc.constantFrom<unknown>("completed", "in_progress", "incomplete", "COMPLETED", null), fc.jsonValue({ maxDepth: 1 })),
    arguments: fc.oneof(argumentsText, fc.jsonValue({ maxDepth: 2 })),
    call_id: fc.string(),
    name: fc.oneof(fc.string(), fc.constantFrom("__proto__", "constructor")),
  },
  { requiredKeys: [] },
);

/**
 * What the table requires of an item before it may run, checked on its own. The
 * schema check is Ajv's, as in the gate: this checks the gate's order and wiring;
 * Ajv's own mistakes on hostile keys are in test/hostile/prototype-keys.test.ts.
 */
function mayRun(item: unknown, schema: unknown): boolean {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return false;
  const fields = item as Record<string, unknown>;
  if (fields.type !== "function_call" || fields.status !== "completed" || typeof fields.arguments !== "string") return false;
  let value: unknown;
  try {
    value = JSON.parse(fields.arguments);
  } catch {
    return false;
  }
  if (typeof schema !== "boolean" && (schema === null || typeof schema !== "object" || Array.isArray(schema))) return false;
  try {
    return new Ajv2020({ strict: false, logger: false }).validate(schema as object, value) === true;
  } catch {
    return false;
  }
}

describe("the gate on generated input", () => {
  test("any JSON value gets one of the gate's reasons", () => {
    fc.assert(
      fc.property(fc.jsonValue(), schemas, (value, schema) => {
        expect(GATE_REASONS).toContain(replayGate(value, schema as boolean, { cache }).reason);
      }),
      { numRuns: 500 },
    );
  });
  test("any JavaScript value, boxed, sparse or prototype-less, gets a reason and never throws", () => {
    fc.assert(
      fc.property(fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withNullPrototype: true, withSparseArray: true, withObjectString: true, withDate: true, withTypedArray: true }), (value) => {
        expect(GATE_REASONS).toContain(replayGate(value, salesSchema, { cache }).reason);
      }),
      { numRuns: 500 },
    );
  });
  test("a call-shaped item gets a reason, is not changed, and passes only when every check holds", () => {
    fc.assert(
      fc.property(callLike, schemas, (item, schema) => {
        const before = JSON.stringify(item);
        const verdict = replayGate(item, schema as boolean, { cache });
        expect(GATE_REASONS).toContain(verdict.reason);
        expect(typeof verdict.detail).toBe("string");
        expect(JSON.stringify(item)).toBe(before);
        if (verdict.reason === "ok") expect(mayRun(item, schema)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
  test("the same item gets the same verdict twice", () => {
    fc.assert(
      fc.property(callLike, schemas, (item, schema) => {
        expect(replayGate(item, schema as boolean, { cache })).toEqual(replayGate(item, schema as boolean, { cache }));
      }),
    );
  });
  test("hostile keys in generated items and arguments pollute nothing", () => {
    fc.assert(
      fc.property(hostileObjectText, hostileObjectText, (itemText, args) => {
        const item = JSON.parse(itemText) as Record<string, unknown>;
        replayGate({ ...item, type: "function_call", status: "completed", arguments: args }, { type: "object" }, { cache });
        replayGate(item, salesSchema, { cache });
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("region");
      }),
    );
  });
});
