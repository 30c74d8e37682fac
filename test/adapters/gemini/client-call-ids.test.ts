// A client that sends Gemini's calls back under call ids of its own: Gemini
// wrote the calls without id, and pydantic-ai writes `pyd_ai_…` in the
// `functionCall.id` and `functionResponse.id` of every request after. The
// replayed calls are the calls the gate judged on the response's line, the
// outputs answer them, and the next call the model makes gets an id of its own,
// even when it says what an earlier one said.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { synthesizedCallId } from "../../../adapters/gemini/call-ids.js";
import { gatedCalls as gate, journalOf as journal, jsonLines as linesOf, type Json } from "../../support/gated-calls.js";
import { runOrbridge } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const declarations = [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: { type: "object", additionalProperties: false, required: ["city"], properties: { city: { type: "string" } } } }] }];
const ask = { role: "user", parts: [{ text: "Weather in Paris, twice?" }] };
const call = (args: Json, id?: string, name = "get_weather") => ({ role: "model", parts: [{ functionCall: { ...(id ? { id } : {}), name, args } }] });
const result = (text: string, id?: string) => ({ role: "user", parts: [{ functionResponse: { ...(id ? { id } : {}), name: "get_weather", response: { result: text } } }] });
const response = (id: string, content: Json) => ({ candidates: [{ content, finishReason: "STOP", index: 0 }], modelVersion: "gemini-2.5-flash", responseId: id });
const exchange = (contents: unknown[], answer: Json) => ({ request: { contents, tools: declarations }, response: answer });

const first = synthesizedCallId(1, "get_weather", '{"city":"Paris"}');
const second = synthesizedCallId(2, "get_weather", '{"city":"Paris"}');
/** Both calls judged once, on the response that made them, and each output paired with its call: with the client's ids or without. */
const eachCallJudgedOnce = {
  code: 0,
  verdicts: [
    [1, "function_call", first, "ok", []],
    [2, "function_call_output", first, "not_function_call", []],
    [2, "function_call", second, "ok", []],
    [3, "function_call_output", second, "not_function_call", []],
  ],
};

describe("logged exchanges, each request replaying the calls under the client's ids", () => {
  // The model asks for Paris twice: the second call has the name and arguments of the first.
  const text = journal([
    exchange([ask], response("r1", call({ city: "Paris" }))),
    exchange([ask, call({ city: "Paris" }, "pyd_ai_1"), result("Sunny", "pyd_ai_1")], response("r2", call({ city: "Paris" }))),
    exchange([ask, call({ city: "Paris" }, "pyd_ai_1"), result("Sunny", "pyd_ai_1"), call({ city: "Paris" }, "pyd_ai_2"), result("Still sunny", "pyd_ai_2")], response("r3", { role: "model", parts: [{ text: "Sunny." }] })),
  ]);

  test("the gate takes the replays for the calls it judged, pairs each output with its call, and gives the second call an id of its own", async () => {
    expect(await gate(text)).toEqual(eachCallJudgedOnce);
  });

  test("normalize says which client id each output is written under the call's id for", async () => {
    const report = join(scratchFolder("client-call-ids"), "report.jsonl");
    await runOrbridge(["normalize", "--report", report], text);
    const said = linesOf(readFileSync(report, "utf8")).filter((loss) => String(loss.detail).startsWith("the call_id"));
    expect(said).toEqual([
      { line: 2, path: "", code: "form_changed", detail: `the call_id "pyd_ai_1" is written "${first}": the output answers the call its conversation made without id, which a request replays under "pyd_ai_1"` },
      { line: 3, path: "", code: "form_changed", detail: `the call_id "pyd_ai_2" is written "${second}": the output answers the call its conversation made without id, which a request replays under "pyd_ai_2"` },
    ]);
  });

  test("a replay without ids is the same conversation too", async () => {
    const idless = journal([
      exchange([ask], response("r1", call({ city: "Paris" }))),
      exchange([ask, call({ city: "Paris" }), result("Sunny")], response("r2", call({ city: "Paris" }))),
      exchange([ask, call({ city: "Paris" }), result("Sunny"), call({ city: "Paris" }), result("Still sunny")], response("r3", { role: "model", parts: [{ text: "Sunny." }] })),
    ]);
    expect(await gate(idless)).toEqual(eachCallJudgedOnce);
  });
});

