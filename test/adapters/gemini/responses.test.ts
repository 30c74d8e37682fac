// GenerateContentResponse ⇄ response object: finishReason, several candidates,
// a blocked prompt, usage.
import { describe, expect, test } from "vitest";
import { synthesizedCallId } from "../../../adapters/gemini/call-ids.js";
import { generateContentToResponse, outputItemId } from "../../../adapters/gemini/generate-content-to-response.js";
import { responseToGenerateContent } from "../../../adapters/gemini/response-to-generate-content.js";

const ID = "N1xeaOK1DJiTz7IP0tuo8Q4";
const call = { functionCall: { args: { region: "apac" }, name: "get_latest_sales_report" } };
const response = (candidates: unknown[], extra: Record<string, unknown> = {}) => ({ candidates, modelVersion: "gemini-2.0-flash", responseId: ID, ...extra });
const pick = (value: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((key) => [key, value[key]]));

describe("finishReason", () => {
  test("STOP completes the response and its call", () => {
    const { value } = generateContentToResponse({ response: response([{ content: { parts: [call], role: "model" }, finishReason: "STOP", index: 0 }]) });
    expect(pick(value, ["status", "incomplete_details", "output"])).toEqual({
      status: "completed",
      incomplete_details: null,
      output: [{ id: outputItemId(ID, 0, "function_call"), type: "function_call", call_id: synthesizedCallId(1, "get_latest_sales_report", '{"region":"apac"}'), name: "get_latest_sales_report", arguments: '{"region":"apac"}', status: "completed" }],
    });
  });

  test("MAX_TOKENS leaves the call it cut incomplete", () => {
    const { value } = generateContentToResponse({ response: response([{ content: { parts: [{ text: "Saving." }, call], role: "model" }, finishReason: "MAX_TOKENS", index: 0 }]) });
    expect(value.status).toBe("incomplete");
    expect(value.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(value.output.map((item) => [item.type, (item as { status?: string }).status])).toEqual([
      ["message", "completed"],
      ["function_call", "incomplete"],
    ]);
  });

  test("SAFETY with an empty content gives no output, a content_filter, the finishReason kept in its candidate", () => {
    const candidate = { content: {}, finishReason: "SAFETY", safetyRatings: [{ blocked: true, category: "HARM_CATEGORY_HATE_SPEECH", probability: "LOW" }] };
    const { value } = generateContentToResponse({ response: response([candidate]) });
    expect(pick(value, ["status", "incomplete_details", "output", "gemini:candidates"])).toEqual({ status: "incomplete", incomplete_details: { reason: "content_filter" }, output: [], "gemini:candidates": [candidate] });
  });

  test("MALFORMED_FUNCTION_CALL leaves every call of its candidate incomplete", () => {
    const { value } = generateContentToResponse({ response: response([{ content: { parts: [call, call], role: "model" }, finishReason: "MALFORMED_FUNCTION_CALL" }]) });
    expect(value.output.map((item) => (item as { status?: string }).status)).toEqual(["incomplete", "incomplete"]);
  });
});

describe("finishReason as the enum's number, as the API answers a Go client that asks for numbered enums", () => {
  // Shaped as langchaingo's recorded Gemini answer: "finishReason": 1, numbered safety categories.
  const statuses = (finishReason: unknown) =>
    generateContentToResponse({
      response: response([{ content: { parts: [{ functionCall: { name: "calculate", args: { expression: "15 * 7" } } }], role: "model" }, finishReason, safetyRatings: [{ category: 8, probability: 1 }], avgLogprobs: -3.0261813662946224e-5 }]),
    }).value;

  test("1 is STOP: the response and its call are completed", () => {
    const value = statuses(1);
    expect([value.status, value.incomplete_details, value.output.map((item) => (item as { status?: string }).status)]).toEqual(["completed", null, ["completed"]]);
  });

  test("2 is MAX_TOKENS, and a number neither API names alike still says the candidate finished, not as STOP: the call is incomplete", () => {
    expect([2, 9].map((finishReason) => [statuses(finishReason).status, statuses(finishReason).incomplete_details, statuses(finishReason).output.map((item) => (item as { status?: string }).status)])).toEqual([
      ["incomplete", { reason: "max_output_tokens" }, ["incomplete"]],
      ["incomplete", { reason: "finishReason 9" }, ["incomplete"]],
    ]);
  });
});

describe("finishReason in both spellings", () => {
  const statuses = (candidate: Record<string, unknown>) => generateContentToResponse({ response: response([{ content: { parts: [call], role: "model" }, ...candidate }]) });

  test("finish_reason alone, as the Python SDK's dumps write it, is read as finishReason", () => {
    expect(statuses({ finish_reason: "STOP" }).value.output.map((item) => (item as { status?: string }).status)).toEqual(["completed"]);
    expect(statuses({ finish_reason: "MALFORMED_FUNCTION_CALL" }).value.output.map((item) => (item as { status?: string }).status)).toEqual(["incomplete"]);
  });

  test("two values: the one that does not complete the calls is taken, whichever spelling says it, and reported", () => {
    for (const [camel, snake, status] of [
      ["STOP", "MAX_TOKENS", "incomplete"],
      ["MAX_TOKENS", "STOP", "incomplete"],
      ["STOP", "SAFETY", "incomplete"],
      ["STOP", null, "in_progress"],
      [null, "STOP", "in_progress"],
    ] as const) {
      const { value, losses } = statuses({ finishReason: camel, finish_reason: snake });
      expect(value.output.map((item) => (item as { status?: string }).status)).toEqual([status]);
      expect(losses).toContainEqual(expect.objectContaining({ path: "/candidates/0/finish_reason", code: "form_changed" }));
    }
    // The same value twice says one thing.
    const same = statuses({ finishReason: "STOP", finish_reason: "STOP" });
    expect(same.value.output.map((item) => (item as { status?: string }).status)).toEqual(["completed"]);
    expect(same.losses.filter((loss) => loss.path.endsWith("finish_reason"))).toEqual([]);
  });
});

describe("a response object without a finishReason of its own", () => {
  test("failed or cancelled: no finishReason is written, and that, and each item status dropped, is reported", () => {
    for (const status of ["failed", "cancelled"]) {
      const item = { type: "function_call", call_id: "call_1", name: "get_latest_sales_report", arguments: '{"region":"apac"}', status: "completed" };
      const converted = responseToGenerateContent({ response: { id: "resp_1", object: "response", created_at: 1, status, model: "gemini-2.0-flash", output: [item] } as never });
      expect((converted.value.candidates as Array<Record<string, unknown>>)[0]!.finishReason).toBeUndefined();
      expect(converted.losses).toEqual(
        expect.arrayContaining([
          { path: "/status", code: "form_changed", detail: `status "${status}" has no finishReason: none written, so the candidate reads unfinished` },
          { path: "/output/0/status", code: "form_changed", detail: `status "completed" is not written: the response is "${status}", which Gemini has no finishReason for, so the item reads unfinished` },
        ]),
      );
    }
    // Still streaming is what no finishReason says: nothing to report.
    const streaming = responseToGenerateContent({ response: { id: "resp_1", object: "response", created_at: 1, status: "in_progress", model: "gemini-2.0-flash", output: [] } as never });
    expect(streaming.losses.filter((loss) => loss.path === "/status")).toEqual([]);
  });
});

describe("a blocked prompt", () => {
  test("is a response with no output, incomplete by a content_filter, promptFeedback kept", () => {
    const blocked = { promptFeedback: { blockReason: "PROHIBITED_CONTENT" }, usageMetadata: { promptTokenCount: 10, totalTokenCount: 10 }, responseId: ID, modelVersion: "gemini-2.5-flash" };
    const converted = generateContentToResponse({ response: blocked });
    expect(pick(converted.value, ["status", "incomplete_details", "output", "gemini:promptFeedback"])).toEqual({
      status: "incomplete",
      incomplete_details: { reason: "content_filter" },
      output: [],
      "gemini:promptFeedback": { blockReason: "PROHIBITED_CONTENT" },
    });
    expect(responseToGenerateContent({ response: converted.value })).toEqual({ value: blocked, losses: [] });
  });
});

describe("several candidates", () => {
  const two = response([
    { content: { parts: [{ text: "Not ready yet." }], role: "model" }, finishReason: "STOP", index: 0 },
    { content: { parts: [call], role: "model" }, finishReason: "STOP", index: 1 },
  ]);

  test("each is read, its items marked with its index, and the choice reported", () => {
    const converted = generateContentToResponse({ response: two });
    expect(converted.value.output.map((item) => [item.type, (item as Record<string, unknown>)["gemini:candidate"]])).toEqual([
      ["message", 0],
      ["function_call", 1],
    ]);
    expect(converted.losses.filter((loss) => loss.path === "/candidates")).toEqual([
      { path: "/candidates", code: "form_changed", detail: "2 candidates are alternatives: the output holds each one's items in turn, marked gemini:candidate, so that a call in any of them is gated" },
    ]);
  });

  test("come back as the candidates they were", () => {
    expect(responseToGenerateContent({ response: generateContentToResponse({ response: two }).value })).toEqual({ value: two, losses: [] });
  });
});

describe("usage", () => {
  test("thoughts count as output and reasoning tokens, cached content as cached tokens", () => {
    const usageMetadata = { cachedContentTokenCount: 20, candidatesTokenCount: 36, promptTokenCount: 97, thoughtsTokenCount: 164, totalTokenCount: 297 };
    const { value } = generateContentToResponse({ response: response([], { usageMetadata }) });
    expect(value.usage).toEqual({ input_tokens: 97, output_tokens: 200, total_tokens: 297, input_tokens_details: { cached_tokens: 20 }, output_tokens_details: { reasoning_tokens: 164 } });
  });
});

describe("a response object of another provider", () => {
  test("becomes one candidate whose finishReason its status gives", () => {
    const resource = {
      ...generateContentToResponse({ response: response([]) }).value,
      id: "resp_1",
      status: "completed",
      output: [{ id: "msg_1", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Hello.", annotations: [] }] }],
      "gemini:candidates": undefined,
    };
    const converted = responseToGenerateContent({ response: resource as never });
    expect(converted.value.candidates).toEqual([{ content: { parts: [{ text: "Hello." }], role: "model" }, finishReason: "STOP", index: 0 }]);
  });

  test("its creation time becomes createTime, or a loss when no RFC 3339 text can write it", () => {
    const resource = (createdAt: number) => ({ ...generateContentToResponse({ response: response([]) }).value, id: "resp_1", created_at: createdAt, "gemini:candidates": undefined });
    expect(responseToGenerateContent({ response: resource(1_767_225_760) as never }).value.createTime).toBe("2026-01-01T00:02:40.000Z");
    for (const createdAt of [1_767_225_760_000, 9e12]) {
      const converted = responseToGenerateContent({ response: resource(createdAt) as never });
      expect([converted.value.createTime, converted.losses.filter((loss) => loss.path === "/created_at")]).toEqual([
        undefined,
        [{ path: "/created_at", code: "unsupported_field", detail: `created_at ${createdAt} is no time an RFC 3339 timestamp can write (years 0000 to 9999): createTime is not written` }],
      ]);
    }
  });
});
