// OpenInference writes a chain's inputs and outputs (LangChain, LangGraph,
// LlamaIndex agents) as JSON text in input.value and output.value of a span of
// kind CHAIN, which is read as no LLM call. A tool call there is passed along by
// the framework, and run by whoever reads the chain: it must be a call the
// trace's LLM calls hold. One none holds is unreadable, one that gives a call's
// id to other arguments withdraws that call, one of no form orbridge reads is
// unreadable at its place; a chain whose values hold no call says nothing.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { DELETE_FILE, gateVerdicts, stringAttributes as attributes } from "../../support/span-documents.js";


/** openinference-instrumentation-langchain's LLM span of the model's answer: one call of delete_file. */
const llmSpan = {
  traceId: "t1", spanId: "l1", parentSpanId: "c1", name: "ChatOpenAI", startTimeUnixNano: "2000",
  attributes: attributes({
    "openinference.span.kind": "LLM",
    "llm.input_messages.0.message.role": "user",
    "llm.input_messages.0.message.content": "clean up",
    "llm.output_messages.0.message.role": "assistant",
    "llm.output_messages.0.message.tool_calls.0.tool_call.id": "call_1",
    "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "delete_file",
    "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": '{"path": "/tmp/x"}',
  }),
};

/** LangChain's AIMessage as the instrumentation's JSON encoder writes it (model_dump): the call in tool_calls and in additional_kwargs. */
const aiMessage = (args: Record<string, unknown>, id = "call_1") => ({
  content: "",
  additional_kwargs: { tool_calls: [{ id, type: "function", function: { name: "delete_file", arguments: JSON.stringify(args) } }] },
  response_metadata: { finish_reason: "tool_calls" },
  type: "ai",
  name: null,
  id: "run-1",
  tool_calls: [{ name: "delete_file", args, id, type: "tool_call" }],
  invalid_tool_calls: [],
  usage_metadata: null,
});

const chainSpan = (output: unknown) => ({
  traceId: "t1", spanId: "c1", name: "agent", startTimeUnixNano: "1000",
  attributes: attributes({ "openinference.span.kind": "CHAIN", "input.value": '{"messages": [["user", "clean up"]]}', "output.value": JSON.stringify(output), "output.mime_type": "application/json" }),
});

const otlp = (...spans: unknown[]) => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
const OUTPUT_VALUE = "/resourceSpans/0/scopeSpans/0/spans/0/attributes/2/value/stringValue";

function reading(reader: "otlp" | "jaeger" | "langfuse", document: unknown) {
  const { records, losses } = READERS[reader].read(document);
  return {
    calls: records.map(({ record }) => record as Record<string, unknown>).filter((record) => record.type === "function_call").map(({ call_id, arguments: args, status }) => ({ call_id, arguments: args, status })),
    said: losses.filter((loss) => loss.code === "unreadable" || loss.code === "conflict").map(({ path, code, detail }) => ({ path, code, detail })),
  };
}

const theCall = { call_id: "call_1", arguments: '{"path": "/tmp/x"}', status: "completed" };

describe("a CHAIN span whose output.value repeats the LLM call's call", () => {
  for (const [form, output] of [
    ["a LangGraph state of AIMessage dumps", { messages: [aiMessage({ path: "/tmp/x" })] }],
    ["LangChain's message_to_dict form, {type, data}", { messages: [{ type: "ai", data: aiMessage({ path: "/tmp/x" }) }] }],
    ["a graph node's update, one level further", { agent: { messages: [aiMessage({ path: "/tmp/x" })] } }],
    ["the output's JSON text inside it (a string value)", { output: JSON.stringify(aiMessage({ path: "/tmp/x" })) }],
    ["a LlamaIndex AgentOutput with its ToolSelection", { response: { role: "assistant", additional_kwargs: { tool_calls: [{ id: "call_1", type: "function", function: { name: "delete_file", arguments: '{"path":"/tmp/x"}' } }] }, blocks: [] }, tool_calls: [{ tool_id: "call_1", tool_name: "delete_file", tool_kwargs: { path: "/tmp/x" } }], raw: null }],
    ["Responses items", [{ type: "function_call", call_id: "call_1", name: "delete_file", arguments: '{"path":"/tmp/x"}' }]],
    ["a Gemini content", { content: { role: "model", parts: [{ function_call: { id: "call_1", name: "delete_file", args: { path: "/tmp/x" } } }] } }],
  ] as const) {
    test(`${form}: the call is read once, nothing more said`, () => {
      expect(reading("otlp", otlp(chainSpan(output), llmSpan))).toEqual({ calls: [theCall], said: [] });
    });
  }
});

