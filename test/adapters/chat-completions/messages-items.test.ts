// Behaviours of the two message converters that the golden cases do not pin:
// options, input their envelope forbids, and the edges of pairing and grouping.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { itemsToMessages } from "../../../adapters/chat-completions/items-to-messages.js";
import { callCounts, messagesToItems } from "../../../adapters/chat-completions/messages-to-items.js";
import type { ChatMessage } from "../../../src/models/chat-completions.js";
import { lossSchema, type Loss } from "../../../src/models/loss.js";
import type { CanonicalItem } from "../../../src/models/open-responses.js";

const messages = (value: unknown[]) => value as ChatMessage[];
const items = (value: unknown[]) => value as CanonicalItem[];
const call = (id: string, name = "get_capital", args = '{"country":"Peru"}') => ({ id, type: "function", function: { name, arguments: args } });
/** The id a call without one gets: its rank among such calls, and 16 hex digits of sha256 of its name and arguments. */
const synthesizedId = (rank: number, name: string, args: string) => `synth_${rank}_${createHash("sha256").update(`${name}\u0000${args}`).digest("hex").slice(0, 16)}`;

describe("messagesToItems, options", () => {
  test("itemId gives each item an id, placed after its type", () => {
    const converted = messagesToItems({
      messages: messages([
        { role: "assistant", content: "Checking.", tool_calls: [call("call_1")] },
        { role: "tool", tool_call_id: "call_1", content: "Lima" },
      ]),
      itemId: (item, position) => `${item.type === "message" ? "msg" : item.type === "function_call" ? "fc" : "fco"}_${position}`,
    });
    expect(converted).toStrictEqual({
      value: [
        { type: "message", id: "msg_0", role: "assistant", content: "Checking." },
        { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_capital", arguments: '{"country":"Peru"}', status: "completed" },
        { type: "function_call_output", id: "fco_2", call_id: "call_1", output: "Lima" },
      ],
      losses: [],
    });
    expect(Object.keys(converted.value[1])).toEqual(["type", "id", "call_id", "name", "arguments", "status"]);
  });

  test("finish_reason null (the choice never finished) leaves calls in_progress", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: null, tool_calls: [call("call_1")] }]), finishReason: null });
    expect(converted.value).toStrictEqual([
      { type: "function_call", call_id: "call_1", name: "get_capital", arguments: '{"country":"Peru"}', status: "in_progress" },
    ]);
  });

  test.each(["stop", "tool_calls", "function_call"] as const)("finish_reason %s leaves calls completed", (finishReason) => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: null, tool_calls: [call("call_1")] }]), finishReason });
    expect(converted.value).toStrictEqual([
      { type: "function_call", call_id: "call_1", name: "get_capital", arguments: '{"country":"Peru"}', status: "completed" },
    ]);
  });

  // A message that writes its own reason in either spelling (null included) is
  // read by it; one that writes neither takes its choice's, or none.
  test.each([
    [{}, undefined, "completed"],
    [{}, "length", "incomplete"],
    [{ finish_reason: "tool_calls" }, undefined, "completed"],
    [{ finishReason: "length" }, undefined, "incomplete"],
    [{ finish_reason: null }, undefined, "in_progress"],
    [{ finishReason: null }, "stop", "incomplete"],
    [{ finish_reason: "stop" }, "stop", "completed"],
    [{ finish_reason: "stop", finishReason: "length" }, "stop", "incomplete"],
    [{ finish_reason: undefined, finishReason: "stop" }, "stop", "completed"],
  ] as const)("a message writing %j in a choice finished by %s: its calls %s", (own, finishReason, status) => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: null, tool_calls: [call("call_1")], ...own }]), ...(finishReason === undefined ? {} : { finishReason }) });
    expect(converted.value.map((item) => (item as { status?: unknown }).status)).toEqual([status]);
  });

  test("finish_reason does not touch a message item's fields", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: "Lima is" }]), finishReason: "length" });
    expect(converted).toStrictEqual({ value: [{ type: "message", role: "assistant", content: "Lima is" }], losses: [] });
  });
});

describe("messagesToItems, legacy function calls", () => {
  test("a call and its answer converted one record at a time still share a call_id", () => {
    const callItems = messagesToItems({ messages: messages([{ role: "assistant", content: null, function_call: { name: "lookup", arguments: "{}" } }]) });
    const answerItems = messagesToItems({ messages: messages([{ role: "function", name: "lookup", content: "found" }]) });
    expect(callItems.value).toStrictEqual([{ type: "function_call", call_id: "legacy_1_lookup", name: "lookup", arguments: "{}", status: "completed" }]);
    expect(answerItems).toStrictEqual({
      value: [{ type: "function_call_output", call_id: "legacy_1_lookup", output: "found" }],
      losses: [
        {
          path: "/0/name",
          code: "synthesized",
          detail: 'no legacy call of "lookup" precedes it here: call_id "legacy_1_lookup" was synthesized by the same rule',
        },
      ],
    });
  });

  test("answers pair with the calls of their own name, in order", () => {
    const converted = messagesToItems({
      messages: messages([
        { role: "assistant", content: null, function_call: { name: "a", arguments: "1" } },
        { role: "function", name: "a", content: "A1" },
        { role: "assistant", content: null, function_call: { name: "b", arguments: "2" } },
        { role: "assistant", content: null, function_call: { name: "a", arguments: "3" } },
        { role: "function", name: "a", content: "A2" },
        { role: "function", name: "b", content: "B1" },
      ]),
    });
    expect(converted.value.map((item) => [item.type, (item as { call_id: string }).call_id])).toEqual([
      ["function_call", "legacy_1_a"],
      ["function_call_output", "legacy_1_a"],
      ["function_call", "legacy_1_b"],
      ["function_call", "legacy_2_a"],
      ["function_call_output", "legacy_2_a"],
      ["function_call_output", "legacy_1_b"],
    ]);
  });

  test("a null result becomes an empty output, and says so", () => {
    const converted = messagesToItems({
      messages: messages([
        { role: "assistant", content: null, function_call: { name: "ping", arguments: "{}" } },
        { role: "function", name: "ping", content: null },
      ]),
    });
    expect(converted.value[1]).toStrictEqual({ type: "function_call_output", call_id: "legacy_1_ping", output: "" });
    expect(converted.losses.filter((loss) => loss.code === "form_changed")).toStrictEqual([
      { path: "/1/content", code: "form_changed", detail: "a null function result becomes an empty output" },
    ]);
  });

  test("a synthesized call_id never passes the 64 characters of the spec", () => {
    const name = "x".repeat(64);
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: null, function_call: { name, arguments: "{}" } }]) });
    expect((converted.value[0] as { call_id: string }).call_id).toBe(`legacy_1_${name}`.slice(0, 64));
  });
});

