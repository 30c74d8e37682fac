// A streamed LangChain AIMessageChunk holds its calls twice: parsed in
// tool_calls, and as the chunks they streamed in (tool_call_chunks, one index
// per call after LangChain merged a stream's fragments, args as text). LangChain
// makes a call of each entry; where those are the message's calls, it is read as
// before, and where they name another call (another name, id, arguments, a call
// of their own) or cannot be read one way (two entries of one index, which a
// reader joining fragments takes for one call), none of the message's calls is
// read and each place is unreadable, which the gate blocks. The chunks were left behind, and the
// message's tool_calls run whatever the chunks said.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { DELETE_FILE, gateVerdicts, generation, LIST_FILES, records, stringAttributes as attributes } from "../../support/span-documents.js";

const user = [{ role: "user", content: "Delete /tmp/x" }];
const call = (args: Record<string, unknown>, id = "call_1", name = "delete_file") => ({ name, args, id, type: "tool_call" });
const chunk = (name: string | null, args: string | null, id: string | null, index: number | null) => ({ name, args, id, index, type: "tool_call_chunk" });

/** An AIMessageChunk as model_dump writes it, in its field order. */
const aiMessageChunk = (toolCalls: unknown[], toolCallChunks: unknown) => ({
  content: "",
  additional_kwargs: {},
  response_metadata: { finish_reason: "tool_calls", model_name: "gpt-4o-2024-08-06" },
  type: "ai",
  name: null,
  id: "run--06f4147e-6dc2-4078-a368-096c05261f12",
  example: false,
  tool_calls: toolCalls,
  invalid_tool_calls: [],
  usage_metadata: null,
  tool_call_chunks: toolCallChunks,
});

/** The same message as dumpd writes it. */
const dumpd = (message: Record<string, unknown>) => {
  const { type: _type, ...kwargs } = message;
  return { lc: 1, type: "constructor", id: ["langchain", "schema", "messages", "AIMessageChunk"], kwargs };
};

function reading(reader: "otlp" | "langfuse", document: unknown) {
  const { records, losses } = READERS[reader].read(document);
  return {
    calls: records.map(({ record }) => record as Record<string, unknown>).filter((record) => record.type === "function_call"),
    said: losses.filter((loss) => loss.code === "unreadable" || loss.code === "conflict").map(({ path, code, detail }) => ({ path, code, detail })),
  };
}

const theCall = { type: "function_call", call_id: "call_1", name: "delete_file", arguments: '{"path":"/tmp/x"}', status: "completed" };
const notRead = "two readers see two calls, so none of the message's calls is read";
const OUTPUT = "/observations/0/output";

describe("a GENERATION's answer whose chunks stream its calls", () => {
  for (const [form, chunks] of [
    ["one merged chunk per index", [chunk("delete_file", '{"path":"/tmp/x"}', "call_1", 0)]],
    ["chunks without an index, as LangChain makes them from tool_calls, JSON spaced otherwise", [chunk("delete_file", '{"path": "/tmp/x"}', "call_1", null)]],
  ] as const) {
    test(`${form}: read as the message without chunks is`, () => {
      const withChunks = READERS.langfuse.read(generation(user, aiMessageChunk([call({ path: "/tmp/x" })], chunks)));
      const without = READERS.langfuse.read(generation(user, aiMessageChunk([call({ path: "/tmp/x" })], [])));
      expect(withChunks.records).toEqual(without.records);
      expect(withChunks.losses).toEqual(without.losses);
      expect(reading("langfuse", generation(user, aiMessageChunk([call({ path: "/tmp/x" })], chunks)))).toEqual({ calls: [theCall], said: [] });
    });
  }

  test("a call without parameters whose chunks stream no fragment: the same call", () => {
    expect(reading("langfuse", generation(user, aiMessageChunk([call({}, "call_2", "list_files")], [chunk("list_files", "", "call_2", 0)])))).toEqual({
      calls: [{ type: "function_call", call_id: "call_2", name: "list_files", arguments: "{}", status: "completed" }],
      said: [],
    });
  });

  test("dumpd's constructor of an AIMessageChunk is read the same way", () => {
    expect(reading("langfuse", generation(user, dumpd(aiMessageChunk([call({ path: "/tmp/x" })], [chunk("delete_file", '{"path":"/tmp/x"}', "call_1", 0)]))))).toEqual({ calls: [theCall], said: [] });
  });
});

