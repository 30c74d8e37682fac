// A stored log holds conversations (a trace each, a stored completion each):
// the gate judges each apart, as --conversation judges a journal's, so that a
// call whose conversation ends before its output is not owed one by the next
// conversation's answer. One conversation stays one.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { chatSpanExport } from "../support/otlp-export.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("gate-stored-conversations");
const file = (name: string, text: string) => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};
const tools = file("tools.json", JSON.stringify([{ type: "function", function: { name: "get_weather", parameters: { type: "object", required: ["city"], properties: { city: { type: "string" } } } } }]));
const call = (id: string) => ({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] });
const completion = (id: string, created: number, message: Record<string, unknown>) => ({ id, object: "chat.completion", created, model: "gpt-4o-mini", choices: [{ index: 0, message, finish_reason: "tool_calls" in message ? "tool_calls" : "stop" }] });
const page = (...data: unknown[]) => JSON.stringify({ object: "list", data, first_id: "a", last_id: "b", has_more: false });
const pass = (line: number) => `line ${line}  message -  pass not_function_call: "message" is not a function_call`;
const ok = (line: number, callId: string) => `line ${line}  function_call ${callId}  pass ok: completed call with arguments valid for its schema`;
const gated = async (path: string, ...options: string[]) => {
  const { code, stdout } = await runOrbridge(["gate", "--tools", tools, ...options, path]);
  return { code, stdout };
};

/** Two OTLP chat spans, in one trace or in two: the first calls a tool, the second is asked something else and answers. */
function twoSpans(sameTrace: boolean): string {
  const first = JSON.parse(chatSpanExport({ input: [{ role: "user", parts: [{ type: "text", content: "Weather in Paris?" }] }], output: [{ role: "assistant", parts: [{ type: "tool_call", id: "call_p1", name: "get_weather", arguments: { city: "Paris" } }], finish_reason: "tool_call" }] }));
  const second = JSON.parse(chatSpanExport({ input: [{ role: "user", parts: [{ type: "text", content: "Say hello." }] }], output: [{ role: "assistant", parts: [{ type: "text", content: "Hello." }], finish_reason: "stop" }] }));
  const span = second.resourceSpans[0].scopeSpans[0].spans[0];
  span.spanId = "c1a2b3c4d5e6f708";
  span.startTimeUnixNano = "1765964261555000000";
  if (!sameTrace) span.traceId = "0a1b2c3d4e5f60718293a4b5c6d7e8f9";
  first.resourceSpans[0].scopeSpans[0].spans.push(span);
  return JSON.stringify(first);
}

describe("gate: a page of stored completions", { timeout: 30_000 }, () => {
  const listing = file("completions.json", page(completion("chatcmpl-1", 1767225600, call("call_p1")), completion("chatcmpl-2", 1767225601, { role: "assistant", content: "Hello." })));

  test("a completion whose call got no output, then another completion: each is a conversation of its own, in one thread as in two", async () => {
    const expected = { code: 0, stdout: [ok(1, "call_p1"), pass(2), ""].join("\n") };
    expect(await gated(listing, "--jobs", "1")).toEqual(expected);
    expect(await gated(listing, "--jobs", "2")).toEqual(expected);
  });

  test("two completions that give one call_id are judged as --conversation judges two conversations that do", async () => {
    const twice = file("twice.json", page(completion("chatcmpl-1", 1767225600, call("call_p1")), completion("chatcmpl-2", 1767225601, call("call_p1"))));
    const asConversations = await runOrbridge(["gate", "--tools", tools, "--conversation", "/k", "-"], [{ ...completion("chatcmpl-1", 1, call("call_p1")), k: 1 }, { ...completion("chatcmpl-2", 2, call("call_p1")), k: 2 }].map((record) => JSON.stringify(record) + "\n").join(""));
    const stored = await gated(twice);
    expect(stored).toEqual({ code: 0, stdout: [ok(1, "call_p1"), ok(2, "call_p1"), ""].join("\n") });
    expect(asConversations.code).toBe(stored.code);
  });
});

describe("gate: an OTLP export of two chat spans", { timeout: 30_000 }, () => {
  test("in two traces: the second trace's question is no turn after the first trace's call", async () => {
    expect(await gated(file("two-traces.json", twoSpans(false)))).toEqual({ code: 0, stdout: [pass(1), ok(2, "call_p1"), pass(3), pass(4), ""].join("\n") });
  });

  test("in one trace: the call is still owed its output before the next question", async () => {
    expect(await gated(file("one-trace.json", twoSpans(true)))).toEqual({
      code: 1,
      stdout: [
        pass(1),
        ok(2, "call_p1"),
        'line 3  message -  BLOCKED missing_output: the call "call_p1" (get_weather) on line 2 has no function_call_output before this user message',
        '    verdict not_function_call: "message" is not a function_call',
        pass(4),
        "",
      ].join("\n"),
    });
  });
});
