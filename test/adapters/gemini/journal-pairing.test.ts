// Gemini calls without id, and their results on later lines of a journal: the
// shapes a logged conversation takes (a request and its response per line, the
// next request replaying both; or one content per line). `gate`, `normalize` and
// `convert` must pair each result with its call, give a call the same id in the
// response that made it and in the requests that replay it, and say so.
import { describe, expect, test } from "vitest";
import { synthesizedCallId } from "../../../adapters/gemini/call-ids.js";
import { gatedCalls as gate, journalOf as journal, jsonLines as linesOf, type Json } from "../../support/gated-calls.js";
import { runOrbridge } from "../../support/run-cli.js";

const declarations = [{ functionDeclarations: [{ name: "get_weather", parameters: { type: "OBJECT", required: ["city"], properties: { city: { type: "STRING" } } } }] }];
const ask = { role: "user", parts: [{ text: "Weather in Paris and Lyon?" }] };
const calls = { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }, { functionCall: { name: "get_weather", args: { city: "Lyon" } } }] };
const results = { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { result: "Sunny" } } }, { functionResponse: { name: "get_weather", response: { result: "Rain" } } }] };
const nice = { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Nice" } } }] };
const response = (id: string, content: Json) => ({ candidates: [{ content, finishReason: "STOP", index: 0 }], modelVersion: "gemini-2.5-flash", responseId: id });

const paris = synthesizedCallId(1, "get_weather", '{"city":"Paris"}');
const lyon = synthesizedCallId(2, "get_weather", '{"city":"Lyon"}');
const niceId = synthesizedCallId(3, "get_weather", '{"city":"Nice"}');

describe("a request and its response per line, each request replaying the conversation", () => {
  const text = journal([
    { contents: [ask], tools: declarations },
    response("r1", calls),
    { contents: [ask, calls, results], tools: declarations },
    response("r2", nice),
    { contents: [ask, calls, results, nice, { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { result: "Cloudy" } } }] }], tools: declarations },
  ]);

  test("the gate pairs every result with its call: the replayed calls are the same calls, not new ones", async () => {
    expect(await gate(text)).toEqual({
      code: 0,
      verdicts: [
        [2, "function_call", paris, "ok", []],
        [2, "function_call", lyon, "ok", []],
        [3, "function_call_output", paris, "not_function_call", []],
        [3, "function_call_output", lyon, "not_function_call", []],
        [4, "function_call", niceId, "ok", []],
        [5, "function_call_output", niceId, "not_function_call", []],
      ],
    });
  });

  test("normalize emits each call once and reports each pairing, the same on every run", async () => {
    const first = await runOrbridge(["normalize"], text);
    const second = await runOrbridge(["normalize"], text);
    expect(second.stdout).toBe(first.stdout);
    expect(linesOf(first.stdout).map((item) => [item.type, item.call_id])).toEqual([
      ["message", undefined],
      ["function_call", paris],
      ["function_call", lyon],
      ["function_call_output", paris],
      ["function_call_output", lyon],
      ["function_call", niceId],
      ["function_call_output", niceId],
    ]);
  });
});

describe("one content per line, the results on the line after their calls", () => {
  const text = journal([{ contents: [ask], tools: declarations }, calls, results]);

  test("the gate pairs them, where each line alone would leave the results orphans", async () => {
    expect(await gate(text)).toEqual({
      code: 0,
      verdicts: [
        [2, "function_call", paris, "ok", []],
        [2, "function_call", lyon, "ok", []],
        [3, "function_call_output", paris, "not_function_call", []],
        [3, "function_call_output", lyon, "not_function_call", []],
      ],
    });
  });

  test("convert --to chat gives each tool message the id of its call", async () => {
    const run = await runOrbridge(["convert", "--to", "chat"], text);
    const records = linesOf(run.stdout);
    expect(records.map((record) => [record.role, (record.tool_calls as Json[] | undefined)?.map((entry) => entry.id), record.tool_call_id])).toEqual([
      [undefined, undefined, undefined],
      ["assistant", [paris, lyon], undefined],
      ["tool", undefined, paris],
      ["tool", undefined, lyon],
    ]);
  });
});

describe("a call the model's next turn leaves unanswered", () => {
  // Gemini pairs a result with the calls of the model's turn just before it.
  const first = { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] };
  const again = { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: 1 } } }] };
  const result = { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { result: "Sunny" } } }] };
  const later = synthesizedCallId(2, "get_weather", '{"city":1}');

  test("the gate gives a result without id to the call of the last turn, not to the earliest of its name", async () => {
    const text = journal([{ contents: [ask], tools: declarations }, first, { role: "user", parts: [{ text: "wait" }] }, again, result]);
    const { verdicts } = await gate(text);
    expect(verdicts.slice(1)).toEqual([
      [4, "function_call", later, "arguments_schema", []],
      [5, "function_call_output", later, "not_function_call", ["output_for_blocked_call"]],
    ]);
  });
  test("normalize still gives it to the earliest, and says so", async () => {
    const run = await runOrbridge(["normalize"], journal([first, again, result]));
    expect(linesOf(run.stdout).at(-1)).toMatchObject({ type: "function_call_output", call_id: paris });
  });
  test("model contents in a row are one turn: a result pairs with the earliest call of its name among them, as before", async () => {
    const blocked = { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: 1 } } }] };
    const two = { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { result: "for the blocked call" } } }, { functionResponse: { name: "get_weather", response: { result: "Sunny" } } }] };
    const { verdicts } = await gate(journal([{ contents: [ask], tools: declarations }, blocked, first, two]));
    const blockedId = synthesizedCallId(1, "get_weather", '{"city":1}');
    expect(verdicts.slice(2)).toEqual([
      [4, "function_call_output", blockedId, "not_function_call", ["output_for_blocked_call"]],
      [4, "function_call_output", synthesizedCallId(2, "get_weather", '{"city":"Paris"}'), "not_function_call", []],
    ]);
    const text = { role: "model", parts: [{ text: "Checking." }] };
    expect((await gate(journal([{ contents: [ask], tools: declarations }, first, text, result]))).verdicts.at(-1)).toEqual([4, "function_call_output", paris, "not_function_call", []]);
  });
});
