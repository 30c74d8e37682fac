// The message dialects a span or stored log writes, each read into canonical items,
// with the losses of the reading.
import { describe, expect, it } from "vitest";
import { readMessages } from "../../../adapters/spans/read-messages.js";
import type { ReaderLoss } from "../../../adapters/stored-log/reading.js";

function read(value: unknown, side: "input" | "output" = "input") {
  const losses: ReaderLoss[] = [];
  const { items, instructions } = readMessages(value, "/in", side, losses, "span1");
  return { items: items.map(({ item, path, pendingName }) => ({ item, path, ...(pendingName === undefined ? {} : { pendingName }) })), losses, ...(instructions ? { instructions } : {}) };
}

describe("Chat and LangChain messages", () => {
  it("LangChain's additional_kwargs.tool_calls are calls, after the message's text", () => {
    expect(read([{ role: "assistant", content: "Looking.", additional_kwargs: { tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: '{"q":"pears"}' } }] } }])).toEqual({
      items: [
        { item: { type: "message", role: "assistant", content: "Looking." }, path: "/in/0/content" },
        { item: { type: "function_call", call_id: "call_1", name: "search", arguments: '{"q":"pears"}', status: "completed" }, path: "/in/0/additional_kwargs/tool_calls/0" },
      ],
      losses: [],
    });
  });

  it("a tool message holding a tool's definition is no result, and says so", () => {
    expect(read([{ role: "tool", content: { type: "function", function: { name: "search", parameters: { type: "object" } } } }])).toEqual({
      items: [],
      losses: [{ path: "/in/0/content", code: "not_a_result", detail: 'a tool message that holds the definition of "search", not a result: not read as one', span: "span1" }],
    });
  });

  it("a result that names its tool but not its call waits for the conversation to pair it", () => {
    expect(read([{ role: "tool", name: "say_hello", content: '{"greeting": "hi"}' }])).toEqual({
      items: [{ item: { type: "function_call_output", output: '{"greeting": "hi"}' }, path: "/in/0", pendingName: "say_hello" }],
      losses: [],
    });
  });

  it("a completion's choice cut at the length limit makes its call incomplete", () => {
    expect(read({ object: "chat.completion", choices: [{ index: 0, finish_reason: "length", message: { role: "assistant", content: null, tool_calls: [{ id: "call_2", type: "function", function: { name: "plan", arguments: '{"rows":[1,' } }] } }] }, "output")).toEqual({
      items: [{ item: { type: "function_call", call_id: "call_2", name: "plan", arguments: '{"rows":[1,', status: "incomplete" }, path: "/in/choices/0/message/tool_calls/0" }],
      losses: [
        { path: "/in/choices/0/message/tool_calls/0/function/arguments", code: "truncated", detail: 'the arguments of "plan" are not JSON (cut short, or never JSON): copied as they are, and the gate will block the call', span: "span1" },
        { path: "/in/choices/0/message/tool_calls/0", code: "truncated", detail: 'the call of "plan" ends a message the model stopped at its length limit (finish reason "length"): its arguments may be cut, so it is incomplete', span: "span1" },
      ],
    });
  });
});

describe("Vercel AI SDK messages", () => {
  it("tool-call and tool-result parts, a v5 result unwrapped from its {type, value}", () => {
    expect(
      read([
        { role: "assistant", content: [{ type: "text", text: "Checking." }, { type: "tool-call", toolCallId: "call_3", toolName: "weather", input: { city: "Porto" } }] },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "call_3", toolName: "weather", output: { type: "json", value: { temperature: 19 } } }] },
      ]),
    ).toEqual({
      items: [
        { item: { type: "message", role: "assistant", content: [{ type: "output_text", text: "Checking." }] }, path: "/in/0/content" },
        { item: { type: "function_call", call_id: "call_3", name: "weather", arguments: '{"city":"Porto"}', status: "completed" }, path: "/in/0/content/1" },
        { item: { type: "function_call_output", call_id: "call_3", output: '{"temperature":19}' }, path: "/in/1/content/0" },
      ],
      losses: [{ path: "/in/0/content/1/input", code: "form_changed", detail: 'the arguments of "weather" were stored as parsed JSON: written as JSON text, members in their stored order', span: "span1" }],
    });
  });
});

