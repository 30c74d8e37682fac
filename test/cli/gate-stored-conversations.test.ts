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

  test("a completion that gives again the call_id of an earlier completion's call: the later call is a duplicate, as when the page was one conversation", async () => {
    const twice = file("twice.json", page(completion("chatcmpl-1", 1767225600, call("call_p1")), completion("chatcmpl-2", 1767225601, call("call_p1"))));
    const expected = {
      code: 1,
      stdout: [
        ok(1, "call_p1"),
        'line 2  function_call call_p1  BLOCKED duplicate_call_id: the call_id "call_p1" was already used by the call of line 1, in another conversation of the stored log: a replayer of this one would run a call that one gave',
        "    verdict ok: completed call with arguments valid for its schema",
        "",
      ].join("\n"),
    };
    expect(await gated(twice, "--jobs", "1")).toEqual(expected);
    expect(await gated(twice, "--jobs", "2")).toEqual(expected);
  });

  test("with --conversation, a stored log's completions still share their call_ids", async () => {
    const twice = file("twice-keyed.json", page(completion("chatcmpl-1", 1767225600, call("call_p1")), completion("chatcmpl-2", 1767225601, call("call_p1"))));
    const { code, stdout } = await gated(twice, "--conversation", "/conversation_id", "--format", "json");
    expect({ code, verdicts: stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>).map(({ conversation, line, reason, findings }) => ({ conversation, line, reason, findings })) }).toEqual({
      code: 1,
      verdicts: [
        { conversation: "chatcmpl-1", line: 1, reason: "ok", findings: [] },
        {
          conversation: "chatcmpl-2",
          line: 2,
          reason: "ok",
          findings: [{ code: "duplicate_call_id", detail: 'the call_id "call_p1" was already used by the call of line 1, in another conversation of the stored log: a replayer of this one would run a call that one gave', path: "/call_id", related_line: 1 }],
        },
      ],
    });
  });

  test("two completions whose legacy calls come without id: the call_ids made for them are no record's, and neither call is a duplicate", async () => {
    const legacy = { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Paris"}' } };
    const idless = file("legacy.json", page(completion("chatcmpl-1", 1767225600, legacy), completion("chatcmpl-2", 1767225601, legacy)));
    expect(await gated(idless)).toEqual({ code: 0, stdout: [ok(1, "legacy_1_get_weather"), ok(2, "legacy_1_get_weather"), ""].join("\n") });
  });
});

/** Two OTLP traces of one chat span each: the first calls get_weather as call_p1, the second is sent `input` and answers `output`. */
function twoTraces(input: unknown[], output: unknown[]): string {
  const first = JSON.parse(chatSpanExport({ input: [{ role: "user", parts: [{ type: "text", content: "Weather in Paris?" }] }], output: [{ role: "assistant", parts: [{ type: "tool_call", id: "call_p1", name: "get_weather", arguments: { city: "Paris" } }], finish_reason: "tool_call" }] }));
  const span = JSON.parse(chatSpanExport({ input, output })).resourceSpans[0].scopeSpans[0].spans[0];
  span.spanId = "c1a2b3c4d5e6f708";
  span.startTimeUnixNano = "1765964261555000000";
  span.traceId = "0a1b2c3d4e5f60718293a4b5c6d7e8f9";
  first.resourceSpans[0].scopeSpans[0].spans.push(span);
  return JSON.stringify(first);
}

describe("gate: an OTLP export of two traces that give one call_id", { timeout: 30_000 }, () => {
  const question = { role: "user", parts: [{ type: "text", content: "Weather in Paris?" }] };
  const callP1 = { role: "assistant", parts: [{ type: "tool_call", id: "call_p1", name: "get_weather", arguments: { city: "Paris" } }], finish_reason: "tool_call" };

  test("the second trace's answer calls call_p1 again: its call is a duplicate of the first trace's", async () => {
    expect(await gated(file("call-again.json", twoTraces([question], [callP1])))).toEqual({
      code: 1,
      stdout: [
        pass(1),
        ok(2, "call_p1"),
        pass(3),
        'line 4  function_call call_p1  BLOCKED duplicate_call_id: the call_id "call_p1" was already used by the call of line 2, in another conversation of the stored log: a replayer of this one would run a call that one gave',
        "    verdict ok: completed call with arguments valid for its schema",
        "",
      ].join("\n"),
    });
  });

  test("the second trace's history sends call_p1 again with its result: the call is still blocked, and its result with it", async () => {
    const result = { role: "tool", parts: [{ type: "tool_call_response", id: "call_p1", response: "Sunny" }] };
    const answer = { role: "assistant", parts: [{ type: "text", content: "Sunny." }], finish_reason: "stop" };
    expect(await gated(file("history-again.json", twoTraces([question, callP1, result], [answer])))).toEqual({
      code: 1,
      stdout: [
        pass(1),
        ok(2, "call_p1"),
        pass(3),
        'line 4  function_call call_p1  BLOCKED duplicate_call_id: the call_id "call_p1" was already used by the call of line 2, in another conversation of the stored log: a replayer of this one would run a call that one gave',
        "    verdict ok: completed call with arguments valid for its schema",
        'line 5  function_call_output call_p1  BLOCKED output_for_blocked_call: its call "call_p1" on line 4 is blocked (duplicate_call_id of another conversation): only a completed, valid call may get an output',
        '    verdict not_function_call: "function_call_output" is not a function_call',
        pass(6),
        "",
      ].join("\n"),
    });
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

describe("gate: a page of stored completions with a JSONL stream of Chat chunks", { timeout: 30_000 }, () => {
  const listing = file("one-completion.json", page(completion("chatcmpl-1", 1767225600, call("call_p1"))));
  const chunk = (delta: Record<string, unknown>, finish: string | null) => JSON.stringify({ id: "chatcmpl-s", object: "chat.completion.chunk", created: 1767225602, model: "gpt-4o-mini", choices: [{ index: 0, delta, finish_reason: finish }] });
  // The call_id is written on the first chunk; the stream ends, and its call is given, on the third.
  const stream = file(
    "stream.jsonl",
    [
      chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_p1", type: "function", function: { name: "get_weather", arguments: "" } }] }, null),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] }, null),
      chunk({}, "tool_calls"),
      "",
    ].join("\n"),
  );
  const duplicate = (at: string, first: string) => [
    `${at}  function_call call_p1  BLOCKED duplicate_call_id: the call_id "call_p1" was already used by the call of ${first}, in another conversation of the stored log: a replayer of this one would run a call that one gave`,
    "    verdict ok: completed call with arguments valid for its schema",
  ];
  const okAt = (at: string) => `${at}  function_call call_p1  pass ok: completed call with arguments valid for its schema`;

  test("the stream, after the page, gives again the call_id of a stored completion's call on a line that does not write it: its call is a duplicate", async () => {
    expect(await gated(stream, listing)).toEqual({ code: 1, stdout: [okAt(`${listing}:1`), ...duplicate(`${stream}:3`, `line 1 of ${listing}`), ""].join("\n") });
  });

  test("the stream before the page: one of the two calls is a duplicate", async () => {
    expect(await gated(listing, stream)).toEqual({ code: 1, stdout: [...duplicate(`${stream}:3`, `line 1 of ${listing}`), okAt(`${listing}:1`), ""].join("\n") });
  });
});
