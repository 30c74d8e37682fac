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

  test("a Gemini result named for another tool than the call its id names, an item_reference, a call_id two calls share: the same verdicts in both threads", async () => {
    const tools = { tools: [{ functionDeclarations: [{ name: "get_report", parameters: { type: "OBJECT", properties: { region: { type: "STRING", enum: ["apac"] } }, required: ["region"] } }] }] };
    const call = (id: string, region: string) => ({ type: "function_call", id: `fc_${id}`, call_id: id, name: "get_report", arguments: JSON.stringify({ region }), status: "completed" });
    const records = [
      { contents: [{ role: "user", parts: [{ text: "go" }] }], ...tools },
      { contents: [{ role: "model", parts: [{ functionCall: { id: "a", name: "get_report", args: { region: "apac" } } }, { functionCall: { id: "b", name: "wire_money", args: {} } }] }, { role: "user", parts: [{ functionResponse: { id: "a", name: "wire_money", response: { result: "wired" } } }] }], ...tools },
      call("c1", "apac"),
      call("c2", "global"),
      { type: "item_reference", id: "fc_c2" },
      { ...call("c1", "global"), id: "fc_c1b" },
      { type: "function_call_output", call_id: "c1", output: "report" },
    ];
    const journal = records.map((record) => JSON.stringify(record)).join("\n") + "\n";
    const one = await gate(journal, 1);
    const two = await gate(journal, 2);
    expect({ two: two.threads, same: two.text === one.text }).toEqual({ two: new Set([2]), same: true });
    const codes = one.text.trimEnd().split("\n").map((line) => JSON.parse(line) as { type: string; findings: Array<{ code: string }> }).filter((verdict) => verdict.type !== "message" && verdict.type !== "function_call").map((verdict) => [verdict.type, verdict.findings.map((finding) => finding.code)]);
    expect(codes).toEqual([
      ["function_call_output", ["orphan_output"]],
      ["item_reference", ["blocked_reference"]],
      ["function_call_output", ["output_for_blocked_call"]],
    ]);
  });
});
