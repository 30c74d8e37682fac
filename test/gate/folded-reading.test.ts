// A member whose name its object's schema does not write, but folds to a name
// that object declares, is that parameter to a reader that matches names
// regardless of case (Go's encoding/json): the arguments must pass the schema
// read that way too. A map's keys, whose object declares no name, stay as written.
import { describe, expect, test, vi } from "vitest";
import { replayGate, type Verdict } from "../../src/gate/replay-gate.js";
import type { ToolSchema } from "../../src/gate/schema.js";
import { SchemaResources } from "../../src/gate/schema-resources.js";
import { call, OK_DETAIL } from "../hostile/support.js";

const gate = (schema: ToolSchema, args: string): Verdict => replayGate(call("call_1", args), schema);
const READER = "a reader that matches names regardless of case or width (Go's encoding/json does)";
const ok: Verdict = { reason: "ok", detail: OK_DETAIL };
const blocked = (detail: string): Verdict => ({ reason: "arguments_schema", detail, path: "/arguments" });

const sales: ToolSchema = {
  type: "object",
  properties: {
    region: { type: "string", enum: ["apac", "emea", "amer"] },
    orders: { type: "array", items: { $ref: "#/$defs/order" } },
    labels: { type: "object", properties: { REGION: { type: "string" } }, additionalProperties: { type: "string" } },
  },
  $defs: { order: { type: "object", properties: { qty: { type: "integer", maximum: 100 } } } },
};

