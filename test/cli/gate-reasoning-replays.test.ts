// Logged request, response, request, where the second request replays the
// response's reasoning item as pydantic-ai writes it: the replay is the
// conversation so far, and only the new output is gated.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

interface Exchange {
  model: string;
  tools: unknown[];
  ask: Record<string, unknown>;
  /** The reasoning item as the response gives it, and as the request replays it. */
  given: Record<string, unknown>;
  replayed: Record<string, unknown>;
  /** The call as the request replays it; the response adds its status (and its id, when the replay leaves it out). */
  call: { call_id: string } & Record<string, unknown>;
  callId?: string;
  output: unknown;
}

function journal(exchange: Exchange): string {
  const { model, tools, ask, given, replayed, call, callId, output } = exchange;
  return [
    { model, input: [ask], tools },
    { id: "resp_1", object: "response", status: "completed", output: [given, { ...call, ...(callId === undefined ? {} : { id: callId }), status: "completed" }], tools },
    { model, input: [ask, replayed, call, { type: "function_call_output", call_id: call.call_id, output }], tools },
  ]
    .map((record) => JSON.stringify(record) + "\n")
    .join("");
}

function onlyTheOutputGated(callId: string) {
  return {
    code: 0,
    stdout: [
      'line 1  message -  pass not_function_call: "message" is not a function_call',
      'line 2  reasoning -  pass not_function_call: "reasoning" is not a function_call',
      `line 2.1  function_call ${callId}  pass ok: completed call with arguments valid for its schema`,
      `line 3.3  function_call_output ${callId}  pass not_function_call: "function_call_output" is not a function_call`,
      "",
    ].join("\n"),
    stderr: "read 3 lines: 4 items, 0 errors; 0 blocked\n",
  };
}

describe("gate: a request that replays a reasoning item", () => {
  test('with "encrypted_content": null where the response gave none (DeepSeek\'s Responses API)', async () => {
    const thought = { type: "reasoning", id: "76f8b89e-4a41-46fb-86ae-546cc1e4ba6c", summary: [], content: [{ type: "reasoning_text", text: "I should call the get_temperature tool." }] };
    const call = { type: "function_call", call_id: "call_00_iD0U8IMtyIljI0ET7GLz1318", name: "get_temperature", arguments: '{"city": "Tokyo"}' };
    const text = journal({
      model: "deepseek-v4-flash",
      tools: [{ type: "function", name: "get_temperature", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
      ask: { role: "user", content: "What is the temperature in Tokyo?" },
      given: { ...thought, status: "completed" },
      replayed: { ...thought, encrypted_content: null },
      call,
      callId: "8fc1af85-3010-42b2-bcb8-1a6d5003ad3b",
      output: "21.0",
    });
    expect(await runOrbridge(["gate", "-"], text)).toEqual(onlyTheOutputGated(call.call_id));
  });

  test('without the "content": [] its response gave (OpenAI\'s Responses API; an input reasoning item\'s content may only be null)', async () => {
    const thought = { type: "reasoning", id: "rs_07fb6c700c679e0b006a285d27d7c4819ebb375614ce1d2b6a", summary: [], encrypted_content: "gAAAAABqKF0p-opaque" };
    const call = { type: "function_call", id: "fc_07fb6c700c679e0b006a285d28dae0819ea0739ed14b3b3ed5", call_id: "call_LnP8E5XLOOXYQzUbJHIBKlE2", name: "get_file", arguments: "{}" };
    const text = journal({
      model: "gpt-5-mini",
      tools: [{ type: "function", name: "get_file", parameters: { type: "object", properties: {}, additionalProperties: false }, strict: true }],
      ask: { role: "user", content: "Use the get_file tool now to retrieve an image file." },
      given: { ...thought, content: [] },
      replayed: thought,
      call,
      output: [{ type: "input_image", file_id: "file-BVTjj4CLd1Z7cgppk5sL45", detail: "auto" }],
    });
    expect(await runOrbridge(["gate", "-"], text)).toEqual(onlyTheOutputGated(call.call_id));
  });
});
