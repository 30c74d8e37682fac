// Calls that come without id get a call_id synthesized from their rank, name and
// arguments. Without --conversation the whole input is one conversation: two
// conversations logged one after the other that ask the same tool the same thing
// make calls of one rank, name and arguments, so of one id, and the second call,
// which the gate cannot tell from the first made again, is blocked
// (duplicate_call_id). With --conversation each conversation's ids are its own.
// A Chat id is synth_<rank>_ and the first 16 hex digits of the sha256 of the
// name, NUL, the arguments text (sha256("get_weather\0{\"city\":\"Paris\"}")
// begins b99d9c83a0725f09).
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

  const keyed = (records: Record<string, unknown>[], key: string) => records.map((record) => ({ ...record, conversation_id: key }));
  const twoConversations = () => [...keyed(conversation("What is the weather in Paris?", "sunny", "a"), "c-1"), ...keyed(conversation("Paris weather, please.", "rainy", "b"), "c-2")];

  test("read as one conversation, the second's call, alike the first's, gets its id and is blocked with its result", async () => {
    const { code, stdout } = await runOrbridge(["gate", "--only-blocked", "-"], lines(twoConversations()));
    expect({ code, blocked: stdout.split("\n").filter((line) => line.startsWith("line ")) }).toEqual({
      code: 1,
      blocked: [
        'line 6  function_call gemini_call_0eb58b65a78211d1  BLOCKED duplicate_call_id: the call_id "gemini_call_0eb58b65a78211d1" was already used by the call of line 2',
        'line 7.2  function_call_output gemini_call_0eb58b65a78211d1  BLOCKED duplicate_call_id: the call "gemini_call_0eb58b65a78211d1" was already answered on line 3',
      ],
    });
  });

  test("with --conversation, each conversation's call passes, as it does alone", async () => {
    expect(await runOrbridge(["gate", "--conversation", "/conversation_id", "--quiet", "-"], lines(twoConversations()))).toMatchObject({ code: 0, stdout: "" });
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

  test("in two conversations read as one, the second's call, alike the first's, gets its id and is blocked; with --conversation it passes", async () => {
    const conversation = (question: string, id: string) => {
      const ask = { role: "user", content: question };
      return [request([ask]), completion(`${id}1`, calling("Paris")), request([ask, calling("Paris"), result]), completion(`${id}2`, said("Sunny."))].map((record) => ({ ...record, conversation_id: id }));
    };
    const text = lines([...conversation("Weather in Paris?", "a"), ...conversation("Paris weather?", "b")]);
    const one = await runOrbridge(["gate", "--only-blocked", "-"], text);
    expect({ code: one.code, blocked: one.stdout.split("\n").filter((line) => line.startsWith("line ")) }).toEqual({
      code: 1,
      blocked: [
        'line 6  function_call synth_1_b99d9c83a0725f09  BLOCKED duplicate_call_id: the call_id "synth_1_b99d9c83a0725f09" was already used by the call of line 2',
        'line 7.2  function_call_output synth_1_b99d9c83a0725f09  BLOCKED duplicate_call_id: the call "synth_1_b99d9c83a0725f09" was already answered on line 3',
      ],
    });
    expect(await runOrbridge(["gate", "--conversation", "/conversation_id", "--quiet", "-"], text)).toMatchObject({ code: 0, stdout: "" });
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

  test("legacy function calls in two conversations read as one: the second's, alike the first's, gets its id and is blocked", async () => {
    const functions = [{ name: "get_weather", parameters }];
    const legacy = { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Paris"}' } };
    const answer = { role: "function", name: "get_weather", content: "sunny" };
    const conversation = (question: string, id: string) => {
      const ask = { role: "user", content: question };
      return [{ model: "gpt-3.5-turbo", messages: [ask], functions }, { ...completion(id, legacy), choices: [{ index: 0, message: legacy, finish_reason: "function_call" }] }, { model: "gpt-3.5-turbo", messages: [ask, legacy, answer], functions }];
    };
    const { code, stdout } = await runOrbridge(["gate", "-"], lines([...conversation("Weather in Paris?", "a"), ...conversation("Paris weather?", "b")]));
    expect({ code, calls: stdout.split("\n").filter((line) => line.includes("legacy_")) }).toEqual({
      code: 1,
      calls: [
        `line 2  function_call legacy_1_get_weather  ${ok}`,
        `line 3.2  function_call_output legacy_1_get_weather  ${output}`,
        'line 5  function_call legacy_1_get_weather  BLOCKED duplicate_call_id: the call_id "legacy_1_get_weather" was already used by the call of line 2',
        'line 6.2  function_call_output legacy_1_get_weather  BLOCKED duplicate_call_id: the call "legacy_1_get_weather" was already answered on line 3',
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
