// Messages, calls and parts flattened into indexed attributes are numbered from
// 0 without a gap by every instrumentation that writes them: an index left out
// is a level whose attributes were dropped (an attribute limit, an exporter
// that says nothing of it), so the answer that is left is not the answer the
// model gave, and its calls are incomplete, which the gate blocks.
import { describe, expect, test } from "vitest";
import { DELETE_FILE, chatSpan, gateVerdicts, lossesOf, records } from "../../support/span-documents.js";

const call = (index: number, id: string, path: string) => ({
  [`gen_ai.completion.0.tool_calls.${index}.id`]: id,
  [`gen_ai.completion.0.tool_calls.${index}.name`]: "delete_file",
  [`gen_ai.completion.0.tool_calls.${index}.arguments`]: JSON.stringify({ path }),
});
const answer = (...calls: Array<Record<string, string>>) => chatSpan({ "gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "clean up", "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.finish_reason": "tool_calls", ...Object.assign({}, ...calls) });

describe("an answer whose indexed calls skip an index", () => {
  const document = answer(call(0, "call_a", "/tmp/a"), call(2, "call_c", "/tmp/c"));

  test("gives each call incomplete, and says which index is missing", () => {
    expect(records("otlp", document)).toEqual([
      { type: "message", role: "user", content: "clean up" },
      { type: "function_call", call_id: "call_a", name: "delete_file", arguments: '{"path":"/tmp/a"}', status: "incomplete" },
      { type: "function_call", call_id: "call_c", name: "delete_file", arguments: '{"path":"/tmp/c"}', status: "incomplete" },
    ]);
    expect(lossesOf("otlp", document, "truncated")).toEqual([
      { path: "/spans/0/attributes/gen_ai.completion.0.tool_calls.0.id", code: "truncated", detail: "the attributes gen_ai.completion.0.tool_calls.N skip the index 1, which the instrumentation numbers without a gap: what they held was dropped, so each call of the answer is incomplete", span: "s1" },
    ]);
  });

  test("is blocked by the gate", async () => {
    expect(await gateVerdicts(document, [DELETE_FILE])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["status", true], ["status", true]] });
  });
});

describe("an answer whose indexed calls are numbered without a gap", () => {
  test("gives its calls completed, with nothing said cut", () => {
    const document = answer(call(0, "call_a", "/tmp/a"), call(1, "call_b", "/tmp/b"));
    expect(records("otlp", document).map((record) => record.status)).toEqual([undefined, "completed", "completed"]);
    expect(lossesOf("otlp", document, "truncated")).toEqual([]);
  });
});
