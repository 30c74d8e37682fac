// A span says it failed in whichever form its exporter writes a status: the
// OTLP object with a numeric or named code (proto3 JSON writes the number as
// text too), an SDK dict's status_code, a status written bare, a status code
// among the span's own fields. A call in its answer is incomplete, which the
// gate blocks. A status of no form orbridge reads may say the same, so it is
// read as a failure, and said.
import { describe, expect, test } from "vitest";
import { chatSpan, gateVerdicts, GET_WEATHER, lossesOf, records } from "../../support/span-documents.js";

const answered = (fields: Record<string, unknown>) =>
  chatSpan({ "gen_ai.input.messages": JSON.stringify([{ role: "user", content: "Weather in Paris?" }]), "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' }] }]) }, fields);
const callStatus = (fields: Record<string, unknown>) => records("otlp", answered(fields)).find((record) => record.type === "function_call")?.status;

describe("a span that says it failed", () => {
  test.each([
    ["a bare status", { status: "ERROR" }],
    ["a bare numeric status", { status: 2 }],
    ["the code as proto3 JSON's text", { status: { code: "2" } }],
    ["the code's full name", { status: { code: "STATUS_CODE_ERROR" } }],
    ["an SDK dict's status_code", { status: { status_code: "ERROR" } }],
    ["a status_code of the span's own", { status_code: "ERROR" }],
    ["a statusCode of the span's own", { statusCode: "STATUS_CODE_ERROR" }],
  ])("%s: its call is incomplete", (_, fields) => {
    expect(callStatus(fields)).toBe("incomplete");
  });

  test("the loss points at where the span says it", () => {
    expect(lossesOf("otlp", answered({ status_code: "ERROR" }), "form_changed")).toEqual([
      { path: "/spans/0/status_code", code: "form_changed", detail: 'the call of "get_weather" is in the answer of a span that says it failed (status "ERROR"): it is incomplete', span: "s1" },
    ]);
  });

  test("the gate blocks the call", async () => {
    expect(await gateVerdicts(answered({ status: "ERROR" }), [GET_WEATHER])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["status", true]] });
  });
});

test.each([
  ["unset", { status: { code: 0 } }],
  ["ok as text", { status: { code: "1" } }],
  ["ok by name", { status: "OK" }],
  ["unset by its full name", { status: { code: "STATUS_CODE_UNSET" } }],
  ["an SDK dict's ok, in lower case, with no description", { status: { status_code: "ok", description: null } }],
])("a span whose status is %s leaves its call completed", (_, fields) => {
  expect(callStatus(fields)).toBe("completed");
});

test("a status of no form orbridge reads is read as a failure, and said", () => {
  expect(callStatus({ status: { code: "FAILED" } })).toBe("incomplete");
  expect(lossesOf("otlp", answered({ status: { code: "FAILED" } }), "form_changed").map((loss) => loss.detail)).toEqual([
    'the span\'s status {"code":"FAILED"} is of no form orbridge reads: it may say the span failed, so it is read as a failure, and a call in its answer is incomplete',
    'the call of "get_weather" is in the answer of a span that says it failed (status {"code":"FAILED"}): it is incomplete',
  ]);
});
