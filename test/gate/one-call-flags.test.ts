// A request that lets its response make one call only says so with a boolean
// flag. A flag of another type (the string "false", 0) is read as one call only:
// a reader that coerces it limits the response so, and one that does not
// refuses the request, so a second call is never one a replay may run.
import { describe, expect, test } from "vitest";
import { gateJournal } from "../../src/gate/gate-journal.js";

const tools = [{ type: "function", name: "get_forecast", parameters: { type: "object" } }];
const call = (n: number) => ({ type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: "get_forecast", arguments: "{}", status: "completed" });
const exchange = (request: Record<string, unknown>) => ({
  request: { model: "gpt-5", input: "Rain in Lyon or Nice?", tools, ...request },
  response: { id: "resp_1", object: "response", status: "completed", output: [call(1), call(2)] },
});

async function callFindings(record: unknown): Promise<string[][]> {
  const found: string[][] = [];
  for await (const verdict of gateJournal([JSON.stringify(record)])) {
    if (verdict.type === "function_call") found.push(verdict.findings.map((finding) => finding.detail));
  }
  return found;
}

describe("a one-call flag that is not a boolean", () => {
  test.each([
    ['"false"', "false"],
    ["0", 0],
    ['"0"', "0"],
  ])("parallel_tool_calls %s refuses the second call", async (shown, flag) => {
    expect(await callFindings(exchange({ parallel_tool_calls: flag }))).toEqual([
      [],
      [`"get_forecast" is not allowed: parallel_tool_calls ${shown} (not a boolean) in the request of line 1 lets its response make one call, and this is call 2 of it`],
    ]);
  });
  test("true, null or no flag let both calls pass, and false refuses the second, as before", async () => {
    for (const request of [{ parallel_tool_calls: true }, { parallel_tool_calls: null }, {}]) expect(await callFindings(exchange(request))).toEqual([[], []]);
    expect((await callFindings(exchange({ parallel_tool_calls: false })))[1]).toEqual([
      '"get_forecast" is not allowed: parallel_tool_calls false in the request of line 1 lets its response make one call, and this is call 2 of it',
    ]);
  });
});
