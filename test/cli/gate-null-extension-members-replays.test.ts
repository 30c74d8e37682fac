// An Open Responses web search logged request, response, request: the second
// request sends the web_search_call back as the OpenAI Python SDK's model of it
// dumps it (mirascope), with the "sources": null the response left out.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const tools = [{ type: "web_search" }];
const ask = { role: "user", content: "Bitcoin price on Jan 1?" };
const answer = { id: "msg_1", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "About 87,850 USD.", annotations: [] }] };
const search = (action: Record<string, unknown>) => ({ id: "ws_1", type: "web_search_call", status: "completed", action: { type: "search", query: "bitcoin price jan 1", ...action } });
const journal = [
  { model: "gpt-4o", input: [ask], tools },
  { id: "resp_1", object: "response", created_at: 1, status: "completed", model: "gpt-4o", output: [search({}), answer], tools, tool_choice: "auto", parallel_tool_calls: true },
  { model: "gpt-4o", input: [ask, search({ sources: null }), answer, { role: "user", content: "And Ethereum?" }], tools },
]
  .map((record) => JSON.stringify(record) + "\n")
  .join("");

describe("gate: a request that sends a web_search_call back with sources null", () => {
  test("the replayed search and answer are the response's: only the new question is gated", async () => {
    expect(await runOrbridge(["gate", "-"], journal)).toEqual({
      code: 1,
      stdout: [
        'line 1  message -  pass not_function_call: "message" is not a function_call',
        'line 2  openai:web_search_call -  BLOCKED namespaced: "openai:web_search_call" is an extension item, never a portable call',
        'line 2.1  message -  pass not_function_call: "message" is not a function_call',
        'line 3.3  message -  pass not_function_call: "message" is not a function_call',
        "",
      ].join("\n"),
      stderr: "read 3 lines: 4 items, 0 errors; 1 blocked\n  blocked by: namespaced 1\n",
    });
  });
});
