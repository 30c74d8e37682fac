// Calls that come without id get a call_id synthesized from their rank, name and
// arguments. Two conversations logged one after the other (two users asking the
// same tool the same thing) make calls of one rank, name and arguments: each
// conversation's ids must be its own, and a request that replays a conversation
// must give its calls the ids they had. A Chat id is synth_<rank>_ and the first
// 16 hex digits of the sha256 of the name, NUL, the arguments text
// (sha256("get_weather\0{\"city\":\"Paris\"}") begins b99d9c83a0725f09), with the
// conversation's scope and a NUL before them in a conversation that begins
// otherwise than the journal's first.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const lines = (records: unknown[]) => records.map((record) => JSON.stringify(record) + "\n").join("");
const message = 'pass not_function_call: "message" is not a function_call';
const output = 'pass not_function_call: "function_call_output" is not a function_call';
const ok = "pass ok: completed call with arguments valid for its schema";
const parameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false };

describe("gate: Gemini calls without id in two conversations, each asked, answered and replayed", { timeout: 30_000 }, () => {
  const tools = [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: parameters }] }];
  const request = (contents: unknown[]) => ({ contents, tools });
  const user = (text: string) => ({ role: "user", parts: [{ text }] });
  const call = { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] };
  const result = (value: string) => ({ role: "user", parts: [{ functionResponse: { name: "get_weather", response: { return_value: value } } }] });
  const response = (content: unknown, responseId: string) => ({ candidates: [{ content, finishReason: "STOP", index: 0 }], modelVersion: "gemini-2.0-flash", responseId });
  const conversation = (question: string, answer: string, id: string) => [
    request([user(question)]),
    response(call, `${id}-1`),
    request([user(question), call, result(answer)]),
    response({ role: "model", parts: [{ text: `${answer}.` }] }, `${id}-2`),
  ];

  test("each conversation's call has an id of its own, its result answers it, and nothing is blocked", async () => {
    const text = lines([...conversation("What is the weather in Paris?", "sunny", "a"), ...conversation("Paris weather, please.", "rainy", "b")]);
    expect(await runOrbridge(["gate", "-"], text)).toEqual({
      code: 0,
      stdout: [
        `line 1  message -  ${message}`,
        `line 2  function_call gemini_call_0eb58b65a78211d1  ${ok}`,
        `line 3.2  function_call_output gemini_call_0eb58b65a78211d1  ${output}`,
        `line 4  message -  ${message}`,
        `line 5  message -  ${message}`,
        `line 6  function_call gemini_call_f8f8d449986f0fa8  ${ok}`,
        `line 7.2  function_call_output gemini_call_f8f8d449986f0fa8  ${output}`,
        `line 8  message -  ${message}`,
        "",
      ].join("\n"),
      stderr: "read 8 lines: 8 items, 0 errors; 0 blocked\n",
    });
  });

  test("a conversation that begins as an earlier one did is taken for it, and its calls found again, as a replay not recognised would be", async () => {
    const question = "What is the weather in Paris?";
    const { code, stdout } = await runOrbridge(["gate", "--only-blocked", "-"], lines([...conversation(question, "sunny", "a"), ...conversation(question, "rainy", "b")]));
    expect({ code, blocked: stdout.split("\n").filter((line) => line.startsWith("line ")) }).toEqual({
      code: 1,
      blocked: [
        'line 6  function_call gemini_call_0eb58b65a78211d1  BLOCKED duplicate_call_id: the call_id "gemini_call_0eb58b65a78211d1" was already used by the call of line 2',
        'line 7.2  function_call_output gemini_call_0eb58b65a78211d1  BLOCKED duplicate_call_id: the call "gemini_call_0eb58b65a78211d1" was already answered on line 3',
      ],
    });
  });

  test("two conversations logged in turns, without a key: a request of the first, after the second, gives its calls the first's ids, found again", async () => {
    const [askA, callA, replayA, answerA] = conversation("What is the weather in Paris?", "sunny", "a");
    const [askB, callB, replayB, answerB] = conversation("Paris weather, please.", "rainy", "b");
    const { code, stdout } = await runOrbridge(["gate", "--only-blocked", "-"], lines([askA, callA, askB, callB, replayA, answerA, replayB, answerB]));
    expect({ code, calls: stdout.split("\n").filter((line) => line.startsWith("line 5.1") || line.startsWith("line 7.1")) }).toEqual({
      code: 1,
      calls: [
        'line 5.1  function_call gemini_call_0eb58b65a78211d1  BLOCKED duplicate_call_id: the call_id "gemini_call_0eb58b65a78211d1" was already used by the call of line 2',
        'line 7.1  function_call gemini_call_f8f8d449986f0fa8  BLOCKED duplicate_call_id: the call_id "gemini_call_f8f8d449986f0fa8" was already used by the call of line 4',
      ],
    });
  });
});

