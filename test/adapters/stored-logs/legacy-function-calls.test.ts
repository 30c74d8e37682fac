// A message's call of Chat's legacy functions (`function_call: {name,
// arguments}`, under `additional_kwargs` as LangChain keeps it, or OpenInference's
// flattened `message.function_call_name` and `message.function_call_arguments_json`)
// is a call its reader runs: it is read as a call, with a synthesized id, and
// gated. It was reported as a member in no item, and the gate passed the
// journal without ever judging the call.
import { describe, expect, test } from "vitest";
import { DELETE_FILE, gateVerdicts, generation, LIST_FILES, lossesOf, records } from "../../support/span-documents.js";

const user = [{ role: "user", content: "Delete old.txt" }];
const legacy = { name: "delete_file", arguments: '{"path":"old.txt"}' };

describe("a legacy function_call in a generation's answer", () => {
  test.each([
    ["Chat's function_call", { role: "assistant", content: null, function_call: legacy }, "/observations/0/output/function_call"],
    ["LangChain's additional_kwargs.function_call", { role: "assistant", content: "", additional_kwargs: { function_call: legacy } }, "/observations/0/output/additional_kwargs/function_call"],
  ])("%s is read as a call, its id synthesized", (_, output, path) => {
    const document = generation(user, output);
    const read = records("langfuse", document);
    expect(read.map(({ call_id: _id, ...record }) => record)).toEqual([
      { type: "message", role: "user", content: "Delete old.txt" },
      { type: "function_call", name: "delete_file", arguments: '{"path":"old.txt"}', status: "completed" },
    ]);
    expect(lossesOf("langfuse", document, "synthesized")).toEqual([{ path, code: "synthesized", detail: `the call of "delete_file" has no id in the source: given "${String(read[1]!.call_id)}"`, span: "o1" }]);
    expect(lossesOf("langfuse", document, "left_behind").filter((loss) => loss.path.startsWith("/observations/0/output"))).toEqual([]);
  });

  test("the gate judges it: arguments the schema refuses are blocked", async () => {
    expect(await gateVerdicts(generation(user, { role: "assistant", content: null, function_call: { name: "delete_file", arguments: '{"file":"old.txt"}' } }), [DELETE_FILE])).toEqual({
      code: 1,
      verdicts: [["not_function_call", false], ["arguments_schema", true]],
    });
  });

  test("written in both places, saying two calls: unreadable, not read", () => {
    const document = generation(user, { role: "assistant", content: null, function_call: legacy, additional_kwargs: { function_call: { name: "delete_file", arguments: '{"path":"/"}' } } });
    expect(records("langfuse", document).filter((record) => record.type === "function_call")).toEqual([]);
    expect(lossesOf("langfuse", document, "unreadable").map(({ path }) => path)).toEqual(["/observations/0/output/additional_kwargs/function_call"]);
  });
});

describe("OpenInference's flattened legacy function call", () => {
  const document = {
    spans: [{ name: "ChatCompletion", context: { trace_id: "t1", span_id: "s1" }, parent: null, start_time: 1, attributes: {
      "openinference.span.kind": "LLM",
      "llm.input_messages.0.message.role": "user",
      "llm.input_messages.0.message.content": "Delete old.txt",
      "llm.output_messages.0.message.role": "assistant",
      "llm.output_messages.0.message.function_call_name": "delete_file",
      "llm.output_messages.0.message.function_call_arguments_json": '{"path":"old.txt"}',
    } }],
  };

  test("is read as a call", () => {
    expect(records("otlp", document).map(({ call_id: _id, ...record }) => record)).toEqual([
      { type: "message", role: "user", content: "Delete old.txt" },
      { type: "function_call", name: "delete_file", arguments: '{"path":"old.txt"}', status: "completed" },
    ]);
    expect(lossesOf("otlp", document, "left_behind").filter((loss) => loss.detail.includes("function_call"))).toEqual([]);
  });

  /** The same span with the call also written as a function_call of its own. */
  const withFunctionCall = (call: Record<string, string>) => {
    const [span] = document.spans;
    const written = Object.fromEntries(Object.entries(call).map(([key, value]) => [`llm.output_messages.0.message.function_call.${key}`, value]));
    return { spans: [{ ...span, attributes: { ...span!.attributes, ...written } }] };
  };

  test("beside a function_call that says another call, neither is read: unreadable, and the gate blocks it", async () => {
    const both = withFunctionCall({ name: "list_files", arguments: '{"dir":"."}' });
    expect(records("otlp", both).filter((record) => record.type === "function_call")).toEqual([]);
    expect(lossesOf("otlp", both, "unreadable")).toEqual([
      {
        path: "/spans/0/attributes/llm.output_messages.0.message.role",
        code: "unreadable",
        detail: "the legacy function call is written twice, as function_call and as function_call_name and function_call_arguments_json, and the two disagree: two readers read two values, so it is not read (at its message's function_call)",
        span: "s1",
      },
    ]);
    expect(await gateVerdicts(both, [DELETE_FILE, LIST_FILES])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["error", true]] });
  });

  test("beside a function_call that says the same call, it is read once", () => {
    const both = withFunctionCall({ name: "delete_file", arguments: '{ "path": "old.txt" }' });
    expect(records("otlp", both).filter((record) => record.type === "function_call").map(({ call_id: _id, ...record }) => record)).toEqual([{ type: "function_call", name: "delete_file", arguments: '{ "path": "old.txt" }', status: "completed" }]);
    expect(lossesOf("otlp", both, "unreadable", "left_behind").filter((loss) => loss.detail.includes("function_call"))).toEqual([]);
  });
});
