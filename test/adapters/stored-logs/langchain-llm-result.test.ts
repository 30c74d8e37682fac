// openinference-instrumentation-langchain writes an LLM run's outputs as
// output.value, the JSON text of LangChain's LLMResult: one list of generations
// for each prompt, each chat generation's message in it (as model_dump,
// message_to_dict's {type, data} or dumpd's constructor writes it). It is read:
// beside llm.output_messages it is a copy compared with the answer, where it was
// read as a message of role "LLMResult", which no dialect knows, and never
// compared; alone, it is the answer. Several generations of one prompt are
// alternatives, of which a conversation goes on from one: their calls are not
// read, where they were read as turns in a row and each judged alone.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { DELETE_FILE, gateVerdicts, stringAttributes as attributes } from "../../support/span-documents.js";

const aiMessage = (args: Record<string, unknown>) => ({
  content: "",
  additional_kwargs: { tool_calls: [{ id: "call_1", type: "function", function: { name: "delete_file", arguments: JSON.stringify(args) } }] },
  response_metadata: { finish_reason: "tool_calls" },
  type: "ai",
  tool_calls: [{ name: "delete_file", args, id: "call_1", type: "tool_call" }],
  invalid_tool_calls: [],
});
const llmResult = (message: unknown, finishReason = "tool_calls") => JSON.stringify({ generations: [[{ text: "", generation_info: { finish_reason: finishReason }, type: "ChatGeneration", message }]], llm_output: null, run: null, type: "LLMResult" });
const flattened = {
  "llm.output_messages.0.message.role": "assistant",
  "llm.output_messages.0.message.tool_calls.0.tool_call.id": "call_1",
  "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "delete_file",
  "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": '{"path":"/tmp/x"}',
};
const llmSpan = (written: Record<string, string>) => ({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: "t1", spanId: "l1", name: "ChatOpenAI", startTimeUnixNano: "1", attributes: attributes({ "openinference.span.kind": "LLM", "llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "clean up", ...written }) }] }] }] });

function reading(document: unknown) {
  const { records, losses } = READERS.otlp.read(document);
  return {
    calls: records.map(({ record }) => record as Record<string, unknown>).filter((record) => record.type === "function_call").map(({ call_id, arguments: args, status }) => ({ call_id, arguments: args, status })),
    said: losses.filter((loss) => loss.code === "conflict" || loss.code === "unreadable" || loss.code === "truncated").map(({ code, detail }) => ({ code, detail })),
  };
}

describe("output.value holding an LLMResult beside llm.output_messages", () => {
  test("that holds the same call: read once", () => {
    expect(reading(llmSpan({ ...flattened, "output.value": llmResult(aiMessage({ path: "/tmp/x" })) }))).toEqual({ calls: [{ call_id: "call_1", arguments: '{"path":"/tmp/x"}', status: "completed" }], said: [] });
  });

  test("that gives the call other arguments: a conflict, and the call is not read", () => {
    expect(reading(llmSpan({ ...flattened, "output.value": llmResult(aiMessage({ path: "/etc" })) }))).toEqual({
      calls: [],
      said: [
        { code: "conflict", detail: 'the call "call_1" of "delete_file" is recorded in ways that disagree: two readers would run two calls, so none is read' },
        { code: "conflict", detail: 'output.value, beside llm.output_messages.N in the same span, records a call "call_1" of "delete_file" with {"path":"/etc"} that the answer it copies does not hold: two readers would run two calls, so none is read' },
      ],
    });
  });
});

describe("output.value holding an LLMResult alone", () => {
  for (const [form, message] of [
    ["model_dump", aiMessage({ path: "/tmp/x" })],
    ["message_to_dict's {type, data}", { type: "ai", data: aiMessage({ path: "/tmp/x" }) }],
    ["dumpd's constructor", { lc: 1, type: "constructor", id: ["langchain", "schema", "messages", "AIMessage"], kwargs: aiMessage({ path: "/tmp/x" }) }],
  ] as const) {
    test(`its message written as ${form}: the answer's call`, () => {
      expect(reading(llmSpan({ "output.value": llmResult(message) })).calls).toEqual([{ call_id: "call_1", arguments: '{"path":"/tmp/x"}', status: "completed" }]);
    });
  }

  test("a generation stopped at the length limit: its call is incomplete", () => {
    expect(reading(llmSpan({ "output.value": llmResult(aiMessage({ path: "/tmp/x" }), "length") })).calls).toEqual([{ call_id: "call_1", arguments: '{"path":"/tmp/x"}', status: "incomplete" }]);
  });

  test("a constructor of a class of no known role: unreadable", () => {
    const message = { lc: 1, type: "constructor", id: ["acme", "RobotMessage"], kwargs: aiMessage({ path: "/tmp/x" }) };
    expect(reading(llmSpan({ "output.value": llmResult(message) }))).toEqual({ calls: [], said: [{ code: "unreadable", detail: 'a message of role "constructor": of no dialect orbridge reads, not read (at /generations/0/0/message in its JSON text)' }] });
  });

  test("a message whose type is the name of a member every object inherits: of no role, its call not read", () => {
    const message = { ...aiMessage({ path: "/tmp/x" }), type: "constructor" };
    expect(reading(llmSpan({ "output.value": llmResult(message) }))).toEqual({ calls: [], said: [{ code: "unreadable", detail: 'a message of role "constructor": of no dialect orbridge reads, not read (at /generations/0/0/message in its JSON text)' }] });
  });
});

describe("an LLMResult that holds a call beside its generations' messages", () => {
  const otherCall = { tool_calls: [{ id: "call_2", type: "function", function: { name: "delete_file", arguments: '{"path":"/etc"}' } }] };
  const withMember = (where: "llm_output" | "generation_info") => {
    const result = JSON.parse(llmResult(aiMessage({ path: "/tmp/x" }))) as { generations: Array<Array<Record<string, unknown>>>; llm_output: unknown };
    if (where === "llm_output") result.llm_output = otherCall;
    else result.generations[0]![0]!.generation_info = { finish_reason: "tool_calls", ...otherCall };
    return JSON.stringify(result);
  };
  const said = (where: string, what: string) => ({ code: "unreadable", detail: `${where} of ${what} holds a tool call beside its message: of no dialect orbridge reads, not read (at ${where === "llm_output" ? "/llm_output" : "/generations/0/0/generation_info"} in its JSON text)` });

  for (const [where, what] of [["llm_output", "the LLM result"], ["generation_info", "the generation"]] as const) {
    test(`in ${where}, alone: unreadable, the answer's call read`, () => {
      expect(reading(llmSpan({ "output.value": withMember(where) }))).toEqual({ calls: [{ call_id: "call_1", arguments: '{"path":"/tmp/x"}', status: "completed" }], said: [said(where, what)] });
    });

    test(`in ${where}, as a copy beside llm.output_messages: unreadable all the same`, () => {
      expect(reading(llmSpan({ ...flattened, "output.value": withMember(where) })).said).toEqual([said(where, what)]);
    });
  }

  test("a choice of a completion with tool_calls beside its message: unreadable", () => {
    const completion = JSON.stringify({ object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "done" }, finish_reason: "stop", ...otherCall }] });
    expect(reading(llmSpan({ "output.value": completion })).said).toEqual([{ code: "unreadable", detail: "tool_calls of the choice holds a tool call beside its message: of no dialect orbridge reads, not read (at /choices/0/tool_calls in its JSON text)" }]);
  });
});

describe("an LLMResult alone whose prompt has several generations (n > 1)", () => {
  const generation = (message: unknown) => ({ text: "", generation_info: { finish_reason: "tool_calls" }, type: "ChatGeneration", message });
  const result = (generations: unknown[]) => JSON.stringify({ generations, llm_output: null, run: null, type: "LLMResult" });
  const alternatives = (g: number) => ({
    code: "unreadable",
    detail: `the call of "delete_file" is in one of the 2 generations of prompt 0, which are alternatives the reader cannot order: a conversation goes on from one of them, and no item says which, so it is not read (at /generations/0/${g}/message/tool_calls/0 in its JSON text)`,
  });

  test("each with a call: neither call is read, each unreadable", () => {
    const written = result([[generation(aiMessage({ path: "/tmp/x" })), generation({ ...aiMessage({ path: "/" }), additional_kwargs: {}, tool_calls: [{ name: "delete_file", args: { path: "/" }, id: "call_2", type: "tool_call" }] })]]);
    expect(reading(llmSpan({ "output.value": written }))).toEqual({ calls: [], said: [alternatives(0), alternatives(1)] });
  });

  test("one of text and one with a call: the text is read, the call is not", () => {
    const written = result([[generation({ content: "Nothing to delete.", additional_kwargs: {}, type: "ai", tool_calls: [], invalid_tool_calls: [] }), generation(aiMessage({ path: "/tmp/x" }))]]);
    const { records } = READERS.otlp.read(llmSpan({ "output.value": written }));
    expect(records.map(({ record }) => record)).toEqual([
      { type: "message", role: "user", content: "clean up" },
      { type: "message", role: "assistant", content: "Nothing to delete." },
    ]);
    expect(reading(llmSpan({ "output.value": written })).said).toEqual([alternatives(1)]);
  });

  test("the gate runs neither, where it passed both as turns in a row", async () => {
    const written = result([[generation(aiMessage({ path: "/tmp/x" })), generation({ ...aiMessage({ path: "/" }), additional_kwargs: {}, tool_calls: [{ name: "delete_file", args: { path: "/" }, id: "call_2", type: "tool_call" }] })]]);
    const verdicts = await gateVerdicts(llmSpan({ "output.value": written }), [DELETE_FILE]);
    expect(verdicts.verdicts.filter(([reason]) => reason === "ok")).toEqual([]);
    expect(verdicts.code).toEqual(1);
  });

  test("two prompts of one generation each are two answers, each read", () => {
    const written = result([[generation(aiMessage({ path: "/tmp/x" }))], [generation({ ...aiMessage({ path: "/tmp/y" }), additional_kwargs: {}, tool_calls: [{ name: "delete_file", args: { path: "/tmp/y" }, id: "call_2", type: "tool_call" }] })]]);
    expect(reading(llmSpan({ "output.value": written }))).toEqual({
      calls: [
        { call_id: "call_1", arguments: '{"path":"/tmp/x"}', status: "completed" },
        { call_id: "call_2", arguments: '{"path":"/tmp/y"}', status: "completed" },
      ],
      said: [],
    });
  });

  test("a flat list of generations, which is not LLMResult's list for each prompt: each unreadable, no call read", () => {
    const written = result([generation(aiMessage({ path: "/tmp/x" })), generation({ ...aiMessage({ path: "/" }), additional_kwargs: {}, tool_calls: [{ name: "delete_file", args: { path: "/" }, id: "call_2", type: "tool_call" }] })]);
    const flat = (p: number) => ({ code: "unreadable", detail: `an LLMResult's generations of a prompt that are not a list, which says neither the prompts nor the alternatives of one: of no dialect orbridge reads, not read (at /generations/${p} in its JSON text)` });
    expect(reading(llmSpan({ "output.value": written }))).toEqual({ calls: [], said: [flat(0), flat(1)] });
  });
});
