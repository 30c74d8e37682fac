// The gate reads the tools of Anthropic, Gemini and Bedrock request bodies, in a
// journal and in --tools, as the SDK cassettes record them (logged exchanges
// of pydantic-ai's shape), with our own words for the text.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

type Fields = Record<string, unknown>;

const jsonl = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join("\n") + "\n";
const verdicts = (stdout: string) => stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Fields);
/** The fields of each verdict that say what was decided. */
const decided = (stdout: string) => verdicts(stdout).map(({ line, index, type, name, reason, detail, findings }) => ({ line, index, type, name, reason, detail, findings }));

const forecastSchema = { properties: { city: { type: "string" } }, required: ["city"], type: "object" };

function anthropicExchange(request: Fields, toolUse: { id: string; name: string; input: unknown }): Fields {
  return {
    request: { max_tokens: 1024, messages: [{ content: [{ text: "Will it rain in Lyon tomorrow?", type: "text" }], role: "user" }], model: "claude-sonnet-4-5", stream: false, ...request },
    response: {
      content: [{ ...toolUse, type: "tool_use" }],
      id: "msg_01Forecast",
      model: "claude-sonnet-4-5-20250929",
      role: "assistant",
      stop_reason: "tool_use",
      stop_sequence: null,
      type: "message",
      usage: { input_tokens: 310, output_tokens: 28 },
    },
  };
}

function geminiExchange(request: Fields, functionCalls: Array<{ id: string; name: string; args: unknown }>): Fields {
  return {
    request: { contents: [{ parts: [{ text: "Which city is the largest in the country of the user?" }], role: "user" }], ...request },
    response: {
      candidates: [{ content: { parts: functionCalls.map((functionCall) => ({ functionCall })), role: "model" }, finishReason: "STOP" }],
      modelVersion: "gemini-2.5-flash",
      responseId: "resp_cities",
      usageMetadata: { candidatesTokenCount: 12, promptTokenCount: 90, totalTokenCount: 102 },
    },
  };
}

function bedrockExchange(toolConfig: Fields, toolUse: { toolUseId: string; name: string; input: unknown }): Fields {
  return {
    request: { messages: [{ content: [{ text: "Where is the user?" }], role: "user" }], toolConfig },
    response: { output: { message: { content: [{ toolUse }], role: "assistant" } }, stopReason: "tool_use", usage: { inputTokens: 200, outputTokens: 30, totalTokens: 230 } },
  };
}

const anthropicTools = [
  { description: "Forecast for a city", input_schema: forecastSchema, name: "get_forecast" },
  { description: "Time in a timezone", input_schema: { properties: { zone: { type: "string" } }, required: ["zone"], type: "object" }, name: "get_clock" },
];

