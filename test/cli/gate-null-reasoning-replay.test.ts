// DeepSeek's Responses API, logged request, response, request: the second
// request replays the response's reasoning with "encrypted_content": null, as
// pydantic-ai writes it, where the response gave no encrypted_content.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const tools = [{ type: "function", name: "get_temperature", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }];
const ask = { role: "user", content: "What is the temperature in Tokyo?" };
const thought = { type: "reasoning", id: "76f8b89e-4a41-46fb-86ae-546cc1e4ba6c", summary: [], content: [{ type: "reasoning_text", text: "I should call the get_temperature tool." }] };
const call = { type: "function_call", call_id: "call_00_iD0U8IMtyIljI0ET7GLz1318", name: "get_temperature", arguments: '{"city": "Tokyo"}' };
const journal = [
  { model: "deepseek-v4-flash", input: [ask], tools },
  { id: "resp_1", object: "response", status: "completed", output: [{ ...thought, status: "completed" }, { ...call, id: "8fc1af85-3010-42b2-bcb8-1a6d5003ad3b", status: "completed" }], tools },
  { model: "deepseek-v4-flash", input: [ask, { ...thought, encrypted_content: null }, call, { type: "function_call_output", call_id: call.call_id, output: "21.0" }], tools },
]
  .map((record) => JSON.stringify(record) + "\n")
  .join("");

describe("gate: a request that replays a reasoning item with encrypted_content null", () => {
  test("the replayed reasoning and call are the response's: only the new output is gated", async () => {
    expect(await runOrbridge(["gate", "-"], journal)).toEqual({
      code: 0,
      stdout: [
        'line 1  message -  pass not_function_call: "message" is not a function_call',
        'line 2  reasoning -  pass not_function_call: "reasoning" is not a function_call',
        "line 2.1  function_call call_00_iD0U8IMtyIljI0ET7GLz1318  pass ok: completed call with arguments valid for its schema",
        'line 3.3  function_call_output call_00_iD0U8IMtyIljI0ET7GLz1318  pass not_function_call: "function_call_output" is not a function_call',
        "",
      ].join("\n"),
      stderr: "read 3 lines: 4 items, 0 errors; 0 blocked\n",
    });
  });
});
