// A request's limits on its calls written in a member whose members reach the
// model as its request's own: an SDK's extra_body (merged into the top of the
// request it sends), a dump's model_extra, Bedrock's additionalModelRequestFields
// (handed to the model as it is: Claude reads its own tool_choice there). Each
// holds the calls as the same limit at the top of the body does, or, where its
// form is not read, allows no function.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

type Fields = Record<string, unknown>;

const jsonl = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join("\n") + "\n";
const forecastSchema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

/** Each error line's detail, then each call's reason and findings, in journal order. */
async function gateLines(records: unknown[]): Promise<{ code: number; lines: unknown[] }> {
  const run = await runOrbridge(["gate", "--format", "json", "-"], jsonl(records));
  const verdicts = run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Fields);
  const lines = verdicts
    .filter((verdict) => verdict.reason === "error" || verdict.type === "function_call")
    .map((verdict) => (verdict.reason === "error" ? verdict.detail : [verdict.name, verdict.reason, (verdict.findings as Array<{ detail: string }>).map((finding) => finding.detail)]));
  return { code: run.code, lines };
}

describe("a Bedrock Converse body's additionalModelRequestFields, which Bedrock hands to Claude", { timeout: 30_000 }, () => {
  const toolSpec = (name: string) => ({ toolSpec: { name, inputSchema: { json: forecastSchema } } });
  const exchange = (request: Fields, names = ["get_forecast", "get_forecast"]) => ({
    request: { modelId: "anthropic.claude-sonnet-4-5", messages: [{ role: "user", content: [{ text: "Rain in Lyon or Nice?" }] }], toolConfig: { tools: [toolSpec("get_forecast"), toolSpec("get_history")] }, ...request },
    response: {
      output: { message: { role: "assistant", content: names.map((name, index) => ({ toolUse: { toolUseId: `tooluse_${index + 1}`, name, input: { city: index === 0 ? "Lyon" : "Nice" } } })) } },
      stopReason: "tool_use",
      usage: { inputTokens: 200, outputTokens: 30, totalTokens: 230 },
    },
  });
  const ok = (name: string) => [name, "ok", []];
  const refused = (name: string, why: string) => [name, "ok", [`"${name}" is not allowed: ${why}`]];

  test.each(["additionalModelRequestFields", "additional_model_request_fields"])("%s: Claude's disable_parallel_tool_use lets the response make one call", async (holder) => {
    expect(await gateLines([exchange({ [holder]: { tool_choice: { type: "auto", disable_parallel_tool_use: true } } })])).toEqual({
      code: 1,
      lines: [ok("get_forecast"), refused("get_forecast", `${holder}.tool_choice.disable_parallel_tool_use in the request of line 1 lets its response make one call, and this is call 2 of it`)],
    });
  });

  test('Claude\'s tool_choice {"type":"none"} allows no function', async () => {
    const none = "tool_choice of line 1 allows no function";
    expect(await gateLines([exchange({ additionalModelRequestFields: { tool_choice: { type: "none" } } })])).toEqual({ code: 1, lines: [refused("get_forecast", none), refused("get_forecast", none)] });
  });

  test("Claude's tool_choice of one tool allows only that tool, beside toolConfig's toolChoice of any", async () => {
    const request = { toolConfig: { tools: [toolSpec("get_forecast"), toolSpec("get_history")], toolChoice: { any: {} } }, additionalModelRequestFields: { tool_choice: { type: "tool", name: "get_history" } } };
    expect(await gateLines([exchange(request, ["get_forecast", "get_history"])])).toEqual({ code: 1, lines: [refused("get_forecast", 'tool_choice of line 1 allows only "get_history"'), ok("get_history")] });
  });

  test("Claude's tool_choice naming another tool than toolConfig's toolChoice allows no function", async () => {
    const request = { toolConfig: { tools: [toolSpec("get_forecast"), toolSpec("get_history")], toolChoice: { tool: { name: "get_forecast" } } }, additionalModelRequestFields: { tool_choice: { type: "tool", name: "get_history" } } };
    const unread = "additionalModelRequestFields.tool_choice of line 1 cannot all be read, so it allows no function";
    expect(await gateLines([exchange(request, ["get_forecast", "get_history"])])).toEqual({
      code: 1,
      lines: [
        'line 1: additionalModelRequestFields.tool_choice of the Bedrock request cannot be read: Bedrock hands it to the model as it is, and Claude reads it as its own tool_choice, and it names the tool "get_history" where toolConfig.toolChoice names another: a reader of either runs what the other forbids',
        refused("get_forecast", unread),
        refused("get_history", unread),
      ],
    });
  });

  test.each([
    [{ type: "auto", strict: true }, "one with strict"],
    [{ type: "some" }, 'its type "some" is none Claude defines'],
    ["none", "string"],
    [{ type: "tool" }, "it names no tool"],
  ])("Claude's tool_choice %j, of a form not read here, allows no function", async (choice, why) => {
    const detail = typeof choice === "string" || Object.keys(choice).includes("strict") ? `and it is not of a form read here (found ${why})` : `and ${why}`;
    const unread = "additionalModelRequestFields.tool_choice of line 1 cannot all be read, so it allows no function";
    expect(await gateLines([exchange({ additionalModelRequestFields: { tool_choice: choice } })])).toEqual({
      code: 1,
      lines: [`line 1: additionalModelRequestFields.tool_choice of the Bedrock request cannot be read: Bedrock hands it to the model as it is, and Claude reads it as its own tool_choice, ${detail}`, refused("get_forecast", unread), refused("get_forecast", unread)],
    });
  });

  test("a tool_choice there spelled otherwise (Tool_choice), which a reader folding case takes for it, allows no function", async () => {
    const unread = "/additionalModelRequestFields/Tool_choice of line 1 cannot all be read, so it allows no function";
    expect(await gateLines([exchange({ additionalModelRequestFields: { Tool_choice: { type: "none" } } })])).toEqual({
      code: 1,
      lines: [
        `line 1: "/additionalModelRequestFields/Tool_choice" is read by no envelope, yet a reader that matches names regardless of case or width (Go's encoding/json does) reads it as the request's tool_choice: which calls the request allows is not known`,
        refused("get_forecast", unread),
        refused("get_forecast", unread),
      ],
    });
  });

  test("Claude's tools there refuse the calls of the names they define", async () => {
    const computer = { type: "computer_20250124", name: "get_forecast", display_width_px: 1024, display_height_px: 768 };
    const { lines } = await gateLines([exchange({ additionalModelRequestFields: { tools: [computer], anthropic_beta: ["computer-use-2025-01-24"] } })]);
    expect(lines[0]).toBe(
      "line 1: additionalModelRequestFields.tools of the Bedrock request cannot be read: tools in additionalModelRequestFields defines the tools of the request the model gets: Bedrock Converse passes it over there, Bedrock hands additionalModelRequestFields to the model as it is and the model reads it",
    );
    expect(lines.slice(1).map((line) => (line as unknown[])[2])).toEqual([
      ['"get_forecast" is not allowed: additionalModelRequestFields.tools of line 1 defines it in a form that cannot be read'],
      ['"get_forecast" is not allowed: additionalModelRequestFields.tools of line 1 defines it in a form that cannot be read'],
    ]);
  });

  test("a choice that lets every tool be called, or other fields, leave both calls to run", async () => {
    for (const fields of [{ tool_choice: { type: "auto" } }, { tool_choice: { type: "any", disable_parallel_tool_use: false } }, { anthropic_beta: ["token-efficient-tools-2025-02-19"], top_k: 5 }]) {
      expect(await gateLines([exchange({ additionalModelRequestFields: fields })])).toEqual({ code: 0, lines: [ok("get_forecast"), ok("get_forecast")] });
    }
  });
});

