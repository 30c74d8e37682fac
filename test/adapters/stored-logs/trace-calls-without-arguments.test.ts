// A call whose arguments the trace does not hold is one without parameters, as
// the instrumentations that leave them out mean it (OpenInference's ADK
// instrumentation writes no arguments attribute for such a call, Gemini no
// args): "{}", said. A span that says its exporter dropped attributes may have
// lost a call's arguments, or a call: its calls are incomplete, which the gate blocks.
import { describe, expect, test } from "vitest";
import { chatSpan, gateVerdicts, LIST_FILES, lossesOf, records } from "../../support/span-documents.js";

const calls = (document: unknown) => records("otlp", document).filter((record) => record.type === "function_call");

describe("a call with no arguments in the trace", () => {
  const dropped = {
    spans: [{ name: "ChatCompletion", context: { trace_id: "t1", span_id: "s1" }, start_time: 1, droppedAttributesCount: 1, attributes: { "openinference.span.kind": "LLM", "llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "what is here?", "llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.tool_calls.0.tool_call.id": "call_1", "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "list_files" } }],
  };

  test("in a span whose exporter dropped attributes: incomplete, and said so", () => {
    expect(calls(dropped)).toEqual([{ type: "function_call", call_id: "call_1", name: "list_files", arguments: "{}", status: "incomplete" }]);
    expect(lossesOf("otlp", dropped, "truncated")).toEqual([
      { path: "/spans/0/droppedAttributesCount", code: "truncated", detail: 'the exporter dropped 1 attributes of the span "ChatCompletion" (a limit of its SDK): what they held is not in the document', span: "s1" },
      { path: "/spans/0/droppedAttributesCount", code: "truncated", detail: 'the call of "list_files" is in the answer of a span whose exporter dropped attributes (1), which may have held it otherwise, its arguments or the span\'s status: it is incomplete', span: "s1" },
    ]);
  });

  test("in a span whose count of dropped attributes is a tag, as Jaeger's exporters write it: incomplete, and said so", () => {
    const { droppedAttributesCount: _count, ...span } = dropped.spans[0]!;
    for (const count of ["1", 1]) {
      const said = typeof count === "number" ? String(count) : JSON.stringify(count);
      const tagged = { spans: [{ ...span, attributes: { ...span.attributes, "otel.dropped_attributes_count": count } }] };
      expect(calls(tagged)).toEqual([{ type: "function_call", call_id: "call_1", name: "list_files", arguments: "{}", status: "incomplete" }]);
      expect(lossesOf("otlp", tagged, "truncated")).toEqual([
        { path: "/spans/0/attributes/otel.dropped_attributes_count", code: "truncated", detail: `the exporter dropped ${said} attributes of the span "ChatCompletion" (a limit of its SDK): what they held is not in the document`, span: "s1" },
        { path: "/spans/0/attributes/otel.dropped_attributes_count", code: "truncated", detail: `the call of "list_files" is in the answer of a span whose exporter dropped attributes (${said}), which may have held it otherwise, its arguments or the span's status: it is incomplete`, span: "s1" },
      ]);
    }
  });

  test("in a span that dropped nothing: a call without parameters, {}, completed and said so", () => {
    const whole = { spans: [{ ...dropped.spans[0]!, droppedAttributesCount: 0 }] };
    expect(calls(whole)).toEqual([{ type: "function_call", call_id: "call_1", name: "list_files", arguments: "{}", status: "completed" }]);
    expect(lossesOf("otlp", whole, "synthesized").map((loss) => loss.detail)).toEqual(['the call of "list_files" holds no arguments: arguments "{}" written, a call without parameters, as the instrumentations that leave them out mean it (at its message\'s tool_calls/0)']);
  });

  test("the gate blocks it, though {} would pass its schema", async () => {
    expect(await gateVerdicts(dropped, [LIST_FILES])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["status", true]] });
  });

  test("a Chat tool call, a tool_call part, or a Vercel call written without them, or with null: {}", () => {
    const user = JSON.stringify([{ role: "user", content: "what is here?" }]);
    for (const message of [
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "list_files" } }] },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "list_files", arguments: null } }] },
      { role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "list_files" }] },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "list_files" }] },
    ]) {
      expect(calls(chatSpan({ "gen_ai.input.messages": user, "gen_ai.output.messages": JSON.stringify([message]) }))).toEqual([{ type: "function_call", call_id: "call_1", name: "list_files", arguments: "{}", status: "completed" }]);
    }
  });
});

test("a Gemini call without args is one without parameters, as Gemini writes it: {} and completed, reported", () => {
  const document = chatSpan({ "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ text: "what is here?" }] }]), "gen_ai.output.messages": JSON.stringify([{ role: "model", parts: [{ functionCall: { id: "c1", name: "list_files" } }] }]) });
  expect(calls(document)).toEqual([{ type: "function_call", call_id: "c1", name: "list_files", arguments: "{}", status: "completed" }]);
  expect(lossesOf("otlp", document, "synthesized")).toEqual([
    { path: "/spans/0/attributes/gen_ai.output.messages", code: "synthesized", detail: 'the call of "list_files" has no args, as Gemini writes a call without parameters: arguments "{}" written (at /0/parts/0/functionCall in its JSON text)', span: "s1" },
  ]);
});
