// Loose records wait in a run until a user turn, so that the records of a turn
// fold together. A turn of thousands of records is written in pieces, where the
// pieces fold as one run would; one with no such place is cut at a bound, and
// the cut is reported.
import { describe, expect, test } from "vitest";
import { chat } from "../../adapters/chat-completions/index.js";
import type { CanonicalItem } from "../../src/models/open-responses.js";
import type { ChatMessage } from "../../src/models/chat-completions.js";
import { RUN_HARD_LIMIT, RUN_SOFT_LIMIT } from "../../src/cli/run-bound.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const lines = (records: readonly unknown[]) => records.map((record) => JSON.stringify(record) + "\n").join("");
const parse = (text: string) => text.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);

const call = (i: number) => ({ type: "function_call", id: `fc_${i}`, call_id: `call_${i}`, name: "weather", arguments: JSON.stringify({ city: `c${i}` }), status: "completed" });
const output = (i: number) => ({ type: "function_call_output", call_id: `call_${i}`, output: `sunny ${i}` });

/** An agent's turn: `calls` calls, each answered, with reasoning before some and text after others. */
function answeredItems(calls: number): unknown[] {
  const items: unknown[] = [{ type: "message", role: "user", content: "plan the trip" }];
  for (let i = 0; i < calls; i++) {
    if (i % 3 === 0) items.push({ type: "reasoning", id: `rs_${i}`, summary: [{ type: "summary_text", text: `step ${i}` }] });
    // Two calls answered together now and then: a message of two calls, two outputs after it.
    if (i % 5 === 0 && i + 1 < calls) {
      items.push(call(i), call(i + 1), output(i + 1), output(i));
      i += 1;
    } else items.push(call(i), output(i));
    if (i % 7 === 0) items.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: `noted ${i}` }] });
  }
  return items;
}

describe("convert: a turn of more records than a run holds", { timeout: 30_000 }, () => {
  test("calls answered only when the run reaches the bound: written where they fold alike, and nothing reported", async () => {
    const half = RUN_HARD_LIMIT / 2;
    const items = [...Array.from({ length: half }, (_, i) => call(i)), ...Array.from({ length: half }, (_, i) => output(i)), call(half), output(half)];
    const report = join(scratchFolder("long-runs"), "report.jsonl");
    const result = await runOrbridge(["convert", "--to", "chat", "--report", report], lines(items));
    expect(result.code).toBe(0);
    expect(parse(result.stdout).map((message) => [message.role, Array.isArray(message.tool_calls) ? message.tool_calls.length : 0])).toEqual([
      ["assistant", half],
      ...Array.from({ length: half }, () => ["tool", 0]),
      ["assistant", 1],
      ["tool", 0],
    ]);
    expect(readFileSync(report, "utf8")).not.toMatch(/written apart/);
  });

  test("items whose calls are all answered: written in pieces that give the messages one run gives, and nothing reported", async () => {
    const items = answeredItems(3 * RUN_SOFT_LIMIT);
    expect(items.length).toBeGreaterThan(2 * RUN_SOFT_LIMIT);
    const result = await runOrbridge(["convert", "--to", "chat"], lines(items));
    expect(result.code).toBe(0);
    const whole = chat.messages.fromItems({ items: items as CanonicalItem[] });
    expect(parse(result.stdout)).toEqual(JSON.parse(JSON.stringify(whole.value)));
    expect(result.stderr).not.toMatch(/written apart/);
  });

  test("Chat messages whose calls are all answered: written in pieces that give the items one run gives", async () => {
    const messages: unknown[] = [{ role: "user", content: "plan the trip" }];
    for (let i = 0; i < RUN_SOFT_LIMIT; i++) {
      messages.push({ role: "assistant", content: null, tool_calls: [0, 1].map((k) => ({ id: `call_${i}_${k}`, type: "function", function: { name: "weather", arguments: `{"city":"c${i}${k}"}` } })) });
      messages.push({ role: "tool", tool_call_id: `call_${i}_1`, content: "rain" }, { role: "tool", tool_call_id: `call_${i}_0`, content: "sun" });
    }
    const result = await runOrbridge(["convert", "--to", "responses"], lines(messages));
    expect(result.code).toBe(0);
    const whole = chat.messages.toItems({ messages: messages as ChatMessage[] });
    expect(parse(result.stdout)).toEqual(JSON.parse(JSON.stringify(whole.value)));
  });

  test("calls that never get an output: cut at the bound into two assistant messages, and the cut reported on the line it comes before", async () => {
    const calls = RUN_HARD_LIMIT + 5;
    const items = [{ type: "message", role: "user", content: "go" }, ...Array.from({ length: calls }, (_, i) => call(i))];
    const report = join(scratchFolder("long-runs"), "report.jsonl");
    const result = await runOrbridge(["convert", "--to", "chat", "--report", report], lines(items));
    expect(result.code).toBe(0);
    const messages = parse(result.stdout);
    expect(messages.map((message) => [message.role, Array.isArray(message.tool_calls) ? message.tool_calls.length : 0])).toEqual([
      ["user", 0],
      ["assistant", RUN_HARD_LIMIT - 1],
      ["assistant", calls - RUN_HARD_LIMIT + 1],
    ]);
    const cuts = parse(readFileSync(report, "utf8")).filter((record) => record.code === "form_changed" && /written apart/.test(String(record.detail)));
    // The run holds the user message and the calls after it: the cut comes before line RUN_HARD_LIMIT + 1.
    expect(cuts).toEqual([expect.objectContaining({ line: RUN_HARD_LIMIT + 1, path: "" })]);
    expect(String(cuts[0]!.detail)).toMatch(new RegExp(`^the ${RUN_HARD_LIMIT} records from line 1 hold no user turn past their first record, and no place where each call so far had its output`));
  });
});