describe("gate: Anthropic request bodies", () => {
  test("a call to a tool the request defines runs, under a tool_choice that forces it", async () => {
    const journal = jsonl([anthropicExchange({ tool_choice: { name: "get_forecast", type: "tool" }, tools: anthropicTools }, { id: "toolu_01Lyon", name: "get_forecast", input: { city: "Lyon" } })]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect({ code: result.code, verdicts: decided(result.stdout), stderr: result.stderr }).toEqual({
      code: 0,
      verdicts: [
        { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
        { line: 1, index: 1, type: "function_call", name: "get_forecast", reason: "ok", detail: "completed call with arguments valid for its schema", findings: [] },
      ],
      stderr: "read 1 line: 2 items, 0 errors; 0 blocked\n",
    });
  });

  test("the tool's input_schema is the schema the arguments are held to", async () => {
    const journal = jsonl([anthropicExchange({ tools: anthropicTools }, { id: "toolu_01NoCity", name: "get_forecast", input: { town: "Lyon" } })]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)[1]).toEqual({ line: 1, index: 1, type: "function_call", name: "get_forecast", reason: "arguments_schema", detail: "arguments must have required property 'city'", findings: [] });
  });

  test("a tool_choice that forces one tool leaves the other one not allowed", async () => {
    const journal = jsonl([anthropicExchange({ tool_choice: { name: "get_forecast", type: "tool" }, tools: anthropicTools }, { id: "toolu_01Clock", name: "get_clock", input: { zone: "Europe/Paris" } })]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)[1]).toEqual({
      line: 1,
      index: 1,
      type: "function_call",
      name: "get_clock",
      reason: "ok",
      detail: "completed call with arguments valid for its schema",
      findings: [{ code: "tool_not_allowed", detail: '"get_clock" is not allowed: tool_choice of line 1 allows only "get_forecast"', path: "/name" }],
    });
  });

  test("a tool_choice that cannot be read is an error line and allows no function: it never widens", async () => {
    const journal = jsonl([anthropicExchange({ tool_choice: { type: "every_tool" }, tools: anthropicTools }, { id: "toolu_01Lyon", name: "get_forecast", input: { city: "Lyon" } })]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      {
        line: 1,
        index: 0,
        type: undefined,
        name: undefined,
        reason: "error",
        detail: 'line 1: tool_choice of the Anthropic request cannot be read: tool_choice of type "every_tool" has no Open Responses counterpart: omitted',
        findings: [],
      },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_forecast",
        reason: "ok",
        detail: "completed call with arguments valid for its schema",
        findings: [{ code: "tool_not_allowed", detail: '"get_forecast" is not allowed: tool_choice of line 1 cannot all be read, so it allows no function', path: "/name" }],
      },
    ]);
  });

  test("a tool written in another envelope's form, which Anthropic does not read, still names its tool: a call of that name is refused", async () => {
    const tools = [anthropicTools[0], { toolSpec: { name: "get_forecast", inputSchema: { json: { ...forecastSchema, additionalProperties: false } } } }];
    const journal = jsonl([anthropicExchange({ tools }, { id: "toolu_01Lyon", name: "get_forecast", input: { city: "Lyon", days: 30 } })]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      { line: 1, index: 0, type: undefined, name: undefined, reason: "error", detail: "line 1: tools[1] of the Anthropic request cannot be read: a tool without a name (undefined) has no Open Responses form", findings: [] },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_forecast",
        reason: "unknown_tool",
        detail: 'no schema is known for "get_forecast"',
        findings: [{ code: "tool_not_allowed", detail: '"get_forecast" is not allowed: tools[1] of line 1 defines it in a form that cannot be read', path: "/name" }],
      },
    ]);
  });

  test("a custom tool and a client tool of Anthropic's (bash_20250124) of one name: a tool_use of that name may be either's call, and is refused", async () => {
    const tools = [{ ...anthropicTools[0], input_schema: { type: "object" } }, { type: "bash_20250124", name: "get_forecast" }];
    const journal = jsonl([anthropicExchange({ tools }, { id: "toolu_01Shell", name: "get_forecast", input: { command: "rm -rf /srv/forecasts" } })]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      {
        line: 1,
        index: 0,
        type: undefined,
        name: undefined,
        reason: "error",
        detail: 'line 1 (Anthropic tools read as Open Responses ones): tools[0].name defines "get_forecast" as a function, and tools[1] (type "anthropic:bash_20250124") names a tool of another kind so',
        findings: [],
      },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_forecast",
        reason: "unknown_tool",
        detail: 'no schema is known for "get_forecast"',
        findings: [
          {
            code: "tool_not_allowed",
            detail: '"get_forecast" is not allowed: line 1 (Anthropic tools read as Open Responses ones) defines it as a function and, at tools[1] (type "anthropic:bash_20250124"), as a tool of another kind',
            path: "/name",
          },
        ],
      },
    ]);
  });

  test("a Gemini toolConfig beside the tools, which Anthropic passes over and a reader of Gemini's form takes, allows no function", async () => {
    const toolConfig = { functionCallingConfig: { mode: "NONE" } };
    const journal = jsonl([anthropicExchange({ tools: anthropicTools, toolConfig }, { id: "toolu_01Lyon", name: "get_forecast", input: { city: "Lyon" } })]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      {
        line: 1,
        index: 0,
        type: undefined,
        name: undefined,
        reason: "error",
        detail: "line 1: toolConfig of the Anthropic request cannot be read: toolConfig is how another envelope's request limits its calls: Anthropic Messages passes it over there, a reader of that envelope's form reads it",
        findings: [],
      },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_forecast",
        reason: "ok",
        detail: "completed call with arguments valid for its schema",
        findings: [{ code: "tool_not_allowed", detail: '"get_forecast" is not allowed: toolConfig of line 1 cannot all be read, so it allows no function', path: "/name" }],
      },
    ]);
  });

  test("a tool that gives its schema also in another envelope's field (parameters) refuses its calls: each reader takes its own", async () => {
    const tools = [{ ...anthropicTools[0], input_schema: { type: "object" }, parameters: { ...forecastSchema, additionalProperties: false } }];
    const journal = jsonl([anthropicExchange({ tools }, { id: "toolu_01Lyon", name: "get_forecast", input: { city: "Lyon", days: 30 } })]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      {
        line: 1,
        index: 0,
        type: undefined,
        name: undefined,
        reason: "error",
        detail: "line 1: tools[0] of the Anthropic request cannot be read: the definition gives the schema of its arguments in parameters and input_schema, which readers of different envelopes each take one of",
        findings: [],
      },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_forecast",
        reason: "unknown_tool",
        detail: 'no schema is known for "get_forecast"',
        findings: [{ code: "tool_not_allowed", detail: '"get_forecast" is not allowed: tools[0] of line 1 defines it in a form that cannot be read', path: "/name" }],
      },
    ]);
  });

  test("a tool whose input_schema cannot be read refuses its own calls only", async () => {
    const tools = [anthropicTools[0], { description: "Time in a timezone", input_schema: "zone: string", name: "get_clock" }];
    const journal = jsonl([
      anthropicExchange({ tools }, { id: "toolu_01Clock", name: "get_clock", input: { zone: "Europe/Paris" } }),
      { type: "function_call", call_id: "toolu_01Lyon", name: "get_forecast", arguments: '{"city":"Lyon"}', status: "completed" },
    ]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      { line: 1, index: 0, type: undefined, name: undefined, reason: "error", detail: "line 1: tools[1] of the Anthropic request cannot be read: input_schema is string: written as the parameters as it is", findings: [] },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_clock",
        reason: "unknown_tool",
        detail: 'no schema is known for "get_clock"',
        findings: [{ code: "tool_not_allowed", detail: '"get_clock" is not allowed: tools[1] of line 1 defines it in a form that cannot be read', path: "/name" }],
      },
      { line: 2, index: 0, type: "function_call", name: "get_forecast", reason: "ok", detail: "completed call with arguments valid for its schema", findings: [] },
    ]);
  });
});