describe("a GENERATION's answer whose chunks stream other calls", () => {
  for (const [form, chunks, said] of [
    ["other arguments", [chunk("delete_file", '{"path":"/etc"}', "call_1", 0)], { path: `${OUTPUT}/tool_call_chunks/0/args`, detail: `tool_call_chunks whose args joined, "{\\"path\\":\\"/etc\\"}", are other arguments of "delete_file" than tool_calls give it: ${notRead}` }],
    // Joined, the fragments are the message's call; LangChain, which reads each entry as a call, deletes /tmp/x.
    ["the fragments of one index, joined the message's call", [chunk("delete_file", '{"path":"/tmp/x', "call_1", 0), chunk(null, '/keep"}', null, 0)], { path: `${OUTPUT}/tool_call_chunks/1/index`, detail: `a tool call chunk whose index 0 chunk 0 gives too (LangChain makes a call of each, a reader joining fragments by index one), which joins into no one list of calls: ${notRead}` }],
    ["another name", [chunk("list_files", '{"path":"/tmp/x"}', "call_1", 0)], { path: `${OUTPUT}/tool_call_chunks/0/name`, detail: `tool_call_chunks that name call 0 "list_files", where tool_calls name it "delete_file": ${notRead}` }],
    ["another id", [chunk("delete_file", '{"path":"/tmp/x"}', "call_9", 0)], { path: `${OUTPUT}/tool_call_chunks/0/id`, detail: `tool_call_chunks that give the call of "delete_file" the id "call_9", where tool_calls give it "call_1": ${notRead}` }],
    ["a call of their own", [chunk("delete_file", '{"path":"/tmp/x"}', "call_1", 0), chunk("delete_file", '{"path":"/"}', "call_2", 1)], { path: `${OUTPUT}/tool_call_chunks/1`, detail: `tool_call_chunks that stream a call of "delete_file" the message's tool_calls do not hold: ${notRead}` }],
    ["args stored parsed", [{ ...chunk("delete_file", null, "call_1", 0), args: { path: "/" } }], { path: `${OUTPUT}/tool_call_chunks/0/args`, detail: `a tool call chunk whose args are no text, which joins into no one list of calls: ${notRead}` }],
    ["a chunk that names no call", [chunk("delete_file", '{"path":"/tmp/x"}', "call_1", 0), chunk(null, '{"path":"/"}', null, 1)], { path: `${OUTPUT}/tool_call_chunks/1`, detail: `a tool call chunk that names no call, which joins into no one list of calls: ${notRead}` }],
  ] as const) {
    test(`${form}: unreadable at the chunk's field, and no call read`, () => {
      expect(reading("langfuse", generation(user, aiMessageChunk([call({ path: "/tmp/x" })], chunks)))).toEqual({ calls: [], said: [{ ...said, code: "unreadable" }] });
    });
  }

  test("a call in tool_calls that the chunks do not stream: unreadable at the call", () => {
    const calls = [call({ path: "/tmp/x" }), call({ dir: "." }, "call_2", "list_files")];
    expect(reading("langfuse", generation(user, aiMessageChunk(calls, [chunk("delete_file", '{"path":"/tmp/x"}', "call_1", 0)])))).toEqual({
      calls: [],
      said: [{ path: `${OUTPUT}/tool_calls/1`, code: "unreadable", detail: `a call of "list_files" that the message's tool_call_chunks do not stream: ${notRead}` }],
    });
  });

  test("chunks beside a message whose only calls are in additional_kwargs: compared with those", () => {
    const message = { role: "assistant", content: "", additional_kwargs: { tool_calls: [{ id: "call_1", type: "function", function: { name: "delete_file", arguments: '{"path":"/tmp/x"}' } }] }, tool_call_chunks: [chunk("delete_file", '{"path":"/etc"}', "call_1", 0)] };
    expect(reading("langfuse", generation(user, message)).said).toEqual([
      { path: `${OUTPUT}/tool_call_chunks/0/args`, code: "unreadable", detail: `tool_call_chunks whose args joined, "{\\"path\\":\\"/etc\\"}", are other arguments of "delete_file" than additional_kwargs.tool_calls give it: ${notRead}` },
    ]);
  });

  test("the gate runs nothing: the chunks' call is an unreadable line, where the message's call passed", async () => {
    const document = generation(user, aiMessageChunk([call({ path: "/tmp/x" })], [chunk("delete_file", '{"path":"/"}', "call_1", 0)]));
    expect(await gateVerdicts(document, [DELETE_FILE, LIST_FILES])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["error", true]] });
  });
});

