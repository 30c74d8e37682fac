// A call whose arguments the trace does not hold (an attribute the exporter
// dropped at its limit, a tool call written without them) is no call with empty
// arguments: it is written incomplete with empty arguments, which the gate
// blocks, and the loss says what is missing. Gemini writes a call without
// parameters with no args, and its own envelope reads that as "{}": so does a
// trace.
import { describe, expect, test } from "vitest";
import { chatSpan, gateVerdicts, LIST_FILES, lossesOf, records } from "../../support/span-documents.js";

const calls = (document: unknown) => records("otlp", document).filter((record) => record.type === "function_call");

describe("a call with no arguments in the trace", () => {
  const dropped = {
    spans: [{ name: "ChatCompletion", context: { trace_id: "t1", span_id: "s1" }, start_time: 1, droppedAttributesCount: 1, attributes: { "openinference.span.kind": "LLM", "llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "what is here?", "llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.tool_calls.0.tool_call.id": "call_1", "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "list_files" } }],
  };

  test("its arguments attribute dropped: incomplete, with empty arguments, and said so", () => {
    expect(calls(dropped)).toEqual([{ type: "function_call", call_id: "call_1", name: "list_files", arguments: "", status: "incomplete" }]);
    expect(lossesOf("otlp", dropped, "truncated", "form_changed")).toEqual([
      { path: "/spans/0/droppedAttributesCount", code: "truncated", detail: 'the exporter dropped 1 attributes of the span "ChatCompletion" (an attribute limit): what they held is not in the document' },
      { path: "/spans/0/attributes/llm.output_messages.0.message.role", code: "truncated", detail: 'the call of "list_files" holds no arguments in the source (dropped or cut before it was stored): written with empty arguments and incomplete, which the gate blocks (at its message\'s tool_calls/0)', span: "s1" },
    ]);
  });

  test("the gate blocks it, though {} would pass its schema", async () => {
    expect(await gateVerdicts(dropped, [LIST_FILES])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["status", true]] });
  });

  test("a Chat tool call, a tool_call part, or a Vercel call written without them, or with null", () => {
    const user = JSON.stringify([{ role: "user", content: "what is here?" }]);
    for (const message of [
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "list_files" } }] },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "list_files", arguments: null } }] },
      { role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "list_files" }] },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "list_files" }] },
    ]) {
      expect(calls(chatSpan({ "gen_ai.input.messages": user, "gen_ai.output.messages": JSON.stringify([message]) }))).toEqual([{ type: "function_call", call_id: "call_1", name: "list_files", arguments: "", status: "incomplete" }]);
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
