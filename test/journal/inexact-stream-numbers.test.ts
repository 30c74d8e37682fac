// A stream of an envelope that writes a call's arguments as objects (Gemini's
// chunks, an Anthropic tool_use block started with its input) carries numbers
// the line's doubles may not stand for, as a whole record does: the response
// rebuilt from it writes the doubles' digits. Normalize reports it, the gate's
// reading refuses the response. Streams that carry arguments as text (Anthropic
// input_json_delta, Bedrock's toolUse input) keep the digits as written.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { normalizeJournal, type NormalizedRecord, type NormalizeOptions } from "../../src/journal/normalize.js";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const GATE_READING: NormalizeOptions = { refuseUnreadCalls: true, unknownObjects: "item" };
const folder = scratchFolder("inexact-stream-numbers");
let files = 0;

async function normalize(lines: string[], options: NormalizeOptions = {}): Promise<NormalizedRecord[]> {
  const out: NormalizedRecord[] = [];
  for await (const record of normalizeJournal(lines, options)) out.push(record);
  return out;
}

/** The calls of each record, as `[name, arguments]`, or the record's error. */
function callsOf(records: NormalizedRecord[]): unknown[] {
  return records.map((record) =>
    record.kind === "error" ? { error: record.line, detail: record.detail } : record.items.flatMap(({ item }) => ((item as { type?: string }).type === "function_call" ? [[(item as { name: string }).name, (item as { arguments: string }).arguments]] : [])),
  );
}

const sse = (...data: string[]) => data.flatMap((payload) => [`data: ${payload}`, ""]);
const geminiChunk = (parts: string, responseId = "r1", finish = "") => `{"candidates":[{"content":{"role":"model","parts":[${parts}]}${finish === "" ? "" : `,"finishReason":"${finish}"`},"index":0}],"responseId":"${responseId}","modelVersion":"gemini-2.5-flash"}`;
const geminiCall = (args: string) => `{"functionCall":{"name":"set_level","args":${args}}}`;
const refusedFrom = (line: number, literal: string) => ({
  error: line,
  detail: `a record of the stream writes the number ${literal} in a call's arguments object, and a double does not stand for it exactly: the arguments text made of it is not the record's own, and the call is not judged`,
});

describe("Gemini streamGenerateContent chunks", () => {
  test("SSE text: normalize reports the arguments text that writes the double's digits", async () => {
    const records = await normalize(sse(geminiChunk(geminiCall('{"level":0.1000000000000000055}')), geminiChunk('{"text":""}', "r1", "STOP")));
    expect(callsOf(records)).toEqual([[["set_level", '{"level":0.1}']]]);
    expect(records[0]!.kind === "items" && records[0]!.losses.filter((loss) => loss.code === "form_changed")).toEqual([
      { path: "", code: "form_changed", detail: "the arguments text of item 0 holds the number 0.1000000000000000055 of a record of the stream as its double writes it, 0.1" },
    ]);
  });

  test("SSE text: the gate's reading refuses the response, whose call cannot be judged as written", async () => {
    expect(callsOf(await normalize(sse(geminiChunk(geminiCall('{"level":0.1000000000000000055}')), geminiChunk('{"text":""}', "r1", "STOP")), GATE_READING))).toEqual([refusedFrom(1, "0.1000000000000000055")]);
  });

  test("chunks one per JSON line, the last with every finishReason: refused the same way", async () => {
    const lines = [geminiChunk(geminiCall('{"account":12345678901234567890}')), geminiChunk('{"text":""}', "r1", "STOP")];
    expect(callsOf(await normalize(lines, GATE_READING))).toEqual([refusedFrom(1, "12345678901234567890")]);
  });

  test("args set piece by piece (partialArgs): a piece's number is the one refused", async () => {
    const lines = sse(
      geminiChunk('{"functionCall":{"name":"set_level","willContinue":true}}'),
      geminiChunk('{"functionCall":{"partialArgs":[{"jsonPath":"$.level","numberValue":0.1000000000000000055}],"willContinue":true}}'),
      geminiChunk('{"functionCall":{}}', "r1", "STOP"),
    );
    expect(callsOf(await normalize(lines, GATE_READING))).toEqual([refusedFrom(1, "0.1000000000000000055")]);
  });

  test("a number of one response of the stream refuses that response only: the next one's call, which writes 0.1 itself, is judged", async () => {
    const lines = sse(geminiChunk(geminiCall('{"level":0.1000000000000000055}'), "r1", "STOP"), geminiChunk(geminiCall('{"level":0.1}'), "r2", "STOP"));
    expect(callsOf(await normalize(lines, GATE_READING))).toEqual([refusedFrom(1, "0.1000000000000000055"), [["set_level", '{"level":0.1}']]]);
  });

  test("a stream whose numbers its doubles stand for is read as before", async () => {
    const lines = sse(geminiChunk(geminiCall('{"level":0.1,"note":"12345678901234567890"}')), geminiChunk('{"text":""}', "r1", "STOP"));
    expect(callsOf(await normalize(lines, GATE_READING))).toEqual([[["set_level", '{"level":0.1,"note":"12345678901234567890"}']]]);
  });
});

const anthropicEvents = (block: string, deltas: string[]) =>
  sse(
    '{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}',
    `{"type":"content_block_start","index":0,"content_block":${block}}`,
    ...deltas.map((partial) => `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":${JSON.stringify(partial)}}}`),
    '{"type":"content_block_stop","index":0}',
    '{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":5}}',
    '{"type":"message_stop"}',
  );
