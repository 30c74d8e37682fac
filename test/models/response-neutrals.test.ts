// The response object a completion gives: what the spec requires and the
// completion lacks is synthesized and reported at its path, never passed off
// as the completion's.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { completeResponse, RESPONSE_FIELDS, SYNTHESIZED_RESPONSE_VALUES } from "../../src/models/response-neutrals.js";
import { specErrors } from "../support/spec-validator.js";

const components = JSON.parse(readFileSync("src/models/spec/open-responses.components.json", "utf8")).components.schemas;
const fromCompletion = {
  id: "chatcmpl-BSzq8iJ3TnGdb3BbiaBvkSIN9qV2l",
  object: "response",
  created_at: 1745960900,
  status: "completed",
  incomplete_details: null,
  model: "gpt-4o-2024-08-06",
  output: [],
};

describe("the fields of a response object", () => {
  test("are the spec's required fields, in its order", () => {
    expect(RESPONSE_FIELDS).toEqual(components.ResponseResource.required);
  });
});

describe("completeResponse, from what a chat.completion gives", () => {
  test("writes the given fields and synthesizes the rest, each reported at its path", () => {
    const { value, losses } = completeResponse(fromCompletion, "chat.completion");
    expect(Object.keys(value)).toEqual([...RESPONSE_FIELDS]);
    expect(specErrors("ResponseResource", value)).toEqual([]);
    const synthesized = RESPONSE_FIELDS.filter((field) => field in SYNTHESIZED_RESPONSE_VALUES).map((field) => [field, SYNTHESIZED_RESPONSE_VALUES[field as keyof typeof SYNTHESIZED_RESPONSE_VALUES]] as const);
    expect(losses).toEqual(
      synthesized.map(([field, written]) => ({
        path: `/${field}`,
        code: "synthesized",
        detail: `the response object requires ${field} and the chat.completion has none: ${JSON.stringify(written)} written`,
      })),
    );
    expect(losses.map((loss) => loss.path)).toEqual(RESPONSE_FIELDS.filter((field) => !(field in fromCompletion)).map((field) => `/${field}`));
  });

  test("a field the completion gives is written as it is and not reported, even when it equals the synthesized value", () => {
    const usage = { input_tokens: 3, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 4 };
    const { value, losses } = completeResponse({ ...fromCompletion, usage, service_tier: "default" }, "chat.completion");
    expect([value.usage, value.service_tier]).toEqual([usage, "default"]);
    expect(losses.map((loss) => loss.path)).not.toContain("/usage");
    expect(losses.map((loss) => loss.path)).not.toContain("/service_tier");
  });

  test("two responses never share a synthesized object", () => {
    const first = completeResponse(fromCompletion, "chat.completion").value;
    (first.tools as unknown[]).push({ type: "function" });
    expect(completeResponse(fromCompletion, "chat.completion").value.tools).toEqual([]);
  });

  test("a field only the source can give is never invented", () => {
    const { id: _id, ...withoutId } = fromCompletion;
    expect(() => completeResponse(withoutId, "chat.completion")).toThrow("a response object needs its id, which only the source can give");
  });
});
