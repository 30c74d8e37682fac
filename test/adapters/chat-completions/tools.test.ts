import { describe, expect, test } from "vitest";
import { chatParamToResponses, responsesParamToChat } from "../../../adapters/chat-completions/params.js";
import {
  chatFunctionCallToResponses,
  chatFunctionsToResponses,
  chatToolChoiceToResponses,
  chatToolsToResponses,
  responseFormatToTextFormat,
  responsesToolChoiceToChat,
  responsesToolsToChat,
  textFormatToResponseFormat,
} from "../../../adapters/chat-completions/tools.js";
import type { ChatTool, ChatToolChoice } from "../../../src/models/chat-completions.js";
import type { FunctionToolParam, ToolChoiceParam } from "../../../src/models/open-responses.js";
import { specErrors } from "../../support/spec-validator.js";

const weatherParameters = {
  additionalProperties: false,
  properties: { city: { type: "string" } },
  required: ["city"],
  type: "object",
};

describe("Chat tools to Open Responses tools", () => {
  test("a function tool is flattened, an empty description and strict kept", () => {
    const tools: ChatTool[] = [
      { function: { description: "", name: "get_weather", parameters: weatherParameters, strict: true }, type: "function" },
      { function: { description: "", name: "get_country", parameters: { additionalProperties: false, properties: {}, type: "object" } }, type: "function" },
    ];
    const result = chatToolsToResponses({ tools });
    expect(result).toEqual({
      value: [
        { type: "function", name: "get_weather", description: "", parameters: weatherParameters, strict: true },
        { type: "function", name: "get_country", description: "", parameters: { additionalProperties: false, properties: {}, type: "object" } },
      ],
      losses: [],
    });
    for (const tool of result.value) expect(specErrors("FunctionToolParam", tool)).toEqual([]);
  });

  test("a tool without description or parameters stays without them", () => {
    expect(chatToolsToResponses({ tools: [{ type: "function", function: { name: "ping" } }] })).toEqual({
      value: [{ type: "function", name: "ping" }],
      losses: [],
    });
  });

  test("a tool without type that holds only its function, as Mistral writes them, is a function tool, its type reported", () => {
    const tools = [{ function: { description: "", name: "get_image", parameters: { additionalProperties: false, properties: {}, type: "object" } } }] as unknown as ChatTool[];
    expect(chatToolsToResponses({ tools })).toEqual({
      value: [{ type: "function", name: "get_image", description: "", parameters: { additionalProperties: false, properties: {}, type: "object" } }],
      losses: [{ path: "/0/type", code: "synthesized", detail: 'a tool without type that holds a function object is read as a function tool ("type": "function"), as Mistral writes its tools and its API reads them' }],
    });
  });

  test("strict: null is omitted with a loss, since the spec's strict is a boolean", () => {
    const result = chatToolsToResponses({ tools: [{ type: "function", function: { name: "ping", strict: null } }] });
    expect(result).toEqual({
      value: [{ type: "function", name: "ping" }],
      losses: [{ path: "/0/function/strict", code: "form_changed", detail: "strict: null omitted (the spec's strict is a boolean; absent means the same)" }],
    });
  });

  test("a custom tool is a loss and the other tools keep their order", () => {
    const tools: ChatTool[] = [
      { type: "custom", custom: { name: "run_sql", description: "free-form SQL" } },
      { type: "function", function: { name: "ping" } },
    ];
    expect(chatToolsToResponses({ tools })).toEqual({
      value: [{ type: "function", name: "ping" }],
      losses: [{ path: "/0", code: "unsupported_tool", detail: 'custom tool "run_sql" has no counterpart in Open Responses' }],
    });
  });

  test("provider fields on a tool or its function are losses", () => {
    const tools = [{ type: "function", cache_control: { type: "ephemeral" }, function: { name: "ping", examples: [] } }] as ChatTool[];
    expect(chatToolsToResponses({ tools })).toEqual({
      value: [{ type: "function", name: "ping" }],
      losses: [
        { path: "/0/cache_control", code: "provider_extension", detail: '"cache_control" is not a field of the portable shape; Open Responses has no place for it' },
        { path: "/0/function/examples", code: "provider_extension", detail: '"examples" is not a field of the portable shape; Open Responses has no place for it' },
      ],
    });
  });

  test("legacy functions become function tools, with a form_changed loss", () => {
    expect(chatFunctionsToResponses({ functions: [{ name: "get_weather", description: "Weather now.", parameters: weatherParameters }] })).toEqual({
      value: [{ type: "function", name: "get_weather", description: "Weather now.", parameters: weatherParameters }],
      losses: [{ path: "", code: "form_changed", detail: "legacy functions written as function tools" }],
    });
  });
});

