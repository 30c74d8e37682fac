// A tool call written where its kind of record keeps none is read by no
// converter, yet an SDK of its envelope would run it: the gate blocks its line.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const chatCall = { id: "call_1", type: "function", function: { name: "get_latest_sales_report", arguments: '{"region":"global"}' } };
const item = { type: "function_call", id: "fc_1", call_id: "call_9", name: "get_latest_sales_report", arguments: '{"region":"apac"}', status: "completed" };

const said = (written: number, paths: string, read: number) =>
  `the record holds ${written} tool call${written === 1 ? "" : "s"} (at ${paths}) and gave ${read} to judge: a call written where its kind of record keeps none is never checked, though an SDK of its envelope would run it`;

describe("orbridge gate, on calls no reader of their record reads", { timeout: 60_000 }, () => {
  test.each([
    ["a completion's message without a role", { object: "chat.completion", id: "x", choices: [{ index: 0, message: { content: null, tool_calls: [chatCall] }, finish_reason: "tool_calls" }] }, said(1, "/choices/0/message/tool_calls/0", 0)],
    ["a user message with tool_calls", { role: "user", content: "x", tool_calls: [chatCall] }, said(1, "/tool_calls/0", 0)],
    ["a Gemini part with text and a functionCall", { candidates: [{ content: { role: "model", parts: [{ text: "Fetching.", functionCall: { name: "get_latest_sales_report", args: { region: "global" } } }] }, finishReason: "STOP" }] }, said(1, "/candidates/0/content/parts/0/functionCall", 0)],
    ["a response object with a Chat choices array", { object: "response", id: "resp_1", status: "completed", output: [], choices: [{ index: 0, message: { role: "assistant", tool_calls: [chatCall] } }] }, said(1, "/choices/0/message/tool_calls/0", 0)],
    ["a Responses item inside a Chat request's messages", { model: "m", messages: [{ role: "user", content: "hi" }, item] }, said(1, "/messages/1", 0)],
    ["a call item that also carries a Chat choices array", { ...item, choices: [{ index: 0, message: { role: "assistant", tool_calls: [chatCall] } }] }, said(2, "the record itself, /choices/0/message/tool_calls/0", 1)],
    ["a response whose extension item stands beside a Chat choices array", { object: "response", id: "resp_2", status: "completed", output: [{ type: "web_search_call", id: "ws_1", status: "completed" }], choices: [{ index: 0, message: { role: "assistant", tool_calls: [chatCall] } }] }, said(1, "/choices/0/message/tool_calls/0", 0)],
  ])("%s blocks its line", async (_, record, detail) => {
    const run = await runOrbridge(["gate", "--format", "json"], JSON.stringify(record) + "\n");
    expect(run.code).toBe(1);
    expect(run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line))).toEqual([{ line: 1, index: 0, reason: "error", detail, blocked: true, findings: [] }]);
  });

  test("calls where their records keep them are judged as before", async () => {
    const records = [
      { role: "assistant", content: null, tool_calls: [{ ...chatCall, function: { ...chatCall.function, arguments: '{"region":"apac"}' } }] },
      { model: "m", messages: [{ role: "user", content: "hi" }], function_call: { name: "get_latest_sales_report" }, functions: [{ name: "get_latest_sales_report", parameters: {} }] },
      item,
    ];
    const run = await runOrbridge(["gate", "--format", "json"], records.map((record) => JSON.stringify(record) + "\n").join(""));
    expect(run.stdout.trimEnd().split("\n").map((line) => [JSON.parse(line).line, JSON.parse(line).reason])).toEqual([
      [1, "unknown_tool"],
      [2, "not_function_call"],
      [3, "ok"],
    ]);
  });

  test("a Bedrock server tool's toolUse, kept as an extension item, is judged with it: the item blocked, the client's call beside it judged on its own", async () => {
    // Shaped as a Nova answer: the code interpreter's call and result, which the
    // server ran, then the call the client is to run.
    const response = {
      output: {
        message: {
          role: "assistant",
          content: [
            { toolUse: { input: { snippet: "17 * 23" }, name: "nova_code_interpreter", toolUseId: "tooluse_kq3Vd8YwR1mZpTn0aLx2Ee", type: "server_tool_use" } },
            { toolResult: { content: [{ json: { exitCode: 0, isError: false, stdErr: "", stdOut: "391" } }], status: "success", toolUseId: "tooluse_kq3Vd8YwR1mZpTn0aLx2Ee", type: "nova_code_interpreter_result" } },
            { toolUse: { input: { region: "apac" }, name: "get_latest_sales_report", toolUseId: "tooluse_Pw8sJc4LxT0bQe7Rn2Uv9A", type: "tool_use" } },
          ],
        },
      },
      stopReason: "tool_use",
    };
    const run = await runOrbridge(["gate", "--format", "json"], JSON.stringify(response) + "\n");
    expect(run.stdout.trimEnd().split("\n").map((line) => [JSON.parse(line).type, JSON.parse(line).reason, JSON.parse(line).blocked])).toEqual([
      ["bedrock:toolUse", "namespaced", true],
      ["bedrock:toolResult", "namespaced", true],
      ["function_call", "unknown_tool", true],
    ]);
  });

  test("a Bedrock toolUse that gives itself a type, as Bedrock writes server tools' calls, is one call, judged", async () => {
    const response = { output: { message: { role: "assistant", content: [{ toolUse: { input: { region: "apac" }, name: "get_latest_sales_report", toolUseId: "tooluse_B", type: "tool_use" } }] } }, stopReason: "tool_use" };
    const run = await runOrbridge(["gate", "--format", "json"], JSON.stringify(response) + "\n");
    expect(run.stdout.trimEnd().split("\n").map((line) => [JSON.parse(line).call_id, JSON.parse(line).reason])).toEqual([["tooluse_B", "unknown_tool"]]);
  });
});
