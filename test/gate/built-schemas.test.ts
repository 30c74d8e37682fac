// Schemas built in code, which no JSON text can hold as they are: an object that
// holds itself, or one subschema object held in many places. The first is
// refused with where the loop closes; the second is measured as its JSON text
// would be, so a shared subschema counts once per place against the schema
// bounds. Verdicts only: nothing here is timed.
import { describe, expect, test } from "vitest";
import { replayGate, type Verdict } from "../../src/gate/replay-gate.js";
import { SchemaCache, type ToolSchema } from "../../src/gate/schema.js";
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, MAX_SUBSCHEMAS } from "../../src/gate/schema-limits.js";
import { call, OK_DETAIL } from "../hostile/support.js";

const gate = (schema: ToolSchema, args: unknown, cache = new SchemaCache()): Verdict => replayGate(call("call_1", JSON.stringify(args)), schema, { cache });
const blocked = (detail: string): Verdict => ({ reason: "arguments_schema", detail, path: "/arguments" });
const ok: Verdict = { reason: "ok", detail: OK_DETAIL };

describe("a schema that holds itself", () => {
  test("through properties, it is refused with where the loop closes", () => {
    const schema: Record<string, unknown> = { type: "object" };
    schema.properties = { self: schema };
    expect(gate(schema, { self: {} })).toEqual(blocked("tool schema is refused: it holds itself: the object at /properties/self is the object at the root around it, which no JSON text can write"));
  });
  test("deeper down, through items, it names both places", () => {
    const node: Record<string, unknown> = { type: "array" };
    node.items = { anyOf: [{ type: "string" }, node] };
    const schema = { type: "object", properties: { tree: node } };
    expect(gate(schema, { tree: [] })).toEqual(blocked("tool schema is refused: it holds itself: the object at /properties/tree/items/anyOf/1 is the object at /properties/tree around it, which no JSON text can write"));
  });
  test("through an array of the schema, it is refused too", () => {
    const branches: unknown[] = [{ type: "string" }];
    const schema = { anyOf: branches };
    branches.push(schema);
    expect(gate(schema, "x")).toEqual(blocked("tool schema is refused: it holds itself: the object at /anyOf/1 is the object at the root around it, which no JSON text can write"));
  });
  test("asked again, the same object gets the same verdict from the cache", () => {
    const schema: Record<string, unknown> = { type: "object" };
    schema.properties = { self: schema };
    const cache = new SchemaCache();
    expect(gate(schema, {}, cache)).toEqual(gate(schema, {}, cache));
  });
});

describe("one subschema object held in many places", () => {
  /** `levels` of anyOf, each holding the level below twice: its text holds 2^levels copies of the innermost. */
  function doubling(levels: number, innermost: ToolSchema): ToolSchema {
    let schema = innermost;
    for (let i = 0; i < levels; i++) schema = { anyOf: [schema, schema] };
    return schema;
  }

  test("a few levels, within the bounds, it compiles and judges as its text would", () => {
    const schema = doubling(4, { type: "string" });
    expect(gate(schema, "x")).toEqual(ok);
    expect(gate(schema, 1)).toEqual(blocked("arguments must be string"));
    expect(gate(JSON.parse(JSON.stringify(schema)) as ToolSchema, 1)).toEqual(blocked("arguments must be string"));
  });
  test("forty levels, whose text would hold 2^40 copies, it is refused by the bound on JSON values", () => {
    // Each level adds the anyOf object and its array; the innermost {"type":"string"} is two values.
    const nodes = 2 ** 40 * 2 + (2 ** 40 - 1) * 2;
    expect(gate(doubling(40, { type: "string" }), "x")).toEqual(blocked(`tool schema is refused: it holds ${nodes} JSON values, over the bound of ${MAX_SCHEMA_NODES}`));
  });
  test("sixty levels, it is refused by the bound on depth its text would have", () => {
    expect(gate(doubling(60, { type: "string" }), "x")).toEqual(blocked(`tool schema is refused: it is nested 122 levels deep, over the bound of ${MAX_SCHEMA_DEPTH}`));
  });
  test("one property schema shared by more properties than the bound on subschemas, it is refused by that bound", () => {
    const shared = { type: "string" };
    const schema = { type: "object", properties: Object.fromEntries(Array.from({ length: MAX_SUBSCHEMAS }, (_, i) => [`p${i}`, shared])) };
    expect(gate(schema, {})).toEqual(blocked(`tool schema is refused: it has ${MAX_SUBSCHEMAS + 1} subschemas, over the bound of ${MAX_SUBSCHEMAS}`));
  });
  test("shared by a few properties, each place judges its own value", () => {
    const shared = { type: "string", pattern: "^[a-z]+$" };
    const schema = { type: "object", properties: { from: shared, to: shared } };
    expect(gate(schema, { from: "apac", to: "emea" })).toEqual(ok);
    expect(gate(schema, { from: "apac", to: "EMEA" })).toEqual(blocked('arguments/to must match pattern "^[a-z]+$"'));
  });
  test("a shared subschema under the project's evaluator judges as its text would", () => {
    const shared = { type: "object", properties: { id: { type: "string" } }, unevaluatedProperties: false };
    const schema = { type: "object", properties: { from: shared, to: shared } };
    expect(gate(schema, { from: { id: "a" }, to: { id: "b" } })).toEqual(ok);
    expect(gate(schema, { from: { id: "a" }, to: { id: "b", extra: 1 } })).toEqual(blocked("arguments/to must NOT have unevaluated properties"));
  });
});
