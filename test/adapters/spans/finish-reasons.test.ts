// A finish reason that the items do not already say (a content filter, a text
// cut at the length limit) is reported left_behind where it is written: in a
// message of gen_ai.output.messages, in gen_ai.response.finish_reasons, in an
// indexed gen_ai.completion.N.finish_reason. One that ends an answer as usual
// (stop, tool calls) is what the items say, and a call cut at the length limit
// says it itself (incomplete). A call in an answer that ended otherwise than of
// itself or to call tools (a filter, a safety stop, an error), or in the answer
// of a span that says it failed, is incomplete too: the gate blocks it, as it
// blocks the same call recorded by its provider's API.
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

  describe("a call in an answer that did not end of itself or to call tools is incomplete", () => {
    const call = (reason?: string) => JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "c1", name: "f", arguments: "{}" }], ...(reason === undefined ? {} : { finish_reason: reason }) }]);
    const statuses = (document: unknown, reader: "otlp" | "langfuse" = "otlp") =>
      READERS[reader].read(document).records.flatMap(({ record }) => ((record as { type?: string }).type === "function_call" ? [(record as { status?: string }).status] : []));

    test("its message's finish reason, or the span's, a filter, a safety stop, an error, a malformed call, a length limit in capitals", () => {
      for (const reason of ["content_filter", "SAFETY", "error", "MALFORMED_FUNCTION_CALL", "refusal", "MAX_TOKENS"]) {
        expect(statuses(spanOf({ "gen_ai.input.messages": user, "gen_ai.output.messages": call(reason) }))).toEqual(["incomplete"]);
        expect(statuses(spanOf({ "gen_ai.input.messages": user, "gen_ai.output.messages": call(), "gen_ai.response.finish_reasons": JSON.stringify([reason]) }))).toEqual(["incomplete"]);
      }
      expect(finishLosses({ "gen_ai.input.messages": user, "gen_ai.output.messages": call("content_filter") })).toEqual([
        { path: "/spans/0/attributes/gen_ai.output.messages", code: "form_changed", detail: 'the call of "f" ends a message whose finish reason "content_filter" is not of a model that ended of itself or to call tools: it is incomplete (at /0/parts/0 in its JSON text)', span: "s1" },
      ]);
      // The usual reasons leave it completed, in any case.
      for (const reason of ["tool_calls", "STOP", "tool-calls", "end_turn", "tool_use"]) expect(statuses(spanOf({ "gen_ai.input.messages": user, "gen_ai.output.messages": call(reason) }))).toEqual(["completed"]);
    });

    test("a span that says it failed: an OTel status of error, an error tag, otel.status_code ERROR, a Langfuse level ERROR", () => {
      const failed = spanOf({ "gen_ai.input.messages": user, "gen_ai.output.messages": call() });
      (failed.spans[0] as Record<string, unknown>).status = { status_code: "ERROR", description: "stream interrupted" };
      expect(statuses(failed)).toEqual(["incomplete"]);
      for (const tag of [{ error: true }, { "otel.status_code": "ERROR" }]) expect(statuses(spanOf({ "gen_ai.input.messages": user, "gen_ai.output.messages": call(), ...tag }))).toEqual(["incomplete"]);
      const observation = (level: string) => ({
        trace: { id: "tr1" },
        observations: [{ id: "o1", traceId: "tr1", type: "GENERATION", startTime: "2026-01-01T00:00:00.000Z", level, input: JSON.stringify([{ role: "user", content: "go" }]), output: JSON.stringify({ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] }) }],
      });
      expect(statuses(observation("ERROR"), "langfuse")).toEqual(["incomplete"]);
      expect(statuses(observation("DEFAULT"), "langfuse")).toEqual(["completed"]);
      expect(statuses(spanOf({ "gen_ai.input.messages": user, "gen_ai.output.messages": call(), "otel.status_code": "OK" }))).toEqual(["completed"]);
    });

    test("an otel.status_code in another form than OK or UNSET is a failure: the enum's name for an error, its number, a word of no known form", () => {
      for (const code of ["STATUS_CODE_ERROR", 2, "2", "Error", "FAILED", "unknown"]) expect(statuses(spanOf({ "gen_ai.input.messages": user, "gen_ai.output.messages": call(), "otel.status_code": code }))).toEqual(["incomplete"]);
      for (const code of ["OK", "ok", "UNSET", "STATUS_CODE_OK", "STATUS_CODE_UNSET", 0, 1, ""]) expect(statuses(spanOf({ "gen_ai.input.messages": user, "gen_ai.output.messages": call(), "otel.status_code": code }))).toEqual(["completed"]);
    });
  });
});