describe("messagesToItems, tool calls without id", () => {
  const idless = (name: string, args: string) => ({ type: "function", function: { name, arguments: args } });

  test("a call without id gets a synthesized call_id, and the tool message without tool_call_id after it answers it", () => {
    const A = synthesizedId(1, "get_weather", '{"city":"Lima"}');
    const converted = messagesToItems({
      messages: messages([
        { role: "assistant", content: null, tool_calls: [idless("get_weather", '{"city":"Lima"}')] },
        { role: "tool", content: "overcast" },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        { type: "function_call", call_id: A, name: "get_weather", arguments: '{"city":"Lima"}', status: "completed" },
        { type: "function_call_output", call_id: A, output: "overcast" },
      ],
      losses: [
        { path: "/0/tool_calls/0", code: "synthesized", detail: `a tool call without id: call_id "${A}" was synthesized; a tool message without tool_call_id that follows answers it` },
        { path: "/1", code: "synthesized", detail: `a tool message without tool_call_id answers the earliest call without id still unanswered: call_id "${A}"` },
      ],
    });
  });

  test("an answer without id that names its tool answers the earliest call of that name without id, or none", () => {
    const A = synthesizedId(1, "get_report", '{"region":"apac"}');
    const B = synthesizedId(2, "wire_money", '{"to":"x"}');
    const converted = messagesToItems({
      messages: messages([
        { role: "assistant", content: null, tool_calls: [idless("get_report", '{"region":"apac"}'), idless("wire_money", '{"to":"x"}')] },
        { role: "tool", name: "wire_money", content: "wired" },
        { role: "tool", name: "other_tool", content: "?" },
      ]),
    });
    expect(converted.value.slice(2)).toStrictEqual([
      { type: "function_call_output", call_id: B, output: "wired" },
      { type: "function_call_output", output: "?" },
    ]);
    expect(converted.losses).toContainEqual({ path: "/1", code: "synthesized", detail: `a tool message without tool_call_id answers the earliest call of "wire_money" without id still unanswered: call_id "${B}"` });
    // The call of get_report still waits: an answer without a name takes it.
    const later = messagesToItems({ messages: messages([{ role: "assistant", content: null, tool_calls: [idless("get_report", '{"region":"apac"}'), idless("wire_money", '{"to":"x"}')] }, { role: "tool", name: "wire_money", content: "wired" }, { role: "tool", content: "report" }]) });
    expect(later.value.at(-1)).toStrictEqual({ type: "function_call_output", call_id: A, output: "report" });
  });

  test("answers without id pair with the calls without id in order; an empty id counts as none", () => {
    const converted = messagesToItems({
      messages: messages([
        { role: "assistant", content: null, tool_calls: [idless("a", "{}"), { id: "", ...idless("b", "{}") }] },
        { role: "tool", content: "first" },
        { role: "tool", tool_call_id: "", content: "second" },
      ]),
    });
    expect(converted.value).toStrictEqual([
      { type: "function_call", call_id: synthesizedId(1, "a", "{}"), name: "a", arguments: "{}", status: "completed" },
      { type: "function_call", call_id: synthesizedId(2, "b", "{}"), name: "b", arguments: "{}", status: "completed" },
      { type: "function_call_output", call_id: synthesizedId(1, "a", "{}"), output: "first" },
      { type: "function_call_output", call_id: synthesizedId(2, "b", "{}"), output: "second" },
    ]);
  });

  test("converted one message at a time with the same counts, a call and its answer still pair", () => {
    const counts = callCounts();
    const first = messagesToItems({ messages: messages([{ role: "assistant", content: null, tool_calls: [idless("a", "{}")] }]), callCounts: counts });
    const second = messagesToItems({ messages: messages([{ role: "tool", content: "done" }]), callCounts: counts });
    expect([first.value, second.value]).toStrictEqual([
      [{ type: "function_call", call_id: synthesizedId(1, "a", "{}"), name: "a", arguments: "{}", status: "completed" }],
      [{ type: "function_call_output", call_id: synthesizedId(1, "a", "{}"), output: "done" }],
    ]);
  });

  test("an answer with its own tool_call_id leaves the call without id waiting", () => {
    const converted = messagesToItems({
      messages: messages([
        { role: "assistant", content: null, tool_calls: [idless("a", "{}"), call("call_2")] },
        { role: "tool", tool_call_id: "call_2", content: "second" },
        { role: "tool", content: "first" },
      ]),
    });
    expect(converted.value.slice(2)).toStrictEqual([
      { type: "function_call_output", call_id: "call_2", output: "second" },
      { type: "function_call_output", call_id: synthesizedId(1, "a", "{}"), output: "first" },
    ]);
  });

  test("a conversation converted again gives its calls the same ids; another call at the same rank gets another", () => {
    const conversation = (args: string) => messages([{ role: "assistant", content: null, tool_calls: [idless("a", args)] }]);
    const ids = [conversation("{}"), conversation("{}"), conversation('{"x":1}')].map((history) => (messagesToItems({ messages: history }).value[0] as { call_id: string }).call_id);
    expect(ids).toEqual([synthesizedId(1, "a", "{}"), synthesizedId(1, "a", "{}"), synthesizedId(1, "a", '{"x":1}')]);
  });
});

describe("messagesToItems, a tool message before its call", () => {
  test("its output is written after the run of calls holding its call, ahead of the outputs there, and the move reported", () => {
    const converted = messagesToItems({
      messages: messages([
        { role: "user", content: "Weather in Lima and Quito?" },
        { role: "tool", tool_call_id: "call_1", content: "overcast" },
        { role: "assistant", content: null, tool_calls: [call("call_1", "get_weather", "{}"), call("call_2", "get_weather", "{}")] },
        { role: "tool", tool_call_id: "call_2", content: "sunny" },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        { type: "message", role: "user", content: "Weather in Lima and Quito?" },
        { type: "function_call", call_id: "call_1", name: "get_weather", arguments: "{}", status: "completed" },
        { type: "function_call", call_id: "call_2", name: "get_weather", arguments: "{}", status: "completed" },
        { type: "function_call_output", call_id: "call_1", output: "overcast" },
        { type: "function_call_output", call_id: "call_2", output: "sunny" },
      ],
      losses: [
        {
          path: "/1",
          code: "reordered",
          detail: "the tool message comes before the assistant message that makes its call (message 2): its output is written after the call, where the gate looks for it",
        },
      ],
    });
  });

  test("one whose call is not among the messages stays where it is: its call may be in an earlier record", () => {
    const converted = messagesToItems({ messages: messages([{ role: "user", content: "Go on." }, { role: "tool", tool_call_id: "call_0", content: "Lima" }]) });
    expect(converted).toStrictEqual({
      value: [
        { type: "message", role: "user", content: "Go on." },
        { type: "function_call_output", call_id: "call_0", output: "Lima" },
      ],
      losses: [],
    });
  });
});

describe("messagesToItems, what Open Responses rejects", () => {
  test("a tool call that is not read says why: what it is, what its type says, or which object it lacks", () => {
    const calls = [7, { id: "c1", function: { name: "f", arguments: "{}" }, custom: { name: "f", input: "" } }, { id: "c2", type: "Function", function: { name: "f", arguments: "{}" } }, { id: "c3", type: "function", custom: { name: "f", input: "" } }];
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: null, tool_calls: calls }]) });
    expect(converted.losses).toStrictEqual([
      { path: "/0/tool_calls/0", code: "unsupported_tool_call", detail: "a tool call that is number 7, not an object, has nothing to carry" },
      { path: "/0/tool_calls/1", code: "unsupported_tool_call", detail: 'a tool call with no type is not read: only a "function" or a "custom" call is, by its type' },
      { path: "/0/tool_calls/2", code: "unsupported_tool_call", detail: 'a tool call whose type is "Function" is not read: only a "function" or a "custom" call is, by its type' },
      { path: "/0/tool_calls/3", code: "unsupported_tool_call", detail: "a function tool call without its function object has nothing to carry" },
      { path: "/0", code: "unsupported_item", detail: "an assistant message with no content, refusal or tool call gives no item" },
    ]);
  });

  test("a tool call without type that holds a function object, as Mistral writes its calls, is that function's call", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: "", tool_calls: [{ id: "D681PevKs", function: { name: "retrieve_payment_status", arguments: '{"transaction_id": "T1001"}' } }] }]) });
    expect(converted.value).toStrictEqual([{ type: "function_call", call_id: "D681PevKs", name: "retrieve_payment_status", arguments: '{"transaction_id": "T1001"}', status: "completed" }]);
    expect(converted.losses).toContainEqual({ path: "/0/tool_calls/0/type", code: "synthesized", detail: 'a tool call without type that holds a function object is read as a function call ("type": "function"), as Mistral writes its calls and its SDK runs them' });
  });

  test("a tool call without type that holds something else beside its function object is not read: it may be another kind of call", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: null, tool_calls: [{ id: "c1", function: { name: "f", arguments: "{}" }, computer_use: { action: "x" } }] }]) });
    expect(converted.value).toStrictEqual([]);
    expect(converted.losses[0]).toStrictEqual({ path: "/0/tool_calls/0", code: "unsupported_tool_call", detail: 'a tool call with no type is not read: only a "function" or a "custom" call is, by its type' });
  });

  test("a user part whose type is no string is reported as such, not as a part of type \"undefined\"", () => {
    const converted = messagesToItems({ messages: messages([{ role: "user", content: [{ type: 7 }, { kind: "text" }] }]) });
    expect(converted).toStrictEqual({
      value: [{ type: "message", role: "user", content: [] }],
      losses: [
        { path: "/0/content/0", code: "unsupported_part", detail: "a part with number 7 for its type has no Open Responses equivalent" },
        { path: "/0/content/1", code: "unsupported_part", detail: "a part with nothing for its type has no Open Responses equivalent" },
      ],
    });
  });

  test("object arguments, a name outside the spec's form and a call_id over 64 characters are written as they are and reported", () => {
    const longId = "call_" + "x".repeat(60);
    const converted = messagesToItems({
      messages: messages([{ role: "assistant", content: null, tool_calls: [{ id: longId, type: "function", function: { name: "get weather", arguments: { city: "Lima" } } }] }]),
    });
    expect(converted).toStrictEqual({
      value: [{ type: "function_call", call_id: longId, name: "get weather", arguments: { city: "Lima" }, status: "completed" }],
      losses: [
        {
          path: "/0/tool_calls/0/function/arguments",
          code: "target_rejects",
          detail: "arguments is an object, not a JSON string: written as it is, which Open Responses rejects and the gate blocks (arguments_type)",
        },
        {
          path: "/0/tool_calls/0/function/name",
          code: "target_rejects",
          detail: 'the function name "get weather" is not 1 to 64 letters, digits, _ or -: written as it is, which Open Responses rejects',
        },
        {
          path: "/0/tool_calls/0/id",
          code: "target_rejects",
          detail: "the call id has 65 characters, more than the spec's 64: written as it is, which Open Responses rejects",
        },
      ],
    });
  });
});

