// Responses that carry no id (every Bedrock Converse response, Gemini responses
// without responseId) are given ids derived from their content. Two answers alike
// word for word in one journal must still get two ids, and so must their items:
// a replay that sends one item id twice is refused, and the gate would block
// the second answer as `duplicate_id` for an id no one wrote.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const bedrockAnswer = JSON.stringify({ output: { message: { role: "assistant", content: [{ text: "Done." }] } }, stopReason: "end_turn", usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } });
const bedrockAsk = JSON.stringify({ role: "user", content: [{ text: "And the next one?" }] });
const geminiAnswer = JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "Done." }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 }, modelVersion: "gemini-2.5-flash" });
const geminiAsk = JSON.stringify({ role: "user", parts: [{ text: "And the next one?" }] });
const geminiCall = JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "lookup", args: { region: "apac" } } }] }, finishReason: "STOP" }], modelVersion: "gemini-2.5-flash" });
const geminiResult = JSON.stringify({ role: "user", parts: [{ functionResponse: { name: "lookup", response: { total: 3 } } }] });

async function normalizedIds(lines: string[]): Promise<unknown[]> {
  const result = await runOrbridge(["normalize", "-"], lines.join("\n") + "\n");
  expect(result.code).toBe(0);
  return result.stdout
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { id?: unknown }).id);
}

describe.each([
  ["Bedrock", bedrockAnswer, bedrockAsk],
  ["Gemini", geminiAnswer, geminiAsk],
])("%s answers alike, without ids", (_envelope, answer, ask) => {
  test("get one item id each, the first the id of the answer converted alone", async () => {
    const [alone] = await normalizedIds([answer]);
    const ids = await normalizedIds([answer, ask, answer, ask, answer]);
    expect(ids[0]).toBe(alone);
    expect(ids[1]).toBeUndefined();
    expect(new Set([ids[0], ids[2], ids[4]]).size).toBe(3);
    expect(ids.filter((id) => typeof id === "string" && /^msg_[0-9a-f]{48}$/.test(id))).toHaveLength(3);
  });

  test("pass the gate", async () => {
    const result = await runOrbridge(["gate", "--format", "json", "-"], [answer, ask, answer].join("\n") + "\n");
    expect(result.stdout.trim().split("\n").map((line) => (JSON.parse(line) as { reason: string }).reason)).toEqual(["not_function_call", "not_function_call", "not_function_call"]);
    expect(result.code).toBe(0);
  });
});

test("Gemini calls alike, without ids, each answered, pass the gate", async () => {
  const schema = join(scratchFolder("idless"), "lookup.json");
  writeFileSync(schema, JSON.stringify({ type: "object", required: ["region"], properties: { region: { enum: ["apac"] } } }));
  const journal = [geminiCall, geminiResult, geminiCall, geminiResult].join("\n") + "\n";
  const result = await runOrbridge(["gate", "--format", "json", "--schema", schema, "-"], journal);
  expect(result.stdout.trim().split("\n").map((line) => (JSON.parse(line) as { reason: string }).reason)).toEqual(["ok", "not_function_call", "ok", "not_function_call"]);
  expect(result.code).toBe(0);
});
