// Tool schemas written to stall, crash or fool the gate: catastrophic patterns run
// on a linear-time engine, and a schema that cannot be used blocks the call with
// the reason, never passes it.
import { afterEach, describe, expect, test, vi } from "vitest";
import { isBlocked, replayGate, type Verdict } from "../../src/gate/replay-gate.js";
import { SchemaCache } from "../../src/gate/schema.js";
import { call, gateJournal, jsonl, OK_DETAIL, passed, scratchFolder } from "./support.js";

const gate = (schema: string, args: string): Verdict => replayGate(call("call_1", args), JSON.parse(schema) as Record<string, unknown>, { cache: new SchemaCache() });
const rejected = (detail: string): Verdict => ({ reason: "arguments_schema", detail, path: "/arguments" });
const refused = (error: string): Verdict => rejected(`tool schema does not compile: ${error}`);
const ok: Verdict = { reason: "ok", detail: OK_DETAIL };
const fiftyAsAndBang = JSON.stringify("a".repeat(50) + "!");

// No timeout is set here: on a backtracking engine each of these takes minutes,
// so vitest's default timeout is what fails a regression.
describe("catastrophic patterns", () => {
  test("^(a+)+$ rejects 50 a's and a ! at once", () => {
    expect(gate("{\"type\":\"string\",\"pattern\":\"^(a+)+$\"}", fiftyAsAndBang)).toEqual(rejected("arguments must match pattern \"^(a+)+$\""));
  });
  test("^(a+)+$ still accepts 50 a's", () => {
    expect(gate("{\"type\":\"string\",\"pattern\":\"^(a+)+$\"}", JSON.stringify("a".repeat(50)))).toEqual(ok);
  });
  test("in patternProperties, against a property name", () => {
    expect(gate("{\"type\":\"object\",\"patternProperties\":{\"^(a+)+$\":true},\"additionalProperties\":false}", `{${fiftyAsAndBang}:1}`)).toEqual(rejected("arguments must NOT have additional properties"));
  });
  test("in propertyNames", () => {
    expect(gate("{\"type\":\"object\",\"propertyNames\":{\"pattern\":\"^(a+)+$\"}}", `{${fiftyAsAndBang}:1}`)).toEqual(rejected("arguments must match pattern \"^(a+)+$\""));
  });
  test("other exponential shapes on long input", () => {
    expect(gate("{\"type\":\"string\",\"pattern\":\"^(a|a)*$\"}", JSON.stringify("a".repeat(5000) + "!"))).toEqual(rejected("arguments must match pattern \"^(a|a)*$\""));
    expect(gate("{\"type\":\"string\",\"pattern\":\"(x+x+)+y\"}", JSON.stringify("x".repeat(5000)))).toEqual(rejected("arguments must match pattern \"(x+x+)+y\""));
  });
  test("the format regex only compiles a hostile pattern, never runs it", () => {
    expect(gate("{\"type\":\"string\",\"format\":\"regex\"}", JSON.stringify("^(a+)+$"))).toEqual(ok);
  });
  test("through orbridge gate, the next line is gated too", async () => {
    const file = scratchFolder();
    const run = await gateJournal(file, { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } } }, jsonl(call("call_1", `{"code":${fiftyAsAndBang}}`), call("call_2", "{\"code\":\"aaa\"}")));
    expect(run.verdicts).toEqual([
      { line: 1, index: 0, type: "function_call", call_id: "call_1", name: "get_latest_sales_report", reason: "arguments_schema", detail: "arguments/code must match pattern \"^(a+)+$\"", path: "/arguments", blocked: true, findings: [] },
      passed(2, "call_2"),
    ]);
    expect(run.code).toBe(1);
  });
});

describe("patterns a linear-time engine cannot run", () => {
  test.each([
    ["a backreference", "(a)\\\\1", 'pattern "(a)\\1" uses a backreference "\\1", which a linear-time engine cannot run; the schema is refused'],
    ["a lookahead", "(?=a)a", 'pattern "(?=a)a" uses a lookahead "(?=a)", which a linear-time engine cannot run; the schema is refused'],
    ["an unclosed class", "[", 'pattern "[" is not an ECMA-262 regular expression with the u flag (unterminated character class at offset 1); the schema is refused'],
  ])("%s refuses the schema and blocks the call", (_label, pattern, error) => {
    expect(gate(`{"type":"string","pattern":"${pattern}"}`, "\"aa\"")).toEqual(refused(error));
  });
});