describe("messagesToItems, reasoning in Chat dialects", () => {
  test.each([
    ["reasoning_content", "DeepSeek's dialect, vLLM's before it took `reasoning`"],
    ["reasoning", "the dialect of vLLM, OpenRouter and Groq"],
  ])("%s becomes a reasoning item ahead of the message's items, naming its field and its dialect", (field, dialect) => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: "Lima.", [field]: "The capital of Peru is Lima." }]) });
    expect(converted).toStrictEqual({
      value: [
        { type: "reasoning", summary: [{ type: "summary_text", text: "The capital of Peru is Lima." }], chat_field: field },
        { type: "message", role: "assistant", content: "Lima." },
      ],
      losses: [{ path: `/0/${field}`, code: "form_changed", detail: `${field} (${dialect}) read as a reasoning item: its text is the item's summary` }],
    });
  });

  test("reasoning_details alone give their text entries as the summary and are kept whole", () => {
    const details = [
      { type: "reasoning.summary", summary: "Look up the capital.", format: "openai-responses-v1", index: 0 },
      { type: "reasoning.encrypted", data: "gAAAAB-opaque", format: "openai-responses-v1", index: 1 },
    ];
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: "Lima.", reasoning_details: details }]) });
    expect(converted).toStrictEqual({
      value: [
        { type: "reasoning", summary: [{ type: "summary_text", text: "Look up the capital." }], chat_field: "reasoning_details", reasoning_details: details },
        { type: "message", role: "assistant", content: "Lima." },
      ],
      losses: [{ path: "/0/reasoning_details", code: "form_changed", detail: "reasoning_details (OpenRouter's dialect) kept whole on the reasoning item; its text entries are the item's summary" }],
    });
  });

  test("empty or null reasoning gives no item; reasoning that is not text is reported, not read", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: "Lima.", reasoning_content: "", reasoning: { text: "x" }, reasoning_details: null }]) });
    expect(converted).toStrictEqual({
      value: [{ type: "message", role: "assistant", content: "Lima." }],
      losses: [{ path: "/0/reasoning", code: "unsupported_field", detail: "reasoning is an object, not text: no reasoning is read from it" }],
    });
  });

  test("a second reasoning text unlike the first is reported, not merged", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: "Lima.", reasoning_content: "first", reasoning: "second" }]) });
    expect(converted.value[0]).toStrictEqual({ type: "reasoning", summary: [{ type: "summary_text", text: "first" }], chat_field: "reasoning_content" });
    expect(converted.losses[1]).toStrictEqual({ path: "/0/reasoning", code: "unsupported_field", detail: "a second reasoning text, unlike the reasoning_content beside it: a reasoning item holds one" });
  });
});

