// normalize writes a provider's response as its items and reports each field of
// it that no item holds. The field that held the output (Bedrock `output`,
// Anthropic `content`) and the one that gave the calls their status
// (`stopReason`, `stop_reason`) are in the items, and are not reported.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

test.each([
  ["Bedrock", { output: { message: { role: "assistant", content: [{ text: "Done." }] } }, stopReason: "end_turn", usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 }, metrics: { latencyMs: 120 } }, ["/usage", "/metrics"]],
  ["Anthropic", { id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "Done." }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 3, output_tokens: 2 } }, ["/id", "/model", "/usage"]],
])("a %s response: only the fields no item holds are left behind", async (_envelope, response, left) => {
  const report = join(scratchFolder("response-fields"), "report.jsonl");
  const result = await runOrbridge(["normalize", "--report", report, "-"], JSON.stringify(response) + "\n");
  expect(result.code).toBe(0);
  const losses = readFileSync(report, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { path: string; code: string });
  expect(losses.filter((loss) => loss.code === "left_behind").map((loss) => loss.path)).toEqual(left);
});

// A key of the record that ends in `:` and an item field is kept under the
// envelope's slug as one that ends so too: the field is then said to be in no
// item, as the slugged key is. A key that ends in the field without the colon is
// no such key.
test.each([
  ["x:stop_reason", ["/id", "/model", "/stop_reason", "/usage", "/x:stop_reason"]],
  ["xstop_reason", ["/id", "/model", "/usage", "/xstop_reason"]],
  ["x:y:role", ["/id", "/role", "/model", "/usage", "/x:y:role"]],
])("an Anthropic response with a key %s: the item fields a slugged key ends in are left behind", async (key, left) => {
  const response = { id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "Done." }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 3, output_tokens: 2 }, [key]: "end_turn" };
  const report = join(scratchFolder("response-fields"), "report.jsonl");
  const result = await runOrbridge(["normalize", "--report", report, "-"], JSON.stringify(response) + "\n");
  expect(result.code).toBe(0);
  const losses = readFileSync(report, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { path: string; code: string });
  expect(losses.filter((loss) => loss.code === "left_behind").map((loss) => loss.path)).toEqual(left);
});
