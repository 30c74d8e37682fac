// Journal mode (`gate --tools`): tool names that are also names of Object's
// prototype never find a schema they were not given, and tool schemas met in the
// journal's request bodies are as hostile as any other.
import { afterAll, describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { call, jsonl, OK_DETAIL, scratchFolder } from "./support.js";

const file = scratchFolder();
afterAll(() => expect(({} as Record<string, unknown>).polluted).toBeUndefined());

async function gateWithTools(tools: unknown, journal: string) {
  const result = await runOrbridge(["gate", "--tools", file("tools.json", JSON.stringify(tools)), "--format", "json", file("journal.jsonl", journal)]);
  return { ...result, verdicts: result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const verdict = (line: number, callId: string, name: string, reason: string, detail: string, path?: string) => ({
  line,
  index: 0,
  type: "function_call",
  call_id: callId,
  name,
  reason,
  detail,
  ...(path === undefined ? {} : { path }),
  blocked: reason !== "ok",
  findings: [],
});
const salesTool = { type: "function", name: "get_latest_sales_report", parameters: { type: "object", required: ["region"], properties: { region: { enum: ["apac"] } } } };

describe("calls named after Object's prototype", () => {
  test.each(["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"])("a call to %s, which no tool defines, is unknown_tool", async (name) => {
    const run = await gateWithTools([salesTool], jsonl(call("call_1", "{}", name), call("call_2", "{\"region\":\"apac\"}")));
    expect(run.verdicts).toEqual([
      verdict(1, "call_1", name, "unknown_tool", `no schema is known for "${name}"`, "/name"),
      verdict(2, "call_2", "get_latest_sales_report", "ok", OK_DETAIL),
    ]);
    expect(run.code).toBe(1);
  });
  test("tools named __proto__ and constructor are tools like any other, each with its own schema", async () => {
    const tools = JSON.parse(
      "[{\"type\":\"function\",\"function\":{\"name\":\"__proto__\",\"parameters\":{\"type\":\"object\",\"required\":[\"x\"]}}},{\"type\":\"function\",\"name\":\"constructor\",\"parameters\":{\"type\":\"object\",\"properties\":{\"y\":{\"type\":\"string\"}}}}]",
    ) as unknown[];
    const run = await gateWithTools(tools, jsonl(call("call_1", "{}", "__proto__"), call("call_2", "{\"x\":1}", "__proto__"), call("call_3", "{\"y\":1}", "constructor"), call("call_4", "{\"y\":\"z\"}", "constructor")));
    expect(run.verdicts).toEqual([
      verdict(1, "call_1", "__proto__", "arguments_schema", "arguments must have required property 'x'", "/arguments"),
      verdict(2, "call_2", "__proto__", "ok", OK_DETAIL),
      verdict(3, "call_3", "constructor", "arguments_schema", "arguments/y must be string", "/arguments"),
      verdict(4, "call_4", "constructor", "ok", OK_DETAIL),
    ]);
  });
});

describe("hostile tool schemas in the journal's request bodies", () => {
  const request = (name: string, parameters: unknown) => ({ model: "gpt-4.1", messages: [{ role: "user", content: "send the apac report" }], tools: [{ type: "function", function: { name, parameters } }] });
  const userMessage = { line: 1, index: 0, type: "message", reason: "not_function_call", detail: "\"message\" is not a function_call", path: "/type", blocked: false, findings: [] };
  test("a catastrophic pattern is run in linear time", async () => {
    const run = await gateWithTools([salesTool], jsonl(request("lookup_code", { type: "string", pattern: "^(a+)+$" }), call("call_1", JSON.stringify("a".repeat(50) + "!"), "lookup_code")));
    expect(run.verdicts).toEqual([userMessage, verdict(2, "call_1", "lookup_code", "arguments_schema", "arguments must match pattern \"^(a+)+$\"", "/arguments")]);
  });
  test.each([
    ["a remote $ref", { $ref: "https://schemas.example/code.json" }, "tool schema does not compile: can't resolve reference https://schemas.example/code.json from id #"],
    ["a $ref to nowhere", { $ref: "#/$defs/code" }, "tool schema does not compile: can't resolve reference #/$defs/code from id #"],
    ["an unknown type", { type: "code" }, "tool schema does not compile: schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf"],
  ])("%s blocks the call with the compile error", async (_label, parameters, detail) => {
    const run = await gateWithTools([salesTool], jsonl(request("lookup_code", parameters), call("call_1", "\"x\"", "lookup_code")));
    expect(run.verdicts).toEqual([userMessage, verdict(2, "call_1", "lookup_code", "arguments_schema", detail, "/arguments")]);
  });
  test("pollution payloads in a request's tools stay data", async () => {
    const body = JSON.parse(
      "{\"model\":\"gpt-4.1\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"tools\":[{\"type\":\"function\",\"__proto__\":{\"polluted\":\"yes\"},\"function\":{\"name\":\"lookup_code\",\"constructor\":{\"prototype\":{\"polluted\":\"yes\"}},\"parameters\":{\"type\":\"object\",\"__proto__\":{\"polluted\":\"yes\"}}}}]}",
    ) as unknown;
    const run = await gateWithTools([salesTool], jsonl(body, call("call_1", "{}", "lookup_code")));
    expect(run.verdicts).toEqual([userMessage, verdict(2, "call_1", "lookup_code", "ok", OK_DETAIL)]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
