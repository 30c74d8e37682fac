// A stream whose calls the gate blocks by their status (a delta after the call
// was closed, a terminal output that disagrees with the deltas) converts to a
// record, in every envelope, whose calls the gate blocks too: a conversion
// never turns a call no one may replay into one that passes.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const lines = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join("\n") + "\n";
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: "chatcmpl-S1", object: "chat.completion.chunk", created: 1727346178, model: "gpt-4o", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });

const STREAMS: Record<string, string> = {
  "a Chat delta after finish_reason": lines([
    chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_S1", type: "function", function: { name: "transfer", arguments: '{"amount":100' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: "}" } }] }, "tool_calls"),
    chunk({ content: "Also sending 900." }),
  ]),
  "an Anthropic input fragment after content_block_stop": lines([
    { type: "message_start", message: { id: "msg_S2", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 50, output_tokens: 1 } } },
    { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_S2", name: "transfer", input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"amount":100}' } },
    { type: "content_block_stop", index: 0 },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "  " } },
    { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 20 } },
    { type: "message_stop" },
  ]),
  "a Bedrock delta after messageStop": lines([
    { messageStart: { role: "assistant" } },
    { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { name: "transfer", toolUseId: "tooluse_S3" } } } },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"amount":100}' } } } },
    { contentBlockStop: { contentBlockIndex: 0 } },
    { messageStop: { stopReason: "tool_use" } },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: "  " } } } },
  ]),
  "an Open Responses terminal output that disagrees with the deltas": lines([
    { type: "response.created", sequence_number: 0, response: { id: "resp_S4", object: "response", created_at: 1770803615, status: "in_progress", model: "gpt-5.1", output: [], usage: null } },
    { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { id: "fc_S4", type: "function_call", status: "in_progress", arguments: "", call_id: "call_S4", name: "transfer" } },
    { type: "response.function_call_arguments.delta", sequence_number: 2, item_id: "fc_S4", output_index: 0, delta: '{"amount":100}' },
    { type: "response.output_item.done", sequence_number: 3, output_index: 0, item: { id: "fc_S4", type: "function_call", status: "completed", arguments: '{"amount":100}', call_id: "call_S4", name: "transfer" } },
    { type: "response.completed", sequence_number: 4, response: { id: "resp_S4", object: "response", created_at: 1770803615, status: "completed", model: "gpt-5.1", output: [{ id: "fc_S4", type: "function_call", status: "completed", arguments: '{"amount":900}', call_id: "call_S4", name: "transfer" }], usage: { input_tokens: 5, output_tokens: 4, total_tokens: 9 } } },
  ]),
};

const tools = join(scratchFolder("convert-stopped-calls"), "tools.json");
writeFileSync(tools, JSON.stringify([{ type: "function", name: "transfer", parameters: { type: "object", properties: { amount: { type: "integer" } }, required: ["amount"] } }]));

/** The gate's reason for each call of a journal. */
async function callReasons(journal: string): Promise<string[]> {
  const gated = await runOrbridge(["gate", "--tools", tools, "--format", "json", "-"], journal);
  return gated.stdout
    .trimEnd()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { type: string; reason: string })
    .filter((verdict) => verdict.type === "function_call")
    .map((verdict) => verdict.reason);
}

describe("convert, on a stream whose calls the gate blocks by status", () => {
  for (const [stream, journal] of Object.entries(STREAMS)) {
    test(`${stream}: the stream's call is blocked, and so is the call of every record it converts to`, async () => {
      expect(await callReasons(journal)).toEqual(["status"]);
      for (const target of ["responses", "chat", "anthropic", "gemini", "bedrock"]) {
        const converted = await runOrbridge(["convert", "--to", target, "-"], journal);
        expect(converted.stdout).not.toBe("");
        const reasons = await callReasons(converted.stdout);
        expect({ target, reasons }).toEqual({ target, reasons: reasons.map(() => "status") });
        expect(reasons.length).toBeGreaterThan(0);
      }
    });
  }
});
