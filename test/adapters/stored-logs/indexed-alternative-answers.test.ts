// An answer written one message per index is several answers to one request
// where the instrumentation writes one index for each: OpenLLMetry's
// gen_ai.completion.N (one for each choice), OpenInference's
// llm.output_messages.N beside the LLMResult (one for each generation of the
// first prompt) or the Chat completion (one for each choice) it keeps in
// output.value. Those are alternatives a conversation goes on from one of: their
// calls are not read, each unreadable, where they were read as turns in a row and
// each judged alone. OpenInference writes a Response's items as messages in a row,
// keeping the Response in output.value: those stay one answer.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { DELETE_FILE, gateVerdicts, stringAttributes as attributes } from "../../support/span-documents.js";

const otlp = (written: Record<string, string>) => ({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: "t1", spanId: "l1", name: "ChatOpenAI", startTimeUnixNano: "1", attributes: attributes(written) }] }] }] });
const at = (index: number) => `/resourceSpans/0/scopeSpans/0/spans/0/attributes/${index}/value/stringValue`;
const ARGS = ['{"path":"/tmp/x"}', '{"path":"/"}'];

/** OpenInference's LLM span whose answer is these messages, one call each (call_1, call_2…), with output.value beside them. */
const openInference = (count: number, outputValue?: unknown) => {
  const written: Record<string, string> = { "openinference.span.kind": "LLM", "llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "clean up" };
  for (let index = 0; index < count; index++) {
    written[`llm.output_messages.${index}.message.role`] = "assistant";
    written[`llm.output_messages.${index}.message.tool_calls.0.tool_call.id`] = `call_${index + 1}`;
    written[`llm.output_messages.${index}.message.tool_calls.0.tool_call.function.name`] = "delete_file";
    written[`llm.output_messages.${index}.message.tool_calls.0.tool_call.function.arguments`] = ARGS[index]!;
  }
  return otlp(outputValue === undefined ? written : { ...written, "output.value": JSON.stringify(outputValue) });
};
const aiMessage = (index: number) => {
  const args = JSON.parse(ARGS[index]!) as Record<string, unknown>;
  return { content: "", additional_kwargs: { tool_calls: [{ id: `call_${index + 1}`, type: "function", function: { name: "delete_file", arguments: ARGS[index] } }] }, response_metadata: { finish_reason: "tool_calls" }, type: "ai", tool_calls: [{ name: "delete_file", args, id: `call_${index + 1}`, type: "tool_call" }], invalid_tool_calls: [] };
};
const llmResult = (count: number) => ({ generations: [Array.from({ length: count }, (_, index) => ({ text: "", generation_info: { finish_reason: "tool_calls" }, type: "ChatGeneration", message: aiMessage(index) }))], llm_output: null, run: null, type: "LLMResult" });
const completion = (count: number) => ({ object: "chat.completion", choices: Array.from({ length: count }, (_, index) => ({ index, message: { role: "assistant", content: null, tool_calls: [{ id: `call_${index + 1}`, type: "function", function: { name: "delete_file", arguments: ARGS[index] } }] }, finish_reason: "tool_calls" })) });

function reading(document: unknown) {
  const { records, losses } = READERS.otlp.read(document);
  return {
    calls: records.map(({ record }) => record as Record<string, unknown>).filter((record) => record.type === "function_call").map(({ call_id }) => call_id),
    said: losses.filter((loss) => loss.code === "unreadable" || loss.code === "conflict").map(({ path, code, detail }) => ({ path, code, detail })),
  };
}

const withheld = (path: string, answers: string) => ({ path, code: "unreadable", detail: `the call of "delete_file" is in one of ${answers}, which are alternatives the reader cannot order: a conversation goes on from one of them, and no item says which, so it is not read` });
const copyWithheld = (answers: string, pointer: string) => ({ ...withheld(at(11), answers), detail: `${withheld(at(11), answers).detail} (at ${pointer} in its JSON text)` });

describe("OpenInference's llm.output_messages.N beside the LLMResult they come from", () => {
  test("two generations of the prompt, each with a call: neither call read, each unreadable", () => {
    const answers = "the 2 generations written as llm.output_messages.N, as the LLMResult in output.value says";
    expect(reading(openInference(2, llmResult(2)))).toEqual({
      calls: [],
      said: [
        withheld(at(3), answers),
        withheld(at(7), answers),
        copyWithheld("the 2 generations of prompt 0", "/generations/0/0/message/tool_calls/0"),
        copyWithheld("the 2 generations of prompt 0", "/generations/0/1/message/tool_calls/0"),
      ],
    });
  });

  test("the gate runs neither call, where it passed both as turns in a row", async () => {
    const { code, verdicts } = await gateVerdicts(openInference(2, llmResult(2)), [DELETE_FILE]);
    expect({ code, ok: verdicts.filter(([reason]) => reason === "ok") }).toEqual({ code: 1, ok: [] });
  });

  test("one generation, one message: its call read", () => {
    expect(reading(openInference(1, llmResult(1)))).toEqual({ calls: ["call_1"], said: [] });
  });
});

describe("OpenInference's llm.output_messages.N beside the Chat completion they come from", () => {
  test("two choices, each with a call: neither call read, each unreadable", () => {
    const answers = "the 2 choices written as llm.output_messages.N, as the completion in output.value says";
    expect(reading(openInference(2, completion(2)))).toEqual({
      calls: [],
      said: [
        withheld(at(3), answers),
        withheld(at(7), answers),
        copyWithheld("the 2 choices of the completion", "/choices/0/message/tool_calls/0"),
        copyWithheld("the 2 choices of the completion", "/choices/1/message/tool_calls/0"),
      ],
    });
  });
});

describe("OpenInference's llm.output_messages.N of a Response's items", () => {
  test("beside the Response: one answer in a row, both calls read", () => {
    const response = { object: "response", status: "completed", output: [0, 1].map((index) => ({ type: "function_call", id: `fc_${index + 1}`, call_id: `call_${index + 1}`, name: "delete_file", arguments: ARGS[index], status: "completed" })) };
    expect(reading(openInference(2, response))).toEqual({ calls: ["call_1", "call_2"], said: [] });
  });
});

describe("OpenLLMetry's gen_ai.completion.N", () => {
  const openLlmetry = (count: number) => {
    const written: Record<string, string> = { "gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "clean up" };
    for (let index = 0; index < count; index++) {
      written[`gen_ai.completion.${index}.role`] = "assistant";
      written[`gen_ai.completion.${index}.finish_reason`] = "tool_calls";
      written[`gen_ai.completion.${index}.tool_calls.0.id`] = `call_${index + 1}`;
      written[`gen_ai.completion.${index}.tool_calls.0.name`] = "delete_file";
      written[`gen_ai.completion.${index}.tool_calls.0.arguments`] = ARGS[index]!;
    }
    return otlp(written);
  };

  test("two choices, each with a call: neither call read, each unreadable", () => {
    const answers = "the 2 choices written as gen_ai.completion.N";
    expect(reading(openLlmetry(2))).toEqual({ calls: [], said: [withheld(at(2), answers), withheld(at(7), answers)] });
  });

  test("one choice: its call read", () => {
    expect(reading(openLlmetry(1))).toEqual({ calls: ["call_1"], said: [] });
  });
});
