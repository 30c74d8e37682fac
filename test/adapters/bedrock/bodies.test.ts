// Request bodies and tools, both ways: the edges the golden cases do not pin.
import { describe, expect, test } from "vitest";
import { bodyToRequest } from "../../../adapters/bedrock/body-to-request.js";
import { requestToBody } from "../../../adapters/bedrock/request-to-body.js";
import { bedrockToolChoiceToResponses, bedrockToolsToResponses, readBedrockRequestTools, responsesToolChoiceToBedrock, responsesToolsToBedrock } from "../../../adapters/bedrock/tools.js";

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
    expect(() => requestToBody({ request: { input: [{ type: "message", role: "user", content: "Hi" }] } as never })).toThrow("not a Bedrock Converse request body: it has no messages array");
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
      losses: [
        { path: "/input", code: "form_changed", detail: "a string input written as one user message: it comes back as a user message of input" },
        { path: "/instructions", code: "form_changed", detail: "instructions written as the first text block of system, which comes back as a system message of input, not as instructions" },
        { path: "/model", code: "unsupported_field", detail: "Bedrock Converse takes the model in the request URL, not in the body" },
      ],
    });
  });

  test("a field Bedrock has no place for is reported", () => {
    const converted = bodyToRequest({ body: { input: [{ type: "message", role: "user", content: "Hi" }], previous_response_id: "resp_1" } as never });
    expect(converted).toEqual({ value: { messages: [{ role: "user", content: [{ text: "Hi" }] }] }, losses: [{ path: "/previous_response_id", code: "unsupported_field", detail: "Bedrock Converse has no place for previous_response_id" }] });
  });

  describe("a tool_choice Bedrock cannot write, kept as the tools it allows", () => {
    const tools = [
      { type: "function", name: "get_weather", parameters: schema },
      { type: "function", name: "delete_file", parameters: { type: "object" } },
    ];
    const call = [
      { type: "function_call", call_id: "tooluse_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
      { type: "function_call_output", call_id: "tooluse_1", output: "4 degrees" },
    ];

    test("allowed_tools: the other tools are left out, each reported where it was", () => {
      const converted = bodyToRequest({ body: { input: [{ type: "message", role: "user", content: "Hi" }], tools, tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "get_weather" }] } } as never });
      expect(converted).toEqual({
        value: { messages: [{ role: "user", content: [{ text: "Hi" }] }], toolConfig: { tools: [{ toolSpec: { name: "get_weather", inputSchema: { json: schema } } }], toolChoice: { auto: {} } } },
        losses: [
          { path: "/tools/1", code: "form_changed", detail: "left out: not among the tools that the allowed_tools of tool_choice allow, and Bedrock Converse cannot limit a turn to some of its tools" },
          { path: "/tool_choice", code: "form_changed", detail: 'allowed_tools written as the tools it allows and tool_choice "auto": Bedrock Converse cannot limit a turn to some of its tools, so the tools it does not allow are left out' },
        ],
      });
    });

    test("allowed_tools required with one function: that tool", () => {
      const converted = bodyToRequest({ body: { input: [{ type: "message", role: "user", content: "Hi" }], tools, tool_choice: { type: "allowed_tools", mode: "required", tools: [{ type: "function", name: "delete_file" }] } } as never });
      expect(converted.value.toolConfig).toEqual({ tools: [{ toolSpec: { name: "delete_file", inputSchema: { json: { type: "object" } } } }], toolChoice: { tool: { name: "delete_file" } } });
    });

    test('"none": no tool is written, and where the messages hold tool blocks, that Bedrock rejects it is said', () => {
      const alone = bodyToRequest({ body: { input: [{ type: "message", role: "user", content: "Hi" }], tools, tool_choice: "none" } as never });
      expect(alone.value).toEqual({ messages: [{ role: "user", content: [{ text: "Hi" }] }] });
      expect(alone.losses.map((loss) => [loss.path, loss.code])).toEqual([
        ["/tools/0", "form_changed"],
        ["/tools/1", "form_changed"],
        ["/tool_choice", "form_changed"],
      ]);
      const withCalls = bodyToRequest({ body: { input: [{ type: "message", role: "user", content: "Weather in Oslo?" }, ...call], tools, tool_choice: "none" } as never });
      expect(withCalls.value.toolConfig).toBeUndefined();
      expect(withCalls.losses).toContainEqual({ path: "/tools", code: "target_rejects", detail: "no tool is left, and Bedrock Converse requires a toolConfig beside toolUse and toolResult blocks" });
    });
  });

  test("a tool_choice without tools is reported", () => {
    expect(bodyToRequest({ body: { input: [{ type: "message", role: "user", content: "Hi" }], tool_choice: "auto" } as never }).losses).toEqual([{ path: "/tool_choice", code: "unsupported_field", detail: "Bedrock Converse takes a toolChoice only beside tools" }]);
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

  test("a member of inputSchema beside json is reported, never dropped, and the gate's reader refuses the tool", () => {
    const other = { type: "object", properties: { region: { enum: ["apac"] } }, additionalProperties: false };
    const converted = bedrockToolsToResponses({ tools: [{ toolSpec: { name: "get_weather", inputSchema: { json: schema, jsonSchema: other } } }] as never });
    expect(converted.losses).toEqual([{ path: "/0/toolSpec/inputSchema/jsonSchema", code: "unsupported_field", detail: "inputSchema.jsonSchema beside json is not kept: the parameters are json's" }]);
    const reading = readBedrockRequestTools({ body: { modelId: "m", messages: [], toolConfig: { tools: [{ toolSpec: { name: "get_weather", inputSchema: { json: schema, jsonSchema: other } } }] } } });
    expect(reading.tools).toEqual([]);
    expect(reading.unread).toEqual([{ path: "toolConfig.tools[0]", detail: "inputSchema.jsonSchema beside json is not kept: the parameters are json's", governs: { tool: "get_weather" } }]);
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