describe("a Chat body's extra_body or model_extra, which the request sent holds at its top", { timeout: 30_000 }, () => {
  const forecast = { type: "function", function: { name: "get_forecast", parameters: forecastSchema } };
  const chatCall = (id: string, city: string) => ({ id, type: "function", function: { name: "get_forecast", arguments: JSON.stringify({ city }) } });
  const exchange = (request: Fields) => ({
    request: { model: "gpt-5", messages: [{ role: "user", content: "Rain in Lyon or Nice?" }], tools: [forecast], ...request },
    response: { id: "chatcmpl-2", object: "chat.completion", created: 1, model: "gpt-5", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [chatCall("call_1", "Lyon"), chatCall("call_2", "Nice")] }, finish_reason: "tool_calls" }] },
  });

  test.each(["extra_body", "model_extra"])("parallel_tool_calls false in %s lets the response make one call, whatever the top says", async (holder) => {
    for (const top of [{}, { parallel_tool_calls: true }]) {
      expect(await gateLines([exchange({ ...top, [holder]: { parallel_tool_calls: false } })])).toEqual({
        code: 1,
        lines: [
          ["get_forecast", "ok", []],
          ["get_forecast", "ok", [`"get_forecast" is not allowed: ${holder}.parallel_tool_calls false in the request of line 1 lets its response make one call, and this is call 2 of it`]],
        ],
      });
    }
  });

  test("a tool_choice in model_extra allows no function", async () => {
    expect(await gateLines([exchange({ model_extra: { tool_choice: "none" } })])).toEqual({
      code: 1,
      lines: [
        "line 1: model_extra.tool_choice of the request cannot be read: tool_choice in model_extra limits the calls of the request the SDK sends: a Chat or Open Responses reader passes it over there, the SDK sending the body merges model_extra into the request and the API reads it",
        ["get_forecast", "ok", ['"get_forecast" is not allowed: model_extra.tool_choice of line 1 cannot all be read, so it allows no function']],
        ["get_forecast", "ok", ['"get_forecast" is not allowed: model_extra.tool_choice of line 1 cannot all be read, so it allows no function']],
      ],
    });
  });

  test.each([
    ["extra_body.extra_body", { extra_body: { extra_body: { parallel_tool_calls: false } } }],
    ["optional_params", { optional_params: { parallel_tool_calls: false } }],
    ["litellm_params.extra_body", { litellm_params: { extra_body: { parallel_tool_calls: false } } }],
    ["http_options.extra_body", { http_options: { extra_body: { parallel_tool_calls: false } } }],
    ["config.http_options.extra_body", { config: { http_options: { extra_body: { parallel_tool_calls: false } } } }],
  ])("parallel_tool_calls false nested in %s, as SDKs and loggers nest what is sent, lets the response make one call", async (named, request) => {
    expect(await gateLines([exchange(request)])).toEqual({
      code: 1,
      lines: [
        ["get_forecast", "ok", []],
        ["get_forecast", "ok", [`"get_forecast" is not allowed: ${named}.parallel_tool_calls false in the request of line 1 lets its response make one call, and this is call 2 of it`]],
      ],
    });
  });

  test("parallel_tool_calls true in extra_body, or other fields there, leave both calls to run", async () => {
    for (const extra of [{ parallel_tool_calls: true }, { reasoning_effort: "low" }]) {
      expect(await gateLines([exchange({ extra_body: extra })])).toEqual({ code: 0, lines: [["get_forecast", "ok", []], ["get_forecast", "ok", []]] });
    }
  });
});

