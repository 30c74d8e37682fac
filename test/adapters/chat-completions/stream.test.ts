import { describe, expect, test } from "vitest";
import { ChatStreamAssembler } from "../../../adapters/chat-completions/stream.js";
import { replayGate } from "../../../src/gate/replay-gate.js";
import type { AssembledResponse } from "../../../src/models/assembled-response.js";

const ID = "chatcmpl-Bq7TnX2kLm9Pw4Rs";
const lookupSchema = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false };

/** A chunk with one choice at index 0, shaped like the recorded ones. */
function chunk(delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}) {
  return { id: ID, object: "chat.completion.chunk", created: 1754693439, model: "gpt-4o-2024-08-06", choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...extra };
}
const role = () => chunk({ role: "assistant", content: null });
const fragment = (call: Record<string, unknown>) => chunk({ tool_calls: [call] });
const finish = (reason: string) => chunk({}, reason);
const usage = () => ({ id: ID, object: "chat.completion.chunk", created: 1754693439, model: "gpt-4o-2024-08-06", choices: [], usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 } });
const call = (callId: string, name: string, args: string, status: string) => ({ type: "function_call", call_id: callId, name, arguments: args, status });

/** Pushes chunks numbered from 1; returns what push and finish gave, in order. */
function run(chunks: unknown[]): AssembledResponse[] {
  const assembler = new ChatStreamAssembler();
  const out = chunks.flatMap((record, i) => assembler.push(record, i + 1));
  return [...out, ...assembler.finish()];
}

