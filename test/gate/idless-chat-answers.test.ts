// Chat tool messages without tool_call_id (absent or "") answering calls without
// id. A converter writes the answers in their calls' order; the gate pairs one
// only when a single waiting call could be its: with two calls of `"id": ""`
// waiting, a replayer that pairs by id may give either answer to either call.
import { describe, expect, test } from "vitest";
import { gateJournal, normalizeJournal } from "../../src/index.js";
import type { GateRecord } from "../../src/gate/gate-journal.js";
import { ToolRegistry } from "../../src/gate/tool-registry.js";

const tools = [
  { type: "function", name: "delete_file", parameters: { type: "object", properties: { path: { type: "string", pattern: "^/tmp/" } }, required: ["path"] } },
  { type: "function", name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
];
const call = (name: string, args: string, id: unknown = "") => ({ id, type: "function", function: { name, arguments: args } });
const assistant = (...calls: unknown[]) => JSON.stringify({ role: "assistant", content: null, tool_calls: calls });
const answer = (content: string, fields: Record<string, unknown> = { tool_call_id: "" }) => JSON.stringify({ role: "tool", ...fields, content });
const ask = JSON.stringify({ role: "user", content: "go" });

async function verdicts(lines: string[]): Promise<Array<[string, string, boolean]>> {
  const out: Array<[string, string, boolean]> = [];
  for await (const record of gateJournal(lines, { registry: ToolRegistry.fromToolsFile(tools, "tools") })) {
    const verdict = record as GateRecord;
    out.push([verdict.type ?? "-", verdict.findings[0]?.code ?? verdict.reason, verdict.blocked]);
  }
  return out;
}

describe("calls without id, answers without id", () => {
  test("two calls waiting: neither answer is paired, both are blocked", async () => {
    const lines = [ask, assistant(call("delete_file", '{"path":"/tmp/a"}'), call("get_weather", '{"city":"Oslo"}')), answer("done"), answer("sunny")];
    expect(await verdicts(lines)).toEqual([
      ["message", "not_function_call", false],
      ["function_call", "ok", false],
      ["function_call", "ok", false],
      ["function_call_output", "missing_field", true],
      ["function_call_output", "missing_field", true],
    ]);
  });
  test("the same in a request body's history", async () => {
    const body = JSON.stringify({ model: "gpt-4o", tools: tools.map(({ name, parameters }) => ({ type: "function", function: { name, parameters } })), messages: [JSON.parse(ask), JSON.parse(assistant(call("delete_file", '{"path":"/etc"}'), call("get_weather", '{"city":"Oslo"}'))), JSON.parse(answer("deleted")), JSON.parse(answer("sunny"))] });
    const answers = (await verdicts([body])).filter(([type]) => type === "function_call_output");
    expect(answers).toEqual([
      ["function_call_output", "missing_field", true],
      ["function_call_output", "missing_field", true],
    ]);
  });
  test("answers that name their tools are not paired either: readers that pair by order and by name would pair them apart", async () => {
    // Swapped: by name W answers get_weather, by order the blocked delete_file.
    const lines = [ask, assistant(call("get_weather", '{"city":"Oslo"}'), call("delete_file", '{"path":"/etc"}')), answer("D", { tool_call_id: "", name: "delete_file" }), answer("W", { tool_call_id: "", name: "get_weather" })];
    expect((await verdicts(lines)).slice(3)).toEqual([
      ["function_call_output", "missing_field", true],
      ["function_call_output", "missing_field", true],
    ]);
  });
  test("one call waiting: its answer is paired", async () => {
    const lines = [ask, assistant(call("get_weather", '{"city":"Oslo"}')), answer("sunny"), ask, assistant(call("get_weather", '{"city":"Rome"}', null)), answer("rain", {})];
    expect((await verdicts(lines)).filter(([, , blocked]) => blocked)).toEqual([]);
  });
  test("normalize still writes the answers in their calls' order, and says so", async () => {
    const lines = [ask, assistant(call("delete_file", '{"path":"/tmp/a"}'), call("get_weather", '{"city":"Oslo"}')), answer("done"), answer("sunny")];
    const ids: unknown[] = [];
    for await (const record of normalizeJournal(lines)) if (record.kind === "items") for (const { item } of record.items) ids.push((item as { call_id?: unknown }).call_id);
    expect(ids.slice(1, 3)).toEqual(ids.slice(3, 5));
  });
});

describe("a tool message that names its tool", () => {
  const calls = assistant(call("get_weather", '{"city":"Oslo"}', "call_1"), call("delete_file", '{"path":"/etc"}', "call_2"));
  test("naming another tool than its call's, it is an orphan: a reader that pairs by name would give it to that tool's call", async () => {
    expect((await verdicts([ask, calls, answer("done", { tool_call_id: "call_1", name: "delete_file" })])).at(-1)).toEqual(["function_call_output", "orphan_output", true]);
  });
  test("naming its call's tool, it answers its call", async () => {
    expect((await verdicts([ask, calls, answer("sunny", { tool_call_id: "call_1", name: "get_weather" })])).at(-1)).toEqual(["function_call_output", "not_function_call", false]);
  });
  test("normalize writes no name on the output, as before: the field is reported", async () => {
    const items: unknown[] = [];
    for await (const record of normalizeJournal([calls, answer("done", { tool_call_id: "call_1", name: "delete_file" })])) if (record.kind === "items") items.push(...record.items.map(({ item }) => item));
    expect(items.at(-1)).toEqual({ type: "function_call_output", call_id: "call_1", output: "done" });
  });
});
