// An event of a type the envelope's stream does not have (yet), inside an open
// Anthropic or Bedrock stream: Anthropic says new event types may come and are
// to be skipped. It is reported on its line and not applied; the stream goes on
// as one response, and its call is judged as usual.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const lines = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join("\n") + "\n";
const tools = join(scratchFolder("unknown-stream-events"), "tools.json");
writeFileSync(tools, JSON.stringify([{ type: "function", name: "transfer", parameters: { type: "object", properties: { amount: { type: "integer" } }, required: ["amount"] } }]));

const anthropic = (unknown: unknown) =>
  lines([
    { type: "message_start", message: { id: "msg_U1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } },
    { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_U1", name: "transfer", input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"amount":' } },
    unknown,
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "100}" } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 20 } },
    { type: "message_stop" },
  ]);
const bedrock = (unknown: unknown) =>
  lines([
    { messageStart: { role: "assistant" } },
    { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { name: "transfer", toolUseId: "tooluse_U2" } } } },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"amount":' } } } },
    unknown,
    { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: "100}" } } } },
    { contentBlockStop: { contentBlockIndex: 0 } },
    { messageStop: { stopReason: "tool_use" } },
  ]);

describe("a record of no known kind inside an open stream that holds a call's members", () => {
  test("is no skipped event: the gate blocks it as it is", async () => {
    const journal = anthropic({ type: "future_call", call_id: "c1", name: "delete_cluster", arguments: "{}" });
    const result = await runOrbridge(["gate", "--tools", tools, "--format", "json", "-"], journal);
    const verdicts = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { line: number; reason: string; blocked: boolean });
    expect(verdicts.find((verdict) => verdict.line === 4)).toMatchObject({ blocked: true });
    expect(result.code).toBe(1);
  });
});

describe.each([
  ["Anthropic", anthropic({ type: "content_block_annotation", index: 0, note: { x: 1 } }), 'an event of type "content_block_annotation" is not one of the Messages stream\'s: not applied'],
  ["Bedrock", bedrock({ contentBlockAnnotation: { contentBlockIndex: 0 } }), "a contentBlockAnnotation event is not one of ConverseStream's: not applied"],
])("a %s stream with an event of a type it does not have", (_envelope, journal, detail) => {
  test("normalize: one response, the call whole, the event reported on its line", async () => {
    const report = join(scratchFolder("unknown-stream-events"), `${_envelope}.report.jsonl`);
    const result = await runOrbridge(["normalize", "--report", report, "-"], journal);
    expect(result.code).toBe(0);
    const items = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { type: string; arguments?: string; status?: string });
    expect(items.map(({ type, arguments: args, status }) => [type, args, status])).toEqual([["function_call", '{"amount":100}', "completed"]]);
    const losses = readFileSync(report, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as { line: number; detail: string });
    expect(losses.filter((loss) => loss.detail === detail).map((loss) => loss.line)).toEqual([4]);
  });

  test("gate: the call is judged once, as usual", async () => {
    const result = await runOrbridge(["gate", "--tools", tools, "--format", "json", "-"], journal);
    const verdicts = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { reason: string });
    expect({ code: result.code, reasons: verdicts.map((verdict) => verdict.reason) }).toEqual({ code: 0, reasons: ["ok"] });
  });
});