describe("a Gemini body's config.http_options.extra_body, which google-genai merges into the request", { timeout: 30_000 }, () => {
  test("a toolConfig there allows no function", async () => {
    const request = {
      contents: [{ role: "user", parts: [{ text: "Rain in Lyon?" }] }],
      config: { tools: [{ functionDeclarations: [{ name: "get_forecast", parametersJsonSchema: forecastSchema }] }], http_options: { extra_body: { toolConfig: { functionCallingConfig: { mode: "NONE" } } } } },
    };
    const response = { candidates: [{ content: { role: "model", parts: [{ functionCall: { id: "fc_1", name: "get_forecast", args: { city: "Lyon" } } }] }, finishReason: "STOP" }], responseId: "resp_1", modelVersion: "gemini-2.5-flash" };
    expect(await gateLines([{ request, response }])).toEqual({
      code: 1,
      lines: [
        "line 1: config.http_options.extra_body.toolConfig of the Gemini request cannot be read: toolConfig in extra_body limits the calls of the request the SDK sends: Gemini passes it over there, the SDK sending the body merges extra_body into the request and the API reads it",
        ["get_forecast", "ok", ['"get_forecast" is not allowed: config.http_options.extra_body.toolConfig of line 1 cannot all be read, so it allows no function']],
      ],
    });
  });
});
