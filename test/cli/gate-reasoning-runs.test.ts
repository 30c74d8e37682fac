// Reasoning blocks in a row, as providers write them: Anthropic answers with
// several thinking or redacted_thinking blocks before its text (the redacted ones
// come two or more at a time), so each block's following item is the next block.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const anthropicMessage = (content: unknown[]) =>
  JSON.stringify({ type: "message", id: "msg_018XZkwvj9asBiffg3fXt88s", role: "assistant", model: "claude-sonnet-4-5-20250929", content, stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 92, output_tokens: 189 } }) + "\n";

describe("gate: an Anthropic message with reasoning blocks in a row", () => {
  test("two redacted_thinking blocks before the text pass: the run leads to the message", async () => {
    const journal = anthropicMessage([
      { type: "redacted_thinking", data: "EqkECkYIBxgCKkA8" },
      { type: "redacted_thinking", data: "EtgBCkYIBxgCKkDQ" },
      { type: "text", text: "Here is what I can tell you." },
    ]);
    expect(await runOrbridge(["gate", "-"], journal)).toEqual({
      code: 0,
      stdout: [
        'line 1  reasoning -  pass not_function_call: "reasoning" is not a function_call',
        'line 1.1  reasoning -  pass not_function_call: "reasoning" is not a function_call',
        'line 1.2  message -  pass not_function_call: "message" is not a function_call',
        "",
      ].join("\n"),
      stderr: "read 1 line: 3 items, 0 errors; 0 blocked\n",
    });
  });

  test("a thinking block then a redacted one with nothing after them are both without their following item", async () => {
    const journal = anthropicMessage([
      { type: "thinking", thinking: "The user wants the report.", signature: "EpMCCkYIBxgC" },
      { type: "redacted_thinking", data: "EtgBCkYIBxgCKkDQ" },
    ]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    const findings = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line).findings);
    const atTheEnd = [{ code: "reasoning_without_following_item", detail: "the journal ends after the reasoning, without the item it precedes" }];
    expect(findings).toEqual([atTheEnd, atTheEnd]);
  });
});
