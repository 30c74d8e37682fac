// Request bodies and their tools, both ways: what the golden cases do not pin.
import { describe, expect, test } from "vitest";
import { bodyToRequest } from "../../../adapters/anthropic/body-to-request.js";
import type { AnthropicRequestBody } from "../../../adapters/anthropic/models.js";
import { requestToBody } from "../../../adapters/anthropic/request-to-body.js";
import { anthropicToolChoiceToResponses, responsesToolChoiceToAnthropic, responsesToolsToAnthropic } from "../../../adapters/anthropic/tools.js";
import type { CreateResponseBody } from "../../../src/models/open-responses.js";

const request = (fields: Record<string, unknown>) => ({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "Hi" }], ...fields }) as AnthropicRequestBody;
const body = (fields: Record<string, unknown>) => fields as CreateResponseBody;
const weather = { name: "get_weather", description: "Weather of a city", input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };

describe("requestToBody", () => {
  test("a system string becomes instructions; max_tokens max_output_tokens", () => {
    expect(requestToBody({ request: request({ system: "Be brief." }) })).toEqual({
      value: { model: "claude-sonnet-4-5", max_output_tokens: 1024, input: [{ type: "message", role: "user", content: "Hi" }], instructions: "Be brief." },
      losses: [],
    });
  });

  test("system blocks become a leading system item, their cache_control kept under the slug", () => {
    const converted = requestToBody({ request: request({ system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }] }) });
    expect(converted.value.input).toEqual([
      { type: "message", role: "system", content: [{ type: "input_text", text: "Be brief.", "anthropic:cache_control": { type: "ephemeral" } }] },
      { type: "message", role: "user", content: "Hi" },
    ]);
  });

  test("thinking, stop_sequences, top_k and unknown keys are kept under the slug, and come back", () => {
    const source = request({ thinking: { type: "enabled", budget_tokens: 2048 }, stop_sequences: ["END"], top_k: 5, container: "container_011" });
    const converted = requestToBody({ request: source });
    expect(converted.value).toMatchObject({
      "anthropic:thinking": { type: "enabled", budget_tokens: 2048 },
      "anthropic:stop_sequences": ["END"],
      "anthropic:top_k": 5,
      "anthropic:container": "container_011",
    });
    expect(bodyToRequest({ body: converted.value })).toEqual({ value: source, losses: [] });
  });

  test("a custom tool becomes a function tool; a server tool an extension tool holding every field", () => {
    const converted = requestToBody({ request: request({ tools: [{ ...weather, cache_control: { type: "ephemeral" } }, { type: "web_search_20250305", name: "web_search", max_uses: null }] }) });
    expect(converted.value.tools).toEqual([
      { type: "function", name: "get_weather", description: "Weather of a city", parameters: weather.input_schema, "anthropic:cache_control": { type: "ephemeral" } },
      { type: "anthropic:web_search_20250305", name: "web_search", max_uses: null },
    ]);
  });

  test("max_tokens below the spec's 16 is written as it is and reported", () => {
    expect(requestToBody({ request: request({ max_tokens: 8 }) }).losses).toEqual([
      { path: "/max_tokens", code: "target_rejects", detail: "max_tokens 8 written as max_output_tokens, which the spec wants at least 16" },
    ]);
  });
});

