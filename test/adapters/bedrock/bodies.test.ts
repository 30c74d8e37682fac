// Request bodies and tools, both ways: the edges the golden cases do not pin.
import { describe, expect, test } from "vitest";
import { bodyToRequest } from "../../../adapters/bedrock/body-to-request.js";
import { requestToBody } from "../../../adapters/bedrock/request-to-body.js";
import { bedrockToolChoiceToResponses, bedrockToolsToResponses, responsesToolChoiceToBedrock, responsesToolsToBedrock } from "../../../adapters/bedrock/tools.js";

const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

describe("requestToBody", () => {
  test("inferenceConfig's mapped keys become body fields, the rest ride under the slug", () => {
    const converted = requestToBody({ request: { messages: [{ role: "user", content: [{ text: "Hi" }] }], inferenceConfig: { maxTokens: 512, topP: 0.5, stopSequences: ["END"] } } as never });
    expect(converted).toEqual({
      value: { input: [{ type: "message", role: "user", content: "Hi" }], max_output_tokens: 512, top_p: 0.5, "bedrock:inferenceConfig": { stopSequences: ["END"] } },
      losses: [],
    });
  });

  test("a maxTokens below the spec's minimum is written and reported", () => {
    const converted = requestToBody({ request: { messages: [{ role: "user", content: [{ text: "Hi" }] }], inferenceConfig: { maxTokens: 5 } } as never });
    expect(converted.losses).toEqual([{ path: "/inferenceConfig/maxTokens", code: "target_rejects", detail: "maxTokens 5 written as max_output_tokens, which the spec wants at least 16" }]);
  });

  test("the model, which Bedrock names in the URL, is taken from the caller", () => {
    const converted = requestToBody({ request: { messages: [{ role: "user", content: [{ text: "Hi" }] }], additionalModelRequestFields: { top_k: 5 } } as never, model: "us.amazon.nova-micro-v1:0" });
    expect(converted.value).toEqual({ model: "us.amazon.nova-micro-v1:0", input: [{ type: "message", role: "user", content: "Hi" }], "bedrock:additionalModelRequestFields": { top_k: 5 } });
  });

  test("throws on what is not a Converse body", () => {
    expect(() => requestToBody({ request: { input: "Hi" } as never })).toThrow("not a Bedrock Converse request body: it has no messages array");
  });
});

describe("bodyToRequest", () => {
  test("a body from another envelope: instructions lead system, tools and inference settings find their places", () => {
    const converted = bodyToRequest({
      body: { model: "gpt-5", instructions: "Be brief.", input: "Weather in Oslo?", tools: [{ type: "function", name: "get_weather", parameters: schema }], tool_choice: "required", temperature: 0.2, max_output_tokens: 300 } as never,
    });
    expect(converted).toEqual({
      value: {
        messages: [{ role: "user", content: [{ text: "Weather in Oslo?" }] }],
        system: [{ text: "Be brief." }],
        toolConfig: { tools: [{ toolSpec: { name: "get_weather", inputSchema: { json: schema } } }], toolChoice: { any: {} } },
        inferenceConfig: { temperature: 0.2, maxTokens: 300 },
      },
      losses: [{ path: "/model", code: "unsupported_field", detail: "Bedrock Converse takes the model in the request URL, not in the body" }],
    });
  });

  test("a field Bedrock has no place for is reported", () => {
    const converted = bodyToRequest({ body: { input: "Hi", previous_response_id: "resp_1" } as never });
    expect(converted).toEqual({ value: { messages: [{ role: "user", content: [{ text: "Hi" }] }] }, losses: [{ path: "/previous_response_id", code: "unsupported_field", detail: "Bedrock Converse has no place for previous_response_id" }] });
  });

  test("a tool_choice without tools is reported", () => {
    expect(bodyToRequest({ body: { input: "Hi", tool_choice: "auto" } as never }).losses).toEqual([{ path: "/tool_choice", code: "unsupported_field", detail: "Bedrock Converse takes a toolChoice only beside tools" }]);
  });
});

describe("tools", () => {
  test("a toolSpec becomes a function tool, a systemTool an extension tool, a cachePoint rides on the tool before it", () => {
    const converted = bedrockToolsToResponses({
      tools: [{ toolSpec: { name: "get_weather", description: "Weather now.", inputSchema: { json: schema } } }, { cachePoint: { type: "default" } }, { systemTool: { name: "nova_grounding" } }] as never,
    });
    expect(converted).toEqual({
      value: [
        { type: "function", name: "get_weather", description: "Weather now.", parameters: schema, "bedrock:cachePoint": { type: "default" } },
        { type: "bedrock:systemTool", systemTool: { name: "nova_grounding" } },
      ],
      losses: [],
    });
    expect(responsesToolsToBedrock({ tools: converted.value as never })).toEqual({
      value: [{ toolSpec: { name: "get_weather", description: "Weather now.", inputSchema: { json: schema } } }, { cachePoint: { type: "default" } }, { systemTool: { name: "nova_grounding" } }],
      losses: [],
    });
  });

  test("a function without parameters gets an empty object schema, reported", () => {
    expect(responsesToolsToBedrock({ tools: [{ type: "function", name: "ping" }] as never })).toEqual({
      value: [{ toolSpec: { name: "ping", inputSchema: { json: { type: "object", properties: {} } } } }],
      losses: [{ path: "/0", code: "synthesized", detail: "Bedrock Converse requires an inputSchema: an empty object schema written" }],
    });
  });

  test("another provider's tool is reported, never forwarded", () => {
    expect(responsesToolsToBedrock({ tools: [{ type: "anthropic:web_search_20250305", name: "web_search" }] as never })).toEqual({
      value: [],
      losses: [{ path: "/0", code: "unsupported_tool", detail: 'a "anthropic:web_search_20250305" tool has no Bedrock Converse form' }],
    });
  });
});

describe("toolChoice", () => {
  test("auto, any and tool map to auto, required and a named function", () => {
    expect([{ auto: {} }, { any: {} }, { tool: { name: "f" } }].map((choice) => bedrockToolChoiceToResponses({ toolChoice: choice as never }).value)).toEqual(["auto", "required", { type: "function", name: "f" }]);
    expect(["auto", "required", { type: "function", name: "f" }].map((choice) => responsesToolChoiceToBedrock({ toolChoice: choice as never }).value)).toEqual([{ auto: {} }, { any: {} }, { tool: { name: "f" } }]);
  });

  test("none has no Bedrock form, reported", () => {
    expect(responsesToolChoiceToBedrock({ toolChoice: "none" })).toEqual({ value: undefined, losses: [{ path: "", code: "unsupported_field", detail: "Bedrock Converse cannot forbid tool calls while it has tools: no toolChoice written" }] });
  });
});
