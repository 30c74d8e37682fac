// A journal written by another language keeps its numbers through convert and
// normalize: Python writes 0.0 for a float zero, and ids may be integers a
// double cannot hold.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const body =
  '{"model": "gpt-4o-mini", "temperature": 0.0, "messages": [{"role": "user", "content": "Count the crates."}], "tools": [{"type": "function", "function": {"name": "count", "parameters": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 9007199254740993}}}}}], "metadata": {"batch": "7"}}';
const call =
  '{"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "count", "arguments": "{\\"n\\": 12345678901234567890}"}}]}';

describe("numbers as the journal wrote them", { timeout: 30_000 }, () => {
  test("convert --to responses and back keeps 0.0 and an integer beyond 2^53, with no loss", async () => {
    const there = await runOrbridge(["convert", "--to", "responses"], `${body}\n${call}\n`);
    expect(there.stdout.split("\n")[0]).toBe(
      '{"model":"gpt-4o-mini","temperature":0.0,"input":[{"type":"message","role":"user","content":"Count the crates."}],"tools":[{"type":"function","name":"count","parameters":{"type":"object","properties":{"n":{"type":"integer","maximum":9007199254740993}}}}],"metadata":{"batch":"7"}}',
    );
    expect(there.stderr).toBe("read 2 lines: 2 records, 0 errors; 0 losses\n");
    const back = await runOrbridge(["convert", "--to", "chat"], there.stdout);
    expect(back.stdout).toBe(`${JSON.stringify(JSON.parse(body)).replace('"temperature":0', '"temperature":0.0').replace('"maximum":9007199254740992', '"maximum":9007199254740993')}\n${JSON.stringify(JSON.parse(call))}\n`);
  });

  test("a line that writes one number two ways at one place is written as its double writes it, and the report says so", async () => {
    const folder = scratchFolder("number-texts");
    const report = join(folder, "report.jsonl");
    const tool = (name: string, maximum: string) => `{"type":"function","function":{"name":"${name}","parameters":{"type":"object","properties":{"n":{"type":"number","maximum":${maximum}}}}}}`;
    const result = await runOrbridge(["convert", "--to", "responses", "--report", report], `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[${tool("a", "1.0")},${tool("b", "1")}]}\n`);
    const responsesTool = (name: string) => `{"type":"function","name":"${name}","parameters":{"type":"object","properties":{"n":{"type":"number","maximum":1}}}}`;
    expect(result.stdout).toBe(`{"model":"m","input":[{"type":"message","role":"user","content":"hi"}],"tools":[${responsesTool("a")},${responsesTool("b")}]}\n`);
    expect(readFileSync(report, "utf8")).toBe('{"line":1,"path":"/tools/0/function/parameters/properties/n/maximum","code":"form_changed","detail":"the line writes the number 1 as 1.0 and as 1: each is written 1"}\n');
    expect(result.stderr).toBe("read 1 line: 1 record, 0 errors; 1 loss\n");
  });

  test("a line that writes one number two ways at two places keeps each at its place", async () => {
    const result = await runOrbridge(["convert", "--to", "responses"], '{"model":"m","temperature":1.0,"top_p":1,"messages":[{"role":"user","content":"hi"}]}\n');
    expect(result.stdout).toBe('{"model":"m","temperature":1.0,"top_p":1,"input":[{"type":"message","role":"user","content":"hi"}]}\n');
    expect(result.stderr).toBe("read 1 line: 1 record, 0 errors; 0 losses\n");
  });

  test("normalize writes a stored response's numbers as they were", async () => {
    const item = '{"type":"function_call","call_id":"call_2","name":"count","arguments":"{}","status":"completed","acme:score":1.50,"acme:trace":98765432109876543210}';
    const result = await runOrbridge(["normalize"], `${item}\n`);
    expect(result.stdout).toBe(`${item}\n`);
  });
});