describe("a CHAIN span whose output.value holds no call", () => {
  for (const [form, output] of [
    ["an answer of text, its tool_calls and invalid_tool_calls empty", { messages: [{ ...aiMessage({}), content: "done", additional_kwargs: {}, tool_calls: [] }] }],
    ["prose that names tool_calls", "the tool_calls are done"],
    ["a tool message's result", { messages: [{ type: "tool", content: "deleted", tool_call_id: "call_1", name: "delete_file" }] }],
  ] as const) {
    test(`${form}: nothing said, and no call`, () => {
      expect(reading("otlp", otlp(chainSpan(output)))).toEqual({ calls: [], said: [] });
    });
  }
});

test("a CHAIN span whose output.value is JSON text cut short, with escapes and no call: nothing said", () => {
  const chain = { ...chainSpan(null), attributes: attributes({ "openinference.span.kind": "CHAIN", "output.value": '{"messages": [{"type": "ai", "content": "caf\\u00e9 au lait' }) };
  expect(reading("otlp", otlp(chain))).toEqual({ calls: [], said: [] });
});

describe("a CHAIN span whose output.value holds a call no LLM call holds", () => {
  test("alone in its trace: unreadable, not read", () => {
    expect(reading("otlp", otlp(chainSpan({ messages: [aiMessage({ path: "/tmp/x" })] })))).toEqual({
      calls: [],
      said: [{ path: OUTPUT_VALUE, code: "unreadable", detail: 'the attribute output.value of a span of kind CHAIN holds a call of "delete_file" with {"path":"/tmp/x"} that no LLM call of the trace holds, and a span of kind CHAIN is read as no LLM call: not read' }],
    });
  });

  test("the gate blocks it as a line of its own", async () => {
    expect(await gateVerdicts(otlp(chainSpan({ messages: [aiMessage({ path: "/tmp/x" })] })), [DELETE_FILE])).toEqual({ code: 1, verdicts: [["error", true]] });
  });

  test("a ToolSelection of another call: unreadable", () => {
    expect(reading("otlp", otlp(chainSpan({ tool_calls: [{ tool_id: "call_2", tool_name: "delete_file", tool_kwargs: { path: "/" } }] }), llmSpan)).said).toEqual([
      { path: OUTPUT_VALUE, code: "unreadable", detail: 'the attribute output.value of a span of kind CHAIN holds a call of "delete_file" with {"path":"/"} that no LLM call of the trace holds, and a span of kind CHAIN is read as no LLM call: not read' },
    ]);
  });

  test("the LLM call's id with other arguments: the call is withdrawn, each copy a conflict, and the gate runs nothing", async () => {
    const document = otlp(chainSpan({ messages: [aiMessage({ path: "/etc" })] }), llmSpan);
    expect(reading("otlp", document)).toEqual({
      calls: [],
      said: [
        { path: "/resourceSpans/0/scopeSpans/0/spans/1/attributes/3/value/stringValue", code: "conflict", detail: 'the call "call_1" is recorded in ways that disagree: two readers would run two calls, so none is read' },
        { path: OUTPUT_VALUE, code: "conflict", detail: 'the attribute output.value of a span of kind CHAIN records the call "call_1" as "delete_file" with {"path":"/etc"}: two readers would run two calls, so none is read' },
      ],
    });
    expect((await gateVerdicts(document, [DELETE_FILE])).verdicts.filter(([reason]) => reason === "ok")).toEqual([]);
  });

  test("spelled with escapes of its member names: read all the same", () => {
    const escaped = JSON.stringify({ messages: [aiMessage({ path: "/etc" })] }).replace(/tool_calls/g, "\\u0074ool_calls").replace(/"args"/g, '"\\u0061rgs"');
    const chain = { ...chainSpan(null), attributes: attributes({ "openinference.span.kind": "CHAIN", "output.value": escaped }) };
    expect(reading("otlp", otlp(chain, llmSpan)).said.map(({ code }) => code)).toEqual(["conflict", "conflict"]);
  });

  test("in a form no dialect reads: unreadable at its place", () => {
    expect(reading("otlp", otlp(chainSpan({ messages: [{ type: "ai", content: "", tool_calls: [{ fn: "delete_file" }] }] }), llmSpan)).said).toEqual([
      { path: OUTPUT_VALUE, code: "unreadable", detail: "the attribute output.value of a span of kind CHAIN holds a tool call (at /messages/0/tool_calls/0 in it), of no form orbridge reads, and a span of kind CHAIN is read as no LLM call: not read" },
    ]);
  });

  test("JSON text cut short that names a call: unreadable", () => {
    const chain = { ...chainSpan(null), attributes: attributes({ "openinference.span.kind": "CHAIN", "output.value": JSON.stringify({ messages: [aiMessage({ path: "/etc" })] }).slice(0, 200) }) };
    expect(reading("otlp", otlp(chain, llmSpan)).said).toEqual([
      { path: "/resourceSpans/0/scopeSpans/0/spans/0/attributes/1/value/stringValue", code: "unreadable", detail: "the attribute output.value of a span of kind CHAIN holds JSON text that does not parse and names a tool call, of no form orbridge reads, and a span of kind CHAIN is read as no LLM call: not read" },
    ]);
  });
});