describe("tool_choice", () => {
  test.each([
    [{ type: "auto" }, { toolChoice: "auto" }],
    [{ type: "any" }, { toolChoice: "required" }],
    [{ type: "none" }, { toolChoice: "none" }],
    [{ type: "tool", name: "get_weather" }, { toolChoice: { type: "function", name: "get_weather" } }],
    [{ type: "auto", disable_parallel_tool_use: true }, { toolChoice: "auto", parallelToolCalls: false }],
    [{ type: "any", disable_parallel_tool_use: false }, { toolChoice: "required", parallelToolCalls: true }],
  ])("%j is %j, both ways", (anthropic, responses) => {
    expect(anthropicToolChoiceToResponses({ toolChoice: anthropic as never })).toEqual({ value: responses, losses: [] });
    expect(responsesToolChoiceToAnthropic(responses as never)).toEqual({ value: anthropic, losses: [] });
  });

  test("parallel_tool_calls false without tool_choice gives tool_choice auto that disables them, reported", () => {
    expect(responsesToolChoiceToAnthropic({ parallelToolCalls: false })).toEqual({
      value: { type: "auto", disable_parallel_tool_use: true },
      losses: [{ path: "/parallel_tool_calls", code: "synthesized", detail: 'parallel_tool_calls false written as tool_choice {"type":"auto","disable_parallel_tool_use":true}' }],
    });
  });

  test("parallel_tool_calls beside tool_choice none is omitted, reported", () => {
    expect(responsesToolChoiceToAnthropic({ toolChoice: "none", parallelToolCalls: false })).toEqual({
      value: { type: "none" },
      losses: [{ path: "/parallel_tool_calls", code: "form_changed", detail: "parallel_tool_calls false has no tool_choice to go on: omitted" }],
    });
  });

  test("allowed_tools has no Anthropic counterpart: omitted, reported", () => {
    expect(responsesToolChoiceToAnthropic({ toolChoice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "get_weather" }] } })).toEqual({
      value: undefined,
      losses: [{ path: "/tool_choice", code: "unsupported_field", detail: "Anthropic cannot limit the tools a turn may call to some of them: tool_choice omitted" }],
    });
  });
});

describe("responsesToolsToAnthropic", () => {
  test("a function without parameters gets an empty object schema, reported", () => {
    expect(responsesToolsToAnthropic({ tools: [{ type: "function", name: "now" }] })).toEqual({
      value: [{ name: "now", input_schema: { type: "object", properties: {} } }],
      losses: [{ path: "/0", code: "synthesized", detail: 'Anthropic requires an input_schema: {"type":"object","properties":{}} written for a function without parameters' }],
    });
  });

  test("another provider's tool is reported", () => {
    expect(responsesToolsToAnthropic({ tools: [{ type: "openai:file_search", vector_store_ids: ["vs_1"] }] })).toEqual({
      value: [],
      losses: [{ path: "/0", code: "unsupported_tool", detail: 'a tool of type "openai:file_search" has no counterpart in Anthropic Messages' }],
    });
  });
});