describe("gate: Gemini request bodies", () => {
  const countryTool = { description: "", name: "get_user_country" };
  const answerTool = {
    description: "The final answer",
    name: "final_result",
    parameters: { properties: { city: { type: "STRING" }, country: { type: "STRING" }, note: { nullable: true, type: "STRING" } }, required: ["city", "country"], type: "OBJECT" },
  };

  test("tools written as one object, an OpenAPI schema in upper case, and allowedFunctionNames under mode ANY", async () => {
    const request = { toolConfig: { function_calling_config: { allowed_function_names: ["get_user_country", "final_result"], mode: "ANY" } }, tools: { functionDeclarations: [countryTool, answerTool] } };
    const journal = jsonl([geminiExchange(request, [{ id: "call_country", name: "get_user_country", args: {} }, { id: "call_answer", name: "final_result", args: { city: "Lima", country: "Peru", note: null } }])]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(decided(result.stdout)).toEqual([
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      { line: 1, index: 1, type: "function_call", name: "get_user_country", reason: "ok", detail: "completed call with arguments valid for its schema", findings: [] },
      { line: 1, index: 2, type: "function_call", name: "final_result", reason: "ok", detail: "completed call with arguments valid for its schema", findings: [] },
    ]);
    expect(result.code).toBe(0);
  });

  test("nullable is no wider than it says: an integer where a string or null is expected fails the schema", async () => {
    const request = { tools: [{ functionDeclarations: [answerTool] }] };
    const journal = jsonl([geminiExchange(request, [{ id: "call_answer", name: "final_result", args: { city: "Lima", country: "Peru", note: 7 } }])]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([{ line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] }, { line: 1, index: 1, type: "function_call", name: "final_result", reason: "arguments_schema", detail: "arguments/note must be string,null", findings: [] }]);
  });

  test("a schema keyword Gemini's dialect does not have refuses the declaration's calls, on an error line", async () => {
    const odd = { name: "final_result", parameters: { properties: { city: { type: "STRING", "x-min-population": 100000 } }, type: "OBJECT" } };
    const journal = jsonl([geminiExchange({ tools: [{ functionDeclarations: [odd] }] }, [{ id: "call_answer", name: "final_result", args: { city: "Lima" } }])]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      {
        line: 1,
        index: 0,
        type: undefined,
        name: undefined,
        reason: "error",
        detail:
          'line 1: tools[0].functionDeclarations[0] of the Gemini request cannot be read: "x-min-population" is not a keyword of Gemini\'s schema, and the gate cannot tell what it allows: no value is accepted here',
        findings: [],
      },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "final_result",
        reason: "unknown_tool",
        detail: 'no schema is known for "final_result"',
        findings: [{ code: "tool_not_allowed", detail: '"final_result" is not allowed: tools[0].functionDeclarations[0] of line 1 defines it in a form that cannot be read', path: "/name" }],
      },
    ]);
  });

  test("mode NONE allows no function, whatever allowedFunctionNames lists", async () => {
    const request = { toolConfig: { functionCallingConfig: { allowedFunctionNames: ["get_user_country"], mode: "NONE" } }, tools: [{ functionDeclarations: [countryTool] }] };
    const journal = jsonl([geminiExchange(request, [{ id: "call_country", name: "get_user_country", args: {} }])]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_user_country",
        reason: "ok",
        detail: "completed call with arguments valid for its schema",
        findings: [{ code: "tool_not_allowed", detail: '"get_user_country" is not allowed: tool_choice of line 1 allows no function', path: "/name" }],
      },
    ]);
  });

  test("a toolConfig, functionCallingConfig or allowedFunctionNames given in both spellings allows no function, read either way", async () => {
    const auto = { functionCallingConfig: { mode: "AUTO" } };
    const requests = [
      { toolConfig: auto, tool_config: { function_calling_config: { mode: "NONE" } } },
      { tool_config: { function_calling_config: { mode: "NONE" } }, toolConfig: auto },
      { toolConfig: { ...auto, function_calling_config: { mode: "NONE" } } },
      { toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_user_country"], allowed_function_names: ["other"] } } },
    ];
    for (const config of requests) {
      const journal = jsonl([geminiExchange({ ...config, tools: [{ functionDeclarations: [countryTool] }] }, [{ id: "call_country", name: "get_user_country", args: {} }])]);
      const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
      expect(result.code).toBe(1);
      const call = verdicts(result.stdout).find((verdict) => verdict.type === "function_call")!;
      expect(call.findings).toEqual([expect.objectContaining({ code: "tool_not_allowed" })]);
      // A conversion writes a choice that allows none too, and says why.
      const folder = await mkdtemp(join(tmpdir(), "orbridge-spellings-"));
      try {
        const report = join(folder, "losses.jsonl");
        const converted = await runOrbridge(["convert", "--to", "responses", "--report", report, "-"], journal);
        expect(converted.stdout).toContain('"tool_choice":"none"');
        expect(await readFile(report, "utf8")).toContain("in both spellings");
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    }
  });

  test("tools and toolConfig in the body's config, as the google-genai SDKs take them, are read there; given in both places, neither is", async () => {
    const noneConfig = { tool_config: { function_calling_config: { mode: "NONE" } } };
    const call = async (request: Fields) => {
      const result = await runOrbridge(["gate", "--format", "json", "-"], jsonl([geminiExchange(request, [{ id: "call_country", name: "get_user_country", args: {} }])]));
      return verdicts(result.stdout).find((verdict) => verdict.type === "function_call")!;
    };
    // The schema comes from config.tools: the call passes on it.
    expect(await call({ model: "gemini-2.5-flash", config: { tools: [{ function_declarations: [countryTool] }] } })).toMatchObject({ reason: "ok", findings: [] });
    // Mode NONE in config allows no function, wherever the tools are.
    for (const request of [{ config: { tools: [{ function_declarations: [countryTool] }], ...noneConfig } }, { tools: [{ functionDeclarations: [countryTool] }], config: noneConfig }]) {
      expect((await call(request)).findings).toEqual([expect.objectContaining({ code: "tool_not_allowed" })]);
    }
    // Tools at the top and in config: a reader of either place sees its own.
    const twice = await call({ tools: [{ functionDeclarations: [countryTool] }], config: { tools: [{ functionDeclarations: [countryTool] }] } });
    expect(twice.reason).not.toBe("ok");
    const choiceTwice = await call({ tools: [{ functionDeclarations: [countryTool] }], toolConfig: { functionCallingConfig: { mode: "AUTO" } }, config: noneConfig });
    expect(choiceTwice.findings).toEqual([expect.objectContaining({ code: "tool_not_allowed" })]);
  });

  test("a member of a tool that Gemini would take for a hosted tool and that defines a function of the same name in another envelope's form refuses it", async () => {
    const strict = { name: "get_user_country", inputSchema: { json: { additionalProperties: false, properties: {}, type: "object" } } };
    const request = { tools: [{ functionDeclarations: [{ ...countryTool, parametersJsonSchema: { type: "object" } }] }, { toolSpec: strict }] };
    const journal = jsonl([geminiExchange(request, [{ id: "call_country", name: "get_user_country", args: { country: "any" } }])]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      {
        line: 1,
        index: 0,
        type: undefined,
        name: undefined,
        reason: "error",
        detail: 'line 1 (Gemini tools read as Open Responses ones): tools[0].name defines "get_user_country" as a function, and tools[1] (type "gemini:toolSpec") names a tool of another kind so',
        findings: [],
      },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_user_country",
        reason: "unknown_tool",
        detail: 'no schema is known for "get_user_country"',
        findings: [
          {
            code: "tool_not_allowed",
            detail: '"get_user_country" is not allowed: line 1 (Gemini tools read as Open Responses ones) defines it as a function and, at tools[1] (type "gemini:toolSpec"), as a tool of another kind',
            path: "/name",
          },
        ],
      },
    ]);
  });

  test("a tool_choice of the Chat form, which Gemini passes over, allows no function", async () => {
    const request = { tools: [{ functionDeclarations: [countryTool] }], tool_choice: "none" };
    const journal = jsonl([geminiExchange(request, [{ id: "call_country", name: "get_user_country", args: {} }])]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      {
        line: 1,
        index: 0,
        type: undefined,
        name: undefined,
        reason: "error",
        detail: "line 1: tool_choice of the Gemini request cannot be read: tool_choice is how another envelope's request limits its calls: Gemini passes it over there, a reader of that envelope's form reads it",
        findings: [],
      },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_user_country",
        reason: "ok",
        detail: "completed call with arguments valid for its schema",
        findings: [{ code: "tool_not_allowed", detail: '"get_user_country" is not allowed: tool_choice of line 1 cannot all be read, so it allows no function', path: "/name" }],
      },
    ]);
  });

  test("a legacy Chat functions list, which Gemini passes over, refuses the functions it names", async () => {
    const strict = { name: "get_user_country", parameters: { additionalProperties: false, properties: {}, type: "object" } };
    const request = { tools: [{ functionDeclarations: [{ ...countryTool, parametersJsonSchema: { type: "object" } }] }], functions: [strict] };
    const journal = jsonl([geminiExchange(request, [{ id: "call_country", name: "get_user_country", args: { country: "any" } }])]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      {
        line: 1,
        index: 0,
        type: undefined,
        name: undefined,
        reason: "error",
        detail: "line 1: functions of the Gemini request cannot be read: functions is where another envelope's request defines its tools: Gemini passes it over there, a reader of that envelope's form reads it",
        findings: [],
      },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_user_country",
        reason: "unknown_tool",
        detail: 'no schema is known for "get_user_country"',
        findings: [{ code: "tool_not_allowed", detail: '"get_user_country" is not allowed: functions of line 1 defines it in a form that cannot be read', path: "/name" }],
      },
    ]);
  });

  test("a hosted tool beside the functions is a tool: a function_call of its name is refused", async () => {
    const request = { tools: [{ googleSearch: {} }, { functionDeclarations: [countryTool] }] };
    const journal = jsonl([geminiExchange(request, [{ id: "call_search", name: "googleSearch", args: { query: "largest city" } }])]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    // Its request offers no function of that name, either: the call is not one its response could make.
    const notOffered = {
      code: "tool_not_allowed",
      detail: '"googleSearch" is not allowed: the request of line 1, which its response answers, lists the tools it offered the model; for that response\'s calls, it allows only "get_user_country", "gemini:googleSearch"',
      path: "/name",
    };
    expect(decided(result.stdout)).toEqual([
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      { line: 1, index: 1, type: "function_call", name: "googleSearch", reason: "unknown_tool", detail: 'no schema is known for "googleSearch"', findings: [notOffered] },
    ]);
  });

  test("a call of an exchange's response to a tool an earlier request defined, and its own request does not offer, is refused", async () => {
    const weather = { name: "get_weather", parameters: { type: "OBJECT", properties: { city: { type: "STRING" } } } };
    const journal = jsonl([
      geminiExchange({ tools: [{ functionDeclarations: [countryTool, weather] }] }, [{ id: "call_1", name: "get_weather", args: { city: "Oslo" } }]),
      { ...geminiExchange({ tools: [{ functionDeclarations: [countryTool] }] }, []), response: { ...(geminiExchange({}, [{ id: "call_2", name: "get_weather", args: { city: "Rome" } }]).response as Fields), responseId: "resp_later" } },
    ]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    const calls = decided(result.stdout).filter((verdict) => verdict.type === "function_call");
    expect(calls.map((verdict) => [verdict.line, verdict.reason, verdict.findings.map((finding) => (finding as { code: string }).code)])).toEqual([
      [1, "ok", []],
      [2, "ok", ["tool_not_allowed"]],
    ]);
  });
});