describe("gate: Chat calls without id", { timeout: 30_000 }, () => {
  const tools = [{ type: "function", function: { name: "get_weather", parameters } }];
  const request = (messages: unknown[], extra: Record<string, unknown> = {}) => ({ model: "gpt-4o-mini", messages, tools, ...extra });
  const toolCall = (city: string) => ({ type: "function", function: { name: "get_weather", arguments: JSON.stringify({ city }) } });
  const calling = (...cities: string[]) => ({ role: "assistant", content: null, tool_calls: cities.map(toolCall) });
  const completion = (id: string, ...messages: Record<string, unknown>[]) => ({ id, object: "chat.completion", created: 1767225600, model: "gpt-4o-mini", choices: messages.map((message, index) => ({ index, message, finish_reason: "tool_calls" in message ? "tool_calls" : "stop" })) });
  const result = { role: "tool", content: "sunny" };
  const said = (text: string) => ({ role: "assistant", content: text });

  test("in two conversations, each its own ids", async () => {
    const conversation = (question: string, id: string) => {
      const ask = { role: "user", content: question };
      return [request([ask]), completion(`${id}1`, calling("Paris")), request([ask, calling("Paris"), result]), completion(`${id}2`, said("Sunny."))];
    };
    expect(await runOrbridge(["gate", "-"], lines([...conversation("Weather in Paris?", "a"), ...conversation("Paris weather?", "b")]))).toEqual({
      code: 0,
      stdout: [
        `line 1  message -  ${message}`,
        `line 2  function_call synth_1_b99d9c83a0725f09  ${ok}`,
        `line 3.2  function_call_output synth_1_b99d9c83a0725f09  ${output}`,
        `line 4  message -  ${message}`,
        `line 5  message -  ${message}`,
        `line 6  function_call synth_1_a36ec80699531aee  ${ok}`,
        `line 7.2  function_call_output synth_1_a36ec80699531aee  ${output}`,
        `line 8  message -  ${message}`,
        "",
      ].join("\n"),
      stderr: "read 8 lines: 8 items, 0 errors; 0 blocked\n",
    });
  });

  test("in two conversations each first logged by a request that holds the call and its result: each its own ids", async () => {
    // The scope is known once the request is read, after its calls were given ids: they are given them again.
    const conversation = (question: string) => request([{ role: "user", content: question }, calling("Paris"), result]);
    expect(await runOrbridge(["gate", "-"], lines([conversation("Weather in Paris?"), conversation("Paris weather?")]))).toEqual({
      code: 0,
      stdout: [
        `line 1  message -  ${message}`,
        `line 1.1  function_call synth_1_b99d9c83a0725f09  ${ok}`,
        `line 1.2  function_call_output synth_1_b99d9c83a0725f09  ${output}`,
        `line 2  message -  ${message}`,
        `line 2.1  function_call synth_1_a36ec80699531aee  ${ok}`,
        `line 2.2  function_call_output synth_1_a36ec80699531aee  ${output}`,
        "",
      ].join("\n"),
      stderr: "read 2 lines: 6 items, 0 errors; 0 blocked\n",
    });
  });

  test("made again in a later turn of one conversation: a completion numbers its call after those its request replayed", async () => {
    const ask = { role: "user", content: "Weather in Paris, twice?" };
    const text = lines([request([ask]), completion("c1", calling("Paris")), request([ask, calling("Paris"), result]), completion("c2", calling("Paris")), request([ask, calling("Paris"), result, calling("Paris"), result]), completion("c3", said("Sunny twice."))]);
    expect(await runOrbridge(["gate", "-"], text)).toEqual({
      code: 0,
      stdout: [
        `line 1  message -  ${message}`,
        `line 2  function_call synth_1_b99d9c83a0725f09  ${ok}`,
        `line 3.2  function_call_output synth_1_b99d9c83a0725f09  ${output}`,
        `line 4  function_call synth_2_b99d9c83a0725f09  ${ok}`,
        `line 5.4  function_call_output synth_2_b99d9c83a0725f09  ${output}`,
        `line 6  message -  ${message}`,
        "",
      ].join("\n"),
      stderr: "read 6 lines: 6 items, 0 errors; 0 blocked\n",
    });
  });

  test("in the second of two choices, replayed: the choice numbers its calls from where the first began", async () => {
    const ask = { role: "user", content: "Weather in Paris or Lyon?" };
    const text = lines([request([ask], { n: 2 }), completion("c1", calling("Paris"), calling("Lyon")), request([ask, calling("Lyon"), result]), completion("c2", said("Sunny."))]);
    expect(await runOrbridge(["gate", "-"], text)).toEqual({
      code: 0,
      stdout: [
        `line 1  message -  ${message}`,
        `line 2  function_call synth_1_b99d9c83a0725f09  ${ok}`,
        `line 2.1  function_call synth_1_29f0a188ae9feed1  ${ok}`,
        `line 3.2  function_call_output synth_1_29f0a188ae9feed1  ${output}`,
        `line 4  message -  ${message}`,
        "",
      ].join("\n"),
      stderr: "read 4 lines: 5 items, 0 errors; 0 blocked\n",
    });
  });

  test("legacy function calls in two conversations, each its own ids", async () => {
    const functions = [{ name: "get_weather", parameters }];
    const legacy = { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Paris"}' } };
    const answer = { role: "function", name: "get_weather", content: "sunny" };
    const conversation = (question: string, id: string) => {
      const ask = { role: "user", content: question };
      return [{ model: "gpt-3.5-turbo", messages: [ask], functions }, { ...completion(id, legacy), choices: [{ index: 0, message: legacy, finish_reason: "function_call" }] }, { model: "gpt-3.5-turbo", messages: [ask, legacy, answer], functions }];
    };
    const { code, stdout } = await runOrbridge(["gate", "-"], lines([...conversation("Weather in Paris?", "a"), ...conversation("Paris weather?", "b")]));
    expect({ code, calls: stdout.split("\n").filter((line) => line.includes("legacy_")) }).toEqual({
      code: 0,
      calls: [
        `line 2  function_call legacy_1_get_weather  ${ok}`,
        `line 3.2  function_call_output legacy_1_get_weather  ${output}`,
        `line 5  function_call legacy_1_c9c2984c75ccf_get_weather  ${ok}`,
        `line 6.2  function_call_output legacy_1_c9c2984c75ccf_get_weather  ${output}`,
      ],
    });
  });
});

describe("gate: Anthropic messages without id", { timeout: 30_000 }, () => {
  const request = (content: string) => ({ model: "claude-sonnet-4-0", max_tokens: 1024, messages: [{ role: "user", content }] });
  const answer = { type: "message", role: "assistant", model: "claude-sonnet-4-0", content: [{ type: "text", text: "Hello!" }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 8, output_tokens: 3 } };

  test("two answers alike word for word, in two conversations, are two items: their ids, derived from the message, take in its rank", async () => {
    expect(await runOrbridge(["gate", "-"], lines([request("Hi"), answer, request("Hello"), answer]))).toEqual({
      code: 0,
      stdout: [`line 1  message -  ${message}`, `line 2  message -  ${message}`, `line 3  message -  ${message}`, `line 4  message -  ${message}`, ""].join("\n"),
      stderr: "read 4 lines: 4 items, 0 errors; 0 blocked\n",
    });
  });
});