describe("a message in two dialects at once", () => {
  it("calls written beside parts are read as well, and content beside parts is said not read", () => {
    const message = {
      role: "assistant",
      content: "ok",
      parts: [{ type: "tool_call", id: "c4", name: "weather", arguments: { city: "Porto" } }],
      tool_calls: [{ id: "c5", type: "function", function: { name: "weather", arguments: '{"city":"Lyon"}' } }],
    };
    const { items, losses } = read([message], "output");
    expect(items.map(({ item, path }) => [(item as { call_id?: string }).call_id, path])).toEqual([
      ["c4", "/in/0/parts/0"],
      ["c5", "/in/0/tool_calls/0"],
    ]);
    expect(losses.filter((loss) => loss.code === "unreadable")).toEqual([{ path: "/in/0/content", code: "unreadable", detail: "content beside parts, which the parts stand for: of no dialect orbridge reads, not read", span: "span1" }]);
  });
});

describe("Open Responses items and Response objects", () => {
  it("items are kept as they are; a Response's instructions are the system prompt", () => {
    const call = { arguments: '{"city":"Tokyo"}', call_id: "call_4", name: "get_weather", type: "function_call", id: "fc_1", status: "completed" };
    expect(read({ object: "response", instructions: "Be brief.", output: [call] }, "output")).toEqual({
      items: [{ item: call, path: "/in/output/0" }],
      losses: [],
      instructions: { item: { type: "message", role: "system", content: "Be brief." }, path: "/in/instructions" },
    });
  });
});

describe("Gemini and Google ADK contents", () => {
  it("an LlmRequest's system instruction and contents; a call without an id keeps none for the conversation to give", () => {
    expect(read({ config: { system_instruction: "Greet." }, contents: [{ role: "user", parts: [{ text: "hi" }] }, { role: "model", parts: [{ thought: true, text: "A greeting tool exists." }, { function_call: { name: "wave", args: {} } }] }] })).toEqual({
      items: [
        { item: { type: "message", role: "system", content: "Greet." }, path: "/in/config/system_instruction" },
        { item: { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }, path: "/in/contents/0/parts/0" },
        { item: { type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "A greeting tool exists." }] }, path: "/in/contents/1/parts/0" },
        { item: { type: "function_call", name: "wave", arguments: "{}", status: "completed" }, path: "/in/contents/1/parts/1" },
      ],
      losses: [{ path: "/in/contents/1/parts/1/function_call/args", code: "form_changed", detail: 'the arguments of "wave" were stored as parsed JSON: written as JSON text, members in their stored order', span: "span1" }],
    });
  });

  it("a candidate stopped at MAX_TOKENS makes its call incomplete", () => {
    expect(read({ candidates: [{ finishReason: "MAX_TOKENS", content: { role: "model", parts: [{ functionCall: { id: "fc-9", name: "plan", args: { rows: [1] } } }] } }] }, "output").items).toEqual([
      { item: { type: "function_call", call_id: "fc-9", name: "plan", arguments: '{"rows":[1]}', status: "incomplete" }, path: "/in/candidates/0/content/parts/0" },
    ]);
  });
});

describe("what no dialect holds", () => {
  it("a message of an unknown role is reported, not read", () => {
    expect(read([{ role: "narrator", content: "Once upon a time." }])).toEqual({
      items: [],
      losses: [{ path: "/in/0", code: "unreadable", detail: 'a message of role "narrator": of no dialect orbridge reads, not read', span: "span1" }],
    });
  });

  it("a part of no known type is an extension item, reported", () => {
    expect(read([{ role: "user", parts: [{ type: "text", content: "Look:" }, { type: "hologram", content: "3d" }] }])).toEqual({
      items: [
        { item: { type: "message", role: "user", content: [{ type: "input_text", text: "Look:" }] }, path: "/in/0/parts/0" },
        { item: { type: "otel:hologram", role: "user", part: { type: "hologram", content: "3d" } }, path: "/in/0/parts/1" },
      ],
      losses: [{ path: "/in/0/parts/1", code: "unknown_part", detail: 'a part of type "hologram" is of no dialect orbridge reads: kept as the extension item "otel:hologram"', span: "span1" }],
    });
  });
});

