// The Zod models and the official schema (the project's copy of its structure)
// must give the same answer on every item, valid and invalid: that is what keeps
// the models true to the spec. Each case also states the expected answer, so a
// model and a schema that drift together still fail.
import { describe, expect, test } from "vitest";
import { itemParamSchema, createResponseBodySchema, responseResourceSchema, itemFieldSchema, functionToolParamSchema, toolChoiceParamSchema } from "../../src/models/open-responses.js";
import { isValidAgainstSpec } from "../support/spec-validator.js";

type Case = [label: string, valid: boolean, item: unknown];

const call = { type: "function_call", call_id: "call_123", name: "get_latest_sales_report", arguments: "{\"region\":\"apac\"}" };
const output = { type: "function_call_output", call_id: "call_123", output: "sales report for apac" };
const long = (n: number) => "x".repeat(n);

const itemParamCases: Case[] = [
  // item_reference
  ["item_reference with type", true, { type: "item_reference", id: "msg_1" }],
  ["item_reference without type", true, { id: "msg_1" }],
  ["item_reference with null type", true, { type: null, id: "msg_1" }],
  ["item_reference without id", false, { type: "item_reference" }],
  ["item_reference with numeric id", false, { type: "item_reference", id: 7 }],
  // reasoning
  ["reasoning with summary", true, { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "thinking about the plan" }], encrypted_content: "gAAA" }],
  ["reasoning with empty summary and null id", true, { type: "reasoning", id: null, summary: [] }],
  ["reasoning without summary", false, { type: "reasoning", id: "rs_1" }],
  ["reasoning with an input_text summary part", false, { type: "reasoning", summary: [{ type: "input_text", text: "no" }] }],
  ["reasoning with non-null content", false, { type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "t" }] }],
  // compaction
  ["compaction", true, { type: "compaction", id: "cmp_1", encrypted_content: "opaque" }],
  ["compaction without encrypted_content", false, { type: "compaction", id: "cmp_1" }],
  // user message
  ["user message with string content", true, { type: "message", role: "user", content: "How did apac do?" }],
  ["user message with text, image and file parts", true, { type: "message", role: "user", content: [{ type: "input_text", text: "see" }, { type: "input_image", image_url: "https://example.com/a.png" }, { type: "input_file", file_url: "https://example.com/a.pdf", filename: "a.pdf" }] }],
  ["user message with image detail", true, { type: "message", role: "user", content: [{ type: "input_image", image_url: "https://example.com/a.png", detail: "low" }] }],
  ["user message with a bad image detail", false, { type: "message", role: "user", content: [{ type: "input_image", image_url: "u", detail: "medium" }] }],
  ["user message with an output_text part", false, { type: "message", role: "user", content: [{ type: "output_text", text: "no" }] }],
  ["user message without content", false, { type: "message", role: "user" }],
  ["user message with numeric content", false, { type: "message", role: "user", content: 5 }],
  ["user message with status and id", true, { type: "message", role: "user", id: "msg_1", status: "completed", content: "hi" }],
  ["user message over the text limit", false, { type: "message", role: "user", content: long(10_485_761) }],
  // system and developer messages
  ["system message with string content", true, { type: "message", role: "system", content: "Answer briefly." }],
  ["system message with an input_text part", true, { type: "message", role: "system", content: [{ type: "input_text", text: "Answer briefly." }] }],
  ["system message with an image part", false, { type: "message", role: "system", content: [{ type: "input_image", image_url: "u" }] }],
  ["developer message", true, { type: "message", role: "developer", content: "Use the tools." }],
  ["developer message with an output_text part", false, { type: "message", role: "developer", content: [{ type: "output_text", text: "x" }] }],
  ["message with an unknown role", false, { type: "message", role: "tool", content: "x" }],
  // assistant message
  ["assistant message with string content", true, { type: "message", role: "assistant", content: "APAC grew." }],
  ["assistant message with output_text and refusal parts", true, { type: "message", role: "assistant", content: [{ type: "output_text", text: "APAC grew.", annotations: [] }, { type: "refusal", refusal: "I cannot share that." }] }],
  ["assistant message with a url citation", true, { type: "message", role: "assistant", content: [{ type: "output_text", text: "See the report.", annotations: [{ type: "url_citation", start_index: 0, end_index: 3, url: "https://example.com", title: "Report" }] }] }],
  ["assistant message with a citation missing its title", false, { type: "message", role: "assistant", content: [{ type: "output_text", text: "See.", annotations: [{ type: "url_citation", start_index: 0, end_index: 3, url: "https://example.com" }] }] }],
  ["assistant message with a negative citation index", false, { type: "message", role: "assistant", content: [{ type: "output_text", text: "See.", annotations: [{ type: "url_citation", start_index: -1, end_index: 3, url: "u", title: "t" }] }] }],
  ["assistant message with phase", true, { type: "message", role: "assistant", phase: "commentary", content: "Checking." }],
  ["assistant message with an unknown phase", false, { type: "message", role: "assistant", phase: "draft", content: "Checking." }],
  ["assistant message with an input_text part", false, { type: "message", role: "assistant", content: [{ type: "input_text", text: "x" }] }],
  // function_call
  ["function_call", true, call],
  ["function_call with id and status", true, { ...call, id: "fc_001", status: "completed" }],
  ["function_call with null status", true, { ...call, status: null }],
  ["function_call with empty arguments", true, { ...call, arguments: "" }],
  ["function_call with a provider field", true, { ...call, provider_extra: { any: "thing" } }],
  ["function_call without call_id", false, { type: "function_call", name: "n", arguments: "{}" }],
  ["function_call with empty call_id", false, { ...call, call_id: "" }],
  ["function_call with a 65-character call_id", false, { ...call, call_id: long(65) }],
  ["function_call with a 64-character call_id", true, { ...call, call_id: long(64) }],
  ["function_call with a dotted name", false, { ...call, name: "sales.report" }],
  ["function_call with an empty name", false, { ...call, name: "" }],
  ["function_call with object arguments", false, { ...call, arguments: { region: "apac" } }],
  ["function_call without arguments", false, { type: "function_call", call_id: "c", name: "n" }],
  ["function_call with an unknown status", false, { ...call, status: "done" }],
  // function_call_output
  ["function_call_output with string output", true, output],
  ["function_call_output with parts", true, { ...output, output: [{ type: "input_text", text: "report" }, { type: "input_image", image_url: "https://example.com/chart.png" }, { type: "input_video", video_url: "https://example.com/v.mp4" }] }],
  ["function_call_output with empty string output", true, { ...output, output: "" }],
  ["function_call_output with an output_text part", false, { ...output, output: [{ type: "output_text", text: "x" }] }],
  ["function_call_output without call_id", false, { type: "function_call_output", output: "x" }],
  ["function_call_output with object output", false, { ...output, output: { text: "x" } }],
  ["function_call_output with a video part missing its url", false, { ...output, output: [{ type: "input_video" }] }],
  // not items at all
  ["an extension item is no ItemParam", false, { type: "openai:web_search_call", id: "ws_001", status: "completed" }],
  ["an unknown type", false, { type: "web_search_call", id: "ws_001" }],
  ["an array", false, [call]],
  ["a string", false, "function_call"],
  ["null", false, null],
];