describe("a member named as a folding reader reads a parameter its object declares", () => {
  test("whose value the parameter forbids blocks the call, though JSON Schema reads a free member; a nested object declaring REGION changes nothing at the top", () => {
    expect(gate(sales, '{"REGION":"global"}')).toEqual(
      blocked(`arguments has the member "REGION" at "/REGION", which ${READER} takes for the parameter "region" its object declares; so read, arguments/region must be equal to one of the allowed values ("apac", "emea", "amer")`),
    );
  });
  test("is found inside an array of objects, through a $ref, with its JSON Pointer", () => {
    expect(gate(sales, '{"region":"apac","orders":[{"qty":1},{"Qty":100000}]}')).toEqual(
      blocked(`arguments has the member "Qty" at "/orders/1/Qty", which ${READER} takes for the parameter "qty" its object declares; so read, arguments/orders/1/qty must be <= 100`),
    );
  });
  test("is found through the branches of allOf and anyOf, and judged by the whole schema", () => {
    const schema: ToolSchema = { type: "object", allOf: [{ properties: { mode: { enum: ["read"] } } }, { anyOf: [{ properties: { path: { type: "string" } } }] }] };
    expect(gate(schema, '{"MODE":"write"}')).toEqual(
      blocked(`arguments has the member "MODE" at "/MODE", which ${READER} takes for the parameter "mode" its object declares; so read, arguments/mode must be equal to one of the allowed values ("read")`),
    );
    expect(gate(schema, '{"PATH":7}')).toMatchObject({ reason: "arguments_schema" });
    expect(gate(schema, '{"MODE":"read","Path":"/tmp"}')).toEqual(ok);
  });
  test("is found through a $ref by $anchor, by an $id relative to its base, by an absolute URI, and through a $dynamicRef", () => {
    const settings = { type: "object", properties: { region: { enum: ["apac"] } } };
    const detail = blocked(`arguments has the member "REGION" at "/cfg/REGION", which ${READER} takes for the parameter "region" its object declares; so read, arguments/cfg/region must be equal to one of the allowed values ("apac")`);
    const schemas: ToolSchema[] = [
      { type: "object", properties: { cfg: { $ref: "#settings" } }, $defs: { settings: { $anchor: "settings", ...settings } } },
      { $id: "https://tools.test/run", type: "object", properties: { cfg: { $ref: "settings" } }, $defs: { settings: { $id: "settings", ...settings } } },
      { $id: "https://tools.test/run", type: "object", properties: { cfg: { $ref: "https://tools.test/run#/$defs/settings" } }, $defs: { settings } },
      { type: "object", properties: { cfg: { $dynamicRef: "#settings" } }, $defs: { settings: { $dynamicAnchor: "settings", ...settings } } },
    ];
    for (const schema of schemas) {
      expect(gate(schema, '{"cfg":{"REGION":"global"}}')).toEqual(detail);
      expect(gate(schema, '{"cfg":{"Region":"apac"}}')).toEqual(ok);
    }
  });
  test("is found in the value of a member that patternProperties judges, and only under the patterns its name matches", () => {
    const schema: ToolSchema = {
      type: "object",
      patternProperties: { "^site-": { type: "object", properties: { region: { enum: ["apac"] } } }, "^note-": { type: "object", additionalProperties: { type: "string" } } },
    };
    expect(gate(schema, '{"site-1":{"REGION":"global"}}')).toEqual(
      blocked(`arguments has the member "REGION" at "/site-1/REGION", which ${READER} takes for the parameter "region" its object declares; so read, arguments/site-1/region must be equal to one of the allowed values ("apac")`),
    );
    expect(gate(schema, '{"site-1":{"Region":"apac"},"note-1":{"REGION":"global"}}')).toEqual(ok);
  });
  test("is found through the dependentSchemas its object triggers, the trigger named as the reader reads it too", () => {
    const schema: ToolSchema = { type: "object", properties: { mode: { type: "string" } }, dependentSchemas: { mode: { properties: { region: { enum: ["apac"] } } } } };
    const detail = blocked(`arguments has the member "REGION" at "/REGION", which ${READER} takes for the parameter "region" its object declares; so read, arguments/region must be equal to one of the allowed values ("apac")`);
    expect(gate(schema, '{"mode":"read","REGION":"global"}')).toEqual(detail);
    expect(gate(schema, '{"REGION":"global","Mode":"read"}')).toEqual(detail);
    expect(gate(schema, '{"mode":"read","Region":"apac"}')).toEqual(ok);
  });
  test("is found through the schemas of dependencies its object triggers, which the gate applies as dependentSchemas", () => {
    const schema: ToolSchema = { type: "object", properties: { mode: { type: "string" } }, dependencies: { mode: { properties: { force: { const: false } } }, path: ["mode"] } };
    expect(gate(schema, '{"mode":"write","FORCE":true}')).toEqual(
      blocked(`arguments has the member "FORCE" at "/FORCE", which ${READER} takes for the parameter "force" its object declares; so read, arguments/force must be equal to constant`),
    );
    expect(gate(schema, '{"mode":"write","Force":false}')).toEqual(ok);
  });
  test("is found through the subschema of not, where a name only it declares is still a parameter of the object", () => {
    const schema: ToolSchema = { type: "object", properties: { path: { type: "string" } }, not: { required: ["force"], properties: { force: { const: true } } } };
    expect(gate(schema, '{"path":"/","FORCE":true}')).toEqual(
      blocked(`arguments has the member "FORCE" at "/FORCE", which ${READER} takes for the parameter "force" its object declares; so read, arguments must NOT be valid`),
    );
    expect(gate(schema, '{"path":"/","Force":false}')).toEqual(ok);
  });
  test("is found through a $ref to the 2020-12 meta-schema, whose names are parameters of a schema given as an argument", () => {
    const schema: ToolSchema = { type: "object", properties: { schema: { $ref: "https://json-schema.org/draft/2020-12/schema" } } };
    expect(gate(schema, '{"schema":{"TYPE":"bogus"}}')).toEqual(
      blocked(`arguments has the member "TYPE" at "/schema/TYPE", which ${READER} takes for the parameter "type" its object declares; so read, arguments/schema/type must be equal to one of the allowed values ("array", "boolean", "integer", "null", "number", "object", "string")`),
    );
    expect(gate(schema, '{"schema":{"properties":{"a":{"MinLength":-1}}}}')).toEqual(
      blocked(`arguments has the member "MinLength" at "/schema/properties/a/MinLength", which ${READER} takes for the parameter "minLength" its object declares; so read, arguments/schema/properties/a/minLength must be >= 0`),
    );
    expect(gate(schema, '{"schema":{"Type":"string","minLength":1}}')).toEqual(ok);
    expect(gate(schema, '{"schema":{"type":"string","TYPE":"integer"}}')).toEqual({
      reason: "arguments_parse",
      detail: `arguments has the names "type" and "TYPE" in one object, at "/schema": ${READER} takes them for one name and keeps the last value`,
      path: "/arguments",
    });
  });
  test("declared by a required list or a dependent keyword alone, with no properties entry, is that parameter too", () => {
    const soRead = (rest: string) => blocked(`arguments has the member "DELETE" at "/DELETE", which ${READER} takes for the parameter "delete" its object declares; so read, ${rest}`);
    const confirmed: ToolSchema = { type: "object", properties: { path: { type: "string" } }, required: ["confirm"], if: { required: ["delete"] }, then: { properties: { confirm: { const: true } } } };
    expect(gate(confirmed, '{"path":"/","DELETE":true,"confirm":false}')).toEqual(soRead("arguments/confirm must be equal to constant"));
    expect(gate(confirmed, '{"path":"/","Delete":true,"confirm":true}')).toEqual(ok);
    const needing: ToolSchema = { type: "object", properties: { path: { type: "string" } }, dependentRequired: { delete: ["confirm"] } };
    expect(gate(needing, '{"path":"/","DELETE":true}')).toEqual(soRead("arguments must have property confirm when property delete is present"));
    const triggering: ToolSchema = { type: "object", properties: { path: { type: "string" } }, dependentSchemas: { delete: { required: ["confirm"] } } };
    expect(gate(triggering, '{"path":"/","DELETE":true}')).toEqual(soRead("arguments must have required property 'confirm'"));
  });
  test("is found under contains, which tries every item, and under unevaluatedItems and unevaluatedProperties", () => {
    const site = { type: "object", properties: { region: { enum: ["apac"] } } };
    const soRead = (path: string) => blocked(`arguments has the member "REGION" at "${path}/REGION", which ${READER} takes for the parameter "region" its object declares; so read, arguments${path}/region must be equal to one of the allowed values ("apac")`);
    const listed = (keyword: string): ToolSchema => ({ type: "object", properties: { sites: { type: "array", [keyword]: site } } });
    expect(gate(listed("contains"), '{"sites":[{"REGION":"global"}]}')).toEqual(
      blocked(`arguments has the member "REGION" at "/sites/0/REGION", which ${READER} takes for the parameter "region" its object declares; so read, arguments/sites must contain at least 1 valid item(s)`),
    );
    expect(gate(listed("unevaluatedItems"), '{"sites":[{"REGION":"global"}]}')).toEqual(soRead("/sites/0"));
    const extra: ToolSchema = { type: "object", properties: { name: { type: "string" } }, unevaluatedProperties: site };
    expect(gate(extra, '{"name":"a","home":{"REGION":"global"}}')).toEqual(soRead("/home"));
    expect(gate(extra, '{"name":"a","home":{"Region":"apac"}}')).toEqual(ok);
  });
  test("where more schemas apply than the reading follows blocks the call, since its object may declare the name it folds to; other members there pass", () => {
    const schema: ToolSchema = { type: "object", allOf: [{ properties: { region: { enum: ["apac"] } } }, ...Array.from({ length: 70 }, (_, i) => ({ title: `part ${i}` }))] };
    expect(gate(schema, '{"REGION":"global"}')).toEqual(
      blocked(`arguments has the member "REGION" at "/REGION", which ${READER} may take for the parameter "region"; more than 64 schemas apply where it or an object holding it sits, too many to follow to the names its object declares`),
    );
    expect(gate(schema, '{"region":"apac","Note":"x"}')).toEqual(ok);
  });
  test("whose value the parameter allows passes: both readings are valid", () => {
    expect(gate(sales, '{"Region":"apac","orders":[{"QTY":3}]}')).toEqual(ok);
  });
  test("written exactly as a name its object declares is read as that name, as Go prefers an exact match", () => {
    expect(gate(sales, '{"region":"apac","labels":{"REGION":"global"}}')).toEqual(ok);
  });
  test("that its object's schema writes in two spellings blocks the call: which one it fills cannot be known", () => {
    const schema: ToolSchema = { type: "object", properties: { id: { type: "integer" }, ID: { type: "string" } } };
    expect(gate(schema, '{"Id":7}')).toEqual(blocked(`arguments has the member "Id" at "/Id", which ${READER} may take for any of the parameters "id", "ID" its object declares`));
    expect(gate(schema, '{"ID":"seven"}')).toEqual(ok);
  });
});

