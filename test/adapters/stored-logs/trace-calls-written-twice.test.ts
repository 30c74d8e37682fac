// A call a trace writes two ways that disagree (two spellings of a Gemini part,
// of a call's arguments or name, a flattened OpenInference level inside its
// wrapper and beside it) is read by one reader as one call and by another as
// another: it is not read, and said unreadable, which the gate blocks as a line
// of its own. Two spellings that agree are one call, read once.
import { describe, expect, test } from "vitest";
import { chatSpan, DELETE_FILE, gateVerdicts, GET_WEATHER, lossesOf, records } from "../../support/span-documents.js";

const user = JSON.stringify([{ role: "user", content: "Weather in Paris?" }]);
const output = (message: unknown) => chatSpan({ "gen_ai.input.messages": user, "gen_ai.output.messages": JSON.stringify([message]) });
const calls = (document: unknown) => records("otlp", document).filter((record) => record.type === "function_call");
const PARIS = '{"city":"Paris"}';
const PASSWD = '{"path":"/etc/passwd"}';

describe("a Gemini part with both function_call and functionCall", () => {
  const part = (second: unknown) => output({ role: "model", parts: [{ function_call: { id: "c1", name: "get_weather", args: { city: "Paris" } }, functionCall: second }] });

  test("that disagree: neither call is read, and the part is unreadable", () => {
    const document = part({ id: "c1", name: "delete_file", args: { path: "/etc/passwd" } });
    expect(calls(document)).toEqual([]);
    expect(lossesOf("otlp", document, "unreadable")).toEqual([
      { path: "/spans/0/attributes/gen_ai.output.messages", code: "unreadable", detail: "the call is written twice, as function_call and as functionCall, which disagree: two readers read two values, so it is not read (at /0/parts/0 in its JSON text)", span: "s1" },
    ]);
  });

  test("that agree, members in another order: one call", () => {
    expect(calls(part({ name: "get_weather", args: { city: "Paris" }, id: "c1" }))).toEqual([{ type: "function_call", call_id: "c1", name: "get_weather", arguments: PARIS, status: "completed" }]);
  });

  test("the gate blocks the part as a line of its own", async () => {
    expect(await gateVerdicts(part({ id: "c1", name: "delete_file", args: { path: "/etc/passwd" } }), [GET_WEATHER, DELETE_FILE])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["error", true]] });
  });
});

describe("a Chat tool call whose members say two calls", () => {
  const toolCall = (call: Record<string, unknown>) => output({ role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", ...call }] });

  test("function.arguments and function.args", () => {
    const document = toolCall({ function: { name: "get_weather", arguments: PARIS, args: PASSWD } });
    expect(calls(document)).toEqual([]);
    expect(lossesOf("otlp", document, "unreadable").map((loss) => loss.detail)).toEqual([
      "the tool call's arguments are written twice, as function/arguments and as function/args, which disagree: two readers read two values, so it is not read (at /0/tool_calls/0 in its JSON text)",
    ]);
  });

  test("function {name, arguments} and a name and arguments of the call itself", () => {
    const document = toolCall({ function: { name: "get_weather", arguments: PARIS }, name: "delete_file", arguments: PASSWD });
    expect(calls(document)).toEqual([]);
    expect(lossesOf("otlp", document, "unreadable").map((loss) => loss.detail)).toEqual([
      "the tool call's name is written twice, as function/name and as name, which disagree: two readers read two values, so it is not read (at /0/tool_calls/0 in its JSON text)",
    ]);
  });

  test("spellings that agree (text and parsed, spaced otherwise) are one call, read from function.arguments", () => {
    expect(calls(toolCall({ function: { name: "get_weather", arguments: PARIS, args: { city: "Paris" } }, name: "get_weather", arguments: '{ "city": "Paris" }' }))).toEqual([
      { type: "function_call", call_id: "call_1", name: "get_weather", arguments: PARIS, status: "completed" },
    ]);
  });
});

test("an OTel tool_call part with arguments and input that disagree is not read", () => {
  const document = output({ role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "get_weather", arguments: PARIS, input: PASSWD }] });
  expect(calls(document)).toEqual([]);
  expect(lossesOf("otlp", document, "unreadable").map((loss) => loss.detail)).toEqual([
    'the arguments of the call of "get_weather" are written twice, as arguments and as input, which disagree: two readers read two values, so it is not read (at /0/parts/0 in its JSON text)',
  ]);
});