describe("Open Responses tools to Chat tools", () => {
  test("a flat function tool is nested under function", () => {
    const tools: FunctionToolParam[] = [{ type: "function", name: "get_weather", description: "", parameters: weatherParameters, strict: true }];
    expect(responsesToolsToChat({ tools })).toEqual({
      value: [{ type: "function", function: { name: "get_weather", description: "", parameters: weatherParameters, strict: true } }],
      losses: [],
    });
  });

  test("description: null and parameters: null are omitted with losses", () => {
    const tools: FunctionToolParam[] = [{ description: null, name: "update_plan", parameters: null, strict: true, type: "function" }];
    expect(responsesToolsToChat({ tools })).toEqual({
      value: [{ type: "function", function: { name: "update_plan", strict: true } }],
      losses: [
        { path: "/0/description", code: "form_changed", detail: "description: null omitted (Chat has no null description; absent means the same)" },
        { path: "/0/parameters", code: "form_changed", detail: "parameters: null omitted (Chat has no null parameters; absent means the same)" },
      ],
    });
  });

  test("a tool of another type is a loss", () => {
    const tools = [{ type: "web_search" }, { type: "function", name: "ping" }] as unknown as FunctionToolParam[];
    expect(responsesToolsToChat({ tools })).toEqual({
      value: [{ type: "function", function: { name: "ping" } }],
      losses: [{ path: "/0", code: "unsupported_tool", detail: 'tool of type "web_search" has no counterpart in Chat Completions' }],
    });
  });
});

describe("tool_choice, Chat to Open Responses", () => {
  test.each(["none", "auto", "required"] as const)("the mode %s stays a string", (mode) => {
    expect(chatToolChoiceToResponses({ toolChoice: mode })).toEqual({ value: mode, losses: [] });
  });

  test('Mistral\'s "any" is written "required", reported', () => {
    expect(chatToolChoiceToResponses({ toolChoice: "any" as unknown as ChatToolChoice })).toEqual({
      value: "required",
      losses: [{ path: "", code: "form_changed", detail: 'tool_choice "any", Mistral\'s word for "required", read as "required", which each envelope writes in its own form' }],
    });
  });

  test("a named function is flattened", () => {
    const result = chatToolChoiceToResponses({ toolChoice: { type: "function", function: { name: "get_weather" } } });
    expect(result).toEqual({ value: { type: "function", name: "get_weather" }, losses: [] });
    expect(specErrors("ToolChoiceParam", result.value)).toEqual([]);
  });

  test("a named custom tool is a loss and no tool_choice is written", () => {
    expect(chatToolChoiceToResponses({ toolChoice: { type: "custom", custom: { name: "run_sql" } } })).toEqual({
      value: undefined,
      losses: [{ path: "", code: "unsupported_tool", detail: 'custom tool "run_sql" has no counterpart in Open Responses' }],
    });
  });

  test("allowed_tools is flattened; its custom entries are losses", () => {
    const toolChoice: ChatToolChoice = {
      type: "allowed_tools",
      allowed_tools: {
        mode: "required",
        tools: [
          { type: "function", function: { name: "get_weather" } },
          { type: "custom", custom: { name: "run_sql" } },
          { type: "function", function: { name: "get_country" } },
        ],
      },
    };
    const result = chatToolChoiceToResponses({ toolChoice });
    expect(result).toEqual({
      value: {
        type: "allowed_tools",
        mode: "required",
        tools: [
          { type: "function", name: "get_weather" },
          { type: "function", name: "get_country" },
        ],
      },
      losses: [{ path: "/allowed_tools/tools/1", code: "unsupported_tool", detail: 'custom tool "run_sql" has no counterpart in Open Responses' }],
    });
    expect(specErrors("ToolChoiceParam", result.value)).toEqual([]);
  });

  test("allowed_tools naming only custom tools is dropped whole", () => {
    const toolChoice: ChatToolChoice = { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "custom", custom: { name: "run_sql" } }] } };
    expect(chatToolChoiceToResponses({ toolChoice })).toEqual({
      value: undefined,
      losses: [
        { path: "/allowed_tools/tools/0", code: "unsupported_tool", detail: 'custom tool "run_sql" has no counterpart in Open Responses' },
        { path: "", code: "unsupported_tool", detail: "allowed_tools names no function tool; tool_choice omitted" },
      ],
    });
  });

  test("a legacy request-level function_call becomes tool_choice, with a loss", () => {
    expect(chatFunctionCallToResponses({ functionCall: { name: "get_weather" } })).toEqual({
      value: { type: "function", name: "get_weather" },
      losses: [{ path: "", code: "form_changed", detail: "legacy function_call written as tool_choice" }],
    });
    expect(chatFunctionCallToResponses({ functionCall: "auto" }).value).toBe("auto");
  });
});

