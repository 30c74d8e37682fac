// Behaviours of the two message converters that the golden cases do not pin:
// the edges of blocks, grouping, ids, arguments, cache points and opaque values.
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { CallIds } from "../../../adapters/bedrock/call-ids.js";
import { itemsToMessages } from "../../../adapters/bedrock/items-to-messages.js";
import { messagesToItems } from "../../../adapters/bedrock/messages-to-items.js";
import type { BedrockMessage } from "../../../adapters/bedrock/models.js";
import type { CanonicalItem } from "../../../src/models/open-responses.js";

const messages = (value: unknown[]) => value as BedrockMessage[];
const items = (value: unknown[]) => value as CanonicalItem[];
const call = (callId: string, args = '{"city":"Oslo"}') => ({ type: "function_call", call_id: callId, name: "get_weather", arguments: args, status: "completed" });
const output = (callId: string, text = "rain, 9 C") => ({ type: "function_call_output", call_id: callId, output: text });
const hex = (id: string, length = 8) => createHash("sha256").update(id).digest("hex").slice(0, length);

describe("messagesToItems, user messages", () => {
  test("one text block alone is a string, several are parts", () => {
    expect(messagesToItems({ messages: messages([{ role: "user", content: [{ text: "Is it raining?" }] }, { role: "user", content: [{ text: "In Oslo" }, { text: "today." }] }]) })).toEqual({
      value: [
        { type: "message", role: "user", content: "Is it raining?" },
        { type: "message", role: "user", content: [{ type: "input_text", text: "In Oslo" }, { type: "input_text", text: "today." }] },
      ],
      losses: [],
    });
  });

  test("toolResult blocks become outputs where they stand, with their status under the slug", () => {
    const converted = messagesToItems({
      messages: messages([
        {
          role: "user",
          content: [
            { toolResult: { toolUseId: "tooluse_A", content: [{ text: "rain" }], status: "success" } },
            { toolResult: { toolUseId: "tooluse_B", content: [{ text: "no such city" }], status: "error" } },
            { text: "And tomorrow?" },
          ],
        },
      ]),
    });
    expect(converted).toEqual({
      value: [
        { type: "function_call_output", call_id: "tooluse_A", output: "rain", "bedrock:status": "success" },
        { type: "function_call_output", call_id: "tooluse_B", output: "no such city", "bedrock:status": "error" },
        { type: "message", role: "user", content: "And tomorrow?" },
      ],
      losses: [],
    });
  });

  test("json result content becomes a text part holding its JSON, members in the order given", () => {
    const converted = messagesToItems({ messages: messages([{ role: "user", content: [{ toolResult: { toolUseId: "tooluse_A", content: [{ json: { zone: "CET", hour: 9 } }] } }] }]) });
    expect(converted.value).toEqual([{ type: "function_call_output", call_id: "tooluse_A", output: [{ type: "input_text", text: '{"zone":"CET","hour":9}', "bedrock:json": true }] }]);
  });

  test("a cachePoint rides on the part before it", () => {
    const converted = messagesToItems({ messages: messages([{ role: "user", content: [{ text: "A long brief." }, { cachePoint: { type: "default" } }] }]) });
    expect(converted).toEqual({
      value: [{ type: "message", role: "user", content: [{ type: "input_text", text: "A long brief.", "bedrock:cachePoint": { type: "default" } }] }],
      losses: [],
    });
  });

  test("a cachePoint that follows nothing is reported", () => {
    expect(messagesToItems({ messages: messages([{ role: "user", content: [{ cachePoint: { type: "default" } }, { text: "Hi" }] }]) })).toEqual({
      value: [{ type: "message", role: "user", content: "Hi" }],
      losses: [{ path: "/messages/0/content/0", code: "unsupported_part", detail: "a cachePoint that follows no content it could mark is not kept" }],
    });
  });

  test("an image from s3 has no part, reported", () => {
    const converted = messagesToItems({ messages: messages([{ role: "user", content: [{ image: { format: "png", source: { s3Location: { uri: "s3://bucket/a.png" } } } }, { text: "What is this?" }] }]) });
    expect(converted).toEqual({
      value: [{ type: "message", role: "user", content: "What is this?" }],
      losses: [{ path: "/messages/0/content/0/image", code: "unsupported_part", detail: "an image not given by its bytes (an s3Location) has no input_image form" }],
    });
  });

  test("a toolUse in a user message is reported", () => {
    const converted = messagesToItems({ messages: messages([{ role: "user", content: [{ toolUse: { toolUseId: "tooluse_A", name: "f", input: {} } }] }]) });
    expect(converted).toEqual({ value: [], losses: [{ path: "/messages/0/content/0", code: "unsupported_part", detail: "a toolUse block belongs to an assistant message, not a user message" }] });
  });
});

