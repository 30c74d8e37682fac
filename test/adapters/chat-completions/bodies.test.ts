import { describe, expect, test } from "vitest";
import { responsesBodyToChatRequest } from "../../../adapters/chat-completions/body-to-request.js";
import { chatRequestToResponsesBody } from "../../../adapters/chat-completions/request-to-body.js";
import type { ChatRequestBody } from "../../../src/models/chat-completions.js";
import type { CreateResponseBody } from "../../../src/models/open-responses.js";
import { runOrbridge } from "../../support/run-cli.js";
import { specErrors } from "../../support/spec-validator.js";

const cityParameters = { additionalProperties: false, properties: { city: { type: "string" } }, required: ["city"], type: "object" };
const answerSchema = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"], additionalProperties: false };

function toBody(request: ChatRequestBody) {
  const result = chatRequestToResponsesBody({ request });
  expect(specErrors("CreateResponseBody", result.value)).toEqual([]);
  return result;
}

describe("Chat request body to Open Responses request body", () => {
  test("messages become input items; tools, tool_choice and the shared parameters follow, in the request's key order", () => {
    const request: ChatRequestBody = {
      messages: [
        { content: "Which lake is the deepest?", role: "user" },
        { role: "assistant", tool_calls: [{ function: { arguments: '{"city":"Irkutsk"}', name: "get_weather" }, id: "call_Qm3rT7", type: "function" }] },
        { content: "cold, clear", role: "tool", tool_call_id: "call_Qm3rT7" },
      ],
      model: "gpt-4o",
      stream: false,
      temperature: 0.2,
      tool_choice: "required",
      tools: [{ function: { description: "", name: "get_weather", parameters: cityParameters, strict: true }, type: "function" }],
    };
    const result = toBody(request);
    expect(result).toEqual({
      value: {
        input: [
          { type: "message", role: "user", content: "Which lake is the deepest?" },
          { type: "function_call", call_id: "call_Qm3rT7", name: "get_weather", arguments: '{"city":"Irkutsk"}', status: "completed" },
          { type: "function_call_output", call_id: "call_Qm3rT7", output: "cold, clear" },
        ],
        model: "gpt-4o",
        stream: false,
        temperature: 0.2,
        tool_choice: "required",
        tools: [{ type: "function", name: "get_weather", description: "", parameters: cityParameters, strict: true }],
      },
      losses: [],
    });
    expect(Object.keys(result.value)).toEqual(["input", "model", "stream", "temperature", "tool_choice", "tools"]);
  });

  test("a system message stays an input item: nothing is lifted into instructions", () => {
    const result = toBody({ model: "gpt-4o", messages: [{ role: "system", content: "Answer in one word." }, { role: "user", content: "Colour of the sky?" }] });
    expect(result).toEqual({
      value: {
        model: "gpt-4o",
        input: [
          { type: "message", role: "system", content: "Answer in one word." },
          { type: "message", role: "user", content: "Colour of the sky?" },
        ],
      },
      losses: [],
    });
  });

  test("response_format and verbosity meet in one text object", () => {
    const result = toBody({
      messages: [{ role: "user", content: "Name a river." }],
      response_format: { type: "json_schema", json_schema: { name: "answer", schema: answerSchema, strict: true } },
      verbosity: "low",
    });
    expect(result).toEqual({
      value: {
        input: [{ type: "message", role: "user", content: "Name a river." }],
        text: { format: { type: "json_schema", name: "answer", schema: answerSchema, strict: true }, verbosity: "low" },
      },
      losses: [],
    });
  });

  test("reasoning_effort, logprobs and max_completion_tokens take their Open Responses names", () => {
    const result = toBody({
      messages: [{ role: "user", content: "Count to three." }],
      reasoning_effort: "high",
      logprobs: true,
      top_logprobs: 2,
      max_completion_tokens: 512,
    });
    expect(result).toEqual({
      value: {
        input: [{ type: "message", role: "user", content: "Count to three." }],
        reasoning: { effort: "high" },
        include: ["message.output_text.logprobs"],
        top_logprobs: 2,
        max_output_tokens: 512,
      },
      losses: [],
    });
  });

  test("fields without a counterpart are losses, and message losses are re-rooted under /messages", () => {
    const result = toBody({
      messages: [{ role: "user", content: "Hello.", name: "ana" }],
      model: "gpt-4o",
      n: 1,
      logit_bias: { "1734": -100 },
      tools: [{ type: "custom", custom: { name: "run_sql" } }],
    });
    expect(result).toEqual({
      value: { input: [{ type: "message", role: "user", content: "Hello." }], model: "gpt-4o", tools: [] },
      losses: [
        { path: "/messages/0/name", code: "unsupported_field", detail: "a participant name has no place in an Open Responses message" },
        { path: "/n", code: "unsupported_field", detail: "n has no counterpart in Open Responses" },
        { path: "/logit_bias", code: "unsupported_field", detail: "logit_bias has no counterpart in Open Responses" },
        { path: "/tools/0", code: "unsupported_tool", detail: 'custom tool "run_sql" has no counterpart in Open Responses' },
      ],
    });
  });

  test("legacy functions and function_call become tools and tool_choice, with losses", () => {
    const result = toBody({
      messages: [{ role: "user", content: "Weather in Oslo?" }],
      functions: [{ name: "get_weather", parameters: cityParameters }],
      function_call: { name: "get_weather" },
    });
    expect(result).toEqual({
      value: {
        input: [{ type: "message", role: "user", content: "Weather in Oslo?" }],
        tools: [{ type: "function", name: "get_weather", parameters: cityParameters }],
        tool_choice: { type: "function", name: "get_weather" },
      },
      losses: [
        { path: "/functions", code: "form_changed", detail: "legacy functions written as function tools" },
        { path: "/function_call", code: "form_changed", detail: "legacy function_call written as tool_choice" },
      ],
    });
  });

  test("a value that is not a request body is refused", () => {
    expect(() => chatRequestToResponsesBody({ request: { input: [] } as unknown as ChatRequestBody })).toThrow(TypeError);
  });
});

