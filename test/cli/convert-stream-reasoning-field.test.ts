// `--reasoning-field` on a recorded stream: the reasoning the stream carries goes
// to the named Chat field, as it does for the same response stored whole.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const lines = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join("\n") + "\n";
const reasoning = { id: "rs_R1", type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "Need to add 2 and 2." }] };
const answer = { id: "msg_R1", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "4", annotations: [] }] };
const whole = { id: "resp_R1", object: "response", created_at: 1770803615, status: "completed", model: "gpt-oss-120b", output: [reasoning, answer], usage: null };
const events = lines([
  { type: "response.created", sequence_number: 0, response: { ...whole, status: "in_progress", output: [] } },
  { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { ...reasoning, content: [] } },
  { type: "response.reasoning_text.delta", sequence_number: 2, item_id: "rs_R1", output_index: 0, content_index: 0, delta: "Need to add 2 and 2." },
  { type: "response.output_item.done", sequence_number: 3, output_index: 0, item: reasoning },
  { type: "response.output_item.added", sequence_number: 4, output_index: 1, item: { ...answer, status: "in_progress", content: [] } },
  { type: "response.output_text.delta", sequence_number: 5, item_id: "msg_R1", output_index: 1, content_index: 0, delta: "4" },
  { type: "response.output_item.done", sequence_number: 6, output_index: 1, item: answer },
  { type: "response.completed", sequence_number: 7, response: whole },
]);
const anthropicEvents = lines([
  { type: "message_start", message: { id: "msg_A1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } },
  { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Need to add 2 and 2." } },
  { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQBCkgIARABGAIiQ" } },
  { type: "content_block_stop", index: 0 },
  { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "4" } },
  { type: "content_block_stop", index: 1 },
  { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 9 } },
  { type: "message_stop" },
]);

const reasoningOf = async (journal: string) => {
  const result = await runOrbridge(["convert", "--to", "chat", "--reasoning-field", "reasoning_content", "-"], journal);
  return (JSON.parse(result.stdout) as { choices: Array<{ message: Record<string, unknown> }> }).choices[0]!.message.reasoning_content;
};

describe("convert --to chat --reasoning-field, on a recorded stream", () => {
  test("an Open Responses event stream: its reasoning in the field, as for the response stored whole", async () => {
    expect(await reasoningOf(events)).toBe("Need to add 2 and 2.");
    expect(await reasoningOf(JSON.stringify(whole) + "\n")).toBe("Need to add 2 and 2.");
  });

  test("an Anthropic stream: its thinking in the field", async () => {
    expect(await reasoningOf(anthropicEvents)).toBe("Need to add 2 and 2.");
  });
});
