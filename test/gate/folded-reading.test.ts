// A member whose name is no parameter the schema writes, but folds to one, is
// that parameter to a reader that matches names regardless of case (Go's
// encoding/json): the arguments must pass the schema read that way too.
import { describe, expect, test } from "vitest";
import { replayGate, type Verdict } from "../../src/gate/replay-gate.js";
import type { ToolSchema } from "../../src/gate/schema.js";
import { call, OK_DETAIL } from "../hostile/support.js";

const gate = (schema: ToolSchema, args: string): Verdict => replayGate(call("call_1", args), schema);
const READER = "a reader that matches names regardless of case or width (Go's encoding/json does)";
const ok: Verdict = { reason: "ok", detail: OK_DETAIL };

const sales: ToolSchema = {
  type: "object",
  properties: {
    region: { type: "string", enum: ["apac", "emea", "amer"] },
    orders: { type: "array", items: { type: "object", properties: { qty: { type: "integer", maximum: 100 } } } },
    labels: { type: "object", additionalProperties: { type: "string" } },
  },
};

describe("a member named as a folding reader reads a declared parameter", () => {
  test("whose value the parameter forbids blocks the call, though JSON Schema reads a free member and no parameter", () => {
    expect(gate(sales, '{"REGION":"global"}')).toEqual({
      reason: "arguments_schema",
      detail: `arguments has the member "REGION" at "/REGION", which ${READER} takes for the parameter "region"; so read, arguments/region must be equal to one of the allowed values ("apac", "emea", "amer")`,
      path: "/arguments",
    });
  });
  test("is found inside an array of objects, with its JSON Pointer", () => {
    expect(gate(sales, '{"region":"apac","orders":[{"qty":1},{"Qty":100000}]}')).toEqual({
      reason: "arguments_schema",
      detail: `arguments has the member "Qty" at "/orders/1/Qty", which ${READER} takes for the parameter "qty"; so read, arguments/orders/1/qty must be <= 100`,
      path: "/arguments",
    });
  });
  test("whose value the parameter allows passes: both readings are valid", () => {
    expect(gate(sales, '{"Region":"apac","orders":[{"QTY":3}]}')).toEqual(ok);
  });
  test("a map's key that folds to a parameter declared elsewhere passes: the map judges it the same either way", () => {
    expect(gate(sales, '{"region":"apac","labels":{"Region":"global"}}')).toEqual(ok);
  });
  test("that the schema writes in two spellings blocks the call: which one it fills cannot be known", () => {
    const schema: ToolSchema = { type: "object", properties: { id: { type: "integer" }, owner: { type: "object", properties: { ID: { type: "string" } } } } };
    expect(gate(schema, '{"Id":7}')).toEqual({
      reason: "arguments_schema",
      detail: `arguments has the member "Id" at "/Id", which ${READER} may take for any of the parameters "id", "ID"`,
      path: "/arguments",
    });
  });
});
