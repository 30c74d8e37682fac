// restore-ids rewrites a line in its own text: only the restored id strings
// change, whatever the depth, the spacing, the escapes or the numbers of the
// line; an id inside a call's arguments or a result's content is the tool's
// data and stays as it is.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("restore-ids-in-place");
const file = (name: string, text: string) => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};
const map = file("ids.jsonl", `${JSON.stringify({ original: "call.1", rewritten: "call_1" })}\n${JSON.stringify({ original: "call.2", rewritten: "call_2" })}\n`);
const restore = (lines: readonly string[]) => runOrbridge(["restore-ids", "--map", map, file(`in-${Math.random().toString(36).slice(2)}.jsonl`, `${lines.join("\n")}\n`)]);

describe("restore-ids in the line's own text", { timeout: 30_000 }, () => {
  test("a rewritten id 100,000 levels deep is restored, and nothing else of the line changes", async () => {
    const depth = 100_000;
    const line = `{"wrapped":${"[".repeat(depth)}{"role":"tool","tool_call_id":"call_1","content":"ok"}${"]".repeat(depth)}}`;
    expect(await restore([line])).toEqual({ code: 0, stdout: `${line.replace('"call_1"', '"call.1"')}\n`, stderr: "read 1 lines: 1 ids restored, 0 call ids not in the map, 0 errors\n" });
  });

  test("spacing, member order, escapes and numbers wider than a double are kept byte for byte", async () => {
    const line = '{ "role" : "tool",  "content":"caf\\u00e9 \\/ 1.0", "seq": 12345678901234567890, "ratio": 1.0, "tool_call_id" : "call_1" }';
    expect(await restore([line])).toEqual({
      code: 0,
      stdout: '{ "role" : "tool",  "content":"caf\\u00e9 \\/ 1.0", "seq": 12345678901234567890, "ratio": 1.0, "tool_call_id" : "call.1" }\n',
      stderr: "read 1 lines: 1 ids restored, 0 call ids not in the map, 0 errors\n",
    });
  });

  test("an id written with escapes is matched by its value and written plainly", async () => {
    expect(await restore(['{"type":"function_call_output","call_id":"call\\u005f2","output":"done"}'])).toEqual({
      code: 0,
      stdout: '{"type":"function_call_output","call_id":"call.2","output":"done"}\n',
      stderr: "read 1 lines: 1 ids restored, 0 call ids not in the map, 0 errors\n",
    });
  });

  test("ids inside arguments, args, input and results are the tool's data and kept", async () => {
    const lines = [
      JSON.stringify({ role: "assistant", content: "", tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: { call_id: "call_2" } } }] }),
      JSON.stringify({ role: "model", parts: [{ functionCall: { id: "call_1", name: "lookup", args: { tool_call_id: "call_2", nested: { id: "call_2" } } } }] }),
      JSON.stringify({ role: "assistant", content: [{ type: "tool_use", id: "call_2", name: "lookup", input: { tool_use_id: "call_1" } }] }),
      JSON.stringify({ role: "user", content: [{ type: "tool_result", tool_use_id: "call_2", content: [{ type: "text", text: "x" }, { type: "json", call_id: "call_1" }] }] }),
      JSON.stringify({ role: "user", parts: [{ functionResponse: { id: "call_1", name: "lookup", response: { call_id: "call_2" } } }] }),
      JSON.stringify({ type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "y", call_id: "call_2" }] }),
      JSON.stringify({ role: "assistant", content: [{ toolUse: { toolUseId: "call_1", name: "lookup", input: { toolUseId: "call_2" } } }] }),
    ];
    const restored = lines.map((line) => line.replace(/"(id|tool_use_id|call_id|toolUseId)":"call_(\d)"/, '"$1":"call.$2"'));
    expect(await restore(lines)).toEqual({ code: 0, stdout: `${restored.join("\n")}\n`, stderr: "read 7 lines: 7 ids restored, 0 call ids not in the map, 0 errors\n" });
  });

  test("a record inside a wrapper and a stream's events are restored where their calls are", async () => {
    const lines = [
      JSON.stringify({ id: "call_1", record: { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", arguments: "{}" } }),
      'data: {"type":"response.output_item.added","item":{"type":"function_call","id":"fc_2","call_id":"call_2","name":"f","arguments":""}}',
      "event: content_block_start",
      'data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"call_1","name":"f","input":{}}}',
      'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_2","type":"function","function":{"name":"f","arguments":""}}]}}]}',
      "data: [DONE]",
    ];
    expect(await restore(lines)).toEqual({
      code: 0,
      stdout: [
        JSON.stringify({ id: "call_1", record: { type: "function_call", id: "fc_1", call_id: "call.1", name: "f", arguments: "{}" } }),
        'data: {"type":"response.output_item.added","item":{"type":"function_call","id":"fc_2","call_id":"call.2","name":"f","arguments":""}}',
        "event: content_block_start",
        'data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"call.1","name":"f","input":{}}}',
        'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call.2","type":"function","function":{"name":"f","arguments":""}}]}}]}',
        "data: [DONE]",
        "",
      ].join("\n"),
      stderr: "read 6 lines: 4 ids restored, 0 call ids not in the map, 0 errors\n",
    });
  });
});