describe("messagesToItems, assistant messages", () => {
  test("text beside calls is kept, ids and input copied exactly", () => {
    const converted = messagesToItems({
      messages: messages([{ role: "assistant", content: [{ text: "Checking both." }, { toolUse: { toolUseId: "tooluse_A", name: "get_weather", input: { city: "Oslo", days: 2 } } }, { toolUse: { toolUseId: "tooluse_B", name: "get_weather", input: {} } }] }]),
    });
    expect(converted).toEqual({
      value: [
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Checking both.", annotations: [] }] },
        { type: "function_call", call_id: "tooluse_A", name: "get_weather", arguments: '{"city":"Oslo","days":2}', status: "completed" },
        { type: "function_call", call_id: "tooluse_B", name: "get_weather", arguments: "{}", status: "completed" },
      ],
      losses: [],
    });
  });

  test("reasoning without a signature has no encrypted_content, and keeps its provenance", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: [{ reasoningContent: { reasoningText: { text: "Short." } } }, { text: "Done." }] }]), model: "openai.gpt-oss-120b-1:0" });
    expect(converted.value).toEqual([
      { type: "reasoning", summary: [{ type: "summary_text", text: "Short." }], provenance: { envelope: "bedrock", block: "reasoningText", model: "openai.gpt-oss-120b-1:0" } },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Done.", annotations: [] }] },
    ]);
  });

  test("a call that ends a max_tokens response is incomplete, the one before it completed", () => {
    const converted = messagesToItems({
      messages: messages([{ role: "assistant", content: [{ toolUse: { toolUseId: "tooluse_A", name: "f", input: {} } }, { toolUse: { toolUseId: "tooluse_B", name: "f", input: {} } }] }]),
      stopReason: "max_tokens",
    });
    expect(converted.value.map((item) => (item as { status?: string }).status)).toEqual(["completed", "incomplete"]);
  });

  test("a guardrail or content filter leaves every call incomplete", () => {
    for (const stopReason of ["guardrail_intervened", "content_filtered"]) {
      const converted = messagesToItems({ messages: messages([{ role: "assistant", content: [{ toolUse: { toolUseId: "tooluse_A", name: "f", input: {} } }, { text: "…" }] }]), stopReason });
      expect(converted.value[0]).toEqual({ type: "function_call", call_id: "tooluse_A", name: "f", arguments: "{}", status: "incomplete" });
    }
  });

  test("an input that is not an object gives its JSON text as arguments, reported", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: [{ toolUse: { toolUseId: "tooluse_A", name: "f", input: [1, 2] } }] }]) });
    expect(converted).toEqual({
      value: [{ type: "function_call", call_id: "tooluse_A", name: "f", arguments: "[1,2]", status: "completed" }],
      losses: [{ path: "/messages/0/content/0/toolUse/input", code: "form_changed", detail: "input is an array, not an object: its JSON text is the arguments; the gate judges it" }],
    });
  });

  test("a block kind not known here becomes an extension item holding it", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: [{ citationsContent: { content: [{ text: "x" }], citations: [] } }] }]) });
    expect(converted).toEqual({ value: [{ type: "bedrock:citationsContent", citationsContent: { content: [{ text: "x" }], citations: [] } }], losses: [] });
  });
});

