// A Gemini request asked for two candidates (candidateCount: 2); the
// application took one and sent the conversation on with it, as a Chat
// application takes one choice of a completion of n: 2. The candidates of a
// response, stored or streamed (chunks whose candidates say their index), are
// alternatives: a request replays one of them, and owes outputs to its calls alone.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const parameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false };
const tools = [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: parameters }] }];
const ask = { role: "user", parts: [{ text: "What is the weather in Paris or Lyon?" }] };
const calling = (id: string, city: string) => ({ role: "model", parts: [{ functionCall: { id, name: "get_weather", args: { city } } }] });
const result = (...ids: string[]) => ({ role: "user", parts: ids.map((id) => ({ functionResponse: { id, name: "get_weather", response: { output: "sunny" } } })) });
const said = { role: "model", parts: [{ text: "It is sunny in Paris." }] };
const request = (contents: unknown[], extra: Record<string, unknown> = {}) => ({ contents, tools, ...extra });
const asked = request([ask], { generationConfig: { candidateCount: 2 } });
const response = { candidates: [{ content: calling("fc_1", "Paris"), finishReason: "STOP", index: 0 }, { content: calling("fc_2", "Lyon"), finishReason: "STOP", index: 1 }], modelVersion: "gemini-2.0-flash", responseId: "resp-2" };
const chunk = (candidates: unknown[]) => ({ candidates, modelVersion: "gemini-2.0-flash", responseId: "resp-s" });
// Candidate 0 calls a tool, candidate 1 answers in text, each told by its index.
const streamed = [
  chunk([{ content: calling("fc_1", "Paris"), index: 0 }]),
  chunk([{ content: said, index: 1 }]),
  chunk([
    { content: { role: "model", parts: [] }, finishReason: "STOP", index: 0 },
    { content: { role: "model", parts: [] }, finishReason: "STOP", index: 1 },
  ]),
];
const lines = (records: unknown[]) => records.map((record) => JSON.stringify(record) + "\n").join("");
const pass = (place: string, type: string, callId = "-") => `line ${place}  ${type} ${callId}  pass not_function_call: "${type}" is not a function_call`;
const ok = (place: string, callId: string) => `line ${place}  function_call ${callId}  pass ok: completed call with arguments valid for its schema`;

describe("gate: a request that replays one candidate of a Gemini response of two", { timeout: 30_000 }, () => {
  test("the second candidate with its result: only the result is new, and the first candidate's call is owed no output", async () => {
    expect(await runOrbridge(["gate", "-"], lines([asked, response, request([ask, calling("fc_2", "Lyon"), result("fc_2")])]))).toEqual({
      code: 0,
      stdout: [pass("1", "message"), ok("2", "fc_1"), ok("2.1", "fc_2"), pass("3.2", "function_call_output", "fc_2"), ""].join("\n"),
      stderr: "read 3 lines: 4 items, 0 errors; 0 blocked\n",
    });
  });

  test("the first candidate with its result: the same", async () => {
    expect(await runOrbridge(["gate", "-"], lines([asked, response, request([ask, calling("fc_1", "Paris"), result("fc_1")])]))).toEqual({
      code: 0,
      stdout: [pass("1", "message"), ok("2", "fc_1"), ok("2.1", "fc_2"), pass("3.2", "function_call_output", "fc_1"), ""].join("\n"),
      stderr: "read 3 lines: 4 items, 0 errors; 0 blocked\n",
    });
  });

  test("the second candidate with a result for the first candidate's call too: that result is an orphan", async () => {
    const { code, stdout } = await runOrbridge(["gate", "--only-blocked", "-"], lines([asked, response, request([ask, calling("fc_2", "Lyon"), result("fc_2", "fc_1")])]));
    expect({ code, stdout }).toEqual({
      code: 1,
      stdout: [
        'line 3.3  function_call_output fc_1  BLOCKED orphan_output: the call "fc_1" of line 2 is of a choice its conversation went on without (a request replayed another choice of its completion): no call of the conversation has the call_id',
        '    verdict not_function_call: "function_call_output" is not a function_call',
        "",
      ].join("\n"),
    });
  });
});

describe("gate: a streamed Gemini response of two candidates, the first calling a tool, the second answering in text", { timeout: 30_000 }, () => {
  const head = [pass("1", "message"), ok("4", "fc_1"), pass("4.1", "message")];

  test("the second candidate replayed: the first candidate's call is owed no output", async () => {
    expect(await runOrbridge(["gate", "-"], lines([asked, ...streamed, request([ask, said, { role: "user", parts: [{ text: "Thanks." }] }])]))).toEqual({
      code: 0,
      stdout: [...head, pass("5.2", "message"), ""].join("\n"),
      stderr: "read 5 lines: 4 items, 0 errors; 0 blocked\n",
    });
  });

  test("the first candidate replayed with its result: the call is answered", async () => {
    expect(await runOrbridge(["gate", "-"], lines([asked, ...streamed, request([ask, calling("fc_1", "Paris"), result("fc_1")])]))).toEqual({
      code: 0,
      stdout: [...head, pass("5.2", "function_call_output", "fc_1"), ""].join("\n"),
      stderr: "read 5 lines: 4 items, 0 errors; 0 blocked\n",
    });
  });

  test("the first candidate replayed without its result still owes the call its output", async () => {
    expect(await runOrbridge(["gate", "-"], lines([asked, ...streamed, request([ask, calling("fc_1", "Paris"), { role: "user", parts: [{ text: "And Lyon?" }] }])]))).toEqual({
      code: 1,
      stdout: [...head, 'line 5.2  message -  BLOCKED missing_output: the call "fc_1" (get_weather) on line 4 has no function_call_output before this user message', '    verdict not_function_call: "message" is not a function_call', ""].join("\n"),
      stderr: "read 5 lines: 4 items, 0 errors; 1 blocked\n  blocked by: missing_output 1\n  findings: missing_output 1\n",
    });
  });
});