describe("messagesToItems, input its envelope forbids", () => {
  test("throws when messages is not an array", () => {
    expect(() => messagesToItems({ messages: { role: "user", content: "hi" } as never })).toThrow(TypeError);
  });

  test("a value with no role is reported and skipped", () => {
    const converted = messagesToItems({ messages: messages(["hello", { content: "hi" }, { role: "user", content: "hi" }]) });
    expect(converted).toStrictEqual({
      value: [{ type: "message", role: "user", content: "hi" }],
      losses: [
        { path: "/0", code: "unsupported_item", detail: "not a Chat message: it has no role" },
        { path: "/1", code: "unsupported_item", detail: "not a Chat message: it has no role" },
      ],
    });
  });

  test("an unknown role is reported, not converted", () => {
    const converted = messagesToItems({ messages: messages([{ role: "model", content: "hi" }]) });
    expect(converted).toStrictEqual({
      value: [],
      losses: [{ path: "/0", code: "unsupported_item", detail: 'role "model" has no Open Responses item' }],
    });
  });

  test("a tool message without tool_call_id, with no call without id before it, is kept without an id and reported, not given an invented id", () => {
    const converted = messagesToItems({ messages: messages([{ role: "tool", content: "Lima" }]) });
    expect(converted).toStrictEqual({
      value: [{ type: "function_call_output", output: "Lima" }],
      losses: [{ path: "/0/tool_call_id", code: "target_rejects", detail: "tool_call_id is missing, and no call without id waits for an answer: written as it is; the output answers no call" }],
    });
  });

  test("a tool message whose tool_call_id is no text keeps it as it is, reported", () => {
    const converted = messagesToItems({ messages: messages([{ role: "tool", tool_call_id: 42, content: "Lima" } as never, { role: "tool", tool_call_id: null, content: "Quito" } as never]) });
    expect(converted).toStrictEqual({
      value: [
        { type: "function_call_output", call_id: 42, output: "Lima" },
        { type: "function_call_output", call_id: null, output: "Quito" },
      ],
      losses: [
        { path: "/0/tool_call_id", code: "target_rejects", detail: "tool_call_id is number 42: written as it is; the output answers no call" },
        { path: "/1/tool_call_id", code: "target_rejects", detail: "tool_call_id is null: written as it is; the output answers no call" },
      ],
    });
  });

  test("a system message keeps only its text parts", () => {
    const converted = messagesToItems({
      messages: messages([{ role: "system", content: [{ type: "text", text: "Be brief." }, { type: "image_url", image_url: { url: "https://example.com/a.png" } }] }]),
    });
    expect(converted).toStrictEqual({
      value: [{ type: "message", role: "system", content: [{ type: "input_text", text: "Be brief." }] }],
      losses: [{ path: "/0/content/1", code: "unsupported_part", detail: 'only text parts are kept here, not a "image_url" part' }],
    });
  });

  test("an assistant message with nothing in it is reported", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: null, refusal: null, tool_calls: [] }]) });
    expect(converted).toStrictEqual({
      value: [],
      losses: [{ path: "/0", code: "unsupported_item", detail: "an assistant message with no content, refusal or tool call gives no item" }],
    });
  });

  test("message-level citations of a message with several text parts are reported", () => {
    const citation = { type: "url_citation", url_citation: { end_index: 3, start_index: 0, title: "T", url: "https://example.com" } };
    const converted = messagesToItems({
      messages: messages([{ role: "assistant", content: [{ type: "text", text: "One" }, { type: "text", text: "Two" }], annotations: [citation] }]),
    });
    expect(converted).toStrictEqual({
      value: [
        {
          type: "message",
          role: "assistant",
          content: [
            { type: "output_text", text: "One", annotations: [] },
            { type: "output_text", text: "Two", annotations: [] },
          ],
        },
      ],
      losses: [{ path: "/0/annotations", code: "unsupported_field", detail: "message-level citations cannot be placed on one of several text parts" }],
    });
  });

  test("an empty text content beside a refusal makes no part, and says so", () => {
    expect(messagesToItems({ messages: messages([{ role: "assistant", content: "", refusal: "I cannot help with that." }]) })).toStrictEqual({
      value: [{ type: "message", role: "assistant", content: [{ type: "refusal", refusal: "I cannot help with that." }] }],
      losses: [{ path: "/0/content", code: "form_changed", detail: 'content "" beside the refusal holds no text: no output_text part is made of it' }],
    });
  });

  test("tool_calls, function_call and refusal in a shape no Chat message has are reported, not dropped unseen", () => {
    const converted = messagesToItems({
      messages: messages([
        { role: "assistant", content: "I'll check.", tool_calls: { id: "call_1", type: "function", function: { name: "f", arguments: "{}" } } },
        { role: "assistant", content: "Checking.", function_call: '{"name":"f","arguments":"{}"}' },
        { role: "assistant", content: "ok", refusal: { text: "no" } },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        { type: "message", role: "assistant", content: "I'll check." },
        { type: "message", role: "assistant", content: "Checking." },
        { type: "message", role: "assistant", content: "ok" },
      ],
      losses: [
        { path: "/0/tool_calls", code: "unsupported_tool_call", detail: "tool_calls is an object, not an array of calls: no call is read from it" },
        { path: "/1/function_call", code: "unsupported_tool_call", detail: 'function_call is "{\\"name\\":\\"f\\",\\"arguments\\":\\"{}\\"}", not an object with a name and arguments: no call is read from it' },
        { path: "/2/refusal", code: "unsupported_field", detail: "refusal is an object, not text: it has no item form" },
      ],
    });
  });

  test("a field name holding a slash is escaped in the loss path", () => {
    const converted = messagesToItems({ messages: messages([{ role: "user", content: "hi", "x-trace/id": "abc" }]) });
    expect(converted.losses).toStrictEqual([
      { path: "/0/x-trace~1id", code: "provider_extension", detail: '"x-trace/id" is not a field of the portable shape; Open Responses has no place for it' },
    ]);
  });

  test("a provider field holding null carries nothing and is not reported", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: "Lima.", reasoning_content: null, function_call: null, audio: null }]) });
    expect(converted).toStrictEqual({ value: [{ type: "message", role: "assistant", content: "Lima." }], losses: [] });
  });
});