describe("chunks elsewhere than an answer's message", () => {
  const llmSpan = {
    traceId: "t1", spanId: "l1", parentSpanId: "c1", name: "ChatOpenAI", startTimeUnixNano: "2000",
    attributes: attributes({
      "openinference.span.kind": "LLM",
      "llm.input_messages.0.message.role": "user",
      "llm.input_messages.0.message.content": "Delete /tmp/x",
      "llm.output_messages.0.message.role": "assistant",
      "llm.output_messages.0.message.tool_calls.0.tool_call.id": "call_1",
      "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "delete_file",
      "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": '{"path":"/tmp/x"}',
    }),
  };
  const chainSpan = (output: unknown) => ({ traceId: "t1", spanId: "c1", name: "agent", startTimeUnixNano: "1000", attributes: attributes({ "openinference.span.kind": "CHAIN", "output.value": JSON.stringify(output) }) });
  const otlp = (...spans: unknown[]) => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
  const OUTPUT_VALUE = "/resourceSpans/0/scopeSpans/0/spans/0/attributes/1/value/stringValue";

  test("a LangGraph state whose message's chunks agree with the LLM call's call: nothing said", () => {
    expect(reading("otlp", otlp(chainSpan({ messages: [aiMessageChunk([call({ path: "/tmp/x" })], [chunk("delete_file", '{"path":"/tmp/x"}', "call_1", 0)])] }), llmSpan))).toEqual({ calls: [theCall], said: [] });
  });

  test("a LangGraph state whose message holds a call in its chunks only: unreadable", () => {
    const message = { type: "ai", content: "", tool_call_chunks: [chunk("delete_file", '{"path":"/"}', "call_2", 0)] };
    expect(reading("otlp", otlp(chainSpan({ messages: [message] }), llmSpan))).toEqual({
      calls: [theCall],
      said: [{ path: OUTPUT_VALUE, code: "unreadable", detail: "the attribute output.value of a span of kind CHAIN holds a tool call (at /messages/0/tool_call_chunks/0 in it), of no form orbridge reads, and a span of kind CHAIN is read as no LLM call: not read" }],
    });
  });

  test("a tool message that writes chunks of a call: unreadable", () => {
    const input = [...user, { role: "tool", content: "deleted", tool_call_id: "call_1", tool_call_chunks: [chunk("delete_file", '{"path":"/"}', "call_2", 0)] }];
    expect(reading("langfuse", generation(input, { role: "assistant", content: "Done." })).said).toEqual([
      { path: "/observations/0/input/1/tool_call_chunks", code: "unreadable", detail: "a call written in a tool message, which answers a call and makes none: of no dialect orbridge reads, not read" },
    ]);
  });
});

