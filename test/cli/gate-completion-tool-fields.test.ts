// A stored chat.completion's own tool_choice, tools and parallel_tool_calls hold
// for its calls, on a JSONL line and in a JSON array file alike.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("gate-completion-tool-fields");
const tools = join(folder, "tools.json");
writeFileSync(tools, JSON.stringify([{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }]));
const completion = {
  id: "chatcmpl_1",
  object: "chat.completion",
  created: 1,
  model: "gpt-4o",
  tool_choice: "none",
  choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: "{}" } }] }, logprobs: null, finish_reason: "tool_calls" }],
};
const blockedLine =
  "line 1  function_call call_1  BLOCKED tool_not_allowed: \"get_weather\" is not allowed: tool_choice of line 1, the response's own record of its request, allows no function\n    verdict ok: completed call with arguments valid for its schema\n";
const summary = "read 1 line: 1 item, 0 errors; 1 blocked\n  blocked by: tool_not_allowed 1\n  findings: tool_not_allowed 1\n";

describe("a chat.completion whose own tool_choice is \"none\"", { timeout: 30_000 }, () => {
  test("on a JSONL line: its call is blocked", async () => {
    const journal = join(folder, "completion.jsonl");
    writeFileSync(journal, JSON.stringify(completion) + "\n");
    expect(await runOrbridge(["gate", "--tools", tools, journal])).toEqual({ code: 1, stdout: blockedLine, stderr: summary });
  });

  test("in a JSON array file: its call is blocked", async () => {
    const journal = join(folder, "completions.json");
    writeFileSync(journal, JSON.stringify([completion]));
    expect(await runOrbridge(["gate", "--tools", tools, journal])).toEqual({
      code: 1,
      stdout: blockedLine,
      stderr: `orbridge: ${journal} is one JSON document, an array of 1 record: record N is element /{N-1}\n${summary}`,
    });
  });
});
