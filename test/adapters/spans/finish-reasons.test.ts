// A finish reason that the items do not already say (a content filter, a text
// cut at the length limit) is reported left_behind where it is written: in a
// message of gen_ai.output.messages, in gen_ai.response.finish_reasons, in an
// indexed gen_ai.completion.N.finish_reason. One that ends an answer as usual
// (stop, tool calls) is what the items say, and a call cut at the length limit
// says it itself (incomplete).
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";

const spanOf = (attributes: Record<string, unknown>) => ({ spans: [{ name: "chat", context: { trace_id: "t1", span_id: "s1" }, parent: null, start_time: 1, attributes: { "gen_ai.operation.name": "chat", ...attributes } }] });
const finishLosses = (attributes: Record<string, unknown>) => READERS.otlp.read(spanOf(attributes)).losses.filter((loss) => loss.detail.includes("finish reason"));
const user = JSON.stringify([{ role: "user", parts: [{ type: "text", content: "Weather in Oslo?" }] }]);

describe("finish reasons", () => {
  test("a content filter, in the output message and in the span's finish reasons, is reported at each place", () => {
    expect(
      finishLosses({
        "gen_ai.input.messages": user,
        "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "Rainy" }], finish_reason: "content_filter" }]),
        "gen_ai.response.finish_reasons": JSON.stringify(["content_filter"]),
      }),
    ).toEqual([
      { path: "/spans/0/attributes/gen_ai.output.messages", code: "left_behind", detail: 'the finish reason "content_filter" is in no item (at /0/finish_reason in its JSON text)', span: "s1" },
      { path: "/spans/0/attributes/gen_ai.response.finish_reasons", code: "left_behind", detail: 'the finish reason "content_filter" is in no item', span: "s1" },
    ]);
  });

  test("an indexed completion's finish reason is reported at its message", () => {
    expect(finishLosses({ "gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "Hi", "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.content": "Rain", "gen_ai.completion.0.finish_reason": "content_filter" })).toEqual([
      { path: "/spans/0/attributes/gen_ai.completion.0.role", code: "left_behind", detail: 'the finish reason "content_filter" is in no item (at its message\'s finish_reason)', span: "s1" },
    ]);
  });

  test("a text cut at the length limit is reported; a call cut there is incomplete, not reported twice; stop and tool calls are not reported", () => {
    expect(finishLosses({ "gen_ai.input.messages": user, "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "Rai" }], finish_reason: "length" }]) })).toEqual([
      { path: "/spans/0/attributes/gen_ai.output.messages", code: "left_behind", detail: 'the finish reason "length" is in no item (at /0/finish_reason in its JSON text)', span: "s1" },
    ]);
    expect(finishLosses({ "gen_ai.input.messages": user, "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "c1", name: "f", arguments: '{"a":' }], finish_reason: "length" }]) }).map((loss) => loss.code)).toEqual(["truncated"]);
    expect(finishLosses({ "gen_ai.input.messages": user, "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "c1", name: "f", arguments: "{}" }], finish_reason: "tool_calls" }]), "gen_ai.response.finish_reasons": JSON.stringify(["stop"]) })).toEqual([]);
  });
});
