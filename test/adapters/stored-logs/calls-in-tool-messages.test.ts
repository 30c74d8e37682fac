// A tool message answers a call. One that also writes a call (Chat's
// `tool_calls`, or its legacy `function_call`, beside the result or under
// LangChain's `additional_kwargs`) was read as its result alone: the call was
// dropped with no loss, and the gate passed the journal without it. Each such
// place is unreadable, which the gate blocks as a line of its own.
import { describe, expect, test } from "vitest";
import { DELETE_FILE, gateVerdicts, generation, lossesOf, records } from "../../support/span-documents.js";

const user = [{ role: "user", content: "Delete old.txt" }];
const legacy = { name: "delete_file", arguments: '{"path":"old.txt"}' };
const toolCalls = [{ id: "call_d", type: "function", function: legacy }];
const detail = "a call written in a tool message, which answers a call and makes none: of no dialect orbridge reads, not read";

describe("a call written in a tool message", () => {
  test.each([
    ["a legacy function_call", { role: "tool", tool_call_id: "call_1", content: "done", function_call: legacy }, "/observations/0/output/function_call"],
    ["a legacy function_call in a message of the function role", { role: "function", name: "delete_file", content: "done", function_call: legacy }, "/observations/0/output/function_call"],
    ["LangChain's additional_kwargs.function_call", { role: "tool", tool_call_id: "call_1", content: "done", additional_kwargs: { function_call: legacy } }, "/observations/0/output/additional_kwargs/function_call"],
    ["tool_calls", { role: "tool", tool_call_id: "call_1", content: "done", tool_calls: toolCalls }, "/observations/0/output/tool_calls"],
    ["LangChain's additional_kwargs.tool_calls", { role: "tool", tool_call_id: "call_1", content: "done", additional_kwargs: { tool_calls: toolCalls } }, "/observations/0/output/additional_kwargs/tool_calls"],
  ])("%s is unreadable, no call emitted", (_, output, path) => {
    const document = generation(user, output);
    expect(records("langfuse", document).filter((record) => record.type === "function_call")).toEqual([]);
    expect(lossesOf("langfuse", document, "unreadable")).toEqual([{ path, code: "unreadable", detail, span: "o1" }]);
  });

  test("the gate blocks it as a line of its own", async () => {
    const document = generation(user, [{ role: "tool", tool_call_id: "call_1", content: "done", function_call: legacy }]);
    const { code, verdicts } = await gateVerdicts(document, [DELETE_FILE]);
    expect(code).toBe(1);
    expect(verdicts.at(-1)).toEqual(["error", true]);
  });
});

test("a tool message with an empty tool_calls or a null function_call holds no call, and is read as its result", () => {
  const document = generation(user, { role: "tool", tool_call_id: "call_1", content: "done", tool_calls: [], function_call: null });
  expect(lossesOf("langfuse", document, "unreadable")).toEqual([]);
  expect(records("langfuse", document).filter((record) => record.type === "function_call_output")).toEqual([{ type: "function_call_output", call_id: "call_1", output: "done" }]);
});
