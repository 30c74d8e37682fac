// An answer recorded in two dialects of one span, one holding the call and the
// other only how the answer ended: when that one says the answer was cut (or
// ended otherwise than of itself or to call tools), the call is incomplete,
// which the gate blocks, as it is when both dialects hold the call.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { runOrbridge } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const text = (key: string, value: string) => ({ key, value: { stringValue: value } });
const span = (attributes: unknown[]) => ({ name: "chat", traceId: "aa", spanId: "01", startTimeUnixNano: "5", attributes: [text("gen_ai.operation.name", "chat"), text("gen_ai.input.messages", JSON.stringify([{ role: "user", content: "q" }])), ...attributes] });

const GENAI_CALL = text("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "delete_file", arguments: '{"path":"/tmp/x"}' }] }]));
const indexedEnding = (reason: string) => [text("gen_ai.completion.0.role", "assistant"), text("gen_ai.completion.0.finish_reason", reason), text("gen_ai.completion.0.content", "")];

const calls = (reading: ReturnType<typeof READERS.otlp.read>) => reading.records.map(({ record }) => record).filter((record) => (record as { type: string }).type === "function_call");

describe("a second dialect that says how the answer ended, holding no call", () => {
  it("at the length limit: the call read from the first dialect is incomplete, reported truncated at the reason", () => {
    const reading = READERS.otlp.read(span([GENAI_CALL, ...indexedEnding("length")]));
    expect(calls(reading)).toEqual([{ type: "function_call", call_id: "call_1", name: "delete_file", arguments: '{"path":"/tmp/x"}', status: "incomplete" }]);
    expect(reading.losses.filter((loss) => loss.code !== "left_behind")).toEqual([
      {
        path: "/attributes/3/value/stringValue",
        code: "truncated",
        detail: 'the call of "delete_file", read from gen_ai.output.messages, is in an answer that gen_ai.completion.N (at its message\'s finish_reason) in the same span says the model stopped at its length limit (finish reason "length"): its arguments may be cut, so it is incomplete',
        span: "01",
      },
    ]);
  });

  it("by a content filter: the call is incomplete, reported as a changed form", () => {
    const reading = READERS.otlp.read(span([GENAI_CALL, ...indexedEnding("content_filter")]));
    expect(calls(reading)).toEqual([{ type: "function_call", call_id: "call_1", name: "delete_file", arguments: '{"path":"/tmp/x"}', status: "incomplete" }]);
    expect(reading.losses.filter((loss) => loss.code !== "left_behind").map(({ code }) => code)).toEqual(["form_changed"]);
  });

  it("read before the dialect that holds the call: the call is incomplete all the same", () => {
    const cutFirst = text("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [], finish_reason: "max_tokens" }]));
    const indexedCall = [text("gen_ai.completion.0.role", "assistant"), text("gen_ai.completion.0.tool_calls.0.id", "call_1"), text("gen_ai.completion.0.tool_calls.0.name", "delete_file"), text("gen_ai.completion.0.tool_calls.0.arguments", '{"path":"/tmp/x"}')];
    const reading = READERS.otlp.read(span([cutFirst, ...indexedCall]));
    expect(calls(reading)).toEqual([{ type: "function_call", call_id: "call_1", name: "delete_file", arguments: '{"path":"/tmp/x"}', status: "incomplete" }]);
    expect(reading.losses.filter((loss) => loss.code === "truncated").map(({ path, detail }) => [path, detail])).toEqual([
      [
        "/attributes/2/value/stringValue",
        'the call of "delete_file", read from gen_ai.completion.N, is in an answer that gen_ai.output.messages (at /0/finish_reason in its JSON text) in the same span says the model stopped at its length limit (finish reason "max_tokens"): its arguments may be cut, so it is incomplete',
      ],
    ]);
  });

  it("that ended of itself: the call stays completed", () => {
    const reading = READERS.otlp.read(span([GENAI_CALL, ...indexedEnding("tool_calls")]));
    expect(calls(reading)).toEqual([{ type: "function_call", call_id: "call_1", name: "delete_file", arguments: '{"path":"/tmp/x"}', status: "completed" }]);
    expect(reading.losses.filter((loss) => loss.code !== "left_behind")).toEqual([]);
  });

  it("is blocked by the gate, as the call cut in both dialects is", async () => {
    const file = join(scratchFolder("cut-answer"), "span.json");
    writeFileSync(file, JSON.stringify(span([GENAI_CALL, ...indexedEnding("length")])));
    const result = await runOrbridge(["gate", file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/function_call call_1 +BLOCKED status: status is "incomplete"/);
  });
});