describe("bodyToRequest", () => {
  test("a string input is one user message; instructions system", () => {
    expect(bodyToRequest({ body: body({ model: "claude-sonnet-4-5", instructions: "Be brief.", input: "Hi", max_output_tokens: 512 }) })).toEqual({
      value: { model: "claude-sonnet-4-5", system: "Be brief.", messages: [{ role: "user", content: "Hi" }], max_tokens: 512 },
      losses: [{ path: "/input", code: "form_changed", detail: "a string input written as one user message" }],
    });
  });

  test("instructions beside system items of input become the first text block of system, reported", () => {
    const converted = bodyToRequest({
      body: body({ model: "m", max_output_tokens: 64, instructions: "First.", input: [{ type: "message", role: "system", content: [{ type: "input_text", text: "Second." }] }, { type: "message", role: "user", content: "Hi" }] }),
    });
    expect(converted.value.system).toEqual([{ type: "text", text: "First." }, { type: "text", text: "Second." }]);
    expect(converted.losses).toEqual([{ path: "/instructions", code: "form_changed", detail: "instructions written as the first text block of system, before the system messages of input" }]);
  });

  test("fields Anthropic has no counterpart for are reported, a null omitted, an unknown key reported as an extension", () => {
    const converted = bodyToRequest({ body: body({ model: "m", max_output_tokens: 64, input: [], reasoning: { effort: "low" }, store: false, top_p: null, "openai:prompt": {} }) });
    expect(converted).toEqual({
      value: { model: "m", max_tokens: 64, messages: [] },
      losses: [
        { path: "/reasoning", code: "unsupported_field", detail: "reasoning has no Anthropic Messages counterpart" },
        { path: "/store", code: "unsupported_field", detail: "store has no Anthropic Messages counterpart" },
        { path: "/top_p", code: "form_changed", detail: "top_p: null omitted (absent means the same)" },
        { path: "/openai:prompt", code: "provider_extension", detail: '"openai:prompt" is not a field of the portable shape; Anthropic Messages has no place for it' },
      ],
    });
  });

  test("no model and no max_output_tokens: nothing is invented, both reported", () => {
    expect(bodyToRequest({ body: body({ input: [] }) })).toEqual({
      value: { messages: [] },
      losses: [
        { path: "", code: "target_rejects", detail: "no model: Anthropic requires one, and none is written" },
        { path: "", code: "target_rejects", detail: "no max_output_tokens: Anthropic requires max_tokens, and none is written" },
      ],
    });
  });

  describe("a tool_choice that allows some tools, which Anthropic cannot limit a turn to", () => {
    const tools = [
      { type: "function", name: "get_weather", parameters: weather.input_schema },
      { type: "function", name: "delete_file", parameters: { type: "object" } },
      { type: "function", name: "get_time", parameters: { type: "object" } },
    ];
    const allowed = (mode: string, ...names: string[]) => ({ type: "allowed_tools", mode, tools: names.map((name) => ({ type: "function", name })) });

    test("mode auto: only the allowed tools are written, each other one reported where it was", () => {
      const converted = bodyToRequest({ body: body({ model: "m", max_output_tokens: 64, input: [], tools, tool_choice: allowed("auto", "get_weather", "get_time") }) });
      expect(converted).toEqual({
        value: { model: "m", max_tokens: 64, messages: [], tools: [{ name: "get_weather", input_schema: weather.input_schema }, { name: "get_time", input_schema: { type: "object" } }], tool_choice: { type: "auto" } },
        losses: [
          { path: "/tools/1", code: "form_changed", detail: "left out: not among the tools that the allowed_tools of tool_choice allow, and Anthropic Messages cannot limit a turn to some of its tools" },
          { path: "/tool_choice", code: "form_changed", detail: 'allowed_tools written as the tools it allows and tool_choice "auto": Anthropic Messages cannot limit a turn to some of its tools, so the tools it does not allow are left out' },
        ],
      });
    });

    test("mode required: any of the allowed tools; with one function allowed, that tool", () => {
      const two = bodyToRequest({ body: body({ model: "m", max_output_tokens: 64, input: [], tool_choice: allowed("required", "get_weather", "get_time"), tools }) });
      expect(two.value.tools?.map((tool) => tool.name)).toEqual(["get_weather", "get_time"]);
      expect(two.value.tool_choice).toEqual({ type: "any" });
      const one = bodyToRequest({ body: body({ model: "m", max_output_tokens: 64, input: [], tools, tool_choice: allowed("required", "get_time"), parallel_tool_calls: false }) });
      expect(one.value.tools?.map((tool) => tool.name)).toEqual(["get_time"]);
      expect(one.value.tool_choice).toEqual({ type: "tool", name: "get_time", disable_parallel_tool_use: true });
    });

    test("allowed_tools whose tools is no list allows nothing: every tool is left out", () => {
      const converted = bodyToRequest({ body: body({ model: "m", max_output_tokens: 64, input: [], tools, tool_choice: { type: "allowed_tools", mode: "auto", tools: "get_weather" } }) });
      expect(converted.value.tools).toEqual([]);
      expect(converted.value.tool_choice).toBeUndefined();
      expect(converted.losses.map((loss) => loss.path)).toEqual(["/tools/0", "/tools/1", "/tools/2", "/tool_choice"]);
    });

    test("none and a named function Anthropic writes itself: every tool is kept", () => {
      for (const [choice, written] of [["none", { type: "none" }], [{ type: "function", name: "get_time" }, { type: "tool", name: "get_time" }]] as const) {
        const converted = bodyToRequest({ body: body({ model: "m", max_output_tokens: 64, input: [], tools, tool_choice: choice }) });
        expect(converted.value.tools).toHaveLength(3);
        expect(converted.value.tool_choice).toEqual(written);
        expect(converted.losses).toEqual([]);
      }
    });
  });

  test("a temperature above Anthropic's 1 is written as it is and reported", () => {
    expect(bodyToRequest({ body: body({ model: "m", max_output_tokens: 64, input: [], temperature: 1.4 }) }).losses).toEqual([
      { path: "/temperature", code: "target_rejects", detail: "temperature 1.4 written as it is; Anthropic takes 0 to 1" },
    ]);
  });
});
