// OpenAI's Responses API, logged request, response, request: the response's
// reasoning item holds "content": [], and the second request replays it, as
// pydantic-ai writes it, without content (an input reasoning item's content may
// only be null).
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const tools = [{ type: "function", name: "get_file", parameters: { type: "object", properties: {}, additionalProperties: false }, strict: true }];
const ask = { role: "user", content: "Use the get_file tool now to retrieve an image file." };
const thought = { type: "reasoning", id: "rs_07fb6c700c679e0b006a285d27d7c4819ebb375614ce1d2b6a", summary: [], encrypted_content: "gAAAAABqKF0p-opaque" };
const call = { type: "function_call", id: "fc_07fb6c700c679e0b006a285d28dae0819ea0739ed14b3b3ed5", call_id: "call_LnP8E5XLOOXYQzUbJHIBKlE2", name: "get_file", arguments: "{}" };
const journal = [
  { model: "gpt-5-mini", input: [ask], tools },
  { id: "resp_07fb6c700c679e0b", object: "response", status: "completed", output: [{ ...thought, content: [] }, { ...call, status: "completed" }], tools },
  { model: "gpt-5-mini", input: [ask, thought, call, { type: "function_call_output", call_id: call.call_id, output: [{ type: "input_image", file_id: "file-BVTjj4CLd1Z7cgppk5sL45", detail: "auto" }] }], tools },
]
  .map((record) => JSON.stringify(record) + "\n")
  .join("");

describe("gate: a request that replays a reasoning item without the empty content its response gave", () => {
  test("the replayed reasoning and call are the response's: only the new output is gated", async () => {
    expect(await runOrbridge(["gate", "-"], journal)).toEqual({
      code: 0,
      stdout: [
        'line 1  message -  pass not_function_call: "message" is not a function_call',
        'line 2  reasoning -  pass not_function_call: "reasoning" is not a function_call',
        "line 2.1  function_call call_LnP8E5XLOOXYQzUbJHIBKlE2  pass ok: completed call with arguments valid for its schema",
        'line 3.3  function_call_output call_LnP8E5XLOOXYQzUbJHIBKlE2  pass not_function_call: "function_call_output" is not a function_call',
        "",
      ].join("\n"),
      stderr: "read 3 lines: 4 items, 0 errors; 0 blocked\n",
    });
  });
});
