// A message member that no dialect reads and that holds a tool call (a
// provider's response kept whole as a generation's output, Bedrock's
// `output.message` or Ollama's `message`, or LangChain's `invalid_tool_calls`)
// is unreadable, which the gate blocks as a line of its own. It was reported as
// a member in no item, and the gate passed the journal without the call.
import { describe, expect, test } from "vitest";
import { DELETE_FILE, gateVerdicts, generation, lossesOf, records } from "../../support/span-documents.js";

const user = [{ role: "user", content: "Delete old.txt" }];

describe("a generation's answer kept as a response of no dialect read", () => {
  test.each([
    ["Bedrock Converse's", { output: { message: { role: "assistant", content: [{ toolUse: { toolUseId: "tu_1", name: "delete_file", input: { path: "old.txt" } } }] } }, stopReason: "tool_use" }, "/observations/0/output/output", "output"],
    ["Ollama's", { message: { role: "assistant", content: "", tool_calls: [{ function: { name: "delete_file", arguments: { path: "old.txt" } } }] }, done: true }, "/observations/0/output/message", "message"],
    ["Anthropic's, its tool_use block said by its type", { role: "assistant", content: "", raw: { content: [{ type: "tool_use", id: "toolu_1", name: "delete_file", input: { path: "old.txt" } }], stop_reason: "tool_use" } }, "/observations/0/output/raw", "raw"],
    ["an Open Responses response's, its function_call said by its type", { role: "assistant", content: "", response: { output: [{ type: "function_call", call_id: "call_1", name: "delete_file", arguments: '{"path":"old.txt"}' }] } }, "/observations/0/output/response", "response"],
    ["LangChain's invalid_tool_calls", { role: "assistant", content: "", invalid_tool_calls: [{ name: "delete_file", args: '{"path": old.txt}', id: "call_1", error: "Function delete_file arguments are not valid JSON" }] }, "/observations/0/output/invalid_tool_calls", "invalid_tool_calls"],
  ])("%s: the member is unreadable, no call emitted", (_, output, path, key) => {
    const document = generation(user, output);
    expect(records("langfuse", document).filter((record) => record.type === "function_call")).toEqual([]);
    expect(lossesOf("langfuse", document, "unreadable")).toEqual([{ path, code: "unreadable", detail: `${key} of the message holds a tool call, of no dialect orbridge reads: not read`, span: "o1" }]);
  });

  test("the gate blocks it as a line of its own", async () => {
    const document = generation(user, { message: { role: "assistant", content: "", tool_calls: [{ function: { name: "delete_file", arguments: { path: "old.txt" } } }] }, done: true });
    expect(await gateVerdicts(document, [DELETE_FILE])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["error", true]] });
  });
});

test("a member that only says a call was made (a finish reason, an empty list, a call's result) is still in no item", () => {
  const document = generation(user, { role: "assistant", content: "Done.", response_metadata: { finish_reason: "tool_calls" }, invalid_tool_calls: [], tool_call_chunks: [], raw: { output: [{ type: "function_call_output", call_id: "call_1", output: "deleted" }] } });
  expect(lossesOf("langfuse", document, "unreadable")).toEqual([]);
  expect(lossesOf("langfuse", document, "left_behind").map(({ path }) => path).filter((path) => path.startsWith("/observations/0/output"))).toEqual(["/observations/0/output/response_metadata", "/observations/0/output/raw"]);
});
