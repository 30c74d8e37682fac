// The gate's second thread (`gate --jobs 2`) reads Anthropic, Gemini and
// Bedrock tools as the first does: the worker is handed the same reader.
import { PassThrough, Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { readEnvelopeTools } from "../../src/cli/envelope-tools.js";
import { gatedBatches, type GateJobsOptions } from "../../src/cli/gate-jobs.js";

async function gate(journal: string, jobs: 1 | 2): Promise<{ text: string; threads: Set<number> }> {
  const io = { stdin: Readable.from([Buffer.from(journal, "utf8")]), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
  const options: GateJobsOptions = { jobs, read: {}, normalize: {}, gate: { readTools: readEnvelopeTools, omitSource: true }, format: "json", colour: false, workerMinBytes: 0 };
  const run = { text: "", threads: new Set<number>() };
  for await (const batch of gatedBatches(["-"], io, options)) {
    run.text += batch.text;
    run.threads.add(batch.threads);
  }
  return run;
}

describe("gate --jobs 2 and envelope tools", () => {
  test("a Gemini exchange whose declaration is in the OpenAPI dialect: the call runs in both threads alike", async () => {
    const exchange = {
      request: {
        contents: [{ parts: [{ text: "Which city is the largest?" }], role: "user" }],
        toolConfig: { functionCallingConfig: { allowedFunctionNames: ["final_result"], mode: "ANY" } },
        tools: [{ functionDeclarations: [{ name: "final_result", parameters: { properties: { city: { type: "STRING" } }, required: ["city"], type: "OBJECT" } }] }],
      },
      response: { candidates: [{ content: { parts: [{ functionCall: { args: { city: "Lima" }, id: "call_city", name: "final_result" } }], role: "model" }, finishReason: "STOP" }], modelVersion: "gemini-2.5-flash" },
    };
    const journal = `${JSON.stringify(exchange)}\n`;
    const one = await gate(journal, 1);
    const two = await gate(journal, 2);
    expect({ one: one.threads, two: two.threads, same: two.text === one.text }).toEqual({ one: new Set([1]), two: new Set([2]), same: true });
    expect(one.text.trimEnd().split("\n").map((line) => (({ index, type, name, reason }) => ({ index, type, name, reason }))(JSON.parse(line)))).toEqual([
      { index: 0, type: "message", name: undefined, reason: "not_function_call" },
      { index: 1, type: "function_call", name: "final_result", reason: "ok" },
    ]);
  });
});