// model_dump of a streamed message writes its class as its type
// (AIMessageChunk), where the whole message writes its role's (ai); so does
// message_to_dict's {type, data}. Each is read as the message of that role,
// its chunks compared with its calls.
describe("a LangChain chunk class written as its type", () => {
  const streamed = (toolCalls: unknown[], toolCallChunks: unknown, invalid: unknown[] = []) => ({ ...aiMessageChunk(toolCalls, toolCallChunks), type: "AIMessageChunk", invalid_tool_calls: invalid });
  const agreeing = streamed([call({ path: "/tmp/x" })], [chunk("delete_file", '{"path":"/tmp/x"}', "call_1", 0)]);

  test("model_dump of an AIMessageChunk whose chunks stream its call: its call read", () => {
    expect(reading("langfuse", generation(user, agreeing))).toEqual({ calls: [theCall], said: [] });
  });

  test("message_to_dict's {type: AIMessageChunk, data}: its call read", () => {
    expect(reading("langfuse", generation(user, { type: "AIMessageChunk", data: agreeing }))).toEqual({ calls: [theCall], said: [] });
  });

  test("model_dump of an AIMessageChunk whose chunks stream another call: unreadable, no call read", () => {
    expect(reading("langfuse", generation(user, streamed([call({ path: "/tmp/x" })], [chunk("delete_file", '{"path":"/"}', "call_1", 0)])))).toEqual({
      calls: [],
      said: [{ path: `${OUTPUT}/tool_call_chunks/0/args`, code: "unreadable", detail: `tool_call_chunks whose args joined, "{\\"path\\":\\"/\\"}", are other arguments of "delete_file" than tool_calls give it: ${notRead}` }],
    });
  });

  test("a call LangChain could not parse, in invalid_tool_calls and its chunks: unreadable at both, no call read, and the gate runs nothing", async () => {
    const invalid = streamed([], [chunk("delete_file", '{"path":', "call_1", 0)], [{ name: "delete_file", args: '{"path":', id: "call_1", error: null, type: "invalid_tool_call" }]);
    expect(reading("langfuse", generation(user, invalid))).toEqual({
      calls: [],
      said: [
        { path: `${OUTPUT}/invalid_tool_calls`, code: "unreadable", detail: "invalid_tool_calls of the message holds a tool call, of no dialect orbridge reads: not read" },
        { path: `${OUTPUT}/tool_call_chunks/0`, code: "unreadable", detail: `tool_call_chunks that stream a call of "delete_file" the message's tool_calls do not hold: ${notRead}` },
      ],
    });
    expect(await gateVerdicts(generation(user, invalid), [DELETE_FILE])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["not_function_call", false], ["error", true], ["error", true]] });
  });

  test("the request's HumanMessageChunk, AIMessageChunk and ToolMessageChunk: a user message, the call and its result", () => {
    const human = { content: "Delete /tmp/x", additional_kwargs: {}, response_metadata: {}, type: "HumanMessageChunk", name: null, id: null, example: false };
    const tool = { content: "deleted", additional_kwargs: {}, response_metadata: {}, type: "ToolMessageChunk", name: null, id: null, tool_call_id: "call_1", artifact: null, status: "success" };
    expect(records("langfuse", generation([human, agreeing, tool], { ...aiMessageChunk([], []), type: "AIMessageChunk", content: "Done." }))).toEqual([
      { type: "message", role: "user", content: "Delete /tmp/x" },
      theCall,
      { type: "function_call_output", call_id: "call_1", output: "deleted" },
      { type: "message", role: "assistant", content: "Done." },
    ]);
  });

  test("message_to_dict's {type: ChatMessageChunk, data} is read by its role, and without one is of no role", () => {
    const chat = (fields: Record<string, unknown>) => ({ content: "Done.", additional_kwargs: {}, response_metadata: {}, type: "ChatMessageChunk", name: null, id: null, ...fields });
    expect(records("langfuse", generation(user, { type: "ChatMessageChunk", data: chat({ role: "assistant" }) })).at(-1)).toEqual({ type: "message", role: "assistant", content: "Done." });
    expect(reading("langfuse", generation(user, chat({}))).said).toEqual([{ path: OUTPUT, code: "unreadable", detail: 'a message of role "ChatMessageChunk": of no dialect orbridge reads, not read' }]);
  });
});
