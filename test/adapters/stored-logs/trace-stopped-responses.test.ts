// A Response object kept as an observation's output says by its status whether
// its calls ran: one that failed, was cancelled, stopped short, is still in
// progress, carries an error or says a status the spec does not define leaves
// its calls incomplete, which the gate blocks, as it blocks the same response
// read from a journal line.
import { describe, expect, test } from "vitest";
import { DELETE_FILE, gateVerdicts, generation, lossesOf, records } from "../../support/span-documents.js";

const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "delete_file", arguments: '{"path":"/tmp/x"}', status: "completed" };
const response = (fields: Record<string, unknown>) => generation([{ role: "user", content: "clean up" }], { object: "response", output: [call], ...fields });
const callStatus = (fields: Record<string, unknown>) => records("langfuse", response(fields)).find((record) => record.type === "function_call")?.status;

describe("a Response whose calls did not run", () => {
  test.each([
    ["failed", { status: "failed", error: { code: "server_error", message: "boom" } }],
    ["cancelled", { status: "cancelled" }],
    ["incomplete", { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }],
    ["in progress", { status: "in_progress" }],
    ["completed with an error", { status: "completed", error: { code: "server_error", message: "boom" } }],
    ["of a status the spec does not define", { status: "aborted" }],
  ])("%s: its call is incomplete", (_, fields) => {
    expect(callStatus(fields)).toBe("incomplete");
  });

  test("the loss points at the status", () => {
    expect(lossesOf("langfuse", response({ status: "failed" }), "form_changed")).toEqual([
      { path: "/observations/0/output/status", code: "form_changed", detail: 'the response\'s status is "failed": its call of "delete_file" is written incomplete, as it cannot be taken to have run', span: "o1" },
    ]);
  });

  test("the gate blocks it", async () => {
    expect(await gateVerdicts(response({ status: "failed", error: { code: "server_error", message: "boom" } }), [DELETE_FILE])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["status", true]] });
  });

  test("the document's item is not changed", () => {
    const document = response({ status: "failed" });
    records("langfuse", document);
    expect(call.status).toBe("completed");
    expect(records("langfuse", document).find((record) => record.type === "function_call")?.status).toBe("incomplete");
  });
});

test("a completed Response, or one with no status, leaves its call completed", () => {
  expect(callStatus({ status: "completed" })).toBe("completed");
  expect(callStatus({})).toBe("completed");
});
