// Request bodies, declarations, toolConfig and the schema translation, both ways.
import { describe, expect, test } from "vitest";
import { bodyToRequest } from "../../../adapters/gemini/body-to-request.js";
import { requestToBody } from "../../../adapters/gemini/request-to-body.js";
import { jsonSchemaOfGemini } from "../../../adapters/gemini/schema.js";
import { geminiToolConfigToResponses, responsesToolChoiceToGemini } from "../../../adapters/gemini/tools.js";
import { replayGate } from "../../../src/gate/replay-gate.js";
import type { Loss } from "../../../src/models/loss.js";

describe("Gemini schemas", () => {
  test("upper-case types are lowered, nullable becomes a type union, format and enum kept", () => {
    const losses: Loss[] = [];
    const schema = {
      type: "OBJECT",
      properties: { when: { type: "STRING", format: "date-time" }, unit: { type: "STRING", enum: ["C", "F"], nullable: true }, days: { type: "ARRAY", items: { type: "INTEGER" }, maxItems: 7 } },
      required: ["when"],
    };
    expect(jsonSchemaOfGemini(schema, ["parameters"], losses)).toEqual({
      type: "object",
      properties: { when: { type: "string", format: "date-time" }, unit: { type: ["string", "null"], enum: ["C", "F", null] }, days: { type: "array", items: { type: "integer" }, maxItems: 7 } },
      required: ["when"],
    });
    expect(losses).toEqual([]);
  });

  test("counts written as int64 decimal strings, as Gemini's JSON writes them, are the numbers they spell; any other string stays and fails to compile", () => {
    const losses: Loss[] = [];
    const schema = { type: "OBJECT", properties: { tags: { type: "ARRAY", items: { type: "STRING" }, minItems: "1", maxItems: "2" }, code: { type: "STRING", maxLength: "3" }, odd: { type: "STRING", maxLength: "-1" } } };
    const translated = jsonSchemaOfGemini(schema, [], losses) as { properties: Record<string, unknown> };
    expect(translated.properties).toEqual({ tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 2 }, code: { type: "string", maxLength: 3 }, odd: { type: "string", maxLength: "-1" } });
    expect(losses).toEqual([]);
    const counted = { type: "object", properties: { tags: translated.properties.tags } };
    const gate = (args: unknown) => replayGate({ type: "function_call", call_id: "c1", name: "tag", arguments: JSON.stringify(args), status: "completed" }, counted).reason;
    expect([gate({ tags: ["a"] }), gate({ tags: ["a", "b", "c"] }), gate({ tags: [] })]).toEqual(["ok", "arguments_schema", "arguments_schema"]);
  });

  test("a keyword the gate cannot read refuses every value there, reported", () => {
    const losses: Loss[] = [];
    expect(jsonSchemaOfGemini({ type: "OBJECT", properties: { code: { type: "STRING", x_pattern: "^[A-Z]+$" } } }, [], losses)).toEqual({
      type: "object",
      properties: { code: { type: "string", x_pattern: "^[A-Z]+$", not: {} } },
    });
    expect(losses).toEqual([{ path: "/properties/code/x_pattern", code: "target_rejects", detail: '"x_pattern" is not a keyword of Gemini\'s schema, and the gate cannot tell what it allows: no value is accepted here' }]);
  });

  test("TYPE_UNSPECIFIED refuses every value, reported", () => {
    const losses: Loss[] = [];
    expect(jsonSchemaOfGemini({ type: "TYPE_UNSPECIFIED" }, [], losses)).toEqual({ not: {} });
    expect(losses).toEqual([{ path: "/type", code: "target_rejects", detail: 'type "TYPE_UNSPECIFIED" has no JSON Schema meaning: no value is accepted here' }]);
  });
});

describe("the gate on a translated schema", () => {
  const schema = jsonSchemaOfGemini({ type: "OBJECT", properties: { unit: { type: "STRING", enum: ["C", "F"], nullable: true } }, required: ["unit"] }, [], []) as Record<string, unknown>;
  const call = (args: string) => ({ type: "function_call", call_id: "call_1", name: "get_weather", arguments: args, status: "completed" });

  test("takes a value of the enum and null", () => {
    expect([replayGate(call('{"unit":"C"}'), schema).reason, replayGate(call('{"unit":null}'), schema).reason]).toEqual(["ok", "ok"]);
  });

  test("refuses a value outside the enum", () => {
    expect(replayGate(call('{"unit":"K"}'), schema).reason).toBe("arguments_schema");
  });

  test("refuses anything where a keyword could not be read", () => {
    const refusing = jsonSchemaOfGemini({ type: "OBJECT", x_rule: "only on Tuesdays" }, [], []) as Record<string, unknown>;
    expect(replayGate(call("{}"), refusing).reason).toBe("arguments_schema");
  });
});