describe("text and refusal deltas", () => {
  test("text fragments become one assistant message, its text a string as the non-streamed message has it", () => {
    expect(run([chunk({ role: "assistant", content: "" }), chunk({ content: "Lyon" }), chunk({ content: " it is." }), finish("stop"), usage()])).toEqual([
      { id: ID, status: "completed", items: [{ type: "message", role: "assistant", content: "Lyon it is." }], losses: [], line: 1, lastLine: 5 },
    ]);
  });

  test("refusal fragments become a refusal part", () => {
    const chunks = [chunk({ role: "assistant", content: null, refusal: "" }), chunk({ refusal: "Not" }), chunk({ refusal: " that one." }), finish("stop")];
    expect(run(chunks)).toEqual([
      { id: ID, status: "completed", items: [{ type: "message", role: "assistant", content: [{ type: "refusal", refusal: "Not that one." }] }], losses: [], line: 1, lastLine: 4 },
    ]);
  });

  test("a refusal beside text: both parts, and the loss points at the chunk that carried the refusal", () => {
    const [result] = run([chunk({ role: "assistant", content: "Partly" }), chunk({ refusal: "No more." }), finish("stop")]);
    expect(result.items).toEqual([{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Partly", annotations: [] }, { type: "refusal", refusal: "No more." }] }]);
    expect(result.losses).toEqual([{ line: 2, path: "/choices/0/delta/refusal", code: "form_changed", detail: "a refusal beside text becomes a refusal part next to the text parts" }]);
  });

  test("reasoning_content is reported once with its chunks and lines, never merged into the text", () => {
    const [result] = run([
      chunk({ role: "assistant", content: null, reasoning_content: "" }),
      chunk({ content: null, reasoning_content: "Think" }),
      chunk({ content: null, reasoning_content: " twice." }),
      chunk({ content: "Done." }),
      chunk({ content: "", reasoning_content: null }, "stop"),
    ]);
    expect(result.items).toEqual([{ type: "message", role: "assistant", content: "Done." }]);
    expect(result.losses).toEqual([
      { line: 2, path: "/choices/0/delta/reasoning_content", code: "provider_extension", detail: "reasoning_content (2 chunks, lines 2–3) is a provider field neither envelope carries; it is not merged into the text" },
    ]);
  });

  test("text next to tool calls is kept: a message item, then the calls, with no item id invented", () => {
    const [result] = run([
      chunk({ role: "assistant", content: "Looking it up." }),
      fragment({ index: 0, id: "call_Lk2", type: "function", function: { name: "lookup_city", arguments: "{\"city\":\"Lyon\"}" } }),
      finish("tool_calls"),
    ]);
    expect(result.items).toEqual([
      { type: "message", role: "assistant", content: "Looking it up." },
      call("call_Lk2", "lookup_city", "{\"city\":\"Lyon\"}", "completed"),
    ]);
  });
});

describe("tool call fragments", () => {
  test("id, type and name come on the first fragment; arguments are appended", () => {
    const [result] = run([
      role(),
      fragment({ index: 0, id: "call_Lk2", type: "function", function: { name: "lookup_city", arguments: "" } }),
      fragment({ index: 0, function: { arguments: "{\"ci" } }),
      fragment({ index: 0, function: { arguments: "ty\": \"Ly" } }),
      fragment({ index: 0, function: { arguments: "on\"}" } }),
      finish("tool_calls"),
    ]);
    expect(result).toEqual({ id: ID, status: "completed", items: [call("call_Lk2", "lookup_city", "{\"city\": \"Lyon\"}", "completed")], losses: [], line: 1, lastLine: 6 });
  });

  test("parallel calls stream one after another and keep their order", () => {
    const [result] = run([
      role(),
      fragment({ index: 0, id: "call_A1", type: "function", function: { name: "lookup_city", arguments: "{\"city\":" } }),
      fragment({ index: 0, function: { arguments: "\"Lyon\"}" } }),
      fragment({ index: 1, id: "call_B2", type: "function", function: { name: "lookup_city", arguments: "{\"city\":\"Nantes\"}" } }),
      finish("tool_calls"),
    ]);
    expect(result.items).toEqual([call("call_A1", "lookup_city", "{\"city\":\"Lyon\"}", "completed"), call("call_B2", "lookup_city", "{\"city\":\"Nantes\"}", "completed")]);
  });

  test("interleaved fragments go to the call their index names", () => {
    const [result] = run([
      role(),
      chunk({ tool_calls: [{ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{\"a\"" } }, { index: 1, id: "call_B2", type: "function", function: { name: "second", arguments: "{\"b\"" } }] }),
      fragment({ index: 1, function: { arguments: ":2}" } }),
      fragment({ index: 0, function: { arguments: ":1}" } }),
      finish("tool_calls"),
    ]);
    expect(result.items).toEqual([call("call_A1", "first", "{\"a\":1}", "completed"), call("call_B2", "second", "{\"b\":2}", "completed")]);
  });

  test("a whole call in one delta, index last, as Groq sends it", () => {
    const [result] = run([role(), fragment({ id: "tk85n1k4m", type: "function", function: { name: "weather", arguments: "{}" }, index: 0 }), finish("tool_calls")]);
    expect(result.items).toEqual([call("tk85n1k4m", "weather", "{}", "completed")]);
  });

  test("two calls sent at the same index with different ids stay two calls", () => {
    const [result] = run([
      role(),
      fragment({ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{}" } }),
      fragment({ index: 0, id: "call_B2", type: "function", function: { name: "second", arguments: "{}" } }),
      finish("tool_calls"),
    ]);
    expect(result.items).toEqual([call("call_A1", "first", "{}", "completed"), call("call_B2", "second", "{}", "completed")]);
  });

  test("a fragment without index continues the last call", () => {
    const [result] = run([role(), fragment({ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{\"a\"" } }), fragment({ function: { arguments: ":1}" } }), finish("tool_calls")]);
    expect(result.items).toEqual([call("call_A1", "first", "{\"a\":1}", "completed")]);
  });

  test("a name repeated on every fragment is not doubled", () => {
    const [result] = run([
      role(),
      fragment({ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{" } }),
      fragment({ index: 0, function: { name: "first", arguments: "}" } }),
      finish("tool_calls"),
    ]);
    expect(result.items).toEqual([call("call_A1", "first", "{}", "completed")]);
  });

  test("a provider field on a call fragment is a loss at that fragment", () => {
    const [result] = run([
      role(),
      fragment({ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{}" }, extra_content: { google: { thought_signature: "c2ln" } } }),
      finish("tool_calls"),
    ]);
    expect(result.items).toEqual([call("call_A1", "first", "{}", "completed")]);
    expect(result.losses).toEqual([
      { line: 2, path: "/choices/0/delta/tool_calls/0/extra_content", code: "provider_extension", detail: "tool_calls[].extra_content (line 2) is a provider field neither envelope carries; it is not merged into the text" },
    ]);
  });

  test("a custom tool call is a loss pointing at its first fragment", () => {
    const [result] = run([role(), fragment({ index: 0, id: "call_C3", type: "custom", custom: { name: "shell", input: "ls" } }), finish("tool_calls")]);
    expect(result.items).toEqual([]);
    expect(result.losses).toEqual([
      { line: 2, path: "/choices/0/delta/tool_calls/0", code: "unsupported_tool_call", detail: "custom tool call \"shell\" has no portable Open Responses item" },
      { line: 1, path: "/choices/0", code: "unsupported_item", detail: "an assistant message with no content, refusal or tool call gives no item" },
    ]);
  });

  test("legacy function_call deltas make a call with a synthesized call_id, reported", () => {
    const [result] = run([role(), chunk({ function_call: { name: "lookup_city", arguments: "{\"city\"" } }), chunk({ function_call: { arguments: ":\"Lyon\"}" } }), finish("function_call")]);
    expect(result.items).toEqual([call("legacy_1_lookup_city", "lookup_city", "{\"city\":\"Lyon\"}", "completed")]);
    expect(result.losses).toEqual([{ line: 2, path: "/choices/0/delta/function_call", code: "synthesized", detail: "a legacy function call has no id: call_id \"legacy_1_lookup_city\" was synthesized" }]);
  });
});

describe("finish reasons and status", () => {
  const opened = [role(), fragment({ index: 0, id: "call_Lk2", type: "function", function: { name: "lookup_city", arguments: "" } }), fragment({ index: 0, function: { arguments: "{\"city\":\"Ly" } })];

  test.each([
    ["tool_calls", "completed"],
    ["stop", "completed"],
    ["length", "incomplete"],
    ["content_filter", "incomplete"],
    ["an_unknown_reason", "incomplete"],
  ])("finish_reason %s gives status %s to the response and its calls", (reason, status) => {
    const [result] = run([...opened, finish(reason)]);
    expect(result.status).toBe(status);
    expect(result.items).toEqual([call("call_Lk2", "lookup_city", "{\"city\":\"Ly", status)]);
  });

  test("cut mid-arguments without finish_reason: in_progress, and the gate blocks the call with status", () => {
    const [result] = run(opened);
    expect(result).toEqual({ id: ID, status: "in_progress", items: [call("call_Lk2", "lookup_city", "{\"city\":\"Ly", "in_progress")], losses: [], line: 1, lastLine: 3 });
    expect(replayGate(result.items[0], lookupSchema).reason).toBe("status");
  });

  test("arguments that parse are not final: `{}` without finish_reason stays in_progress", () => {
    const [result] = run([role(), fragment({ index: 0, id: "call_Lk2", type: "function", function: { name: "lookup_city", arguments: "{}" } })]);
    expect(result.items).toEqual([call("call_Lk2", "lookup_city", "{}", "in_progress")]);
    expect(replayGate(result.items[0], lookupSchema).reason).toBe("status");
  });

  test("a finished call with valid arguments passes the gate", () => {
    const [result] = run([...opened, fragment({ index: 0, function: { arguments: "on\"}" } }), finish("tool_calls")]);
    expect(replayGate(result.items[0], lookupSchema).reason).toBe("ok");
  });

  test("a stream cut right after its role chunk gives no item, and says so", () => {
    expect(run([role()])).toEqual([
      { id: ID, status: "in_progress", items: [], losses: [{ line: 1, path: "/choices/0", code: "unsupported_item", detail: "an assistant message with no content, refusal or tool call gives no item" }], line: 1, lastLine: 1 },
    ]);
  });
});

describe("chunks that carry no delta", () => {
  test("the usage chunk is skipped but counts as the completion's last line", () => {
    const [result] = run([chunk({ role: "assistant", content: "Hi" }), finish("stop"), usage()]);
    expect(result).toEqual({ id: ID, status: "completed", items: [{ type: "message", role: "assistant", content: "Hi" }], losses: [], line: 1, lastLine: 3 });
  });

  test("Azure's prompt filter chunk opens nothing", () => {
    const filter = { choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] };
    expect(run([filter, chunk({ role: "assistant", content: "Hi" }), finish("stop")])).toEqual([
      { id: ID, status: "completed", items: [{ type: "message", role: "assistant", content: "Hi" }], losses: [], line: 2, lastLine: 3 },
    ]);
  });

  test("obfuscation, x_groq, content_filter_results and logprobs describe the chunk, not the message: no loss", () => {
    const withMetadata = { ...chunk({ role: "assistant", content: "Hi" }, "stop", { obfuscation: "D3Wb", x_groq: { id: "req_01" } }) };
    (withMetadata.choices[0] as Record<string, unknown>).content_filter_results = { hate: { filtered: false } };
    expect(run([withMetadata])).toEqual([{ id: ID, status: "completed", items: [{ type: "message", role: "assistant", content: "Hi" }], losses: [], line: 1, lastLine: 1 }]);
  });
});

describe("completion boundaries", () => {
  const other = (delta: Record<string, unknown>, reason: string | null = null) => ({ ...chunk(delta, reason), id: "chatcmpl-Zr4Yv8Qe1Nd6Hc3J" });

  test("a new completion id closes the previous completion, returned by that push", () => {
    const assembler = new ChatStreamAssembler();
    expect(assembler.push(chunk({ role: "assistant", content: "One" }), 1)).toEqual([]);
    expect(assembler.push(finish("stop"), 2)).toEqual([]);
    expect(assembler.push(other({ role: "assistant", content: "Two" }), 3)).toEqual([
      { id: ID, status: "completed", items: [{ type: "message", role: "assistant", content: "One" }], losses: [], line: 1, lastLine: 2 },
    ]);
    expect(assembler.finish()).toEqual([
      { id: "chatcmpl-Zr4Yv8Qe1Nd6Hc3J", status: "in_progress", items: [{ type: "message", role: "assistant", content: "Two" }], losses: [], line: 3, lastLine: 3 },
    ]);
  });

  test("without ids, a new message after every choice finished is another completion", () => {
    const bare = (delta: Record<string, unknown>, reason: string | null = null) => ({ object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: reason }] });
    expect(run([bare({ role: "assistant", content: "One" }), bare({}, "stop"), bare({ role: "assistant", content: "Two" }), bare({}, "stop")])).toEqual([
      { status: "completed", items: [{ type: "message", role: "assistant", content: "One" }], losses: [], line: 1, lastLine: 2 },
      { status: "completed", items: [{ type: "message", role: "assistant", content: "Two" }], losses: [], line: 3, lastLine: 4 },
    ]);
  });

  test("choices other than the first are reported, not turned into items", () => {
    const two = { ...chunk({ role: "assistant", content: "A" }), choices: [{ index: 0, delta: { role: "assistant", content: "A" }, finish_reason: "stop" }, { index: 1, delta: { role: "assistant", content: "B" }, finish_reason: "stop" }] };
    expect(run([two])).toEqual([
      {
        id: ID,
        status: "completed",
        items: [{ type: "message", role: "assistant", content: "A" }],
        losses: [{ line: 1, path: "/choices/1", code: "unsupported_field", detail: "only the first choice continues the conversation; choice 1 is not items" }],
        line: 1,
        lastLine: 1,
      },
    ]);
  });

  test("something that is not a chunk is refused", () => {
    const assembler = new ChatStreamAssembler();
    expect(() => assembler.push({ role: "assistant", content: "Hi" }, 1)).toThrow(TypeError);
    expect(() => assembler.push(null, 1)).toThrow(TypeError);
  });

  test("the chunks given to the assembler are not changed", () => {
    const chunks = [role(), fragment({ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{" } }), fragment({ index: 0, function: { arguments: "}" } }), finish("tool_calls")];
    const before = structuredClone(chunks);
    run(chunks);
    expect(chunks).toEqual(before);
  });
});