describe("itemsToMessages, grouping", () => {
  test("a reasoning item between a message and its calls does not split them", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "message", role: "assistant", content: "Checking." },
        { type: "reasoning", summary: [] },
        { type: "function_call", call_id: "call_1", name: "get_capital", arguments: "{}" },
      ]),
    });
    expect(converted.value).toStrictEqual([
      { role: "assistant", content: "Checking.", tool_calls: [{ id: "call_1", type: "function", function: { name: "get_capital", arguments: "{}" } }] },
    ]);
  });

  test("a user message between a call and its output moves behind the output, and the move is reported", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "function_call", call_id: "call_1", name: "get_capital", arguments: "{}" },
        { type: "message", role: "user", content: "Hurry up." },
        { type: "function_call_output", call_id: "call_1", output: "Lima" },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_capital", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "call_1", content: "Lima" },
        { role: "user", content: "Hurry up." },
      ],
      losses: [
        {
          path: "/2",
          code: "reordered",
          detail: "the tool message is written right after the assistant message that makes its call, as Chat requires: ahead of item 1, which came before it",
        },
      ],
    });
  });

  test("an output that comes before its call is written after it, and the move is reported", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "message", role: "user", content: "Capital of Peru?" },
        { type: "function_call_output", call_id: "call_1", output: "Lima" },
        { type: "function_call", call_id: "call_1", name: "get_capital", arguments: "{}" },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        { role: "user", content: "Capital of Peru?" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_capital", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "call_1", content: "Lima" },
      ],
      losses: [
        {
          path: "/1",
          code: "reordered",
          detail: "the output comes before its call (item 2): its tool message is written after the assistant message that makes the call, as Chat requires",
        },
      ],
    });
  });

  test("an output whose call is not among the items stays where it is: its call may be in an earlier record", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "message", role: "user", content: "Go on." },
        { type: "function_call_output", call_id: "call_0", output: "Lima" },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        { role: "user", content: "Go on." },
        { role: "tool", tool_call_id: "call_0", content: "Lima" },
      ],
      losses: [],
    });
  });

  test("outputs keep the order they came in, whatever the order of their calls", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "function_call", call_id: "call_1", name: "a", arguments: "{}" },
        { type: "function_call", call_id: "call_2", name: "b", arguments: "{}" },
        { type: "function_call_output", call_id: "call_2", output: "second" },
        { type: "function_call_output", call_id: "call_1", output: "first" },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "a", arguments: "{}" } },
            { id: "call_2", type: "function", function: { name: "b", arguments: "{}" } },
          ],
        },
        { role: "tool", tool_call_id: "call_2", content: "second" },
        { role: "tool", tool_call_id: "call_1", content: "first" },
      ],
      losses: [],
    });
  });

  test("text between two calls of a turn joins the message that makes them, and the move is reported", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "function_call", call_id: "call_A", name: "get_weather", arguments: '{"city":"Lima"}' },
        { type: "message", role: "assistant", content: "Now Quito." },
        { type: "function_call", call_id: "call_B", name: "get_weather", arguments: '{"city":"Quito"}' },
        { type: "function_call_output", call_id: "call_A", output: "overcast" },
        { type: "function_call_output", call_id: "call_B", output: "sunny" },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        {
          role: "assistant",
          content: "Now Quito.",
          tool_calls: [
            { id: "call_A", type: "function", function: { name: "get_weather", arguments: '{"city":"Lima"}' } },
            { id: "call_B", type: "function", function: { name: "get_weather", arguments: '{"city":"Quito"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_A", content: "overcast" },
        { role: "tool", tool_call_id: "call_B", content: "sunny" },
      ],
      losses: [
        {
          path: "/1",
          code: "reordered",
          detail: "assistant text between the calls of a turn and their outputs: written in the message that makes the turn's calls, as Chat holds a turn's text and calls in one message",
        },
      ],
    });
  });

  test("text between calls of a turn that already has text is joined as parts, and both changes are reported", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "message", role: "assistant", content: "Lima first." },
        { type: "function_call", call_id: "call_A", name: "get_weather", arguments: '{"city":"Lima"}' },
        { type: "message", role: "assistant", content: [{ type: "refusal", refusal: "Not Quito." }] },
        { type: "function_call_output", call_id: "call_A", output: "overcast" },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        {
          role: "assistant",
          content: [
            { type: "text", text: "Lima first." },
            { type: "refusal", refusal: "Not Quito." },
          ],
          tool_calls: [{ id: "call_A", type: "function", function: { name: "get_weather", arguments: '{"city":"Lima"}' } }],
        },
        { role: "tool", tool_call_id: "call_A", content: "overcast" },
      ],
      losses: [
        {
          path: "/2",
          code: "reordered",
          detail: "assistant text between the calls of a turn and their outputs: written in the message that makes the turn's calls, as Chat holds a turn's text and calls in one message",
        },
        { path: "/2/content", code: "form_changed", detail: "joined to the text already in the turn's message: the message's content becomes parts" },
      ],
    });
  });

  test("text after an answered call starts a turn of its own", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "function_call", call_id: "call_A", name: "get_weather", arguments: "{}" },
        { type: "function_call_output", call_id: "call_A", output: "overcast" },
        { type: "message", role: "assistant", content: "Overcast in Lima." },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        { role: "assistant", content: null, tool_calls: [{ id: "call_A", type: "function", function: { name: "get_weather", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "call_A", content: "overcast" },
        { role: "assistant", content: "Overcast in Lima." },
      ],
      losses: [],
    });
  });

  test("a call_id used twice: each output answers the earliest call not yet answered", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "function_call", call_id: "call_1", name: "a", arguments: "1" },
        { type: "function_call_output", call_id: "call_1", output: "first" },
        { type: "function_call", call_id: "call_1", name: "a", arguments: "2" },
        { type: "function_call_output", call_id: "call_1", output: "second" },
      ]),
    });
    expect(converted.value).toStrictEqual([
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "a", arguments: "1" } }] },
      { role: "tool", tool_call_id: "call_1", content: "first" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "a", arguments: "2" } }] },
      { role: "tool", tool_call_id: "call_1", content: "second" },
    ]);
  });
});