describe("a map's keys, whose object declares no name, stay as written", () => {
  test("an environment map's PATH is no parameter path, though the tool declares one at the top", () => {
    const run: ToolSchema = {
      type: "object",
      properties: { path: { type: "string" }, env: { type: "object", propertyNames: { pattern: "^[A-Z_][A-Z0-9_]*$" }, additionalProperties: { type: "string" } } },
      required: ["path"],
    };
    expect(gate(run, '{"path":"/bin/ls","env":{"PATH":"/usr/bin","HOME":"/root"}}')).toEqual(ok);
  });
  test("a word count keyed by words", () => {
    expect(gate(sales, '{"region":"apac","labels":{"Region":"x","ORDERS":"y"}}')).toEqual(ok);
  });
});

describe("the folded reading works within the budget of a validation of the same arguments", () => {
  test("a name matched against a pattern validation never ran (a then whose if failed), whose states never recur, blocks the call at the budget", () => {
    // A name of a and b in no repeating order: the pattern's automaton meets new states all along it.
    let seed = 1;
    const name = Array.from({ length: 4000 }, () => ((seed = (seed * 1103515245 + 12345) % 2147483648) >> 16) % 2 === 0 ? "a" : "b").join("");
    const schema: ToolSchema = { type: "object", properties: { region: { type: "string" } }, if: false, then: { patternProperties: { "^[ab]*a[ab]{9000}c": true } } };
    expect(gate(schema, JSON.stringify({ REGION: "apac", [name]: {} }))).toEqual({
      reason: "arguments_schema",
      detail: "the gate could not finish the arguments_schema check: schema work exceeded 6160 steps, the bound for arguments of this size",
    });
    expect(gate(schema, JSON.stringify({ REGION: "apac", short: {} }))).toEqual(ok);
  });
  test("the names of the schemas at each object are charged as validation charges a schema's names, once for each set of schemas", () => {
    // The then of a failed if, which validation never evaluates: 30 schemas of 400 names each, at every item.
    const names = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`p${i}`, true]));
    const triggers = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`t${i}`, {}]));
    const item = { properties: { region: {} }, if: false, then: { allOf: Array.from({ length: 30 }, () => ({ properties: names })) } };
    const listOf = (items: object): ToolSchema => ({ type: "object", properties: { list: { type: "array", items } } });
    // Every item under the same schemas: their names are read once.
    expect(gate(listOf(item), JSON.stringify({ list: [{ REGION: 1 }, ...Array.from({ length: 2000 }, () => ({}))] }))).toEqual(ok);
    // Each item triggers another set of dependentSchemas, so each brings another set of schemas to read.
    const subsets = Array.from({ length: 512 }, (_, subset) => Object.fromEntries(Object.keys(triggers).filter((_, i) => subset & (1 << i)).map((name) => [name, 1])));
    expect(gate(listOf({ ...item, dependentSchemas: triggers }), JSON.stringify({ list: [{ REGION: 1 }, ...subsets] }))).toEqual({
      reason: "arguments_schema",
      detail: "the gate could not finish the arguments_schema check: schema work exceeded 182480 steps, the bound for arguments of this size",
    });
  });
  test("the triggers of a dependentSchemas are listed once, not again at each object it applies to", () => {
    // Listing a thousand triggers at each of thousands of items was work no budget counted.
    const triggers = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`t${i}`, {}]));
    const schema: ToolSchema = { type: "object", properties: { list: { type: "array", items: { properties: { region: { enum: ["apac"] } }, dependentSchemas: triggers } } } };
    const isTriggers = (value: unknown): boolean => typeof value === "object" && value !== null && Object.hasOwn(value, "t0") && Object.hasOwn(value, "t49");
    const entries = vi.spyOn(Object, "entries");
    const listingsFor = (items: number): number => {
      entries.mockClear();
      expect(gate(schema, JSON.stringify({ list: Array.from({ length: items }, () => ({ REGION: "apac" })) }))).toEqual(ok);
      return entries.mock.calls.filter(([value]) => isTriggers(value)).length;
    };
    try {
      // Compiling the schema lists them too, once.
      listingsFor(1);
      expect([listingsFor(2), listingsFor(200)]).toEqual([0, 0]);
    } finally {
      entries.mockRestore();
    }
  });
  test("the schemas a $dynamicRef may reach are gathered once for the items of a list, not again at each", () => {
    const anchored = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`d${i}`, { $id: `https://example.com/d${i}`, $dynamicAnchor: "node", type: "object" }]));
    const schema: ToolSchema = {
      $id: "https://example.com/root",
      type: "object",
      properties: { region: { enum: ["apac"] }, sites: { type: "array", items: { $dynamicRef: "#node" } } },
      $defs: { ...anchored, local: { $dynamicAnchor: "node", type: "object" } },
    };
    const gathered = vi.spyOn(SchemaResources.prototype, "dynamicAnchorsNamed");
    const gatheringsFor = (items: number): number => {
      gathered.mockClear();
      expect(gate(schema, JSON.stringify({ REGION: "apac", sites: Array.from({ length: items }, () => ({})) }))).toEqual(ok);
      return gathered.mock.calls.length;
    };
    try {
      expect(gatheringsFor(200)).toBe(gatheringsFor(2));
    } finally {
      gathered.mockRestore();
    }
  });
});