const bedrockEvents = (input: string) => [
  '{"messageStart":{"role":"assistant"}}',
  '{"contentBlockStart":{"start":{"toolUse":{"toolUseId":"tooluse_1","name":"set_level"}},"contentBlockIndex":0}}',
  `{"contentBlockDelta":{"delta":{"toolUse":{"input":${JSON.stringify(input)}}},"contentBlockIndex":0}}`,
  '{"contentBlockStop":{"contentBlockIndex":0}}',
  '{"messageStop":{"stopReason":"tool_use"}}',
];

describe("Anthropic and Bedrock streams", () => {
  test("an Anthropic tool_use block started with its input object is refused as a Gemini chunk is", async () => {
    const lines = anthropicEvents('{"type":"tool_use","id":"toolu_1","name":"set_level","input":{"level":0.1000000000000000055}}', []);
    expect(callsOf(await normalize(lines, GATE_READING))).toEqual([refusedFrom(1, "0.1000000000000000055")]);
  });

  test("input_json_delta text and Bedrock's toolUse input text keep the digits as written: no record is refused", async () => {
    const anthropic = await normalize(anthropicEvents('{"type":"tool_use","id":"toolu_1","name":"set_level","input":{}}', ['{"level": 0.10000', "00000000000055}"]), GATE_READING);
    const bedrock = await normalize(bedrockEvents('{"level": 0.1000000000000000055}'), GATE_READING);
    expect([callsOf(anthropic), callsOf(bedrock)]).toEqual([[[["set_level", '{"level": 0.1000000000000000055}']]], [[["set_level", '{"level": 0.1000000000000000055}']]]]);
  });

  test("the gate then compares those arguments as written: 0.1000000000000000055 does not pass maximum 0.1", async () => {
    const tools = join(folder, `tools-${++files}.json`);
    writeFileSync(tools, '[{"type":"function","name":"set_level","parameters":{"type":"object","properties":{"level":{"type":"number","maximum":0.1}}}}]');
    const detail = "arguments/level is 0.1000000000000000055, which a double reads as another number; the gate does not compare it";
    const verdicts: unknown[] = [];
    for (const lines of [anthropicEvents('{"type":"tool_use","id":"toolu_1","name":"set_level","input":{}}', ['{"level": 0.1000000000000000055}']), bedrockEvents('{"level": 0.1000000000000000055}')]) {
      const path = join(folder, `stream-${++files}.txt`);
      writeFileSync(path, lines.join("\n") + "\n");
      const run = await runOrbridge(["gate", "--tools", tools, "--format", "json", path]);
      verdicts.push([run.code, (JSON.parse(run.stdout) as { reason: string; detail: string }).reason, (JSON.parse(run.stdout) as { detail: string }).detail]);
    }
    expect(verdicts).toEqual([
      [1, "arguments_schema", detail],
      [1, "arguments_schema", detail],
    ]);
  });
});

describe("gate --jobs", () => {
  test("one thread and two give the same verdicts for a refused stream", async () => {
    const tools = join(folder, `tools-${++files}.json`);
    writeFileSync(tools, '[{"type":"function","name":"set_level","parameters":{"type":"object","properties":{"level":{"type":"number","maximum":0.1}}}}]');
    const path = join(folder, `stream-${++files}.txt`);
    writeFileSync(path, sse(geminiChunk(geminiCall('{"level":0.1000000000000000055}'), "r1", "STOP"), geminiChunk(geminiCall('{"level":0.1}'), "r2", "STOP")).join("\n") + "\n");
    const one = await runOrbridge(["gate", "--tools", tools, "--format", "json", "--jobs", "1", path]);
    const two = await runOrbridge(["gate", "--tools", tools, "--format", "json", "--jobs", "2", path]);
    expect(two).toEqual(one);
    expect(one.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { line: number; reason: string })).toEqual([
      { line: 1, index: 0, reason: "error", detail: refusedFrom(1, "0.1000000000000000055").detail, blocked: true, findings: [] },
      { line: 3, index: 0, type: "function_call", call_id: expect.any(String), name: "set_level", reason: "ok", detail: "completed call with arguments valid for its schema", blocked: false, findings: [] },
    ]);
  });
});

describe("the literals of a stream's responses", () => {
  test("each response of a stream carries the literals of its own lines, however many lines it took", async () => {
    const { StreamRecords } = await import("../../src/journal/stream-records.js");
    const reader = new StreamRecords();
    const lines = sse(
      geminiChunk(geminiCall('{"level":0.1000000000000000055}')),
      geminiChunk(geminiCall('{"level":12345678901234567890}')),
      geminiChunk('{"text":""}', "r1", "STOP"),
      geminiChunk(geminiCall('{"level":0.2000000000000000111}'), "r2"),
      geminiChunk(geminiCall('{"level":98765432109876543210}'), "r2"),
      geminiChunk('{"text":""}', "r2", "STOP"),
    );
    const records = [...lines.flatMap((text, index) => reader.push({ source: "-", line: index + 1, text })), ...reader.finish()];
    const literals = records.map((record) => (record.kind === "response" ? [...(record.inexact ?? new Map<string, string>()).values()] : record.kind));
    expect(literals).toEqual([
      ["0.1000000000000000055", "12345678901234567890"],
      ["0.2000000000000000111", "98765432109876543210"],
    ]);
  });
});
