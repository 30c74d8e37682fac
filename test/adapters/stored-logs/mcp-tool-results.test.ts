// An MCP tool's result as ADK writes it on its tool span (`{"content": [{"type":
// "text", "text"}], "isError": false}`) and the text alone in the model's next
// request are one result: it is read once, where it was taken for two results
// that disagree, neither emitted and both blocked as conflicts (agentevals'
// Jaeger and Tempo exports of a kagent run hold it so). A result that failed, or
// that says more than its text, is still another result.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { LIST_FILES, gateVerdicts, lossesOf, records } from "../../support/span-documents.js";

const listing = "NAME\tSTATUS\nkagent\tdeployed\n";
const call = { "gen_ai.completion.0.tool_calls.0.id": "call_1", "gen_ai.completion.0.tool_calls.0.name": "list_files", "gen_ai.completion.0.tool_calls.0.arguments": '{"dir":"charts"}' };

/** SDK span dicts: a chat span that calls list_files, the ADK tool span that ran it with `toolResponse`, and the next chat span whose history holds the text. */
function run(toolResponse: unknown): { spans: unknown[] } {
  const span = (id: string, start: number, attributes: Record<string, unknown>) => ({ name: String(attributes["gen_ai.operation.name"]), context: { trace_id: "t1", span_id: id }, parent: null, start_time: start, attributes });
  return {
    spans: [
      span("s1", 1, { "gen_ai.operation.name": "chat", "gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "Which charts are deployed?", "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.finish_reason": "tool_calls", ...call }),
      span("s2", 2, { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "list_files", "gen_ai.tool.call.id": "call_1", "gcp.vertex.agent.tool_response": JSON.stringify(toolResponse) }),
      span("s3", 3, {
        "gen_ai.operation.name": "chat",
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "Which charts are deployed?",
        "gen_ai.prompt.1.role": "assistant",
        "gen_ai.prompt.1.tool_calls.0.id": "call_1",
        "gen_ai.prompt.1.tool_calls.0.name": "list_files",
        "gen_ai.prompt.1.tool_calls.0.arguments": '{"dir":"charts"}',
        "gen_ai.prompt.2.role": "tool",
        "gen_ai.prompt.2.tool_call_id": "call_1",
        "gen_ai.prompt.2.content": listing,
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.content": "kagent is deployed.",
        "gen_ai.completion.0.finish_reason": "stop",
      }),
    ],
  };
}

describe("an MCP tool's result of one text and the text in the next request", () => {
  const document = run({ content: [{ type: "text", text: listing }], isError: false });

  test("are one result, read once", () => {
    expect(records("otlp", document)).toEqual([
      { type: "message", role: "user", content: "Which charts are deployed?" },
      { type: "function_call", call_id: "call_1", name: "list_files", arguments: '{"dir":"charts"}', status: "completed" },
      { type: "function_call_output", call_id: "call_1", output: JSON.stringify({ content: [{ type: "text", text: listing }], isError: false }) },
      { type: "message", role: "assistant", content: "kagent is deployed." },
    ]);
    expect(lossesOf("otlp", document, "conflict")).toEqual([]);
    expect(READERS.otlp.read(document).messages).toEqual({ read: 7, emitted: 4, repeated: 3, reported: 0 });
  });

  test("and gated with no line blocked", async () => {
    expect(await gateVerdicts(document, [LIST_FILES])).toEqual({ code: 0, verdicts: [["not_function_call", false], ["ok", false], ["not_function_call", false], ["not_function_call", false]] });
  });
});

describe("an MCP tool's result that says more than the text", () => {
  test.each([
    ["that failed", { content: [{ type: "text", text: listing }], isError: true }],
    ["with structured content", { content: [{ type: "text", text: listing }], structuredContent: { releases: ["kagent"] } }],
    ["of two texts", { content: [{ type: "text", text: listing }, { type: "text", text: "more" }] }],
  ])("%s is another result: a conflict, as before", (_, response) => {
    expect(lossesOf("otlp", run(response), "conflict").map(({ span }) => span)).toEqual(["s2", "s3"]);
  });
});