describe("a logged exchange whose request lists no tool", () => {
  // The tools an earlier line defined, so that only the exchange's own request can refuse the call.
  const earlier = { model: "gpt-5", input: "hello", tools: [{ type: "function", name: "get_forecast", parameters: forecastSchema }] };
  const chatResponse = { id: "chatcmpl-1", object: "chat.completion", created: 1, model: "gpt-5", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_forecast", arguments: '{"city":"Lyon"}' } }] }, finish_reason: "tool_calls" }] };
  const exchanges: Array<[string, Fields]> = [
    ["a Chat request with no tools member", { request: { model: "gpt-5", messages: [{ role: "user", content: "Rain in Lyon?" }] }, response: chatResponse }],
    ["a Chat request with tools: []", { request: { model: "gpt-5", messages: [{ role: "user", content: "Rain in Lyon?" }], tools: [] }, response: chatResponse }],
    ["an Anthropic request with no tools member", anthropicExchange({}, { id: "toolu_1", name: "get_forecast", input: { city: "Lyon" } })],
    ["a Gemini request with tools: []", geminiExchange({ tools: [] }, [{ id: "call_1", name: "get_forecast", args: { city: "Lyon" } }])],
  ];

  test.each(exchanges)("%s offered the model none: its response's call is refused, as one to a tool it does not list is", async (_, exchange) => {
    const result = await runOrbridge(["gate", "--format", "json", "-"], jsonl([earlier, exchange]));
    expect(result.code).toBe(1);
    const call = verdicts(result.stdout).find((verdict) => verdict.type === "function_call")!;
    expect([call.reason, call.findings]).toEqual([
      "ok",
      [{ code: "tool_not_allowed", detail: '"get_forecast" is not allowed: the request of line 2, which its response answers, lists no tool: it offered the model none, and for that response\'s calls it allows no function', path: "/name" }],
    ]);
  });
});

describe("a response that makes more calls than its request lets it", () => {
  const forecast = { type: "function", function: { name: "get_forecast", parameters: forecastSchema } };
  const chatCall = (id: string, city: string) => ({ id, type: "function", function: { name: "get_forecast", arguments: JSON.stringify({ city }) } });
  const chatExchange = (parallel: boolean | undefined) => ({
    request: { model: "gpt-5", messages: [{ role: "user", content: "Rain in Lyon or Nice?" }], tools: [forecast], ...(parallel === undefined ? {} : { parallel_tool_calls: parallel }) },
    response: { id: "chatcmpl-2", object: "chat.completion", created: 1, model: "gpt-5", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [chatCall("call_1", "Lyon"), chatCall("call_2", "Nice")] }, finish_reason: "tool_calls" }] },
  });
  const twoToolUses = (request: Fields) => {
    const exchange = anthropicExchange({ tools: [anthropicTools[0]], ...request }, { id: "toolu_1", name: "get_forecast", input: { city: "Lyon" } });
    const response = exchange.response as Fields;
    return { ...exchange, response: { ...response, content: [...(response.content as unknown[]), { type: "tool_use", id: "toolu_2", name: "get_forecast", input: { city: "Nice" } }] } };
  };
  const responseObject = (parallel: boolean) => ({
    id: "resp_2",
    object: "response",
    status: "completed",
    parallel_tool_calls: parallel,
    tools: [{ type: "function", name: "get_forecast", parameters: forecastSchema }],
    output: [
      { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_forecast", arguments: '{"city":"Lyon"}', status: "completed" },
      { type: "function_call", id: "fc_2", call_id: "call_2", name: "get_forecast", arguments: '{"city":"Nice"}', status: "completed" },
    ],
  });
  // A response object names its request's tools but defines none: a request body before it does.
  const definingBody = { model: "gpt-5", input: "Rain in Lyon or Nice?", tools: [{ type: "function", name: "get_forecast", parameters: forecastSchema }] };
  const callFindings = async (record: Fields) => {
    const result = await runOrbridge(["gate", "--format", "json", "-"], jsonl(record.object === "response" ? [definingBody, record] : [record]));
    return verdicts(result.stdout).filter((verdict) => verdict.type === "function_call").map((verdict) => [verdict.reason, (verdict.findings as Array<{ code: string; detail: string }>).map((finding) => finding.detail)]);
  };

  test("parallel_tool_calls false: the second call of the exchange's response is refused", async () => {
    expect(await callFindings(chatExchange(false))).toEqual([
      ["ok", []],
      ["ok", ['"get_forecast" is not allowed: parallel_tool_calls false in the request of line 1 lets its response make one call, and this is call 2 of it']],
    ]);
  });
  test("Anthropic's disable_parallel_tool_use the same way", async () => {
    expect(await callFindings(twoToolUses({ tool_choice: { type: "auto", disable_parallel_tool_use: true } }))).toEqual([
      ["ok", []],
      ["ok", ['"get_forecast" is not allowed: tool_choice.disable_parallel_tool_use in the request of line 1 lets its response make one call, and this is call 2 of it']],
    ]);
  });
  test("a response object that says parallel_tool_calls false of its own request", async () => {
    expect(await callFindings(responseObject(false))).toEqual([
      ["ok", []],
      ["ok", ['"get_forecast" is not allowed: parallel_tool_calls false in the response\'s own record of its request of line 2 lets its response make one call, and this is call 2 of it']],
    ]);
  });
  test("a request body on a line of its own limits the responses after it, until the next request body", async () => {
    const lines = async (records: Fields[]) => {
      const result = await runOrbridge(["gate", "--format", "json", "-"], jsonl(records));
      return verdicts(result.stdout).filter((verdict) => verdict.type === "function_call").map((verdict) => [verdict.line, (verdict.findings as Array<{ detail: string }>).map((finding) => finding.detail)]);
    };
    const exchange = chatExchange(false);
    const [request, response] = [exchange.request as Fields, exchange.response as Fields];
    const second = '"get_forecast" is not allowed: parallel_tool_calls false in the request of line 1 lets its response make one call, and this is call 2 of it';
    expect(await lines([request, response])).toEqual([
      [2, []],
      [2, [second]],
    ]);
    // Anthropic's word, and an Open Responses request before a response object that does not echo it.
    const anthropic = twoToolUses({ tool_choice: { type: "auto", disable_parallel_tool_use: true } });
    expect((await lines([anthropic.request as Fields, anthropic.response as Fields]))[1]![1]).toEqual([second.replace("parallel_tool_calls false", "tool_choice.disable_parallel_tool_use")]);
    const { parallel_tool_calls: _echo, ...silent } = responseObject(false);
    expect((await lines([{ ...definingBody, parallel_tool_calls: false }, silent]))[1]![1]).toEqual([second]);
    // A later request body that allows parallel calls lifts it.
    expect(await lines([request, { ...request, parallel_tool_calls: true }, response])).toEqual([
      [3, []],
      [3, []],
    ]);
  });

  test("a --tools file that is a request body letting its response make one call limits every response of the journal", async () => {
    const folder = await mkdtemp(join(tmpdir(), "orbridge-one-call-tools-"));
    try {
      const findingsWith = async (body: Fields, records: Fields[]) => {
        const path = join(folder, "tools.json");
        await writeFile(path, JSON.stringify(body));
        const result = await runOrbridge(["gate", "--tools", path, "--format", "json", "-"], jsonl(records));
        return { code: result.code, calls: verdicts(result.stdout.replaceAll(folder, "FOLDER")).filter((verdict) => verdict.type === "function_call").map((verdict) => (verdict.findings as Array<{ detail: string }>).map((finding) => finding.detail)) };
      };
      const exchange = chatExchange(undefined);
      const chatBody = { ...(exchange.request as Fields), parallel_tool_calls: false };
      expect(await findingsWith(chatBody, [exchange.response as Fields])).toEqual({ code: 1, calls: [[], ['"get_forecast" is not allowed: parallel_tool_calls false in the tools file FOLDER/tools.json lets its response make one call, and this is call 2 of it']] });
      const anthropic = twoToolUses({});
      const anthropicBody = { ...(anthropic.request as Fields), tool_choice: { type: "auto", disable_parallel_tool_use: true } };
      expect(await findingsWith(anthropicBody, [anthropic.response as Fields])).toEqual({ code: 1, calls: [[], ['"get_forecast" is not allowed: tool_choice.disable_parallel_tool_use in the tools file FOLDER/tools.json lets its response make one call, and this is call 2 of it']] });
      // A request body of the journal that allows parallel calls does not lift it.
      expect((await findingsWith(chatBody, [{ ...(exchange.request as Fields), parallel_tool_calls: true }, exchange.response as Fields])).calls[1]).toHaveLength(1);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  test("parallel calls allowed, or not said: both calls run", async () => {
    for (const record of [chatExchange(true), chatExchange(undefined), twoToolUses({}), responseObject(true)]) expect(await callFindings(record)).toEqual([["ok", []], ["ok", []]]);
  });
});

describe("gate: Bedrock request bodies", () => {
  const toolSpec = { name: "get_user_country", description: "The country of the user", inputSchema: { json: { additionalProperties: false, properties: {}, type: "object" } } };

  test("a toolSpec's inputSchema.json holds the call, and toolChoice tool narrows to it", async () => {
    const journal = jsonl([
      bedrockExchange({ toolChoice: { tool: { name: "get_user_country" } }, tools: [{ toolSpec }, { cachePoint: { type: "default" } }] }, { toolUseId: "tooluse_country", name: "get_user_country", input: {} }),
    ]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(decided(result.stdout)).toEqual([{ line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] }, { line: 1, index: 1, type: "function_call", name: "get_user_country", reason: "ok", detail: "completed call with arguments valid for its schema", findings: [] }]);
    expect(result.code).toBe(0);
  });

  test("a tool written in the Chat form, which Converse does not read, still names its tool: a call of that name is refused", async () => {
    const chatForm = { type: "function", function: { name: "get_user_country", parameters: { additionalProperties: false, properties: {}, type: "object" } } };
    const loose = { ...toolSpec, inputSchema: { json: { type: "object" } } };
    const journal = jsonl([bedrockExchange({ tools: [{ toolSpec: loose }, chatForm] }, { toolUseId: "tooluse_country", name: "get_user_country", input: { country: "any" } })]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      { line: 1, index: 0, type: undefined, name: undefined, reason: "error", detail: 'line 1: toolConfig.tools[1] of the Bedrock request cannot be read: a "function" is not a tool of one member', findings: [] },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_user_country",
        reason: "unknown_tool",
        detail: 'no schema is known for "get_user_country"',
        findings: [{ code: "tool_not_allowed", detail: '"get_user_country" is not allowed: toolConfig.tools[1] of line 1 defines it in a form that cannot be read', path: "/name" }],
      },
    ]);
  });

  test("a Gemini functionDeclarations list, which Converse keeps as a tool of its own kind, still defines the functions it declares: a toolSpec of one of those names is refused", async () => {
    const strict = { name: "get_user_country", parametersJsonSchema: { additionalProperties: false, properties: {}, type: "object" } };
    const loose = { ...toolSpec, inputSchema: { json: { type: "object" } } };
    const journal = jsonl([bedrockExchange({ tools: [{ toolSpec: loose }, { functionDeclarations: [strict] }] }, { toolUseId: "tooluse_country", name: "get_user_country", input: { country: "any" } })]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      {
        line: 1,
        index: 0,
        type: undefined,
        name: undefined,
        reason: "error",
        detail: 'line 1 (Bedrock tools read as Open Responses ones): tools[0].name defines "get_user_country" as a function, and tools[1] (type "bedrock:functionDeclarations") names a tool of another kind so',
        findings: [],
      },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_user_country",
        reason: "unknown_tool",
        detail: 'no schema is known for "get_user_country"',
        findings: [
          {
            code: "tool_not_allowed",
            detail: '"get_user_country" is not allowed: line 1 (Bedrock tools read as Open Responses ones) defines it as a function and, at tools[1] (type "bedrock:functionDeclarations"), as a tool of another kind',
            path: "/name",
          },
        ],
      },
    ]);
  });

  test("a Gemini functionCallingConfig in the toolConfig, which Converse passes over, allows no function", async () => {
    const journal = jsonl([bedrockExchange({ tools: [{ toolSpec }], functionCallingConfig: { mode: "NONE" } }, { toolUseId: "tooluse_country", name: "get_user_country", input: {} })]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      {
        line: 1,
        index: 0,
        type: undefined,
        name: undefined,
        reason: "error",
        detail:
          "line 1: toolConfig.functionCallingConfig of the Bedrock request cannot be read: functionCallingConfig is how another envelope's request limits its calls: Bedrock Converse passes it over there, a reader of that envelope's form reads it",
        findings: [],
      },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_user_country",
        reason: "ok",
        detail: "completed call with arguments valid for its schema",
        findings: [{ code: "tool_not_allowed", detail: '"get_user_country" is not allowed: toolConfig.functionCallingConfig of line 1 cannot all be read, so it allows no function', path: "/name" }],
      },
    ]);
  });

  test("a tools list beside the toolConfig, which Converse passes over, refuses the tools it names", async () => {
    const chatForm = { type: "function", function: { name: "get_user_country", parameters: { additionalProperties: false, properties: {}, type: "object" } } };
    const exchange = bedrockExchange({ tools: [{ toolSpec: { ...toolSpec, inputSchema: { json: { type: "object" } } } }] }, { toolUseId: "tooluse_country", name: "get_user_country", input: { country: "any" } });
    const journal = jsonl([{ ...exchange, request: { ...(exchange.request as Fields), tools: [chatForm] } }]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      {
        line: 1,
        index: 0,
        type: undefined,
        name: undefined,
        reason: "error",
        detail: "line 1: tools of the Bedrock request cannot be read: tools is where another envelope's request defines its tools: Bedrock Converse passes it over there, a reader of that envelope's form reads it",
        findings: [],
      },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_user_country",
        reason: "unknown_tool",
        detail: 'no schema is known for "get_user_country"',
        findings: [{ code: "tool_not_allowed", detail: '"get_user_country" is not allowed: tools of line 1 defines it in a form that cannot be read', path: "/name" }],
      },
    ]);
  });

  test("a toolSpec that gives its schema also in another envelope's field (input_schema) refuses its calls: each reader takes its own", async () => {
    const strict = { additionalProperties: false, properties: {}, type: "object" };
    const journal = jsonl([bedrockExchange({ tools: [{ toolSpec: { ...toolSpec, inputSchema: { json: { type: "object" } }, input_schema: strict } }] }, { toolUseId: "tooluse_country", name: "get_user_country", input: { country: "any" } })]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      {
        line: 1,
        index: 0,
        type: undefined,
        name: undefined,
        reason: "error",
        detail: "line 1: toolConfig.tools[0] of the Bedrock request cannot be read: the definition gives the schema of its arguments in input_schema and inputSchema, which readers of different envelopes each take one of",
        findings: [],
      },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_user_country",
        reason: "unknown_tool",
        detail: 'no schema is known for "get_user_country"',
        findings: [{ code: "tool_not_allowed", detail: '"get_user_country" is not allowed: toolConfig.tools[0] of line 1 defines it in a form that cannot be read', path: "/name" }],
      },
    ]);
  });

  test("a toolChoice that cannot be read allows no function", async () => {
    const journal = jsonl([bedrockExchange({ toolChoice: { auto: {}, any: {} }, tools: [{ toolSpec }] }, { toolUseId: "tooluse_country", name: "get_user_country", input: {} })]);
    const result = await runOrbridge(["gate", "--format", "json", "-"], journal);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([
      { line: 1, index: 0, type: undefined, name: undefined, reason: "error", detail: "line 1: toolConfig.toolChoice of the Bedrock request cannot be read: toolChoice must hold exactly one of auto, any and tool, found auto, any", findings: [] },
      { line: 1, index: 0, type: "message", name: undefined, reason: "not_function_call", detail: '"message" is not a function_call', findings: [] },
      {
        line: 1,
        index: 1,
        type: "function_call",
        name: "get_user_country",
        reason: "ok",
        detail: "completed call with arguments valid for its schema",
        findings: [{ code: "tool_not_allowed", detail: '"get_user_country" is not allowed: toolConfig.toolChoice of line 1 cannot all be read, so it allows no function', path: "/name" }],
      },
    ]);
  });
});

