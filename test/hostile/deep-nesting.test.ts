// Values nested 100,000 deep: the gate answers where validation can finish, and
// blocks with the reason it could not where the validator runs out of stack.
import { describe, expect, test } from "vitest";
import { isBlocked, replayGate } from "../../src/gate/replay-gate.js";
import { SchemaCache } from "../../src/gate/schema.js";
import { call, gateJournal, jsonl, passed, scratchFolder } from "./support.js";

const DEPTH = 100_000;
const deepArray = "[".repeat(DEPTH) + "]".repeat(DEPTH);
const deepObject = "{\"a\":".repeat(DEPTH) + "{}" + "}".repeat(DEPTH);
const tree = (node: string) => `{"tree":${node}}`;

// A tree of arrays, checked by a schema that refers to itself at every level.
const treeSchema = {
  type: "object",
  required: ["tree"],
  properties: { tree: { $ref: "#/$defs/node" } },
  $defs: { node: { type: "array", items: { $ref: "#/$defs/node" } } },
};
const STACK_DETAIL = "the gate could not finish the arguments_schema check: Maximum call stack size exceeded";

describe("arguments nested 100,000 deep, without a recursive schema", () => {
  test("an array schema that does not descend passes them", () => {
    expect(replayGate(call("call_1", deepArray), { type: "array" }, { cache: new SchemaCache() })).toEqual({ reason: "ok", detail: "completed call with arguments valid for its schema" });
  });
  test("an object schema rejects a deep array at the top", () => {
    expect(replayGate(call("call_1", deepArray), { type: "object" }, { cache: new SchemaCache() })).toEqual({ reason: "arguments_schema", detail: "arguments must be object", path: "/arguments" });
  });
  test("a schema two levels down judges the levels it names", () => {
    const schema = { type: "object", properties: { a: { type: "object", properties: { a: { type: "string" } } } } };
    expect(replayGate(call("call_1", deepObject), schema, { cache: new SchemaCache() })).toEqual({ reason: "arguments_schema", detail: "arguments/a/a must be string", path: "/arguments" });
  });
  test("the boolean schema true passes them", () => {
    expect(replayGate(call("call_1", deepObject), true, { cache: new SchemaCache() }).reason).toBe("ok");
  });
  test("arguments 100,000 deep that are cut short fail to parse", () => {
    expect(replayGate(call("call_1", deepArray.slice(0, -1)), true, { cache: new SchemaCache() })).toEqual({
      reason: "arguments_parse",
      detail: `arguments is not JSON: Expected ',' or ']' after array element in JSON at position ${2 * DEPTH - 1}`,
      path: "/arguments",
    });
  });
});

describe("arguments nested 100,000 deep, with a recursive $ref schema", () => {
  test("validation that runs out of stack blocks with that reason", () => {
    const verdict = replayGate(call("call_1", tree(deepArray)), treeSchema, { cache: new SchemaCache() });
    expect(verdict).toEqual({ reason: "arguments_schema", detail: STACK_DETAIL });
    expect(isBlocked(verdict)).toBe(true);
  });
  test("the same schema still judges a shallow tree right after", () => {
    const cache = new SchemaCache();
    replayGate(call("call_1", tree(deepArray)), treeSchema, { cache });
    expect(replayGate(call("call_2", tree("[[],[[]]]")), treeSchema, { cache }).reason).toBe("ok");
    expect(replayGate(call("call_3", tree("[[1]]")), treeSchema, { cache })).toEqual({ reason: "arguments_schema", detail: "arguments/tree/0/0 must be array", path: "/arguments" });
  });
  test("a deep tree with a wrong leaf near the top is rejected before the stack runs out", () => {
    // Ajv checks `type` before it descends into `items`, so the leaf at depth 2 decides.
    const verdict = replayGate(call("call_1", tree(`[[1],${deepArray}]`)), treeSchema, { cache: new SchemaCache() });
    expect(verdict).toEqual({ reason: "arguments_schema", detail: "arguments/tree/0/0 must be array", path: "/arguments" });
  });
});

describe("a schema nested 100,000 deep", () => {
  test("blocks the call with the reason it could not be used", () => {
    const deepSchema = JSON.parse("{\"items\":".repeat(DEPTH) + "{}" + "}".repeat(DEPTH)) as Record<string, unknown>;
    const verdict = replayGate(call("call_1", "[]"), deepSchema, { cache: new SchemaCache() });
    expect(verdict.reason).toBe("arguments_schema");
    expect(verdict.detail).toBe("tool schema is refused: it is nested 100001 levels deep, over the bound of 100");
  });
});

describe("through orbridge gate", () => {
  const file = scratchFolder();
  test("the deep line is blocked and the lines after it are still gated", async () => {
    const run = await gateJournal(file, treeSchema, jsonl(call("call_1", tree(deepArray)), call("call_2", tree("[[],[[]]]")), call("call_3", tree("[[1]]"))));
    expect(run.verdicts).toEqual([
      { line: 1, index: 0, type: "function_call", call_id: "call_1", name: "get_latest_sales_report", reason: "arguments_schema", detail: STACK_DETAIL, blocked: true, findings: [] },
      passed(2, "call_2"),
      { line: 3, index: 0, type: "function_call", call_id: "call_3", name: "get_latest_sales_report", reason: "arguments_schema", detail: "arguments/tree/0/0 must be array", path: "/arguments", blocked: true, findings: [] },
    ]);
    expect(run.stderr).toBe("read 3 lines: 3 items, 0 errors; 2 blocked\n  blocked by: arguments_schema 2\n");
    expect(run.code).toBe(1);
  });
  test("a record that is itself nested 100,000 deep is an error on its line, and the lines after it are gated", async () => {
    const deepRecord = `{"type":"function_call","call_id":"call_1","name":"get_latest_sales_report","status":"completed","arguments":"{\\"tree\\":[]}","metadata":${deepObject}}`;
    const run = await gateJournal(file, treeSchema, jsonl(deepRecord, call("call_2", tree("[]"))));
    expect(run.verdicts).toEqual([
      { line: 1, index: 0, reason: "error", detail: "not read: the record nests 100,002 levels deep, at /metadata/a/a/a/a/a/…, deeper than orbridge follows", blocked: true, findings: [] },
      passed(2, "call_2"),
    ]);
    expect(run.code).toBe(1);
  });
});
