import { describe, expect, test } from "vitest";
import { joinStepLosses } from "../../src/journal/two-step-losses.js";

const anthropic = { slug: "anthropic", responseFields: { output: "/content", usage: "/usage", created_at: "/created" } };
const bedrock = { slug: "bedrock", responseFields: { output: "/output/message/content" } };

describe("the second step's losses, at the source's fields", () => {
  test("two losses inside one container field are two losses at that field", () => {
    const second = [
      { path: "/output/0/content/0/annotations", code: "unsupported_field" as const, detail: "the citations of the first text" },
      { path: "/output/1/content/0/annotations", code: "unsupported_field" as const, detail: "the citations of the second text" },
    ];
    expect(joinStepLosses({ source: anthropic, target: bedrock, first: [], second, written: {} })).toEqual([
      { path: "/content", code: "unsupported_field", detail: "the citations of the first text" },
      { path: "/content", code: "unsupported_field", detail: "the citations of the second text" },
    ]);
  });

  test("one whole field said twice, as the source's own field and as the response's, is said once", () => {
    const second = [
      { path: "/created_at", code: "form_changed" as const, detail: "created_at written as a date" },
      { path: "/anthropic:created", code: "form_changed" as const, detail: "anthropic:created is not written" },
    ];
    expect(joinStepLosses({ source: anthropic, target: bedrock, first: [], second, written: {} })).toEqual([{ path: "/created", code: "form_changed", detail: "created_at written as a date" }]);
  });
});

describe("a value both steps synthesized", () => {
  test("is reported once, as the second step wrote it", () => {
    const first = [{ path: "/usage", code: "synthesized" as const, detail: "the response object requires usage and the chat.completion has none: null written" }];
    const second = [{ path: "/usage", code: "synthesized" as const, detail: "no usage: input_tokens 0 and output_tokens 0 written" }];
    const written = { usage: { input_tokens: 0, output_tokens: 0 } };
    expect(joinStepLosses({ source: { responseFields: { usage: "/usage" } }, target: anthropic, first, second, written })).toEqual(second);
  });
});

describe("a value the first step made up for an item, reported where the item stands in the source", () => {
  const chat = { responseFields: { output: "/choices", created_at: "/created" } };
  const detail = 'a tool call without id: call_id "synth_1_4c06f8623e6ec75f" was synthesized; a tool message without tool_call_id that follows answers it';
  const first = [{ path: "/choices/0/message/tool_calls/0", code: "synthesized" as const, detail }];

  test("is reported at the target's items, which hold it", () => {
    const written = { content: [{ type: "tool_use", id: "synth_1_4c06f8623e6ec75f", name: "get_weather", input: {} }] };
    expect(joinStepLosses({ source: chat, target: anthropic, first, second: [], written })).toEqual([{ path: "/content", code: "synthesized", detail }]);
  });

  test("is not reported where the record written holds no items", () => {
    expect(joinStepLosses({ source: chat, target: anthropic, first, second: [], written: {} })).toEqual([]);
  });
});

describe("arguments the first step made the JSON text of an input object", () => {
  const first = [{ path: "/output/0/arguments", code: "synthesized" as const, detail: "input is an object, not a text" }];
  const written = { output: { message: { content: [{ toolUse: { toolUseId: "toolu_01", name: "f", input: { a: 1 } } }] } } };

  test("are not reported where the target holds arguments as an object too, and what the second step says of them is", () => {
    const second = [{ path: "/output/0/arguments", code: "form_changed" as const, detail: "the input object is spelled otherwise" }];
    expect(joinStepLosses({ source: anthropic, target: { ...bedrock, argumentsAsObjects: true }, first, second, written })).toEqual([{ path: "/content", code: "form_changed", detail: "the input object is spelled otherwise" }]);
  });

  test("are reported where the target holds their text", () => {
    const chat = { responseFields: { output: "/choices" } };
    expect(joinStepLosses({ source: anthropic, target: chat, first, second: [], written: { choices: [] } })).toEqual([{ path: "/choices", code: "synthesized", detail: "input is an object, not a text" }]);
  });
});
