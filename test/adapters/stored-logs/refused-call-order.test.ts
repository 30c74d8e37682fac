// A call its own request did not allow is never emitted, whether a later
// request's history that repeats it is read after the answer or before it (two
// spans of one start time, the later turn listed first).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { runOrbridge } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const CALL = { id: "call_1", type: "function", function: { name: "delete_file", arguments: '{"path":"/tmp/x"}' } };

/** An OpenInference LLM span: its request as input.value, its answer as flattened output messages. */
function llmSpan(spanId: string, request: unknown, answer: Array<[string, string]>) {
  return {
    name: "ChatCompletion",
    traceId: "aa",
    spanId,
    startTimeUnixNano: "5",
    attributes: [
      { key: "openinference.span.kind", value: { stringValue: "LLM" } },
      { key: "input.value", value: { stringValue: JSON.stringify(request) } },
      ...answer.map(([key, value]) => ({ key: `llm.output_messages.0.message.${key}`, value: { stringValue: value } })),
    ],
  };
}

/** The answer that calls delete_file to a request that says tool_choice "none". */
const refusedAnswer = llmSpan("01", { messages: [{ role: "user", content: "hi" }], tool_choice: "none" }, [
  ["role", "assistant"],
  ["tool_calls.0.tool_call.id", "call_1"],
  ["tool_calls.0.tool_call.function.name", "delete_file"],
  ["tool_calls.0.tool_call.function.arguments", '{"path":"/tmp/x"}'],
]);
/** The next turn, whose history holds that call and its result. */
const laterTurn = llmSpan("02", { messages: [{ role: "user", content: "hi" }, { role: "assistant", content: null, tool_calls: [CALL] }, { role: "tool", tool_call_id: "call_1", content: "ok" }] }, [
  ["role", "assistant"],
  ["content", "done"],
]);

const ORDERS = [
  ["the answer listed first", [refusedAnswer, laterTurn]],
  ["the later turn's history listed first", [laterTurn, refusedAnswer]],
] as const;

describe("a refused call that a later request's history repeats", () => {
  for (const [order, spans] of ORDERS) {
    it(`is not emitted, and is reported where the history holds it: ${order}`, () => {
      const reading = READERS.otlp.read([...spans]);
      expect(reading.records.map(({ record }) => record)).toEqual([
        { type: "message", role: "user", content: "hi" },
        { type: "function_call_output", call_id: "call_1", output: "ok" },
        { type: "message", role: "assistant", content: "done" },
      ]);
      const history = `/${spans.indexOf(laterTurn)}/attributes/1/value/stringValue`;
      const conflicts = reading.losses.filter((loss) => loss.code === "conflict");
      expect(conflicts.map(({ path, span }) => [path, span])).toEqual([
        [`/${spans.indexOf(refusedAnswer)}/attributes/2/value/stringValue`, "01"],
        [history, "02"],
      ]);
      expect(reading.messages).toEqual({ read: 6, emitted: 3, repeated: 1, reported: 2 });
    });
  }

  it("is blocked by the gate, never passed, when the history is read first", async () => {
    const file = join(scratchFolder("refused-call-order"), "spans.json");
    writeFileSync(file, JSON.stringify([laterTurn, refusedAnswer]));
    const result = await runOrbridge(["gate", "--format", "json", file]);
    expect(result.code).toBe(1);
    const verdicts = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { type?: string; reason: string; blocked: boolean });
    expect(verdicts.map(({ type, reason, blocked }) => [type ?? null, reason, blocked])).toEqual([
      ["message", "not_function_call", false],
      // The result is left with no call, which the gate blocks as well.
      ["function_call_output", "not_function_call", true],
      ["message", "not_function_call", false],
      [null, "error", true],
      [null, "error", true],
    ]);
  });
});