describe("a call id written as a JSON number", () => {
  const call = (id: number) => [{ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "search", arguments: "{}" } }] }];

  it("that a double holds exactly is read as its digits, and the change of form reported", () => {
    const { items, losses } = read(call(42));
    expect(items.map(({ item }) => item.call_id)).toEqual(["42"]);
    expect(losses).toEqual([{ path: "/in/0/tool_calls/0", code: "form_changed", detail: 'the id of the call of "search" is written as the number 42: read as the text "42"', span: "span1" }]);
  });

  it("wider than a double holds is no id, reported inexact_number, never the rounded digits", () => {
    const { items, losses } = read(call(JSON.parse("12345678901234567890") as number));
    expect(items.map(({ item }) => item.call_id)).toEqual([undefined]);
    expect(losses.map(({ code, path }) => [code, path])).toEqual([["inexact_number", "/in/0/tool_calls/0"]]);
  });
});

describe("a LangChain message's calls, said twice", () => {
  const message = (args: string) => [{ role: "assistant", content: "", tool_calls: [{ id: "call_1", name: "search", args: { q: "pears" }, type: "tool_call" }], additional_kwargs: { tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: args } }] } }];

  it("in tool_calls and in additional_kwargs.tool_calls alike: read once", () => {
    const { items, losses } = read(message('{"q": "pears"}'));
    expect(items.map(({ item }) => item.type)).toEqual(["function_call"]);
    expect(losses.filter((loss) => loss.code === "unreadable")).toEqual([]);
  });

  it("otherwise: neither is read, and it is unreadable", () => {
    const { items, losses } = read(message('{"q": "plums"}'));
    expect(items.filter(({ item }) => item.type === "function_call")).toEqual([]);
    expect(losses.filter((loss) => loss.code === "unreadable").map((loss) => loss.path)).toEqual(["/in/0/additional_kwargs/tool_calls"]);
  });
});

describe("several answers to one request, which are alternatives", () => {
  const searchCall = (id: string, q: string) => ({ id, type: "function", function: { name: "search", arguments: JSON.stringify({ q }) } });
  const alternatives = (path: string, answers: string) => ({ path, code: "unreadable", detail: `the call of "search" is in one of ${answers}, which are alternatives the reader cannot order: a conversation goes on from one of them, and no item says which, so it is not read`, span: "span1" });

  it("a completion's choices: their text read, their calls not, each unreadable", () => {
    const completion = {
      object: "chat.completion",
      choices: [
        { index: 0, message: { role: "assistant", content: "Pears are in season.", tool_calls: null }, finish_reason: "stop" },
        { index: 1, message: { role: "assistant", content: null, tool_calls: [searchCall("call_1", "pears")] }, finish_reason: "tool_calls" },
        { index: 2, message: { role: "assistant", content: null, tool_calls: [searchCall("call_2", "plums")] }, finish_reason: "tool_calls" },
      ],
    };
    expect(read(completion, "output")).toEqual({
      items: [{ item: { type: "message", role: "assistant", content: "Pears are in season." }, path: "/in/choices/0/message/content" }],
      losses: [alternatives("/in/choices/1/message/tool_calls/0", "the 3 choices of the completion"), alternatives("/in/choices/2/message/tool_calls/0", "the 3 choices of the completion")],
    });
  });

  it("a Gemini response's candidates: their calls not read", () => {
    const response = { candidates: [0, 1].map((index) => ({ index, content: { role: "model", parts: [{ functionCall: { id: `call_${index}`, name: "search", args: { q: "pears" } } }] }, finishReason: "STOP" })) };
    const { items, losses } = read(response, "output");
    expect(items).toEqual([]);
    expect(losses.filter((loss) => loss.code === "unreadable")).toEqual([alternatives("/in/candidates/0/content/parts/0", "the 2 candidates of the response"), alternatives("/in/candidates/1/content/parts/0", "the 2 candidates of the response")]);
  });

  it("a completion of one choice: its call read", () => {
    const { items } = read({ object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [searchCall("call_1", "pears")] }, finish_reason: "tool_calls" }] }, "output");
    expect(items).toEqual([{ item: { type: "function_call", call_id: "call_1", name: "search", arguments: '{"q":"pears"}', status: "completed" }, path: "/in/choices/0/message/tool_calls/0" }]);
  });
});
