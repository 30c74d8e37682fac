// A stream already in the target's envelope is written through as it came. When
// one of its lines cannot be read, the gate finds the stream damaged and blocks
// its calls; written without that line, the stream would read as whole and its
// calls as finished. So a mark that is not JSON stands in the line's place.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("convert-damaged-stream");
const tools = join(folder, "tools.json");
writeFileSync(tools, JSON.stringify([{ type: "function", name: "t1", parameters: { type: "object", additionalProperties: false, required: ["region"], properties: { region: { type: "string", enum: ["apac"] } } } }]));

const chunk = (delta: unknown, finish: string | null = null) => JSON.stringify({ id: "chatcmpl-8", object: "chat.completion.chunk", created: 1744000000, model: "gpt-4o", choices: [{ index: 0, delta, finish_reason: finish }] });
const opening = chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "t1", arguments: "" } }] });
const args = chunk({ tool_calls: [{ index: 0, function: { arguments: '{"region":"apac"}' } }] });
const finish = chunk({}, "tool_calls");

async function gateReasons(path: string): Promise<string[]> {
  const run = await runOrbridge(["gate", "--tools", tools, "--format", "json", path]);
  return run.stdout.trim().split("\n").map((line) => (JSON.parse(line) as { reason: string }).reason);
}

describe.each([
  ["a line cut short", '{"id":"chatcmpl-8","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"}'],
  ["a line that names a member twice", args.replace('"finish_reason":null', '"finish_reason":null,"finish_reason":null')],
])("Chat chunks to chat, %s inside the stream", (_name, damaged) => {
  test("the call stays blocked after convert, the line is reported, and its place holds a line that is not JSON", async () => {
    const input = join(folder, `in-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(input, [opening, args, damaged, finish].join("\n") + "\n");
    expect(await gateReasons(input)).toEqual(["error", "status"]);
    const output = `${input}.out`;
    const run = await runOrbridge(["convert", "--to", "chat", "--out", output, input]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/line 3: /);
    const lines = readFileSync(output, "utf8").trimEnd().split("\n");
    expect(lines.length).toBe(4);
    expect([lines[0], lines[1], lines[3]]).toEqual([opening, args, finish]);
    expect(lines[2]).toMatch(/^orbridge: line 3 of the input could not be read, and this stream is not whole without it \(/);
    expect(await gateReasons(output)).toEqual(["error", "status"]);
  });
});

test("an unreadable line just before a stream may have been its first: the mark goes after the stream's first record, inside it", async () => {
  const input = join(folder, "first.jsonl");
  writeFileSync(input, ['{"id":"chatcmpl-8","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assist', args, finish].join("\n") + "\n");
  const output = `${input}.out`;
  const run = await runOrbridge(["convert", "--to", "chat", "--out", output, input]);
  expect(run.code).toBe(1);
  const lines = readFileSync(output, "utf8").trimEnd().split("\n");
  expect([lines.length, lines[0], lines[2]]).toEqual([3, args, finish]);
  expect(lines[1]).toMatch(/^orbridge: line 1 of the input could not be read/);
});

test("an unreadable line outside any stream leaves no mark", async () => {
  const input = join(folder, "loose.jsonl");
  writeFileSync(input, ['{"role":"user","content":"hi"}', "{not json", '{"role":"assistant","content":"hello"}'].join("\n") + "\n");
  const output = `${input}.out`;
  const run = await runOrbridge(["convert", "--to", "chat", "--out", output, input]);
  expect(run.code).toBe(1);
  expect(readFileSync(output, "utf8")).toBe('{"role":"user","content":"hi"}\n{"role":"assistant","content":"hello"}\n');
});

describe("an error the API sent in a stream written through, which is read and not converted", () => {
  const anthropicTools = join(folder, "anthropic-tools.json");
  writeFileSync(anthropicTools, JSON.stringify([{ name: "t1", input_schema: { type: "object", additionalProperties: false, required: ["region"], properties: { region: { type: "string", enum: ["apac"] } } } }]));
  const anthropicStream = [
    { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-20250514", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } },
    { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "t1", input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"region":"apac"}' } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: "message_stop" },
  ].map((event) => JSON.stringify(event));
  const overloaded = JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
  const serverError = JSON.stringify({ error: { message: "boom", type: "server_error" } });

  test.each([
    ["a Chat error object between the chunks", "chat", [opening, args, serverError, finish], 3, tools],
    ["a Chat error object after the finish", "chat", [opening, args, finish, serverError], 4, tools],
    ["an Anthropic error event after message_stop", "anthropic", [...anthropicStream, overloaded], 7, anthropicTools],
    ["an Anthropic error event before message_delta", "anthropic", [...anthropicStream.slice(0, 4), overloaded, ...anthropicStream.slice(4)], 5, anthropicTools],
  ])("%s: its place holds a mark, and the call stays blocked", async (_name, target, lines, errorLine, toolsFile) => {
    const input = join(folder, `sent-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(input, lines.join("\n") + "\n");
    const reasons = async (path: string) => (await runOrbridge(["gate", "--tools", toolsFile, "--format", "json", path])).stdout.trim().split("\n").map((line) => (JSON.parse(line) as { reason: string }).reason);
    expect(await reasons(input)).not.toContain("ok");
    const output = `${input}.out`;
    const run = await runOrbridge(["convert", "--to", target, "--out", output, input]);
    expect(run.code).toBe(1);
    const written = readFileSync(output, "utf8").trimEnd().split("\n");
    expect(written.filter((line) => line.startsWith("{"))).toEqual(lines.filter((line) => line !== serverError && line !== overloaded));
    expect(written[errorLine - 1]).toMatch(new RegExp(`^orbridge: line ${errorLine} of the input was not converted, and this stream is not whole without it \\(`));
    expect(await reasons(output)).not.toContain("ok");
  });
});