describe("schemas that do not compile", () => {
  test.each([
    ["an unknown type", "{\"type\":\"nonsense\"}", "schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf"],
    ["properties that is not an object", "{\"type\":\"object\",\"properties\":5}", "schema is invalid: data/properties must be object"],
    ["a negative minLength", "{\"minLength\":-1}", "schema is invalid: data/minLength must be >= 0"],
    ["a $ref to nowhere", "{\"$ref\":\"#/$defs/missing\"}", "can't resolve reference #/$defs/missing from id #"],
    ["a $ref cycle", "{\"$ref\":\"#/$defs/a\",\"$defs\":{\"a\":{\"$ref\":\"#/$defs/b\"},\"b\":{\"$ref\":\"#/$defs/a\"}}}", "$ref \"#/$defs/a\" leads back to a schema it started from through $ref and allOf alone, so validation would never end"],
  ])("%s blocks the call with the compile error", (_label, schema, error) => {
    expect(gate(schema, "\"x\"")).toEqual(refused(error));
  });
  test("a schema that is not a schema blocks the call", () => {
    for (const schema of [[], 5, "string", null]) {
      expect(replayGate(call("call_1", "{}"), schema as unknown as boolean, { cache: new SchemaCache() })).toEqual(rejected("tool schema is not a JSON Schema (an object or a boolean)"));
    }
  });
  test("the boolean schema false blocks every call", () => {
    expect(replayGate(call("call_1", "{}"), false, { cache: new SchemaCache() })).toEqual(rejected("arguments boolean schema is false"));
  });
  test("Ajv's $async, at the top or in a subschema, refuses the schema: its validator answers with a promise", () => {
    for (const schema of [{ $async: true, type: "object", properties: { cmd: { enum: ["ls"] } } }, { type: "object", properties: { cmd: { $async: true, enum: ["ls"] } } }]) {
      expect(replayGate(call("call_1", '{"cmd":"rm -rf /"}'), schema, { cache: new SchemaCache() })).toEqual(rejected('tool schema is refused: the keyword "$async" makes the check answer later, and the gate answers now'));
    }
  });
  test("a $dynamicRef with no anchor to resolve refuses the schema and blocks the call", () => {
    expect(gate("{\"$dynamicRef\":\"#meta\"}", "\"x\"")).toEqual(refused("can't resolve reference #meta from id #"));
  });
  test("through orbridge gate, every call is blocked with the compile error", async () => {
    const file = scratchFolder();
    const run = await gateJournal(file, { type: "object", properties: { region: { $ref: "#/$defs/missing" } } }, jsonl({ type: "message", role: "user", content: "hi" }, call("call_1", "{}"), call("call_2", "{\"region\":\"apac\"}")));
    const refusedCall = (line: number, callId: string) => ({ line, index: 0, type: "function_call", call_id: callId, name: "get_latest_sales_report", reason: "arguments_schema", detail: "tool schema does not compile: can't resolve reference #/$defs/missing from id #", path: "/arguments", blocked: true, findings: [] });
    expect(run.verdicts).toEqual([
      { line: 1, index: 0, type: "message", reason: "not_function_call", detail: "\"message\" is not a function_call", path: "/type", blocked: false, findings: [] },
      refusedCall(2, "call_1"),
      refusedCall(3, "call_2"),
    ]);
    expect(run.code).toBe(1);
  });
});

describe("remote references", () => {
  afterEach(() => vi.restoreAllMocks());
  test.each([
    ["a remote $ref", "{\"$ref\":\"https://schemas.example/region.json\"}", "can't resolve reference https://schemas.example/region.json from id #"],
    ["a $ref relative to a remote $id", "{\"$id\":\"https://schemas.example/tool.json\",\"$ref\":\"region.json\"}", "can't resolve reference region.json from id https://schemas.example/tool.json"],
    ["an unknown remote $schema", "{\"$schema\":\"https://schemas.example/meta\",\"type\":\"string\"}", "no schema with key or ref \"https://schemas.example/meta\""],
  ])("%s is never fetched and blocks the call", (_label, schema, error) => {
    const fetch = vi.spyOn(globalThis, "fetch");
    const verdict = gate(schema, "\"x\"");
    expect(verdict).toEqual(refused(error));
    expect(isBlocked(verdict)).toBe(true);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("unknown formats", () => {
  afterEach(() => vi.restoreAllMocks());
  // JSON Schema 2020-12 makes an unknown format an annotation, so the call passes.
  test("an unknown format is an annotation and the call passes", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(gate("{\"type\":\"string\",\"format\":\"no-such-format\"}", "\"x\"")).toEqual(ok);
  });
  // Ajv's default logger writes "unknown format … ignored" to the console, in the
  // middle of the command's own output; the gate returns what it has to say.
  test("an unknown format is not written to the console", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    gate("{\"type\":\"string\",\"format\":\"no-such-format-either\"}", "\"x\"");
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("keywords of other dialects", () => {
  test("OpenAPI's nullable allows no null in a 2020-12 schema: it is an annotation there", () => {
    const schema = { type: "object", required: ["amount"], properties: { amount: { type: "integer", nullable: true } } };
    expect(replayGate(call("call_1", '{"amount":null}'), schema, { cache: new SchemaCache() })).toEqual(rejected("arguments/amount must be integer"));
    expect(replayGate(call("call_1", '{"amount":3}'), schema, { cache: new SchemaCache() }).reason).toBe("ok");
  });
});
