import { describe, expect, test } from "vitest";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const lines = (...records: unknown[]) => records.map((record) => JSON.stringify(record) + "\n").join("");
const weatherCall = (id: string, city: string) => ({ id, type: "function", function: { name: "get_weather", arguments: JSON.stringify({ city }) } });
const tools = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }];

// A DeepSeek conversation in thinking mode, as its Chat messages are stored: the
// first turn kept its reasoning_content, the second lost it on the way.
const journal = lines(
  { role: "user", content: "Is it warmer in Paris or in Lyon?" },
  { role: "assistant", content: "", reasoning_content: "Look up Paris first.", tool_calls: [weatherCall("call_1", "Paris")] },
  { role: "tool", tool_call_id: "call_1", content: "19 degrees" },
  { role: "assistant", content: null, tool_calls: [weatherCall("call_2", "Lyon")] },
  { role: "tool", tool_call_id: "call_2", content: "21 degrees" },
);

describe("orbridge --for deepseek", () => {
  test("gate --for deepseek blocks the call of a thinking-mode turn that lost its reasoning, quoting DeepSeek; without --for it runs", async () => {
    const toolsFile = join(scratchFolder("deepseek"), "tools.json");
    writeFileSync(toolsFile, JSON.stringify(tools));
    const judged = await runOrbridge(["gate", "--tools", toolsFile, "--for", "deepseek", "--only-blocked", "--format", "json"], journal);
    expect(judged.code).toBe(1);
    expect(judged.stdout.trimEnd().split("\n").map((line) => JSON.parse(line)).map((verdict) => [verdict.line, verdict.call_id, verdict.blocked_by, verdict.findings.map((finding: { detail: string }) => finding.detail)])).toEqual([
      [
        4,
        "call_2",
        "target_rejects",
        [
          "an assistant turn makes tool calls without the reasoning written with them: in thinking mode, an assistant message with tool calls carries back the reasoning_content the model wrote with them; deepseek answers \"The `reasoning_content` in the thinking mode must be passed back to the API.\"",
        ],
      ],
      // Its output may not be replayed without it.
      [5, "call_2", "output_for_blocked_call", ['its call "call_2" on line 4 is blocked (target_rejects): only a completed, valid call may get an output']],
    ]);
    expect((await runOrbridge(["gate", "--tools", toolsFile, "--quiet"], journal)).code).toBe(0);
  });

  test("convert --to chat --for deepseek writes reasoning back in DeepSeek's field, where --for chat-completions drops it, reported", async () => {
    const body = lines({ input: [{ type: "message", role: "user", content: "Paris?" }, { type: "reasoning", summary: [{ type: "summary_text", text: "Look it up." }] }, { type: "function_call", call_id: "call_1", name: "get_weather", arguments: "{\"city\":\"Paris\"}", status: "completed" }] });
    const deepseek = await runOrbridge(["convert", "--to", "chat", "--for", "deepseek"], body);
    expect([deepseek.code, JSON.parse(deepseek.stdout).messages[1]]).toEqual([0, { role: "assistant", content: null, reasoning_content: "Look it up.", tool_calls: [weatherCall("call_1", "Paris")] }]);
    expect(deepseek.stderr).toBe("read 1 line: 1 record, 0 errors; 0 losses\n");
    const plain = await runOrbridge(["convert", "--to", "chat", "--for", "chat-completions"], body);
    expect([plain.code, JSON.parse(plain.stdout).messages[1], plain.stderr]).toEqual([0, { role: "assistant", content: null, tool_calls: [weatherCall("call_1", "Paris")] }, "read 1 line: 1 record, 0 errors; 1 loss\n"]);
  });
});
