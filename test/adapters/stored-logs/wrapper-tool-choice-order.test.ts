// A wrapper span's request holds for the call inside it whatever the order the
// spans start in: the same start time with the inner span listed first, or a
// wrapper whose clock says it started later.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { runOrbridge } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

/** ADK's call_llm (aa) around openai.chat (bb), whose answer calls delete_file; the wrapper's request says mode NONE. */
function trace(starts: { inner: number; wrapper: number }) {
  const inner = {
    traceID: "t1",
    spanID: "bb",
    operationName: "openai.chat",
    references: [{ refType: "CHILD_OF", traceID: "t1", spanID: "aa" }],
    startTime: starts.inner,
    duration: 10,
    tags: [
      { key: "gen_ai.prompt.0.role", type: "string", value: "user" },
      { key: "gen_ai.prompt.0.content", type: "string", value: "hi" },
      { key: "gen_ai.completion.0.role", type: "string", value: "assistant" },
      { key: "gen_ai.completion.0.finish_reason", type: "string", value: "tool_calls" },
      { key: "gen_ai.completion.0.tool_calls.0.id", type: "string", value: "call_1" },
      { key: "gen_ai.completion.0.tool_calls.0.name", type: "string", value: "delete_file" },
      { key: "gen_ai.completion.0.tool_calls.0.arguments", type: "string", value: '{"path":"/tmp/x"}' },
    ],
    processID: "p1",
  };
  const wrapper = {
    traceID: "t1",
    spanID: "aa",
    operationName: "call_llm",
    references: [],
    startTime: starts.wrapper,
    duration: 10,
    tags: [
      { key: "gen_ai.operation.name", type: "string", value: "call_llm" },
      { key: "gcp.vertex.agent.llm_request", type: "string", value: JSON.stringify({ model: "m", contents: [{ role: "user", parts: [{ text: "hi" }] }], config: { tool_config: { function_calling_config: { mode: "NONE" } } } }) },
    ],
    processID: "p1",
  };
  // The inner span listed first: a reader that walks the document in order meets it before its wrapper.
  return { data: [{ traceID: "t1", spans: [inner, wrapper], processes: {} }] };
}

const ORDERS = [
  ["the same start time, the inner span listed first", { inner: 100, wrapper: 100 }],
  ["a wrapper that starts after the call inside it", { inner: 100, wrapper: 101 }],
  ["a wrapper that starts before it", { inner: 101, wrapper: 100 }],
] as const;

describe("a wrapper's tool choice and the call inside it", () => {
  for (const [order, starts] of ORDERS) {
    it(`refuses the call its request did not allow: ${order}`, () => {
      const reading = READERS.jaeger.read(trace(starts));
      expect(reading.records.map(({ record }) => (record as { type: string }).type)).toEqual(["message"]);
      expect(reading.losses.filter((loss) => loss.code === "conflict").map(({ path, detail }) => [path, detail])).toEqual([
        ["/data/0/spans/0/tags/2/value", 'the call of "delete_file" answers a request that did not allow it (the request\'s function calling mode is "NONE", at /data/0/spans/1/tags/1/value): not read'],
      ]);
      expect(reading.messages).toEqual({ read: 2, emitted: 1, repeated: 0, reported: 1 });
    });
  }

  it("is blocked by the gate when the wrapper starts later", async () => {
    const file = join(scratchFolder("wrapper-choice"), "trace.json");
    writeFileSync(file, JSON.stringify(trace({ inner: 100, wrapper: 101 })));
    const result = await runOrbridge(["gate", file]);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(/function_call call_1 +pass/);
    expect(result.stdout).toMatch(/BLOCKED error: conflict: .*the call of "delete_file" answers a request that did not allow it/);
  });
});
