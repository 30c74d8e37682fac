// An ADK LlmResponse says beside its content when the call in it is not the
// model's finished word: a partial response of a stream, an error code (a
// malformed call among them), an interrupted turn. Its call is incomplete,
// which the gate blocks.
import { expect, test } from "vitest";
import { DELETE_FILE, gateVerdicts, generation, lossesOf, records } from "../../support/span-documents.js";

const llmResponse = (fields: Record<string, unknown>) =>
  generation({ contents: [{ role: "user", parts: [{ text: "clean up" }] }] }, { content: { role: "model", parts: [{ function_call: { id: "c1", name: "delete_file", args: { path: "/tmp/x" } } }] }, ...fields });
const callStatus = (fields: Record<string, unknown>) => records("langfuse", llmResponse(fields)).find((record) => record.type === "function_call")?.status;

test.each([
  ["partial", { partial: true }],
  ["an error code", { error_code: "MALFORMED_FUNCTION_CALL", error_message: "bad call" }],
  ["an error code by its camelCase alias", { errorCode: "MALFORMED_FUNCTION_CALL" }],
  ["interrupted", { interrupted: true }],
])("a response that says it is %s: its call is incomplete", (_, fields) => {
  expect(callStatus(fields)).toBe("incomplete");
});

test("the loss points at what the response says", () => {
  expect(lossesOf("langfuse", llmResponse({ error_code: "MALFORMED_FUNCTION_CALL" }), "form_changed").filter((loss) => !loss.path.endsWith("/args"))).toEqual([
    { path: "/observations/0/output/error_code", code: "form_changed", detail: 'the response carries the error code "MALFORMED_FUNCTION_CALL": its call of "delete_file" is written incomplete, as it cannot be taken to have run', span: "o1" },
  ]);
});

test("the gate blocks a partial response's call", async () => {
  expect(await gateVerdicts(llmResponse({ partial: true }), [DELETE_FILE])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["status", true]] });
});

test("a response that is not partial and carries no error leaves its call completed", () => {
  expect(callStatus({ partial: false, turn_complete: true, error_code: null })).toBe("completed");
});
