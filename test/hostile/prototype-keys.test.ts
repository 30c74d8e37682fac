// `__proto__`, `constructor` and `prototype` as keys of arguments, items and
// schemas: nothing reaches Object.prototype, and verdicts follow JSON Schema,
// where these are property names like any other. Every value here comes from
// JSON.parse, as it would from a journal, so the keys are own properties.
import { afterAll, describe, expect, test } from "vitest";
import { replayGate, type Verdict } from "../../src/gate/replay-gate.js";
import { SchemaCache } from "../../src/gate/schema.js";
import { call, gateJournal, jsonl, OK_DETAIL, passed, scratchFolder } from "./support.js";

const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
const pollution = "{\"__proto__\":{\"polluted\":\"yes\"},\"constructor\":{\"prototype\":{\"polluted\":\"yes\"}},\"prototype\":{\"polluted\":\"yes\"}}";

afterAll(() => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
});

const gate = (schema: string, args: string): Verdict => replayGate(call("call_1", args), JSON.parse(schema) as Record<string, unknown>, { cache: new SchemaCache() });
const ok: Verdict = { reason: "ok", detail: OK_DETAIL };
const rejected = (detail: string): Verdict => ({ reason: "arguments_schema", detail, path: "/arguments" });

describe("hostile keys in arguments", () => {
  test("are data: an open object schema passes them and nothing is polluted", () => {
    expect(gate("{\"type\":\"object\"}", pollution)).toEqual(ok);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  test("are additional properties to a closed schema", () => {
    expect(gate("{\"type\":\"object\",\"additionalProperties\":false,\"properties\":{\"region\":{}}}", "{\"__proto__\":{}}")).toEqual(rejected("arguments must NOT have additional properties"));
    expect(gate("{\"type\":\"object\",\"additionalProperties\":false,\"properties\":{\"region\":{}}}", "{\"constructor\":1}")).toEqual(rejected("arguments must NOT have additional properties"));
  });
  test("are judged by the schema of a property of that name", () => {
    const schema = "{\"type\":\"object\",\"properties\":{\"prototype\":{\"type\":\"string\"}},\"required\":[\"prototype\"]}";
    expect(gate(schema, "{\"prototype\":\"x\"}")).toEqual(ok);
    expect(gate(schema, "{\"prototype\":1}")).toEqual(rejected("arguments/prototype must be string"));
  });
  test("match patternProperties and propertyNames like any key", () => {
    expect(gate("{\"type\":\"object\",\"patternProperties\":{\"^__proto__$\":{\"type\":\"string\"}}}", "{\"__proto__\":1}")).toEqual(rejected("arguments/__proto__ must be string"));
    expect(gate("{\"type\":\"object\",\"propertyNames\":{\"not\":{\"const\":\"__proto__\"}}}", "{\"__proto__\":1}")).toEqual(rejected("arguments must NOT be valid"));
  });
  test("are compared as keys by enum and const", () => {
    expect(gate("{\"enum\":[{\"__proto__\":1}]}", "{\"__proto__\":1}")).toEqual(ok);
    expect(gate("{\"enum\":[{\"__proto__\":1}]}", "{}")).toEqual(rejected("arguments must be equal to one of the allowed values ({\"__proto__\":1})"));
    expect(gate("{\"const\":{\"constructor\":1}}", "{}")).toEqual(rejected("arguments must be equal to constant"));
  });
});

describe("inherited names are not properties of the arguments", () => {
  // Ajv reads `data[name] !== undefined` unless `ownProperties` is set, so an
  // inherited `constructor` or `__proto__` counts as present.
  test("required constructor is missing from {}", () => {
    expect(gate("{\"type\":\"object\",\"required\":[\"constructor\"]}", "{}")).toEqual(rejected("arguments must have required property 'constructor'"));
  });
  test("required __proto__ is missing from {}", () => {
    expect(gate("{\"type\":\"object\",\"required\":[\"__proto__\"]}", "{}")).toEqual(rejected("arguments must have required property '__proto__'"));
  });
  test("dependentRequired toString is missing from {\"a\":1}", () => {
    expect(gate("{\"type\":\"object\",\"dependentRequired\":{\"a\":[\"toString\"]}}", "{\"a\":1}")).toEqual(rejected("arguments must have property toString when property a is present"));
  });
  test("an optional constructor property of type string accepts {}", () => {
    expect(gate("{\"type\":\"object\",\"properties\":{\"constructor\":{\"type\":\"string\"}}}", "{}")).toEqual(ok);
  });
});

describe("equality of objects with a constructor, valueOf or toString key", () => {
  // Ajv compares objects with fast-deep-equal, which reads `a.constructor`,
  // `a.valueOf` and `a.toString` as if they were the prototype's: two equal
  // objects with an object under "constructor" differ, and a non-function
  // `valueOf` throws.
  test("uniqueItems rejects two equal objects that have a constructor key", () => {
    expect(gate("{\"type\":\"array\",\"uniqueItems\":true}", "[{\"constructor\":{}},{\"constructor\":{}}]")).toEqual(rejected("arguments must NOT have duplicate items (items ## 0 and 1 are identical)"));
  });
  test("uniqueItems rejects two equal objects (the same check without the key)", () => {
    expect(gate("{\"type\":\"array\",\"uniqueItems\":true}", "[{\"a\":{}},{\"a\":{}}]")).toEqual(rejected("arguments must NOT have duplicate items (items ## 0 and 1 are identical)"));
  });
  test("const accepts an equal object with a constructor key", () => {
    expect(gate(`{"const":${pollution}}`, pollution)).toEqual(ok);
  });
  test("const accepts an equal object with a valueOf key", () => {
    expect(gate("{\"const\":{\"valueOf\":1}}", "{\"valueOf\":1}")).toEqual(ok);
  });
  test("a valueOf key that breaks the comparison blocks the call, never passes it", () => {
    expect(gate("{\"type\":\"array\",\"uniqueItems\":true}", "[{\"valueOf\":1},{\"valueOf\":1}]").reason).toBe("arguments_schema");
  });
});

describe("hostile keys in schemas", () => {
  test("a __proto__ keyword at the top of a schema is an unknown keyword, ignored", () => {
    expect(gate("{\"__proto__\":{\"type\":\"string\"},\"type\":\"object\"}", "{}")).toEqual(ok);
  });
  test("$defs named __proto__ and constructor are found by $ref", () => {
    expect(gate("{\"$defs\":{\"__proto__\":{\"type\":\"string\"}},\"$ref\":\"#/$defs/__proto__\"}", "\"x\"")).toEqual(ok);
    expect(gate("{\"$defs\":{\"__proto__\":{\"type\":\"string\"}},\"$ref\":\"#/$defs/__proto__\"}", "1")).toEqual(rejected("arguments must be string"));
    expect(gate("{\"$defs\":{\"constructor\":{\"type\":\"string\"}},\"$ref\":\"#/$defs/constructor\"}", "1")).toEqual(rejected("arguments must be string"));
  });
  test("dependentSchemas keyed __proto__ apply when the key is present", () => {
    expect(gate("{\"type\":\"object\",\"dependentSchemas\":{\"__proto__\":{\"required\":[\"b\"]}}}", "{\"__proto__\":1}")).toEqual(rejected("arguments must have required property 'b'"));
  });
  // Ajv skips a `properties` entry named __proto__, so its schema is never applied:
  // a value it forbids passes. Either checking it or refusing the schema is right.
  test("a properties entry named __proto__ is applied, or the schema is refused", () => {
    const verdict = gate("{\"type\":\"object\",\"properties\":{\"__proto__\":{\"type\":\"string\"}}}", "{\"__proto__\":5}");
    expect(verdict.reason).toBe("arguments_schema");
  });
  test("pollution payloads in a schema's defaults, examples and enums stay data", () => {
    const schema = `{"type":"object","default":${pollution},"examples":[${pollution}],"properties":{"a":{"enum":[1,${pollution}]}}}`;
    expect(gate(schema, "{\"a\":1}")).toEqual(ok);
    expect(gate(schema, "{\"a\":2}")).toEqual(rejected(`arguments/a must be equal to one of the allowed values (1, ${pollution})`));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

});

describe("hostile keys in items", () => {
  test("a __proto__ holding call fields does not lend them to the item", () => {
    const item = JSON.parse("{\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"t\",\"__proto__\":{\"status\":\"completed\",\"arguments\":\"{}\"}}");
    expect(replayGate(item, true)).toEqual({ reason: "status", detail: "the call has no status; only a completed call may run", path: "/status" });
  });
  test("a __proto__ holding a type does not make an untyped record a call", () => {
    const item = JSON.parse("{\"__proto__\":{\"type\":\"function_call\"},\"status\":\"completed\",\"arguments\":\"{}\"}");
    expect(replayGate(item, true)).toEqual({ reason: "namespaced", detail: "the item has no type", path: "/type" });
  });
  test("constructor and prototype fields beside a valid call change nothing", () => {
    const item = JSON.parse(`{"type":"function_call","call_id":"call_1","name":"t","status":"completed","arguments":"{}","constructor":${pollution},"prototype":${pollution}}`);
    expect(replayGate(item, { type: "object" })).toEqual(ok);
  });
});

describe("through orbridge gate", () => {
  const file = scratchFolder();
  test("a journal full of hostile keys gets its verdicts and pollutes nothing", async () => {
    const schema = `{"type":"object","properties":{"prototype":{"type":"string"}},"default":${pollution}}`;
    const stringPrototype = "{\"__proto__\":{\"polluted\":\"yes\"},\"constructor\":{\"prototype\":{\"polluted\":\"yes\"}},\"prototype\":\"x\"}";
    const journal = jsonl(
      `{"type":"function_call","call_id":"call_1","name":"t","status":"completed","arguments":${JSON.stringify(stringPrototype)},"__proto__":{"polluted":"yes"}}`,
      `{"__proto__":{"type":"function_call","status":"completed"},"call_id":"call_2","arguments":"{}"}`,
      `{"type":"function_call","call_id":"call_3","name":"t","status":"completed","arguments":"{\\"prototype\\":1}","constructor":{"prototype":{"polluted":"yes"}}}`,
    );
    const run = await gateJournal(file, schema, journal);
    expect(run.verdicts).toEqual([
      passed(1, "call_1", "t"),
      // What `__proto__` holds is a member like any other: a call written there blocks the line.
      { line: 2, index: 0, reason: "error", detail: "the record holds 1 tool call (at /__proto__) and gave 0 to judge: a call written where its kind of record keeps none is never checked, though an SDK of its envelope would run it", blocked: true, findings: [] },
      { line: 3, index: 0, type: "function_call", call_id: "call_3", name: "t", reason: "arguments_schema", detail: "arguments/prototype must be string", path: "/arguments", blocked: true, findings: [] },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