describe("itemsToMessages, reasoning for a Chat dialect", () => {
  const deepseek = { type: "reasoning", summary: [{ type: "summary_text", text: "Call the tool for Lima." }], chat_field: "reasoning_content" };
  const weatherCall = { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Lima"}' };
  const chatCall = { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Lima"}' } };

  test("without a reasoning field asked for, a reasoning item is lost, and said", () => {
    expect(itemsToMessages({ items: items([deepseek, weatherCall]) })).toStrictEqual({
      value: [{ role: "assistant", content: null, tool_calls: [chatCall] }],
      losses: [{ path: "/0", code: "unsupported_item", detail: "Chat Completions cannot replay a reasoning item" }],
    });
  });

  test("with its own field, it goes back into the assistant message after it, before the calls, with nothing lost", () => {
    const converted = itemsToMessages({ items: items([deepseek, weatherCall]), reasoningField: "reasoning_content" });
    expect(converted).toStrictEqual({ value: [{ role: "assistant", content: null, reasoning_content: "Call the tool for Lima.", tool_calls: [chatCall] }], losses: [] });
    expect(Object.keys(converted.value[0])).toEqual(["role", "content", "reasoning_content", "tool_calls"]);
  });

  test("with another dialect's field, the text goes there and the change of dialect is reported", () => {
    expect(itemsToMessages({ items: items([deepseek, weatherCall]), reasoningField: "reasoning" })).toStrictEqual({
      value: [{ role: "assistant", content: null, reasoning: "Call the tool for Lima.", tool_calls: [chatCall] }],
      losses: [
        {
          path: "/0/chat_field",
          code: "form_changed",
          detail: "reasoning read from reasoning_content (DeepSeek's dialect, vLLM's before it took `reasoning`) written as reasoning (the dialect of vLLM, OpenRouter and Groq)",
        },
      ],
    });
  });

  test("an Open Responses reasoning item gives its summary, parts joined; its id and encrypted content are lost", () => {
    const reasoning = {
      type: "reasoning",
      id: "rs_68c42d29",
      summary: [
        { type: "summary_text", text: "**Stops**\n\nThree by the water." },
        { type: "summary_text", text: "**Plan**\n\nStore it first." },
      ],
      encrypted_content: "gAAAAB-opaque",
    };
    expect(itemsToMessages({ items: items([reasoning, { type: "message", role: "assistant", content: "Done." }]), reasoningField: "reasoning_content" })).toStrictEqual({
      value: [{ role: "assistant", content: "Done.", reasoning_content: "**Stops**\n\nThree by the water.\n\n**Plan**\n\nStore it first." }],
      losses: [
        { path: "/0/summary", code: "form_changed", detail: "2 reasoning parts joined into one text by blank lines" },
        { path: "/0/encrypted_content", code: "unsupported_field", detail: "encrypted reasoning goes back only to the provider that made it, never into a Chat message" },
        { path: "/0/id", code: "unsupported_field", detail: "Chat Completions has no item ids" },
      ],
    });
  });

  test("reasoning_text content is the full text and wins over the summary", () => {
    const reasoning = { type: "reasoning", summary: [{ type: "summary_text", text: "short" }], content: [{ type: "reasoning_text", text: "the whole thought" }] };
    expect(itemsToMessages({ items: items([reasoning, { type: "message", role: "assistant", content: "Done." }]), reasoningField: "reasoning" }).value).toStrictEqual([
      { role: "assistant", content: "Done.", reasoning: "the whole thought" },
    ]);
  });

  test("reasoning between a turn's text and its call joins that message; a second reasoning joins the first", () => {
    const second = { ...deepseek, summary: [{ type: "summary_text", text: "Then Quito." }] };
    const converted = itemsToMessages({
      items: items([{ type: "message", role: "assistant", content: "Checking." }, deepseek, weatherCall, second, { ...weatherCall, call_id: "call_2" }]),
      reasoningField: "reasoning_content",
    });
    expect(converted).toStrictEqual({
      value: [{ role: "assistant", content: "Checking.", reasoning_content: "Call the tool for Lima.\n\nThen Quito.", tool_calls: [chatCall, { ...chatCall, id: "call_2" }] }],
      losses: [{ path: "/3", code: "form_changed", detail: "a second reasoning for one assistant message: its text joins the first's reasoning_content after a blank line" }],
    });
  });

  test("reasoning with no assistant message after it, and reasoning with no text, are reported", () => {
    const converted = itemsToMessages({
      items: items([deepseek, { type: "message", role: "user", content: "Stop." }, { type: "reasoning", summary: [], encrypted_content: "gAAAAB" }]),
      reasoningField: "reasoning_content",
    });
    expect(converted).toStrictEqual({
      value: [{ role: "user", content: "Stop." }],
      losses: [
        { path: "/0", code: "unsupported_item", detail: "no assistant message follows the reasoning to carry it" },
        { path: "/2", code: "unsupported_item", detail: "a reasoning item with no text: reasoning_content has nothing to carry" },
      ],
    });
  });

  test("reasoning_details asked for: an item from text gives one reasoning.text entry, reported", () => {
    expect(itemsToMessages({ items: items([deepseek, weatherCall]), reasoningField: "reasoning_details" })).toStrictEqual({
      value: [{ role: "assistant", content: null, reasoning_details: [{ type: "reasoning.text", text: "Call the tool for Lima." }], tool_calls: [chatCall] }],
      losses: [
        { path: "/0/summary", code: "form_changed", detail: "the reasoning text written as one reasoning.text entry of reasoning_details" },
        {
          path: "/0/chat_field",
          code: "form_changed",
          detail: "reasoning read from reasoning_content (DeepSeek's dialect, vLLM's before it took `reasoning`) written as reasoning_details (OpenRouter's dialect)",
        },
      ],
    });
  });
});

describe("itemsToMessages, what Chat cannot hold", () => {
  test("throws when items is not an array", () => {
    expect(() => itemsToMessages({ items: { type: "message" } as never })).toThrow(TypeError);
  });

  test("a call still in progress is kept and its status reported", () => {
    const converted = itemsToMessages({ items: items([{ type: "function_call", call_id: "call_1", name: "a", arguments: '{"x":', status: "in_progress" }]) });
    expect(converted).toStrictEqual({
      value: [{ role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "a", arguments: '{"x":' } }] }],
      losses: [{ path: "/0/status", code: "unsupported_field", detail: 'Chat Completions cannot mark a call "in_progress"' }],
    });
  });

  test("a function_call without call_id gets a synthesized id, never its item id, and the output without call_id after it answers it", () => {
    const A = synthesizedId(1, "a", "{}");
    const converted = itemsToMessages({
      items: items([
        { type: "function_call", id: "fc_1", name: "a", arguments: "{}" },
        { type: "function_call_output", output: "done" },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        { role: "assistant", content: null, tool_calls: [{ id: A, type: "function", function: { name: "a", arguments: "{}" } }] },
        { role: "tool", tool_call_id: A, content: "done" },
      ],
      losses: [
        {
          path: "/0",
          code: "synthesized",
          detail: `a function_call without call_id: the tool call id "${A}" was synthesized; an output without call_id that follows answers it`,
        },
        { path: "/0/id", code: "unsupported_field", detail: `Chat Completions has no item ids; the call keeps its call_id "${A}"` },
        {
          path: "/1",
          code: "synthesized",
          detail: `a function_call_output without call_id answers the earliest call without call_id still unanswered: tool_call_id "${A}"`,
        },
      ],
    });
  });

  test("arguments that are not a string are written as they are and reported", () => {
    const converted = itemsToMessages({ items: items([{ type: "function_call", call_id: "call_1", name: "a", arguments: { city: "Lima" } }]) });
    expect(converted).toStrictEqual({
      value: [{ role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "a", arguments: { city: "Lima" } } }] }],
      losses: [
        {
          path: "/0/arguments",
          code: "target_rejects",
          detail: "arguments is an object, not a JSON string: written as it is, which Chat Completions rejects and the gate blocks (arguments_type)",
        },
      ],
    });
  });

  test("files by URL and images without a URL are reported", () => {
    const converted = itemsToMessages({
      items: items([
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_file", file_url: "https://example.com/a.pdf" },
            { type: "input_file", filename: "b.pdf", file_data: "data:application/pdf;base64,JVBERi0K", file_url: "https://example.com/b.pdf" },
            { type: "input_image", file_id: "file-123", detail: "auto" },
            { type: "input_image", image_url: "https://example.com/c.png", detail: null },
          ],
        },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        {
          role: "user",
          content: [
            { type: "file", file: { filename: "b.pdf", file_data: "data:application/pdf;base64,JVBERi0K" } },
            { type: "image_url", image_url: { url: "https://example.com/c.png" } },
          ],
        },
      ],
      losses: [
        { path: "/0/content/0", code: "unsupported_part", detail: "Chat Completions takes a file only as inline file_data" },
        { path: "/0/content/1/file_url", code: "unsupported_field", detail: "a Chat file has no file_url; the inline file_data is kept" },
        { path: "/0/content/2", code: "unsupported_part", detail: "an image without image_url cannot be sent to Chat Completions" },
      ],
    });
  });

  test("a developer message keeps only its text parts", () => {
    const converted = itemsToMessages({
      items: items([{ type: "message", role: "developer", content: [{ type: "input_text", text: "Be brief." }, { type: "input_image", image_url: "https://example.com/a.png" }] }]),
    });
    expect(converted).toStrictEqual({
      value: [{ role: "developer", content: [{ type: "text", text: "Be brief." }] }],
      losses: [{ path: "/0/content/1", code: "unsupported_part", detail: 'Chat takes only text parts here, not "input_image"' }],
    });
  });

  test("citations on one of several text parts, and logprobs, are reported", () => {
    const citation = { type: "url_citation", start_index: 0, end_index: 3, url: "https://example.com", title: "T" };
    const converted = itemsToMessages({
      items: items([
        {
          type: "message",
          role: "assistant",
          content: [
            { type: "output_text", text: "One", annotations: [citation], logprobs: [{ token: "One", logprob: -0.1, bytes: [79, 110, 101], top_logprobs: [] }] },
            { type: "output_text", text: "Two", annotations: [] },
          ],
        },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [{ role: "assistant", content: [{ type: "text", text: "One" }, { type: "text", text: "Two" }] }],
      losses: [
        { path: "/0/content/0/logprobs", code: "unsupported_field", detail: "a Chat history message has no logprobs" },
        { path: "/0/content/0/annotations", code: "unsupported_field", detail: "citations of one of several text parts have no place in a Chat message" },
      ],
    });
  });

  test("a cited text next to a refusal keeps its citations on the message", () => {
    const citation = { type: "url_citation", start_index: 0, end_index: 3, url: "https://example.com", title: "T" };
    const converted = itemsToMessages({
      items: items([
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "One", annotations: [citation] }, { type: "refusal", refusal: "No more." }] },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        {
          role: "assistant",
          content: [{ type: "text", text: "One" }, { type: "refusal", refusal: "No more." }],
          annotations: [{ type: "url_citation", url_citation: { end_index: 3, start_index: 0, title: "T", url: "https://example.com" } }],
        },
      ],
      losses: [],
    });
  });

  test("parts of the wrong side are reported, not renamed", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "message", role: "assistant", content: [{ type: "input_text", text: "Hello." }, { type: "output_text", text: "Hi.", annotations: [] }] },
        { type: "message", role: "user", content: [{ type: "output_text", text: "Hello." }] },
      ]),
    });
    expect(converted).toStrictEqual({
      value: [
        { role: "assistant", content: [{ type: "text", text: "Hi." }] },
        { role: "user", content: [] },
      ],
      losses: [
        { path: "/0/content/0", code: "unsupported_part", detail: 'a Chat assistant message cannot hold a "input_text" part' },
        { path: "/1/content/0", code: "unsupported_part", detail: 'a Chat user message cannot hold a "output_text" part' },
      ],
    });
  });

  test("a value that is not an object, and a message of no known role, are reported", () => {
    const converted = itemsToMessages({ items: items([42, { type: "message", role: "critic", content: "meh" }]) });
    expect(converted).toStrictEqual({
      value: [],
      losses: [
        { path: "/0", code: "unsupported_item", detail: "an item of type none (not an object) has no Chat Completions equivalent" },
        { path: "/1", code: "unsupported_item", detail: 'a message of role "critic" has no Chat Completions equivalent' },
      ],
    });
  });
});