describe("tool_choice, Open Responses to Chat", () => {
  test("a named function is nested under function", () => {
    expect(responsesToolChoiceToChat({ toolChoice: { type: "function", name: "get_weather" } })).toEqual({
      value: { type: "function", function: { name: "get_weather" } },
      losses: [],
    });
  });

  test("allowed_tools is nested under allowed_tools", () => {
    const toolChoice: ToolChoiceParam = { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "get_weather" }] };
    expect(responsesToolChoiceToChat({ toolChoice })).toEqual({
      value: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name: "get_weather" } }] } },
      losses: [],
    });
  });

  test("allowed_tools without mode gets auto, which Chat requires, with a loss", () => {
    const toolChoice: ToolChoiceParam = { type: "allowed_tools", tools: [{ type: "function", name: "get_weather" }] };
    expect(responsesToolChoiceToChat({ toolChoice })).toEqual({
      value: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name: "get_weather" } }] } },
      losses: [{ path: "", code: "synthesized", detail: 'allowed_tools without mode: Chat requires one, "auto" written' }],
    });
  });

  test("allowed_tools with mode none is the mode none", () => {
    const toolChoice: ToolChoiceParam = { type: "allowed_tools", mode: "none", tools: [{ type: "function", name: "get_weather" }] };
    expect(responsesToolChoiceToChat({ toolChoice })).toEqual({
      value: "none",
      losses: [{ path: "/mode", code: "form_changed", detail: 'allowed_tools with mode none written as tool_choice "none"' }],
    });
  });

  test("a hosted tool choice is a loss", () => {
    expect(responsesToolChoiceToChat({ toolChoice: { type: "web_search_preview" } as unknown as ToolChoiceParam })).toEqual({
      value: undefined,
      losses: [{ path: "", code: "unsupported_tool", detail: 'tool_choice of type "web_search_preview" has no counterpart in Chat Completions' }],
    });
  });
});

describe("response_format and text.format", () => {
  const schema = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"], additionalProperties: false };

  test("json_schema is flattened and nested back", () => {
    const chat = { type: "json_schema" as const, json_schema: { name: "answer", description: "One answer.", schema, strict: true } };
    const flat = responseFormatToTextFormat({ responseFormat: chat });
    expect(flat).toEqual({ value: { type: "json_schema", name: "answer", description: "One answer.", schema, strict: true }, losses: [] });
    expect(specErrors("TextFormatParam", flat.value)).toEqual([]);
    expect(textFormatToResponseFormat({ format: flat.value! })).toEqual({ value: chat, losses: [] });
  });

  test("text stays text", () => {
    expect(responseFormatToTextFormat({ responseFormat: { type: "text" } })).toEqual({ value: { type: "text" }, losses: [] });
    expect(textFormatToResponseFormat({ format: { type: "text" } })).toEqual({ value: { type: "text" }, losses: [] });
  });

  test("json_object is not in the spec's text.format: a loss", () => {
    expect(responseFormatToTextFormat({ responseFormat: { type: "json_object" } })).toEqual({
      value: undefined,
      losses: [{ path: "", code: "unsupported_field", detail: "response_format json_object has no counterpart in the spec's text.format (only text and json_schema)" }],
    });
  });

  test("a json_schema format without type or name gets both on the way to Chat", () => {
    expect(textFormatToResponseFormat({ format: { schema } })).toEqual({
      value: { type: "json_schema", json_schema: { name: "response", schema } },
      losses: [{ path: "", code: "synthesized", detail: 'json_schema format without a name: Chat requires one, "response" written' }],
    });
  });
});

