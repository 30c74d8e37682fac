// The library use the README shows: gate a journal in-process before replaying it.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { gateJournal, ToolRegistry, chatToItems, itemsToChat, replayGate, type GateRecord } from "../src/index.js";

const tools = JSON.parse(readFileSync("golden/examples/sales-tools.json", "utf8"));
const records = readFileSync("golden/examples/mixed.jsonl", "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));

describe("gateJournal", () => {
  test("reads the tools of an Anthropic request body, as the CLI does, and gates the call against them", async () => {
    const body = {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      tools: [{ name: "get_stock", description: "Price of a stock", input_schema: { type: "object", properties: { symbol: { type: "string" } }, required: ["symbol"], additionalProperties: false } }],
      messages: [{ role: "user", content: "Price of ACME?" }],
    };
    const message = (input: unknown) => ({ id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-5", stop_reason: "tool_use", content: [{ type: "tool_use", id: "toolu_01", name: "get_stock", input }] });
    const verdicts = async (input: unknown) => {
      const answers: GateRecord[] = [];
      for await (const record of gateJournal([body, message(input)])) answers.push(record);
      return answers.filter((record) => record.type === "function_call").map((record) => [record.call_id, record.reason]);
    };
    expect(await verdicts({ symbol: "ACME" })).toEqual([["toolu_01", "ok"]]);
    expect(await verdicts({ ticker: "ACME" })).toEqual([["toolu_01", "arguments_schema"]]);
  });

  test("answers every item of parsed records, blocking what may not be replayed", async () => {
    const registry = ToolRegistry.fromToolsFile(tools, "tools");
    const answers: GateRecord[] = [];
    for await (const record of gateJournal(records, { registry })) answers.push(record);
    expect(answers.filter((record) => record.blocked).map((record) => [record.line, record.index, record.reason])).toEqual([
      [2, 2, "arguments_schema"],
      [4, 0, "not_function_call"],
      [5, 0, "namespaced"],
      [6, 0, "status"],
    ]);
    expect(answers.filter((record) => !record.blocked && record.type === "function_call").map((record) => record.call_id)).toEqual(["call_apac01"]);
  });

  test("accepts lines of text as well", async () => {
    const answers: GateRecord[] = [];
    for await (const record of gateJournal(["not json", JSON.stringify(records[5])])) answers.push(record);
    expect(answers.map((record) => [record.line, record.reason, record.blocked])).toEqual([
      [1, "error", true],
      [2, "status", true],
    ]);
  });

  test("a tool call that gives no item blocks its line, as the CLI blocks it", async () => {
    const custom = { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "custom", custom: { name: "shell", input: "rm -rf /" } }] };
    const answers: GateRecord[] = [];
    for await (const record of gateJournal([JSON.stringify(custom)])) answers.push(record);
    expect(answers).toEqual([
      { source: "-", line: 1, index: 0, reason: "error", detail: 'not checked, since it gave no item: custom tool call "shell" has no portable Open Responses item (at /tool_calls/0)', blocked: true, findings: [] },
    ]);
  });
});

describe("the converters are exported under their command names", () => {
  test("chatToItems and itemsToChat round-trip a tool turn", () => {
    const messages = [records[1].choices[0].message, { role: "tool", tool_call_id: "call_apac01", content: "up" }, { role: "tool", tool_call_id: "call_glob02", content: "none" }];
    const items = chatToItems({ messages });
    expect(items.losses).toEqual([]);
    expect(replayGate(items.value[1], tools[0].function.parameters).reason).toBe("ok");
    const back = itemsToChat({ items: items.value });
    // An empty refusal (null) and empty annotations carry nothing, so nothing is lost without them.
    const { refusal: _refusal, annotations: _annotations, ...assistant } = messages[0];
    expect(back.value).toEqual([assistant, messages[1], messages[2]]);
  });
});