describe("a Chat request body that writes null for a choice left unset, as Haystack sends response_format", () => {
  const request = { messages: [{ content: "Weather in Berlin?", role: "user" }], model: "gpt-4o", response_format: null, tool_choice: null } as ChatRequestBody;

  test("is converted without the nulls, each reported", () => {
    expect(toBody(request)).toEqual({
      value: { input: [{ content: "Weather in Berlin?", role: "user", type: "message" }], model: "gpt-4o" },
      losses: [
        { path: "/response_format", code: "form_changed", detail: "response_format: null omitted (the target does not accept null; absent means the same)" },
        { path: "/tool_choice", code: "form_changed", detail: "tool_choice: null omitted (the target does not accept null; absent means the same)" },
      ],
    });
  });

  test("converts on a line of its own and as an exchange's request", async () => {
    const completion = { id: "chatcmpl-1", object: "chat.completion", created: 1, model: "gpt-4o", choices: [{ index: 0, message: { role: "assistant", content: "Mild." }, finish_reason: "stop" }] };
    const journal = JSON.stringify(request) + "\n" + JSON.stringify({ request, response: completion }) + "\n";
    const result = await runOrbridge(["convert", "--to", "responses", "-"], journal);
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line).model ?? JSON.parse(line).request.model)).toEqual(["gpt-4o", "gpt-4o"]);
  });
});

