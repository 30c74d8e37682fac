// The GenAI conventions set `error.type` on a span only when its operation
// ended in an error, beside a status that a span dict or a Jaeger export of
// another exporter may not carry. A call in the answer of such a span is
// incomplete, which the gate blocks, where it passed ok with the attribute
// reported as in no item.
import { describe, expect, test } from "vitest";
import { chatSpan, gateVerdicts, GET_WEATHER, lossesOf, records } from "../../support/span-documents.js";

const answered = (attributes: Record<string, unknown>) =>
  chatSpan({ "gen_ai.input.messages": JSON.stringify([{ role: "user", content: "Weather in Paris?" }]), "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' }] }]), ...attributes });
const callStatus = (attributes: Record<string, unknown>) => records("otlp", answered(attributes)).find((record) => record.type === "function_call")?.status;

describe("a span with an error.type", () => {
  test.each([["timeout"], ["500"], ["_OTHER"]])("%s: its call is incomplete", (errorType) => {
    expect(callStatus({ "error.type": errorType })).toBe("incomplete");
  });

  test("the loss points at the attribute, which is still in no item", () => {
    expect(lossesOf("otlp", answered({ "error.type": "timeout" }), "form_changed", "left_behind").filter((loss) => loss.path.endsWith("error.type"))).toEqual([
      { path: "/spans/0/attributes/error.type", code: "form_changed", detail: 'the call of "get_weather" is in the answer of a span that says it failed (error.type "timeout"): it is incomplete', span: "s1" },
      { path: "/spans/0/attributes/error.type", code: "left_behind", detail: "the attribute error.type is in no item", span: "s1" },
    ]);
  });

  test("the gate blocks the call", async () => {
    expect(await gateVerdicts(answered({ "error.type": "timeout" }), [GET_WEATHER])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["status", true]] });
  });
});

test.each([
  ["none", {}],
  ["an empty error.type", { "error.type": "" }],
])("a span with %s: its call is completed", (_, attributes) => {
  expect(callStatus(attributes)).toBe("completed");
});