describe("toolConfig", () => {
  test("ANY with allowedFunctionNames is allowed_tools in required mode, and back", () => {
    const toolConfig = { functionCallingConfig: { allowedFunctionNames: ["generate_topic", "final_result"], mode: "ANY" } };
    const converted = geminiToolConfigToResponses({ toolConfig });
    expect(converted).toEqual({
      value: { toolChoice: { type: "allowed_tools", tools: [{ type: "function", name: "generate_topic" }, { type: "function", name: "final_result" }], mode: "required" }, kept: {} },
      losses: [],
    });
    expect(responsesToolChoiceToGemini({ toolChoice: converted.value.toolChoice, kept: converted.value.kept })).toEqual({ value: toolConfig, losses: [] });
  });

  test("VALIDATED is auto, reported, and comes back", () => {
    const toolConfig = { functionCallingConfig: { mode: "VALIDATED" } };
    const converted = geminiToolConfigToResponses({ toolConfig });
    expect(converted).toEqual({
      value: { toolChoice: "auto", kept: { "gemini:mode": "VALIDATED" } },
      losses: [{ path: "/functionCallingConfig/mode", code: "form_changed", detail: "mode VALIDATED (calls held to their schema) written as auto; kept as gemini:mode" }],
    });
    expect(responsesToolChoiceToGemini({ toolChoice: "auto", kept: converted.value.kept }).value).toEqual(toolConfig);
  });

  test("a specific function is ANY with that one name", () => {
    expect(responsesToolChoiceToGemini({ toolChoice: { type: "function", name: "get_weather" } })).toEqual({
      value: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } },
      losses: [],
    });
  });
});

describe("request bodies", () => {
  const request = {
    contents: [{ parts: [{ text: "Weather in Oslo?" }], role: "user" }],
    generationConfig: { maxOutputTokens: 256, temperature: 0.2, thinkingConfig: { include_thoughts: true } },
    systemInstruction: { parts: [{ text: "Be brief." }], role: "user" },
    tools: [{ googleSearch: {} }, { functionDeclarations: [{ description: "Weather of a city.", name: "get_weather", parameters: { properties: { city: { type: "STRING" } }, required: ["city"], type: "OBJECT" } }] }],
  };

  test("become an Open Responses body, what has no place kept under gemini:", () => {
    expect(requestToBody({ request })).toEqual({
      value: {
        input: [
          { type: "message", role: "system", content: [{ type: "input_text", text: "Be brief." }], "gemini:role": "user" },
          { type: "message", role: "user", content: [{ type: "input_text", text: "Weather in Oslo?" }] },
        ],
        max_output_tokens: 256,
        temperature: 0.2,
        "gemini:generationConfig": { thinkingConfig: { include_thoughts: true } },
        tools: [
          { type: "gemini:googleSearch", googleSearch: {} },
          {
            type: "function",
            name: "get_weather",
            description: "Weather of a city.",
            parameters: { properties: { city: { type: "string" } }, required: ["city"], type: "object" },
            "gemini:parameters": { properties: { city: { type: "STRING" } }, required: ["city"], type: "OBJECT" },
          },
        ],
      },
      losses: [],
    });
  });

  test("come back exactly", () => {
    expect(bodyToRequest({ body: requestToBody({ request }).value })).toEqual({ value: request, losses: [] });
  });

  test("an Open Responses body gets its instructions as systemInstruction and its JSON Schema as parametersJsonSchema", () => {
    const body = {
      model: "gemini-2.5-flash",
      instructions: "Be brief.",
      input: "Weather in Oslo?",
      stream: true,
      tools: [{ type: "function" as const, name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: true }],
    };
    expect(bodyToRequest({ body })).toEqual({
      value: {
        model: "gemini-2.5-flash",
        systemInstruction: { parts: [{ text: "Be brief." }] },
        contents: [{ role: "user", parts: [{ text: "Weather in Oslo?" }] }],
        tools: [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } } }] }],
      },
      losses: [
        { path: "/input", code: "form_changed", detail: "a string input written as one user content of one text part: it comes back as a user message of input" },
        { path: "/instructions", code: "form_changed", detail: "instructions written as the first text part of systemInstruction, a system message of input when read: it comes back as parts, not as a string" },
        { path: "/stream", code: "unsupported_field", detail: "a Gemini request streams by its URL (streamGenerateContent), not by a field" },
        { path: "/tools/0/strict", code: "unsupported_field", detail: "Gemini declarations have no strict mode (true)" },
      ],
    });
  });
});