describe("Open Responses request body to Chat request body", () => {
  test("instructions become a leading system message, in the place of the first of instructions and input", () => {
    // An easy input message, without `type`, as the recorded requests send it.
    const body = {
      include: ["reasoning.encrypted_content"],
      input: [{ content: "Write a two-line rhyme.", role: "user" }],
      instructions: "Use the plan tool first.",
      model: "gpt-5",
      reasoning: { effort: "low", summary: "detailed" },
      tool_choice: "auto",
      tools: [{ description: null, name: "update_plan", parameters: { type: "object", properties: { plan: { type: "string" } } }, strict: true, type: "function" }],
    } as CreateResponseBody;
    const result = responsesBodyToChatRequest({ body });
    expect(result).toEqual({
      value: {
        messages: [
          { role: "system", content: "Use the plan tool first." },
          { role: "user", content: "Write a two-line rhyme." },
        ],
        model: "gpt-5",
        reasoning_effort: "low",
        tool_choice: "auto",
        tools: [{ type: "function", function: { name: "update_plan", parameters: { type: "object", properties: { plan: { type: "string" } } }, strict: true } }],
      },
      losses: [
        { path: "/include/0", code: "unsupported_field", detail: 'include "reasoning.encrypted_content" has no counterpart in Chat Completions' },
        { path: "/instructions", code: "form_changed", detail: "instructions written as a leading system message" },
        { path: "/reasoning/summary", code: "unsupported_field", detail: "reasoning.summary has no counterpart in Chat Completions" },
        { path: "/tools/0/description", code: "form_changed", detail: "description: null omitted (Chat has no null description; absent means the same)" },
      ],
    });
    expect(Object.keys(result.value)).toEqual(["messages", "model", "reasoning_effort", "tool_choice", "tools"]);
  });

  test("empty instructions are omitted with a loss, not written as an empty system message", () => {
    const body = { input: [{ type: "message", role: "user", content: "Capital of Peru?" }], instructions: "", model: "gpt-4o" } as CreateResponseBody;
    expect(responsesBodyToChatRequest({ body })).toEqual({
      value: { messages: [{ role: "user", content: "Capital of Peru?" }], model: "gpt-4o" },
      losses: [{ path: "/instructions", code: "form_changed", detail: "empty instructions omitted" }],
    });
  });

  test("a string input is one user message", () => {
    expect(responsesBodyToChatRequest({ body: { model: "gpt-4o", input: "Spell 'river'." } })).toEqual({
      value: { model: "gpt-4o", messages: [{ role: "user", content: "Spell 'river'." }] },
      losses: [{ path: "/input", code: "form_changed", detail: "a string input written as one user message" }],
    });
  });

  test("text.format and text.verbosity become response_format and verbosity", () => {
    const body: CreateResponseBody = {
      input: [{ type: "message", role: "user", content: "Name a river." }],
      text: { format: { type: "json_schema", name: "answer", schema: answerSchema, strict: true }, verbosity: "low" },
      max_output_tokens: 256,
    };
    expect(responsesBodyToChatRequest({ body })).toEqual({
      value: {
        messages: [{ role: "user", content: "Name a river." }],
        response_format: { type: "json_schema", json_schema: { name: "answer", schema: answerSchema, strict: true } },
        verbosity: "low",
        max_completion_tokens: 256,
      },
      losses: [],
    });
  });

  test("item losses are re-rooted under /input; server state is lost", () => {
    const body: CreateResponseBody = {
      previous_response_id: "resp_68c42d28",
      input: [
        { type: "reasoning", id: "rs_68c42d2a", summary: [], encrypted_content: "gAAAAB" },
        { type: "function_call_output", call_id: "call_gL7JE6", output: "plan updated" },
      ],
    };
    expect(responsesBodyToChatRequest({ body })).toEqual({
      value: { messages: [{ role: "tool", tool_call_id: "call_gL7JE6", content: "plan updated" }] },
      losses: [
        { path: "/previous_response_id", code: "unsupported_field", detail: "previous_response_id has no counterpart in Chat Completions" },
        { path: "/input/0", code: "unsupported_item", detail: "Chat Completions cannot replay a reasoning item" },
      ],
    });
  });

  test("a body without input or instructions still gets its messages", () => {
    expect(responsesBodyToChatRequest({ body: { model: "gpt-4o", previous_response_id: "resp_1" } })).toEqual({
      value: { messages: [], model: "gpt-4o" },
      losses: [{ path: "/previous_response_id", code: "unsupported_field", detail: "previous_response_id has no counterpart in Chat Completions" }],
    });
  });
});

describe("round trips of request bodies", () => {
  test("a Chat body without losses comes back exactly", () => {
    const request: ChatRequestBody = {
      messages: [
        { role: "developer", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "What is in this picture?" }, { type: "image_url", image_url: { url: "https://example.com/pear.png" } }] },
        {
          role: "assistant",
          content: "Let me look closer.",
          tool_calls: [
            { id: "call_a1", type: "function", function: { name: "zoom", arguments: '{"factor":2}' } },
            { id: "call_b2", type: "function", function: { name: "crop", arguments: "" } },
          ],
        },
        { role: "tool", tool_call_id: "call_a1", content: "a pear, close up" },
        { role: "tool", tool_call_id: "call_b2", content: [{ type: "text", text: "the stem" }] },
      ],
      model: "gpt-4o",
      parallel_tool_calls: true,
      tool_choice: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name: "zoom" } }] } },
      tools: [
        { type: "function", function: { name: "zoom", parameters: { type: "object", properties: { factor: { type: "number" } } } } },
        { type: "function", function: { name: "crop" } },
      ],
      store: true,
      metadata: { run: "17" },
    };
    const there = toBody(request);
    expect(there.losses).toEqual([]);
    expect(responsesBodyToChatRequest({ body: there.value })).toEqual({ value: request, losses: [] });
  });
});