describe("both converters, on any JSON", () => {
  // Shallow values keep each run fast; the shapes, not the sizes, find crashes.
  const json = fc.jsonValue({ maxDepth: 3 });
  const message = fc.record(
    {
      role: fc.constantFrom("system", "developer", "user", "assistant", "tool", "function", "model"),
      type: fc.constantFrom("message", "function_call", "function_call_output", "reasoning", "openai:web_search_call", "custom"),
      content: fc.oneof(fc.string(), fc.constant(null), fc.array(fc.record({ type: fc.constantFrom("text", "input_text", "output_text", "refusal", "image_url", "input_image", "file", "input_file", "input_audio"), text: json }, { requiredKeys: [] })), json),
      tool_calls: fc.oneof(fc.array(fc.record({ id: json, type: fc.constantFrom("function", "custom"), function: json, custom: json }, { requiredKeys: [] })), json),
      function_call: json,
      call_id: json,
      output: json,
      name: json,
      tool_call_id: json,
      annotations: json,
      refusal: json,
    },
    { requiredKeys: [] },
  );

  const isWellFormedLoss = (loss: Loss) => lossSchema.safeParse(loss).success && /^(\/[^/]*)+$/.test(loss.path);

  test("messagesToItems returns well-formed losses, never throws, on arrays of message-like values", () => {
    fc.assert(fc.property(fc.array(fc.oneof(message, json), { maxLength: 8 }), (values) => {
      const converted = messagesToItems({ messages: values as ChatMessage[] });
      return Array.isArray(converted.value) && converted.losses.every(isWellFormedLoss);
    }));
  });

  test("itemsToMessages returns well-formed losses, never throws, on arrays of item-like values", () => {
    fc.assert(fc.property(fc.array(fc.oneof(message, json), { maxLength: 8 }), (values) => {
      const converted = itemsToMessages({ items: values as CanonicalItem[] });
      return Array.isArray(converted.value) && converted.losses.every(isWellFormedLoss);
    }));
  });
});