describe("shared parameters", () => {
  test("max_completion_tokens is max_output_tokens, and back", () => {
    expect(chatParamToResponses({ key: "max_completion_tokens", request: { max_completion_tokens: 2048 } })).toEqual({ entries: [["max_output_tokens", 2048]], losses: [] });
    expect(responsesParamToChat({ key: "max_output_tokens", body: { max_output_tokens: 2048 } })).toEqual({ entries: [["max_completion_tokens", 2048]], losses: [] });
  });

  test("deprecated max_tokens is written as max_output_tokens with a loss", () => {
    expect(chatParamToResponses({ key: "max_tokens", request: { max_tokens: 300 } })).toEqual({
      entries: [["max_output_tokens", 300]],
      losses: [{ path: "/max_tokens", code: "form_changed", detail: "deprecated max_tokens written as max_output_tokens (it comes back as max_completion_tokens)" }],
    });
  });

  test("max_tokens next to max_completion_tokens is lost", () => {
    expect(chatParamToResponses({ key: "max_tokens", request: { max_tokens: 300, max_completion_tokens: 400 } })).toEqual({
      entries: [],
      losses: [{ path: "/max_tokens", code: "unsupported_field", detail: "max_tokens next to max_completion_tokens: only max_completion_tokens is written, as max_output_tokens" }],
    });
  });

  test("a limit below the spec's minimum of 16 is lost, never raised", () => {
    expect(chatParamToResponses({ key: "max_completion_tokens", request: { max_completion_tokens: 5 } })).toEqual({
      entries: [],
      losses: [{ path: "/max_completion_tokens", code: "unsupported_field", detail: "max_completion_tokens 5 is below the spec's minimum max_output_tokens of 16" }],
    });
  });

  test.each([
    ["n", 1],
    ["logit_bias", { "50256": -100 }],
    ["seed", 7],
    ["stop", ["\n"]],
    ["user", "user-1234"],
  ])("%s has no counterpart: a loss", (key, value) => {
    expect(chatParamToResponses({ key, request: { [key]: value } })).toEqual({
      entries: [],
      losses: [{ path: `/${key}`, code: "unsupported_field", detail: `${key} has no counterpart in Open Responses` }],
    });
  });

  test("logprobs: true is the logprobs include entry, and back", () => {
    expect(chatParamToResponses({ key: "logprobs", request: { logprobs: true } })).toEqual({ entries: [["include", ["message.output_text.logprobs"]]], losses: [] });
    expect(responsesParamToChat({ key: "include", body: { include: ["reasoning.encrypted_content", "message.output_text.logprobs"] } })).toEqual({
      entries: [["logprobs", true]],
      losses: [{ path: "/include/0", code: "unsupported_field", detail: 'include "reasoning.encrypted_content" has no counterpart in Chat Completions' }],
    });
  });

  test("stream_options keeps include_obfuscation and loses include_usage", () => {
    expect(chatParamToResponses({ key: "stream_options", request: { stream_options: { include_usage: true } } })).toEqual({
      entries: [["stream_options", {}]],
      losses: [{ path: "/stream_options/include_usage", code: "unsupported_field", detail: "include_usage has no counterpart: a response always reports its usage" }],
    });
  });

  test("reasoning_effort is reasoning.effort; the summary is lost on the way back", () => {
    expect(chatParamToResponses({ key: "reasoning_effort", request: { reasoning_effort: "low" } })).toEqual({ entries: [["reasoning", { effort: "low" }]], losses: [] });
    expect(responsesParamToChat({ key: "reasoning", body: { reasoning: { effort: "low", summary: "detailed" } } })).toEqual({
      entries: [["reasoning_effort", "low"]],
      losses: [{ path: "/reasoning/summary", code: "unsupported_field", detail: "reasoning.summary has no counterpart in Chat Completions" }],
    });
  });

  test("store: null is omitted with a loss (the spec's store is a boolean)", () => {
    expect(chatParamToResponses({ key: "store", request: { store: null } })).toEqual({
      entries: [],
      losses: [{ path: "/store", code: "form_changed", detail: "store: null omitted (the target does not accept null; absent means the same)" }],
    });
  });

  test("an unknown key is a provider extension", () => {
    expect(responsesParamToChat({ key: "conversation", body: { conversation: "conv_1" } })).toEqual({
      entries: [],
      losses: [{ path: "/conversation", code: "provider_extension", detail: '"conversation" is not a field of the portable shape; Chat Completions has no place for it' }],
    });
  });

  test("previous_response_id has no counterpart in Chat", () => {
    expect(responsesParamToChat({ key: "previous_response_id", body: { previous_response_id: "resp_1" } })).toEqual({
      entries: [],
      losses: [{ path: "/previous_response_id", code: "unsupported_field", detail: "previous_response_id has no counterpart in Chat Completions" }],
    });
  });
});
