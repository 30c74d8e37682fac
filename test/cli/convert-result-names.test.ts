// A Gemini functionResponse names the function whose call it answers. A tool
// result on a later line than its call (a loose Anthropic or Bedrock message, a
// Chat tool message after another turn, an output item) takes the name of that
// call, and the report says so; it was written with an empty name.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("result-names");

async function toGemini(lines: unknown[], options: string[] = []): Promise<{ records: unknown[]; report: unknown[]; code: number }> {
  const input = join(folder, `journal-${Math.random().toString(36).slice(2)}.jsonl`);
  const report = `${input}.report`;
  writeFileSync(input, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  const result = await runOrbridge(["convert", "--to", "gemini", ...options, "--report", report, input]);
  const read = (text: string) => text.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as unknown);
  return { records: read(result.stdout), report: read(readFileSync(report, "utf8")), code: result.code };
}

const lookupResult = (id: string) => ({ role: "user", parts: [{ functionResponse: { name: "lookup_order", response: { output: "shipped" }, id } }] });
const named = (line: number, path: string, callLine: number) => ({
  line,
  path,
  code: "synthesized",
  detail: `a functionResponse names the function whose call it answers: the result gets the name of its call on line ${callLine}, "lookup_order"`,
});

describe("a tool result on a later line than its call", () => {
  test("Anthropic messages, one a line", async () => {
    const { records, report, code } = await toGemini([
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_01", name: "lookup_order", input: { order: 7 } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "shipped" }] },
    ]);
    expect(code).toBe(0);
    expect(records).toEqual([{ role: "model", parts: [{ functionCall: { name: "lookup_order", args: { order: 7 }, id: "toolu_01" } }] }, lookupResult("toolu_01")]);
    expect(report).toContainEqual(named(2, "", 1));
  });

  test("Chat messages, the result after another user turn", async () => {
    const { records, report } = await toGemini([
      { role: "assistant", content: null, tool_calls: [{ id: "call_7", type: "function", function: { name: "lookup_order", arguments: '{"order":7}' } }] },
      { role: "user", content: "still there?" },
      { role: "tool", tool_call_id: "call_7", content: "shipped" },
    ]);
    expect(records).toEqual([
      { role: "model", parts: [{ functionCall: { name: "lookup_order", args: { order: 7 }, id: "call_7" } }] },
      { role: "user", parts: [{ text: "still there?" }] },
      lookupResult("call_7"),
    ]);
    expect(report).toEqual([named(3, "/tool_call_id", 1), { line: 2, path: "/content", code: "form_changed", detail: "the text is written as one text part, Gemini's only form of a message's content: it comes back as parts, not as a string" }]);
  });

  test("Open Responses items, the result after a message", async () => {
    const { records, report } = await toGemini([
      { type: "function_call", call_id: "call_7", name: "lookup_order", arguments: '{"order":7}' },
      { type: "message", role: "user", content: "still there?" },
      { type: "function_call_output", call_id: "call_7", output: "shipped" },
    ]);
    expect(records[2]).toEqual(lookupResult("call_7"));
    expect(report).toContainEqual(named(3, "/call_id", 1));
  });

  test("a stored chat.completion, then the tool message", async () => {
    const { records, report } = await toGemini([
      { id: "chatcmpl-1", object: "chat.completion", created: 1, model: "gpt-4o", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "call_7", type: "function", function: { name: "lookup_order", arguments: '{"order":7}' } }] }, finish_reason: "tool_calls" }] },
      { role: "tool", tool_call_id: "call_7", content: "shipped" },
    ]);
    expect(records[1]).toEqual(lookupResult("call_7"));
    expect(report).toContainEqual(named(2, "/tool_call_id", 1));
  });

  test("a result whose call no line gave keeps the loss it had", async () => {
    const { records, report } = await toGemini([{ role: "tool", tool_call_id: "call_404", content: "shipped" }]);
    expect(records).toEqual([{ role: "user", parts: [{ functionResponse: { name: "", response: { output: "shipped" }, id: "call_404" } }] }]);
    expect(report).toHaveLength(1);
    expect(report[0]).toMatchObject({ line: 1 });
  });
});

describe("with --for a target of another envelope", () => {
  // The rewrite toward the target names no result; the Gemini writer still must.
  const lines = [
    { type: "function_call", call_id: "call_7", name: "lookup_order", arguments: '{"order":7}', status: "completed" },
    { role: "tool", tool_call_id: "call_7", content: "shipped" },
  ];

  test.each(["anthropic", "bedrock", "chat-completions", "open-responses"])("--for %s: the result on a later line takes its call's name", async (target) => {
    const { records, report, code } = await toGemini(lines, ["--for", target]);
    expect(code).toBe(0);
    expect(records[1]).toEqual(lookupResult("call_7"));
    expect(report).toContainEqual(named(2, "", 1));
  });
});