describe("gate --tools FILE of another envelope", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "orbridge-envelope-tools-"));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  const calls = jsonl([
    { type: "function_call", id: "fc_1", call_id: "call_forecast", name: "get_forecast", arguments: '{"city":"Lyon"}', status: "completed" },
    { type: "function_call", id: "fc_2", call_id: "call_search", name: "web_search", arguments: '{"query":"rain"}', status: "completed" },
  ]);
  const toolsFile = async (name: string, tools: unknown) => {
    const path = join(folder, name);
    await writeFile(path, JSON.stringify(tools));
    return path;
  };

  test("Anthropic tools, a server tool among them: its calls are not function calls", async () => {
    const path = await toolsFile("anthropic.json", [anthropicTools[0], { max_uses: 3, name: "web_search", type: "web_search_20250305" }]);
    const result = await runOrbridge(["gate", "--tools", path, "--format", "json", "-"], calls);
    expect(result.code).toBe(1);
    expect(decided(result.stdout.replaceAll(folder, "FOLDER"))).toEqual([
      { line: 1, index: 0, type: "function_call", name: "get_forecast", reason: "ok", detail: "completed call with arguments valid for its schema", findings: [] },
      {
        line: 2,
        index: 0,
        type: "function_call",
        name: "web_search",
        reason: "unknown_tool",
        detail: 'no schema is known for "web_search"',
        findings: [
          {
            code: "tool_not_allowed",
            detail:
              '"web_search" is not allowed: tools[1] of FOLDER/anthropic.json (Anthropic tools read as Open Responses ones) defines it as an extension tool (type "anthropic:web_search_20250305"), whose calls and arguments its provider defines: no function schema is known to judge a function_call by',
            path: "/name",
          },
        ],
      },
    ]);
  });

  test("Gemini tools in Gemini's schema dialect, a hosted tool beside them", async () => {
    const path = await toolsFile("gemini.json", [{ functionDeclarations: [{ name: "get_forecast", parameters: { properties: { city: { type: "STRING" } }, required: ["city"], type: "OBJECT" } }] }, { googleSearch: {} }]);
    const result = await runOrbridge(["gate", "--tools", path, "--format", "json", "-"], calls);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([{ line: 1, index: 0, type: "function_call", name: "get_forecast", reason: "ok", detail: "completed call with arguments valid for its schema", findings: [] }, { line: 2, index: 0, type: "function_call", name: "web_search", reason: "unknown_tool", detail: 'no schema is known for "web_search"', findings: [] }]);
  });

  test("Bedrock tools, as a toolConfig", async () => {
    const path = await toolsFile("bedrock.json", { toolConfig: { tools: [{ toolSpec: { name: "get_forecast", inputSchema: { json: forecastSchema } } }] } });
    const result = await runOrbridge(["gate", "--tools", path, "--format", "json", "-"], calls);
    expect(result.code).toBe(1);
    expect(decided(result.stdout)).toEqual([{ line: 1, index: 0, type: "function_call", name: "get_forecast", reason: "ok", detail: "completed call with arguments valid for its schema", findings: [] }, { line: 2, index: 0, type: "function_call", name: "web_search", reason: "unknown_tool", detail: 'no schema is known for "web_search"', findings: [] }]);
  });

  test("a part of the file that cannot be read stops the run, naming it", async () => {
    const path = await toolsFile("gemini-odd.json", [{ functionDeclarations: [{ name: "get_forecast", parameters: { type: "OBJECT", propertyNames: { pattern: "^c" } } }] }]);
    const result = await runOrbridge(["gate", "--tools", path, "--format", "json", "-"], calls);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr.replaceAll(folder, "FOLDER") }).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "orbridge gate: FOLDER/gemini-odd.json: tools[0].functionDeclarations[0] of the Gemini request cannot be read: \"propertyNames\" is not a keyword of Gemini's schema, and the gate cannot tell what it allows: no value is accepted here\n",
    });
  });

  test("a file of hosted tools only is read: every function call is then an unknown tool", async () => {
    const path = await toolsFile("hosted.json", [{ type: "web_search" }]);
    const result = await runOrbridge(["gate", "--tools", path, "--format", "json", "-"], calls);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: "read 2 lines: 2 items, 0 errors; 2 blocked\n  blocked by: unknown_tool 2\n  findings: tool_not_allowed 1\n" });
    expect(decided(result.stdout.replaceAll(folder, "FOLDER"))).toEqual([
      { line: 1, index: 0, type: "function_call", name: "get_forecast", reason: "unknown_tool", detail: 'no schema is known for "get_forecast"', findings: [] },
      {
        line: 2,
        index: 0,
        type: "function_call",
        name: "web_search",
        reason: "unknown_tool",
        detail: 'no schema is known for "web_search"',
        findings: [
          {
            code: "tool_not_allowed",
            detail: '"web_search" is not allowed: tools[0] of FOLDER/hosted.json defines it as a hosted tool (type "web_search"), which is called through items of its own, never through a function_call',
            path: "/name",
          },
        ],
      },
    ]);
  });
});