describe("a Vercel tool call with input and args", () => {
  const vercel = (call: Record<string, unknown>) => ({ spans: [{ name: "ai.generateText.doGenerate", context: { trace_id: "t1", span_id: "s1" }, start_time: 1, attributes: { "gen_ai.operation.name": "chat", "ai.prompt.messages": JSON.stringify([{ role: "user", content: [{ type: "text", text: "hi" }] }]), "ai.response.toolCalls": JSON.stringify([{ toolCallId: "c1", toolName: "get_weather", ...call }]) } }] });

  test("that disagree: not read", () => {
    const document = vercel({ input: PARIS, args: PASSWD });
    expect(calls(document)).toEqual([]);
    expect(lossesOf("otlp", document, "unreadable").map((loss) => loss.path)).toEqual(["/spans/0/attributes/ai.response.toolCalls"]);
  });

  test("that agree: one call, from input", () => {
    expect(calls(vercel({ input: PARIS, args: { city: "Paris" } }))).toEqual([{ type: "function_call", call_id: "c1", name: "get_weather", arguments: PARIS, status: "completed" }]);
  });
});

describe("OpenInference levels written inside their wrapper and beside it", () => {
  const openInference = (attributes: Record<string, unknown>) => ({
    spans: [{ name: "ChatCompletion", context: { trace_id: "t1", span_id: "s1" }, start_time: 1, attributes: { "openinference.span.kind": "LLM", "llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "weather?", "llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.tool_calls.0.tool_call.id": "call_1", "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "get_weather", "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": PARIS, ...attributes } }],
  });

  test("a message's tool_calls under message and beside it: the message is not read", () => {
    const document = openInference({ "llm.output_messages.0.tool_calls.0.tool_call.id": "call_2", "llm.output_messages.0.tool_calls.0.tool_call.function.name": "delete_file", "llm.output_messages.0.tool_calls.0.tool_call.function.arguments": PASSWD });
    expect(calls(document)).toEqual([]);
    expect(lossesOf("otlp", document, "unreadable")).toEqual([
      { path: "/spans/0/attributes/llm.output_messages.0.message.role", code: "unreadable", detail: "the message is written twice, inside message and beside it, and the two disagree on tool_calls: two readers read two values, so it is not read", span: "s1" },
    ]);
  });

  test("a call's function under tool_call and beside it: the call is not read", () => {
    const document = openInference({ "llm.output_messages.0.message.tool_calls.0.function.name": "delete_file", "llm.output_messages.0.message.tool_calls.0.function.arguments": PASSWD });
    expect(calls(document)).toEqual([]);
    expect(lossesOf("otlp", document, "unreadable").map((loss) => loss.detail)).toEqual([
      "the tool call is written twice, inside tool_call and beside it, and the two disagree on function: two readers read two values, so it is not read (at its message's tool_calls/0)",
    ]);
  });

  test("a level beside its wrapper that says the same is read once", () => {
    const document = openInference({ "llm.output_messages.0.role": "assistant", "llm.output_messages.0.message.tool_calls.0.function.name": "get_weather", "llm.output_messages.0.message.tool_calls.0.function.arguments": '{ "city": "Paris" }' });
    expect(calls(document)).toEqual([{ type: "function_call", call_id: "call_1", name: "get_weather", arguments: PARIS, status: "completed" }]);
    expect(lossesOf("otlp", document, "unreadable")).toEqual([]);
  });
});