function agree(component: string, zodValid: boolean, value: unknown, expected: boolean) {
  expect({ zod: zodValid, spec: isValidAgainstSpec(component, value) }).toEqual({ zod: expected, spec: expected });
}

describe("ItemParam: Zod model and official schema agree", () => {
  test("covers every ItemParam member, valid and invalid", () => {
    expect(itemParamCases.length).toBeGreaterThanOrEqual(40);
  });
  test.each(itemParamCases)("%s (valid: %s)", (_label, valid, item) => {
    agree("ItemParam", itemParamSchema.safeParse(item).success, item, valid);
  });
});

const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
const response = {
  id: "resp_1", object: "response", created_at: 1_741_476_777, completed_at: 1_741_476_778, status: "completed", incomplete_details: null,
  model: "gpt-4o", previous_response_id: null, instructions: null,
  output: [{ type: "function_call", id: "fc_001", call_id: "call_123", name: "get_latest_sales_report", arguments: "{}", status: "completed" }],
  error: null, tools: [{ type: "function", name: "get_latest_sales_report", description: null, parameters: { type: "object" }, strict: true }],
  tool_choice: "auto", truncation: "disabled", parallel_tool_calls: true, text: { format: { type: "text" } }, top_p: 1, presence_penalty: 0,
  frequency_penalty: 0, top_logprobs: 0, temperature: 1, reasoning: null, usage, max_output_tokens: null, max_tool_calls: null, store: true,
  background: false, service_tier: "default", metadata: {}, safety_identifier: null, prompt_cache_key: null,
};

const otherCases: Array<[label: string, component: string, schema: { safeParse(v: unknown): { success: boolean } }, valid: boolean, value: unknown]> = [
  ["request body with string input", "CreateResponseBody", createResponseBodySchema, true, { model: "gpt-4o", input: "hello" }],
  ["request body with items and tools", "CreateResponseBody", createResponseBodySchema, true, { model: "gpt-4o", input: [call, output], tools: [{ type: "function", name: "get_latest_sales_report", parameters: { type: "object" } }], tool_choice: { type: "allowed_tools", tools: [{ type: "function", name: "get_latest_sales_report" }], mode: "auto" } }],
  ["request body with max_output_tokens under 16", "CreateResponseBody", createResponseBodySchema, false, { input: "hi", max_output_tokens: 8 }],
  ["request body with 17 metadata keys", "CreateResponseBody", createResponseBodySchema, false, { metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"])) }],
  ["request body with an empty allowed_tools list", "CreateResponseBody", createResponseBodySchema, false, { tool_choice: { type: "allowed_tools", tools: [] } }],
  ["response resource", "ResponseResource", responseResourceSchema, true, response],
  ["response resource without usage field", "ResponseResource", responseResourceSchema, false, { ...response, usage: undefined }],
  ["output message item", "ItemField", itemFieldSchema, true, { type: "message", id: "msg_1", status: "completed", role: "assistant", content: [{ type: "output_text", text: "hi", annotations: [] }] }],
  ["output message item without status", "ItemField", itemFieldSchema, false, { type: "message", id: "msg_1", role: "assistant", content: [] }],
  ["output function_call without id", "ItemField", itemFieldSchema, false, { ...call, status: "completed" }],
  ["function tool", "FunctionToolParam", functionToolParamSchema, true, { type: "function", name: "lookup", description: null, parameters: null, strict: true }],
  ["function tool with a spaced name", "FunctionToolParam", functionToolParamSchema, false, { type: "function", name: "look up" }],
  ["tool choice mode", "ToolChoiceParam", toolChoiceParamSchema, true, "required"],
  ["tool choice of an unknown mode", "ToolChoiceParam", toolChoiceParamSchema, false, "sometimes"],
];

describe("other components: Zod model and official schema agree", () => {
  test.each(otherCases)("%s", (_label, component, schema, valid, value) => {
    const clean = value !== null && typeof value === "object" ? JSON.parse(JSON.stringify(value)) : value;
    agree(component, schema.safeParse(clean).success, clean, valid);
  });
});