test("a Jaeger export reads a CHAIN span's output.value tag alike", () => {
  const tags = (span: { attributes: Array<{ key: string; value: { stringValue: string } }> }) => span.attributes.map(({ key, value }) => ({ key, type: "string", value: value.stringValue }));
  const chain = chainSpan({ messages: [aiMessage({ path: "/tmp/x" })] });
  const document = { data: [{ traceID: "t1", spans: [{ traceID: "t1", spanID: "c1", operationName: "agent", references: [], startTime: 1, tags: tags(chain) }] }] };
  expect(reading("jaeger", document)).toEqual({
    calls: [],
    said: [{ path: "/data/0/spans/0/tags/2/value", code: "unreadable", detail: 'the attribute output.value of a span of kind CHAIN holds a call of "delete_file" with {"path":"/tmp/x"} that no LLM call of the trace holds, and a span of kind CHAIN is read as no LLM call: not read' }],
  });
});

test("a Langfuse CHAIN observation's output, a graph node's update one level down, is looked into", () => {
  const document = { trace: { id: "tr1" }, observations: [{ id: "o1", traceId: "tr1", type: "CHAIN", startTime: "2026-01-01T00:00:00.000Z", input: null, output: { agent: { messages: [aiMessage({ path: "/tmp/x" })] } } }] };
  expect(reading("langfuse", document)).toEqual({
    calls: [],
    said: [{ path: "/observations/0/output", code: "unreadable", detail: 'the CHAIN observation\'s output holds a call of "delete_file" with {"path":"/tmp/x"} that no LLM call of the trace holds, and an observation of type CHAIN is read as no LLM call: not read' }],
  });
});

test("a CHAIN span whose output.value holds an item of a call's type no dialect reads as a call (local_shell_call): unreadable", () => {
  const output = [{ type: "local_shell_call", id: "lsh_1", call_id: "call_9", action: { type: "exec", command: ["rm", "-rf", "/"] }, status: "completed" }];
  expect(reading("otlp", otlp(chainSpan(output), llmSpan)).said).toEqual([
    { path: OUTPUT_VALUE, code: "unreadable", detail: "the attribute output.value of a span of kind CHAIN holds a tool call (at /0 in it), of no form orbridge reads, and a span of kind CHAIN is read as no LLM call: not read" },
  ]);
});

describe("a CHAIN span's attribute of an LLM namespace that holds an item of a call's type and names no call's member", () => {
  const chain = (value: string) => ({ traceId: "t1", spanId: "c1", name: "agent", startTimeUnixNano: "1000", attributes: attributes({ "openinference.span.kind": "CHAIN", "gen_ai.completion": value }) });

  test("a local_shell_call item as JSON text: unreadable", () => {
    const items = [{ type: "local_shell_call", id: "lsh_1", call_id: "call_9", action: { type: "exec", command: ["rm", "-rf", "/"] }, status: "completed" }];
    expect(reading("otlp", otlp(chain(JSON.stringify(items))))).toEqual({
      calls: [],
      said: [{ path: "/resourceSpans/0/scopeSpans/0/spans/0/attributes/1/value/stringValue", code: "unreadable", detail: "the attribute gen_ai.completion holds a tool call in no form a dialect reads, and the span is read as no LLM call: not read" }],
    });
  });

  test("prose that says _call: nothing said", () => {
    expect(reading("otlp", otlp(chain("it made a local_shell_call and an mcp_call")))).toEqual({ calls: [], said: [] });
  });
});
