// An LLM call's, wrapper's or tool run's attribute (or a Langfuse observation's
// field) that no reading looked at, neither as its messages nor as a copy
// compared apart, is left behind; where it holds a tool call it is unreadable
// instead, which the gate blocks: an exporter that writes the whole exchange,
// the answer's calls with it, as one attribute of its own form was passed by the
// gate with no line for the call.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { chatSpan, DELETE_FILE, gateVerdicts, generation } from "../../support/span-documents.js";

const callMessage = { role: "assistant", tool_calls: [{ id: "call_1", type: "function", function: { name: "delete_file", arguments: '{"path":"/etc"}' } }] };
/** An exchange as one JSON text of an exporter's own form: events named otherwise than GenAI's, the answer in its choice. */
const events = JSON.stringify([
  { content: "delete the temp file", role: "user", event: "user" },
  { index: 0, message: callMessage, event: "choice" },
]);

function said(reader: "otlp" | "langfuse", document: unknown) {
  return READERS[reader].read(document).losses.filter((loss) => loss.code === "unreadable" || (loss.code === "left_behind" && /attribute|field/.test(loss.detail))).map(({ path, code, detail }) => ({ path, code, detail }));
}

describe("an attribute no reading looks at", () => {
  test("an exchange of its own form that holds the answer's call: unreadable", () => {
    expect(said("otlp", chatSpan({ "gen_ai.system": "openai", events }))).toEqual([
      { path: "/spans/0/attributes/gen_ai.system", code: "left_behind", detail: "the attribute gen_ai.system is in no item" },
      { path: "/spans/0/attributes/events", code: "unreadable", detail: "the attribute events holds a tool call in no form a dialect reads beside the span's messages: not read" },
    ]);
  });

  test("the gate blocks it, where it passed the export with no line", async () => {
    expect(await gateVerdicts(chatSpan({ events }), [DELETE_FILE])).toEqual({ code: 1, verdicts: [["error", true]] });
  });

  test("beside messages a dialect reads, a call in it is unreadable all the same", () => {
    const document = chatSpan({ "gen_ai.input.messages": JSON.stringify([{ role: "user", content: "delete the temp file" }]), "gen_ai.completion": JSON.stringify(callMessage) });
    expect(said("otlp", document)).toEqual([{ path: "/spans/0/attributes/gen_ai.completion", code: "unreadable", detail: "the attribute gen_ai.completion holds a tool call in no form a dialect reads beside the span's messages: not read" }]);
  });

  test("a call spelled with escapes of its member names: unreadable", () => {
    const escaped = JSON.stringify([{ message: callMessage, event: "choice" }]).replace("tool_calls", "\\u0074ool_calls");
    expect(said("otlp", chatSpan({ events: escaped })).map(({ code }) => code)).toEqual(["unreadable"]);
  });

  test("one that names calls and holds none is left behind", () => {
    const document = chatSpan({ events: JSON.stringify([{ message: { role: "assistant", content: "done", tool_calls: [] }, event: "choice" }]), "llm.request.parallel_tool_calls": "true" });
    expect(said("otlp", document)).toEqual([
      { path: "/spans/0/attributes/events", code: "left_behind", detail: "the attribute events is in no item" },
      { path: "/spans/0/attributes/llm.request.parallel_tool_calls", code: "left_behind", detail: "the attribute llm.request.parallel_tool_calls is in no item" },
    ]);
  });

  test("a second dialect read as a copy that agrees stays left behind", () => {
    const document = chatSpan({ "gen_ai.output.messages": JSON.stringify([callMessage]), "output.value": JSON.stringify({ choices: [{ message: callMessage, finish_reason: "tool_calls" }] }) });
    expect(said("otlp", document)).toEqual([{ path: "/spans/0/attributes/output.value", code: "left_behind", detail: "the attribute output.value is in no item" }]);
  });
});

test("a Langfuse observation's field no reading looks at that holds a call: unreadable", () => {
  const document = generation([{ role: "user", content: "delete the temp file" }], "on it") as { observations: Array<Record<string, unknown>> };
  document.observations[0]!.providedOutput = callMessage;
  expect(said("langfuse", document)).toEqual([{ path: "/observations/0/providedOutput", code: "unreadable", detail: "the span's field providedOutput holds a tool call in no form a dialect reads beside the span's messages: not read" }]);
});