describe("a replay under a client id that says something else is a new call, judged", () => {
  const opening = exchange([ask], response("r1", call({ city: "Paris" })));

  test("other arguments: the replayed call is judged, and blocked", async () => {
    const { code, verdicts } = await gate(journal([opening, exchange([ask, call({ city: 1 }, "pyd_ai_1"), result("Sunny", "pyd_ai_1")], response("r2", { role: "model", parts: [{ text: "Done." }] }))]));
    expect(code).toBe(1);
    expect(verdicts).toContainEqual([2, "function_call", "pyd_ai_1", "arguments_schema", []]);
  });

  test("another name: the replayed call is judged, and blocked", async () => {
    const { code, verdicts } = await gate(journal([opening, exchange([ask, call({ city: "Paris" }, "pyd_ai_1", "delete_city"), result("Sunny", "pyd_ai_1")], response("r2", { role: "model", parts: [{ text: "Done." }] }))]));
    expect(code).toBe(1);
    expect(verdicts).toContainEqual([2, "function_call", "pyd_ai_1", "unknown_tool", []]);
  });

  test("one client id for two calls: neither is taken for a replay", async () => {
    const two = { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }, { functionCall: { name: "get_weather", args: { city: "Lyon" } } }] };
    const same = { role: "model", parts: [{ functionCall: { id: "pyd_ai_1", name: "get_weather", args: { city: "Paris" } } }, { functionCall: { id: "pyd_ai_1", name: "get_weather", args: { city: "Lyon" } } }] };
    const { code, verdicts } = await gate(journal([exchange([ask], response("r1", two)), exchange([ask, same, result("Sunny", "pyd_ai_1")], response("r2", { role: "model", parts: [{ text: "Done." }] }))]));
    expect(code).toBe(1);
    expect(verdicts).toContainEqual([2, "function_call", "pyd_ai_1", "ok", ["duplicate_call_id"]]);
  });

  test("a client id the model gave a call of its own: an output under it answers that call, not the one replayed under it", async () => {
    // The response's second call came with the id "X", and the request sends the first, made without id, under "X" too.
    const both = { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }, { functionCall: { id: "X", name: "get_weather", args: { city: 1 } } }] };
    const replayed = { role: "model", parts: [{ functionCall: { id: "X", name: "get_weather", args: { city: "Paris" } } }, { functionCall: { id: "X", name: "get_weather", args: { city: 1 } } }] };
    const { code, verdicts } = await gate(journal([exchange([ask], response("r1", both)), exchange([ask, replayed, result("Rain", "X")], response("r2", { role: "model", parts: [{ text: "Rain." }] }))]));
    expect(code).toBe(1);
    expect(verdicts).toContainEqual([2, "function_call_output", "X", "not_function_call", ["output_for_blocked_call"]]);
  });

  test("a call given a client id after a replay under it: a later output under that id answers the later call", async () => {
    const replayOnly = { contents: [ask, call({ city: "Paris" }, "X")], tools: declarations };
    const loose = { type: "function_call", call_id: "X", name: "get_weather", arguments: '{"city":1}', status: "completed" };
    const answered = { contents: [ask, call({ city: "Paris" }, "X"), call({ city: 1 }, "X"), result("Rain", "X")], tools: declarations };
    const { code, verdicts } = await gate(journal([exchange([ask], response("r1", call({ city: "Paris" }))), replayOnly, loose, answered]));
    expect(code).toBe(1);
    expect(verdicts).toContainEqual([3, "function_call", "X", "arguments_schema", []]);
    expect(verdicts.filter((verdict) => (verdict as unknown[])[1] === "function_call_output")).toEqual([[4, "function_call_output", "X", "not_function_call", ["output_for_blocked_call"]]]);
  });
});