describe("itemsToMessages", () => {
  test("parallel calls share one assistant message and their results one user message, in the order given", () => {
    const converted = itemsToMessages({ items: items([{ type: "message", role: "user", content: "Oslo and Rome?" }, call("call_1"), call("call_2", '{"city":"Rome"}'), output("call_1"), output("call_2", "sun")]) });
    expect(converted).toEqual({
      value: {
        messages: [
          { role: "user", content: [{ text: "Oslo and Rome?" }] },
          {
            role: "assistant",
            content: [
              { toolUse: { toolUseId: "call_1", name: "get_weather", input: { city: "Oslo" } } },
              { toolUse: { toolUseId: "call_2", name: "get_weather", input: { city: "Rome" } } },
            ],
          },
          { role: "user", content: [{ toolResult: { toolUseId: "call_1", content: [{ text: "rain, 9 C" }] } }, { toolResult: { toolUseId: "call_2", content: [{ text: "sun" }] } }] },
        ],
      },
      losses: [],
    });
  });

  test("a user message after results joins their message, unreported", () => {
    const converted = itemsToMessages({ items: items([call("call_1"), output("call_1"), { type: "message", role: "user", content: "Thanks." }]) });
    expect(converted.value.messages[1]).toEqual({ role: "user", content: [{ toolResult: { toolUseId: "call_1", content: [{ text: "rain, 9 C" }] } }, { text: "Thanks." }] });
    expect(converted.losses).toEqual([]);
  });

  test("two user messages in a row are joined, reported", () => {
    expect(itemsToMessages({ items: items([{ type: "message", role: "user", content: "Hello." }, { type: "message", role: "user", content: "Anyone there?" }]) })).toEqual({
      value: { messages: [{ role: "user", content: [{ text: "Hello." }, { text: "Anyone there?" }] }] },
      losses: [{ path: "/1", code: "form_changed", detail: "joined with the user message before it: Bedrock Converse wants user and assistant messages to alternate" }],
    });
  });

  test("a system message after the first turn is moved to system, reported", () => {
    expect(itemsToMessages({ items: items([{ type: "message", role: "user", content: "Hi" }, { type: "message", role: "developer", content: "Be brief." }]) })).toEqual({
      value: { system: [{ text: "Be brief." }], messages: [{ role: "user", content: [{ text: "Hi" }] }] },
      losses: [
        { path: "/1/role", code: "form_changed", detail: "Bedrock Converse has no developer role: written as system" },
        { path: "/1", code: "reordered", detail: "Bedrock Converse has no system turn: moved to system, before the messages" },
      ],
    });
  });

  test("an id Bedrock rejects is rewritten the same way for the call and its result, deterministically", () => {
    const id = "functions.get_weather:0";
    const rewritten = `functions_get_weather_0_${hex(id)}`;
    const converted = itemsToMessages({ items: items([call(id), output(id)]) });
    expect(converted.value.messages).toEqual([
      { role: "assistant", content: [{ toolUse: { toolUseId: rewritten, name: "get_weather", input: { city: "Oslo" } } }] },
      { role: "user", content: [{ toolResult: { toolUseId: rewritten, content: [{ text: "rain, 9 C" }] } }] },
    ]);
    expect(converted.losses.map((loss) => [loss.path, loss.code])).toEqual([
      ["/0/call_id", "form_changed"],
      ["/1/call_id", "form_changed"],
    ]);
    expect(itemsToMessages({ items: items([call(id), output(id)]) })).toEqual(converted);
  });

  test("an id longer than 64 characters is cut to fit with its digest", () => {
    const id = `call_${"a".repeat(70)}`;
    const rewritten = new CallIds().toBedrock(id).id;
    expect(rewritten).toBe(`${id.slice(0, 55)}_${hex(id)}`);
    expect(rewritten.length).toBe(64);
  });

  test("a call without call_id gets a synthesized id, which the output without one answers", () => {
    const converted = itemsToMessages({ items: items([{ type: "function_call", name: "f", arguments: "{}" }, { type: "function_call_output", output: "ok" }]) });
    const synthesized = `synth_1_${createHash("sha256").update("f\u0000{}").digest("hex").slice(0, 16)}`;
    expect(converted.value.messages).toEqual([
      { role: "assistant", content: [{ toolUse: { toolUseId: synthesized, name: "f", input: {} } }] },
      { role: "user", content: [{ toolResult: { toolUseId: synthesized, content: [{ text: "ok" }] } }] },
    ]);
    expect(converted.losses.map((loss) => [loss.path, loss.code])).toEqual([
      ["/0", "synthesized"],
      ["/1", "synthesized"],
    ]);
  });

  test("arguments that are not JSON are written as text, reported, never turned into {}", () => {
    const converted = itemsToMessages({ items: items([call("call_1", '{"city": "Os')]) });
    expect(converted).toEqual({
      value: { messages: [{ role: "assistant", content: [{ toolUse: { toolUseId: "call_1", name: "get_weather", input: '{"city": "Os' } }] }] },
      losses: [{ path: "/0/arguments", code: "target_rejects", detail: "arguments that are not JSON cannot be an input object: written as the text it is, which Bedrock rejects" }],
    });
  });

  test("an output that answers no call of the assistant message before it is reported", () => {
    const converted = itemsToMessages({ items: items([{ type: "message", role: "user", content: "Hi" }, output("call_9")]) });
    expect(converted.losses).toEqual([
      { path: "/1/call_id", code: "target_rejects", detail: "answers no call of the assistant message before it: written in place, and Bedrock Converse rejects a toolResult whose toolUse is not in the assistant message before it" },
    ]);
  });

  test("a reasoning item of another provider is reported, its opaque value never forwarded", () => {
    const converted = itemsToMessages({ items: items([{ type: "reasoning", summary: [], encrypted_content: "gAAAA-openai", provenance: { envelope: "anthropic", block: "thinking" } }, { type: "message", role: "assistant", content: "Hi" }]) });
    expect(converted.value).toEqual({ messages: [{ role: "assistant", content: [{ text: "Hi" }] }] });
    expect(converted.losses.map((loss) => [loss.path, loss.code])).toEqual([
      ["/0", "unsupported_item"],
      ["/1/content", "form_changed"],
    ]);
  });

  test("Bedrock reasoning goes back byte for byte, with or without a signature", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "reasoning", summary: [{ type: "summary_text", text: "Think." }], encrypted_content: "EqQBCkgIAR==", provenance: { envelope: "bedrock", block: "reasoningText" } },
        { type: "reasoning", summary: [{ type: "summary_text", text: "More." }], provenance: { envelope: "bedrock", block: "reasoningText" } },
        { type: "reasoning", summary: [], encrypted_content: "RXU4RUNr", provenance: { envelope: "bedrock", block: "redactedContent" } },
      ]),
    });
    expect(converted).toEqual({
      value: {
        messages: [
          {
            role: "assistant",
            content: [
              { reasoningContent: { reasoningText: { text: "Think.", signature: "EqQBCkgIAR==" } } },
              { reasoningContent: { reasoningText: { text: "More." } } },
              { reasoningContent: { redactedContent: "RXU4RUNr" } },
            ],
          },
        ],
      },
      losses: [],
    });
  });

  test("a cache point and a JSON part go back as the blocks they came from", () => {
    const converted = itemsToMessages({
      items: items([
        call("call_1"),
        { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: '{"zone":"CET"}', "bedrock:json": true, "bedrock:cachePoint": { type: "default" } }] },
      ]),
    });
    expect(converted.value.messages[1]).toEqual({ role: "user", content: [{ toolResult: { toolUseId: "call_1", content: [{ json: { zone: "CET" } }, { cachePoint: { type: "default" } }] } }] });
    expect(converted.losses).toEqual([]);
  });

  test("an output of one text part is written as a text result is, reported, since it comes back as text and not as parts", () => {
    const converted = itemsToMessages({ items: items([call("call_1"), { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "rain, 9 C" }] }]) });
    expect(converted.value.messages[1]).toEqual({ role: "user", content: [{ toolResult: { toolUseId: "call_1", content: [{ text: "rain, 9 C" }] } }] });
    expect(converted.losses).toEqual([
      { path: "/1/output", code: "form_changed", detail: "a text part written as one text block, which is how Bedrock Converse writes a text result: it comes back as text, not as parts" },
    ]);
    expect(messagesToItems({ messages: converted.value.messages }).value[1]).toEqual({ type: "function_call_output", call_id: "call_1", output: "rain, 9 C" });
  });

  test("an output of two text parts, or of none, goes there and back as parts, unreported", () => {
    for (const parts of [[{ type: "input_text", text: "rain" }, { type: "input_text", text: "9 C" }], []]) {
      const converted = itemsToMessages({ items: items([call("call_1"), { type: "function_call_output", call_id: "call_1", output: parts }]) });
      expect(converted.losses).toEqual([]);
      expect(messagesToItems({ messages: converted.value.messages }).value[1]).toEqual({ type: "function_call_output", call_id: "call_1", output: parts });
    }
  });

  test("another provider's field on an output is reported, never forwarded", () => {
    const converted = itemsToMessages({ items: items([call("call_1"), { ...output("call_1"), "anthropic:cache_control": { type: "ephemeral" } }]) });
    expect(converted.value.messages[1]).toEqual({ role: "user", content: [{ toolResult: { toolUseId: "call_1", content: [{ text: "rain, 9 C" }] } }] });
    expect(converted.losses).toEqual([{ path: "/1/anthropic:cache_control", code: "provider_extension", detail: '"anthropic:cache_control" is not a field of the portable shape; Bedrock Converse has no place for it' }]);
  });

  test("Anthropic's is_error of an output is the toolResult's status, which says the same; a value of no such meaning is reported", () => {
    for (const [isError, status] of [[true, "error"], [false, "success"]] as const) {
      const converted = itemsToMessages({ items: items([call("call_1"), { ...output("call_1"), "anthropic:is_error": isError }]) });
      expect(converted.value.messages[1]).toEqual({ role: "user", content: [{ toolResult: { toolUseId: "call_1", content: [{ text: "rain, 9 C" }], status } }] });
      expect(converted.losses).toEqual([{ path: "/1/anthropic:is_error", code: "form_changed", detail: `Anthropic's is_error ${isError} written as Bedrock's status "${status}"` }]);
    }
    const odd = itemsToMessages({ items: items([call("call_1"), { ...output("call_1"), "anthropic:is_error": "yes" }]) });
    expect(odd.value.messages[1]).toEqual({ role: "user", content: [{ toolResult: { toolUseId: "call_1", content: [{ text: "rain, 9 C" }] } }] });
    expect(odd.losses.map((loss) => loss.code)).toEqual(["provider_extension"]);
    const own = itemsToMessages({ items: items([call("call_1"), { ...output("call_1"), "bedrock:status": "error", "anthropic:is_error": false }]) });
    expect((own.value.messages[1]!.content[0] as { toolResult: { status?: string } }).toolResult.status).toBe("error");
  });

  test("url citations and logprobs of an assistant text are reported, the text kept", () => {
    const converted = itemsToMessages({
      items: items([{ type: "message", role: "assistant", content: [{ type: "output_text", text: "See the report.", annotations: [{ type: "url_citation", start_index: 0, end_index: 3, url: "https://example.org", title: "" }], logprobs: [{ token: "See", logprob: -0.1, bytes: [], top_logprobs: [] }] }] }]),
    });
    expect(converted).toEqual({
      value: { messages: [{ role: "assistant", content: [{ text: "See the report." }] }] },
      losses: [
        { path: "/0/content/0/annotations", code: "unsupported_field", detail: "Bedrock Converse text has no annotations: 1 not written" },
        { path: "/0/content/0/logprobs", code: "unsupported_field", detail: "Bedrock Converse has no logprobs" },
      ],
    });
  });

  test("an image's detail has no Bedrock field: reported whatever it says, auto included, as the other envelopes report it", () => {
    for (const detail of ["auto", "high"]) {
      const converted = itemsToMessages({ items: items([{ type: "message", role: "user", content: [{ type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=", detail }] }]) });
      expect(converted).toEqual({
        value: { messages: [{ role: "user", content: [{ image: { format: "png", source: { bytes: "iVBORw0KGgo=" } } }] }] },
        losses: [{ path: "/0/content/0/detail", code: "unsupported_field", detail: `Bedrock Converse has no image detail ("${detail}")` }],
      });
    }
  });

  test("an image by URL has no Bedrock block, reported", () => {
    const converted = itemsToMessages({ items: items([{ type: "message", role: "user", content: [{ type: "input_image", image_url: "https://example.org/a.png" }, { type: "input_text", text: "What is it?" }] }]) });
    expect(converted.value.messages).toEqual([{ role: "user", content: [{ text: "What is it?" }] }]);
    // The text left alone reads back as a string.
    expect(converted.losses.map((loss) => [loss.path, loss.code])).toEqual([
      ["/0/content/0", "unsupported_part"],
      ["/0/content", "form_changed"],
    ]);
  });
});
