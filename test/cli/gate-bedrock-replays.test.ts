// A Bedrock Converse conversation logged request, response, request: the second
// request replays the response's toolUse block, as pydantic-ai writes it, without
// the "type":"tool_use" Converse put in it.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const toolConfig = { tools: [{ toolSpec: { name: "get_file", inputSchema: { json: { type: "object", properties: {}, additionalProperties: false } } } }], toolChoice: { auto: {} } };
const ask = { role: "user", content: [{ text: "Use the get_file tool, then describe the file." }] };
const toolUse = { toolUseId: "tooluse_waI1Qe4zR0Q4XuXquDJTKo", name: "get_file", input: {} };
const journal = (responseToolUse: Record<string, unknown>) =>
  [
    { messages: [ask], toolConfig },
    { output: { message: { role: "assistant", content: [{ toolUse: responseToolUse }] } }, stopReason: "tool_use", usage: { inputTokens: 558, outputTokens: 36, totalTokens: 594 } },
    { messages: [ask, { role: "assistant", content: [{ toolUse }] }, { role: "user", content: [{ toolResult: { toolUseId: toolUse.toolUseId, content: [{ text: "a photo of a kiwi" }], status: "success" } }] }], toolConfig },
  ]
    .map((record) => JSON.stringify(record) + "\n")
    .join("");

describe("gate: a Bedrock request that replays a toolUse block without its type", () => {
  test("the replayed call is the response's call: only the new toolResult is gated", async () => {
    expect(await runOrbridge(["gate", "-"], journal({ ...toolUse, type: "tool_use" }))).toEqual({
      code: 0,
      stdout: [
        'line 1  message -  pass not_function_call: "message" is not a function_call',
        "line 2  function_call tooluse_waI1Qe4zR0Q4XuXquDJTKo  pass ok: completed call with arguments valid for its schema",
        'line 3.2  function_call_output tooluse_waI1Qe4zR0Q4XuXquDJTKo  pass not_function_call: "function_call_output" is not a function_call',
        "",
      ].join("\n"),
      stderr: "read 3 lines: 3 items, 0 errors; 0 blocked\n",
    });
  });

  test("a server tool's block replayed as a client toolUse is not taken for it: the request's call is gated", async () => {
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal({ ...toolUse, type: "server_tool_use" }));
    expect(result.code).toBe(1);
    const verdicts = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(verdicts.filter((verdict) => verdict.type === "function_call").map((verdict) => [verdict.line, verdict.findings])).toEqual([[3, []]]);
  });
});
