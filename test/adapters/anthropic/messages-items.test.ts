// Behaviours of the two message converters that the golden cases do not pin:
// the edges of grouping, ids, arguments and opaque values.
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { CallIds } from "../../../adapters/anthropic/call-ids.js";
import { itemsToMessages } from "../../../adapters/anthropic/items-to-messages.js";
import { messagesToItems } from "../../../adapters/anthropic/messages-to-items.js";
import type { AnthropicMessage } from "../../../adapters/anthropic/models.js";
import type { CanonicalItem } from "../../../src/models/open-responses.js";

const messages = (value: unknown[]) => value as AnthropicMessage[];
const items = (value: unknown[]) => value as CanonicalItem[];
const toolUse = (id: string, input: unknown = { city: "Oslo" }) => ({ type: "tool_use", id, name: "get_weather", input });
const call = (callId: string, args = '{"city":"Oslo"}') => ({ type: "function_call", call_id: callId, name: "get_weather", arguments: args, status: "completed" });
const output = (callId: string, text = "rain, 9 C") => ({ type: "function_call_output", call_id: callId, output: text });
const hex = (id: string, length = 8) => createHash("sha256").update(id).digest("hex").slice(0, length);

describe("messagesToItems, user messages", () => {
  test("a string content stays a string", () => {
    expect(messagesToItems({ messages: messages([{ role: "user", content: "Is it raining in Oslo?" }]) })).toEqual({
      value: [{ type: "message", role: "user", content: "Is it raining in Oslo?" }],
      losses: [],
    });
  });

  test("tool_result blocks become outputs where they stand, the user's other blocks messages of their own", () => {
    const converted = messagesToItems({
      messages: messages([
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_01A", content: "rain" },
            { type: "tool_result", tool_use_id: "toolu_01B", content: [{ type: "text", text: "snow" }] },
            { type: "text", text: "And tomorrow?" },
          ],
        },
      ]),
    });
    expect(converted).toEqual({
      value: [
        { type: "function_call_output", call_id: "toolu_01A", output: "rain" },
        { type: "function_call_output", call_id: "toolu_01B", output: [{ type: "input_text", text: "snow" }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "And tomorrow?" }] },
      ],
      losses: [],
    });
  });

  test("is_error and cache_control ride on the output under the slug, a null one too", () => {
    const converted = messagesToItems({
      messages: messages([{ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01A", content: "no such city", is_error: true, cache_control: null }] }]),
    });
    expect(converted.value).toEqual([{ type: "function_call_output", call_id: "toolu_01A", output: "no such city", "anthropic:is_error": true, "anthropic:cache_control": null }]);
  });

  test("a tool_result without content gives an empty output, reported", () => {
    expect(messagesToItems({ messages: messages([{ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01A" }] }]) })).toEqual({
      value: [{ type: "function_call_output", call_id: "toolu_01A", output: "" }],
      losses: [{ path: "/messages/0/content/0", code: "form_changed", detail: "a tool_result without content gives an empty output" }],
    });
  });

  test("a base64 image becomes a data URL, a url image its URL", () => {
    const converted = messagesToItems({
      messages: messages([
        {
          role: "user",
          content: [
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
            { type: "image", source: { type: "url", url: "https://example.org/fjord.jpg" } },
          ],
        },
      ]),
    });
    expect(converted.value).toEqual([
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" },
          { type: "input_image", image_url: "https://example.org/fjord.jpg" },
        ],
      },
    ]);
  });

  test("a plain text document becomes a text/plain data URL and comes back as text", () => {
    const conversation = { messages: messages([{ role: "user", content: [{ type: "document", source: { type: "text", media_type: "text/plain", data: "Fjords are deep." }, title: "Notes" }] }]) };
    const converted = messagesToItems(conversation);
    expect(converted.value).toEqual([
      { type: "message", role: "user", content: [{ type: "input_file", file_data: `data:text/plain;base64,${Buffer.from("Fjords are deep.").toString("base64")}`, "anthropic:title": "Notes" }] },
    ]);
    expect(itemsToMessages({ items: converted.value })).toEqual({ value: conversation, losses: [] });
  });

  test("an image known only by file_id is a loss", () => {
    expect(messagesToItems({ messages: messages([{ role: "user", content: [{ type: "image", source: { type: "file", file_id: "file_011" } }] }]) })).toEqual({
      value: [],
      losses: [{ path: "/messages/0/content/0/source", code: "unsupported_part", detail: 'an image whose source is of type "file" has no input_image form' }],
    });
  });
});

describe("messagesToItems, assistant messages", () => {
  test("a run of text blocks is one message; a call between runs splits it", () => {
    const converted = messagesToItems({
      messages: messages([{ role: "assistant", content: [{ type: "text", text: "One." }, { type: "text", text: "Two." }, toolUse("toolu_01A"), { type: "text", text: "Three." }] }]),
    });
    expect(converted.value).toEqual([
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "One.", annotations: [] }, { type: "output_text", text: "Two.", annotations: [] }] },
      call("toolu_01A"),
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Three.", annotations: [] }] },
    ]);
  });

  test("arguments are JSON.stringify of the input, member order kept", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: [toolUse("toolu_01A", { units: "metric", city: "Oslo", days: [1, 2] })] }]) });
    expect(converted.value).toEqual([call("toolu_01A", '{"units":"metric","city":"Oslo","days":[1,2]}')]);
  });

  test("a string input is taken as the arguments text as it is, reported", () => {
    expect(messagesToItems({ messages: messages([{ role: "assistant", content: [toolUse("toolu_01A", '{"city": "Os')] }]) })).toEqual({
      value: [call("toolu_01A", '{"city": "Os')],
      losses: [{ path: "/messages/0/content/0/input", code: "form_changed", detail: "input is a string, not an object: taken as the arguments text as it is; the gate judges it" }],
    });
  });

  test("caller and cache_control of a tool_use ride on the call under the slug", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: [{ ...toolUse("toolu_01A"), caller: { type: "direct" } }] }]) });
    expect(converted.value).toEqual([{ ...call("toolu_01A"), "anthropic:caller": { type: "direct" } }]);
  });

  test("thinking becomes a reasoning item whose provenance names Anthropic and the model", () => {
    const converted = messagesToItems({
      messages: messages([{ role: "assistant", content: [{ type: "thinking", thinking: "Oslo is the capital.", signature: "EqQBCkYIBxgC" }] }]),
      model: "claude-sonnet-4-5-20250929",
    });
    expect(converted.value).toEqual([
      {
        type: "reasoning",
        summary: [{ type: "summary_text", text: "Oslo is the capital." }],
        encrypted_content: "EqQBCkYIBxgC",
        provenance: { envelope: "anthropic", block: "thinking", model: "claude-sonnet-4-5-20250929" },
      },
    ]);
  });

  test("redacted thinking becomes a reasoning item with no summary", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: [{ type: "redacted_thinking", data: "EmwKAhgBEgy3va3p" }] }]) });
    expect(converted.value).toEqual([{ type: "reasoning", summary: [], encrypted_content: "EmwKAhgBEgy3va3p", provenance: { envelope: "anthropic", block: "redacted_thinking" } }]);
  });

  test("server tool blocks become extension items holding every field, never calls", () => {
    const converted = messagesToItems({
      messages: messages([
        {
          role: "assistant",
          content: [
            { type: "server_tool_use", id: "srvtoolu_01X", name: "web_search", input: { query: "fjords" } },
            { type: "web_search_tool_result", tool_use_id: "srvtoolu_01X", content: [] },
          ],
        },
      ]),
    });
    expect(converted).toEqual({
      value: [
        { type: "anthropic:server_tool_use", id: "srvtoolu_01X", name: "web_search", input: { query: "fjords" } },
        { type: "anthropic:web_search_tool_result", tool_use_id: "srvtoolu_01X", content: [] },
      ],
      losses: [],
    });
  });

  test("a web search citation is kept as written and also gives a url citation over the whole part", () => {
    const citation = { type: "web_search_result_location", cited_text: "Deep fjords.", encrypted_index: "Eo8BCio", title: "Fjords", url: "https://example.org/fjords" };
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: [{ type: "text", text: "Fjords are deep.", citations: [citation] }] }]) });
    expect(converted.value).toEqual([
      {
        type: "message",
        role: "assistant",
        content: [
          {
            type: "output_text",
            text: "Fjords are deep.",
            annotations: [{ type: "url_citation", start_index: 0, end_index: 16, url: "https://example.org/fjords", title: "Fjords" }],
            "anthropic:citations": [citation],
          },
        ],
      },
    ]);
  });

  test("stop_reason max_tokens leaves the call that is the last block incomplete, the others completed", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: [toolUse("toolu_01A"), toolUse("toolu_01B")] }]), stopReason: "max_tokens" });
    expect(converted.value).toEqual([call("toolu_01A"), { ...call("toolu_01B"), status: "incomplete" }]);
  });

  test("stop_reason null (a response that never finished) leaves every call in_progress", () => {
    const converted = messagesToItems({ messages: messages([{ role: "assistant", content: [toolUse("toolu_01A"), { type: "text", text: "…" }] }]), stopReason: null });
    expect(converted.value[0]).toEqual({ ...call("toolu_01A"), status: "in_progress" });
  });

  test("a message field other than role and content is reported", () => {
    expect(messagesToItems({ messages: messages([{ role: "user", content: "Hi", name: "ola" }]) }).losses).toEqual([
      { path: "/messages/0/name", code: "provider_extension", detail: '"name" is not a field of an Anthropic message; Open Responses has no place for it' },
    ]);
  });
});

describe("itemsToMessages, grouping", () => {
  test("one leading system string is system; later system messages stay in place, which the Messages API refuses, and say so", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "message", role: "system", content: "Answer briefly." },
        { type: "message", role: "user", content: "Weather?" },
        { type: "message", role: "system", content: "Use metric units." },
      ]),
    });
    expect(converted).toEqual({
      value: { system: "Answer briefly.", messages: [{ role: "user", content: "Weather?" }, { role: "system", content: "Use metric units." }] },
      losses: [{ path: "/2/role", code: "target_rejects", detail: "the Messages API takes only user and assistant messages: a system message after the conversation began is written in place, as role system, which it refuses" }],
    });
  });

  test("two leading system strings become two text blocks, each reported", () => {
    const converted = itemsToMessages({ items: items([{ type: "message", role: "system", content: "A." }, { type: "message", role: "developer", content: "B." }]) });
    expect(converted).toEqual({
      value: { system: [{ type: "text", text: "A." }, { type: "text", text: "B." }], messages: [] },
      losses: [
        { path: "/0/content", code: "form_changed", detail: "the text is written as a text block of system, beside the others" },
        { path: "/1/role", code: "form_changed", detail: "Anthropic has no developer role: written as system" },
        { path: "/1/content", code: "form_changed", detail: "the text is written as a text block of system, beside the others" },
      ],
    });
  });

  test("text, reasoning and calls of a turn are one assistant message; its results one user message, in call order, each one moved reported", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Both cities.", annotations: [] }] },
        call("toolu_01A"),
        call("toolu_01B", '{"city":"Bergen"}'),
        output("toolu_01B", "sun"),
        output("toolu_01A", "rain"),
      ]),
    });
    expect(converted).toEqual({
      value: {
        messages: [
          { role: "assistant", content: [{ type: "text", text: "Both cities." }, toolUse("toolu_01A"), toolUse("toolu_01B", { city: "Bergen" })] },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "toolu_01A", content: "rain" },
              { type: "tool_result", tool_use_id: "toolu_01B", content: "sun" },
            ],
          },
        ],
      },
      losses: ["/3", "/4"].map((path) => ({ path, code: "reordered", detail: "placed among the turn's tool_result blocks in the order of its calls, not the order the results came in" })),
    });
    // Results in call order already move nowhere: nothing to report.
    const inOrder = itemsToMessages({ items: items([call("toolu_01A"), call("toolu_01B", '{"city":"Bergen"}'), output("toolu_01A", "rain"), output("toolu_01B", "sun")]) });
    expect(inOrder.losses).toEqual([]);
  });

  test("user parts right after the results join their message, after them", () => {
    const converted = itemsToMessages({
      items: items([call("toolu_01A"), output("toolu_01A"), { type: "message", role: "user", content: [{ type: "input_text", text: "Thanks." }] }]),
    });
    expect(converted.value.messages).toEqual([
      { role: "assistant", content: [toolUse("toolu_01A")] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01A", content: "rain, 9 C" }, { type: "text", text: "Thanks." }] },
    ]);
  });

  test("a user string after the results stays a message of its own", () => {
    const converted = itemsToMessages({ items: items([call("toolu_01A"), output("toolu_01A"), { type: "message", role: "user", content: "Thanks." }]) });
    expect(converted.value.messages).toEqual([
      { role: "assistant", content: [toolUse("toolu_01A")] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01A", content: "rain, 9 C" }] },
      { role: "user", content: "Thanks." },
    ]);
  });

  test("two assistant messages in a row stay two turns", () => {
    const converted = itemsToMessages({ items: items([{ type: "message", role: "assistant", content: "One." }, { type: "message", role: "assistant", content: "Two." }]) });
    expect(converted).toEqual({ value: { messages: [{ role: "assistant", content: "One." }, { role: "assistant", content: "Two." }] }, losses: [] });
  });

  test("a string text beside a call becomes a text block, reported", () => {
    const converted = itemsToMessages({ items: items([{ type: "message", role: "assistant", content: "Checking." }, call("toolu_01A")]) });
    expect(converted).toEqual({
      value: { messages: [{ role: "assistant", content: [{ type: "text", text: "Checking." }, toolUse("toolu_01A")] }] },
      losses: [{ path: "/0/content", code: "form_changed", detail: "the text is written as a text block beside the other blocks of its turn" }],
    });
  });

  test("an output placed back after its call, past a message that came between, is reported", () => {
    const converted = itemsToMessages({ items: items([call("toolu_01A"), { type: "message", role: "user", content: "Hurry." }, output("toolu_01A")]) });
    expect(converted).toEqual({
      value: {
        messages: [
          { role: "assistant", content: [toolUse("toolu_01A")] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01A", content: "rain, 9 C" }] },
          { role: "user", content: "Hurry." },
        ],
      },
      losses: [{ path: "/2", code: "reordered", detail: "placed in the user message right after the assistant message that made the call, before 1 message(s) that came between" }],
    });
  });

  test("outputs side by side that answer no call of the items stay one user message, as results of one turn are", () => {
    const noCall = (path: string) => ({ path, code: "target_rejects", detail: "answers no call of the items before it: written in place, and Anthropic rejects a tool_result whose tool_use is not in the assistant message before it" });
    expect(itemsToMessages({ items: items([output("toolu_01Y"), output("toolu_01Z")]) })).toEqual({
      value: {
        messages: [
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "toolu_01Y", content: "rain, 9 C" },
              { type: "tool_result", tool_use_id: "toolu_01Z", content: "rain, 9 C" },
            ],
          },
        ],
      },
      losses: [noCall("/0/call_id"), noCall("/1/call_id")],
    });
  });

  test("an output that answers no call is written in place and reported", () => {
    expect(itemsToMessages({ items: items([output("toolu_01Z")]) })).toEqual({
      value: { messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01Z", content: "rain, 9 C" }] }] },
      losses: [
        {
          path: "/0/call_id",
          code: "target_rejects",
          detail: "answers no call of the items before it: written in place, and Anthropic rejects a tool_result whose tool_use is not in the assistant message before it",
        },
      ],
    });
  });
});

describe("itemsToMessages, call ids", () => {
  test("an id Anthropic would reject is rewritten the same way for the call and its result, and reported for each", () => {
    const id = "functions.get_weather:0";
    const rewritten = `functions_get_weather_0_${hex(id)}`;
    const converted = itemsToMessages({ items: items([call(id), output(id)]) });
    expect(converted.value.messages).toEqual([
      { role: "assistant", content: [toolUse(rewritten)] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: rewritten, content: "rain, 9 C" }] },
    ]);
    expect(converted.losses.map((loss) => [loss.path, loss.code])).toEqual([
      ["/0/call_id", "form_changed"],
      ["/1/call_id", "form_changed"],
    ]);
  });

  test("a rewrite that names an id of the conversation takes more digits", () => {
    const id = "call.1";
    const taken = `call_1_${hex(id)}`;
    const converted = itemsToMessages({ items: items([call(taken), call(id)]) });
    expect(converted.value.messages[0].content).toEqual([toolUse(taken), toolUse(`call_1_${hex(id, 12)}`)]);
  });

  test("the same rewriter converts a conversation in parts consistently", () => {
    const ids = new CallIds(["a|b"]);
    const first = itemsToMessages({ items: items([call("a|b")]), callIds: ids });
    const second = itemsToMessages({ items: items([output("a|b")]), callIds: ids });
    expect((first.value.messages[0].content as Array<{ id: string }>)[0].id).toBe((second.value.messages[0].content as Array<{ tool_use_id: string }>)[0].tool_use_id);
    expect(ids.rewritten()).toEqual(new Map([["a|b", `a_b_${hex("a|b")}`]]));
  });

  test("converted in parts, an id a rewrite of an earlier part wrote is rewritten again, so that two calls never share one", () => {
    const ids = new CallIds();
    const rewrite = `a_b_${hex("a.b")}`;
    const first = itemsToMessages({ items: items([call("a.b"), output("a.b")]), callIds: ids });
    const second = itemsToMessages({ items: items([call(rewrite), output(rewrite)]), callIds: ids });
    expect(first.value.messages[0]!.content).toEqual([toolUse(rewrite)]);
    expect(second.value.messages[0]!.content).toEqual([toolUse(`${rewrite}_${hex(rewrite)}`)]);
    expect(second.losses).toEqual([
      { path: "/0/call_id", code: "form_changed", detail: `call_id "${rewrite}" is what "a.b" was written as: written as "${rewrite}_${hex(rewrite)}", for the call and its result alike` },
      { path: "/1/call_id", code: "form_changed", detail: `call_id "${rewrite}" is what "a.b" was written as: written as "${rewrite}_${hex(rewrite)}", for the call and its result alike` },
    ]);
  });

  test("converted in parts, a rewrite takes no id an earlier part wrote as it was", () => {
    const ids = new CallIds();
    const taken = `a_b_${hex("a.b")}`;
    itemsToMessages({ items: items([call(taken), output(taken)]), callIds: ids });
    const second = itemsToMessages({ items: items([call("a.b")]), callIds: ids });
    expect(second.value.messages[0]!.content).toEqual([toolUse(`a_b_${hex("a.b", 12)}`)]);
  });

  test("a call without call_id gets a synthesized id, which the output without call_id that follows answers", () => {
    const args = '{"city":"Oslo"}';
    const id = `synth_1_${createHash("sha256").update(`get_weather\u0000${args}`).digest("hex").slice(0, 16)}`;
    const converted = itemsToMessages({ items: items([{ ...call(""), call_id: undefined }, { ...output(""), call_id: undefined }]) });
    expect(converted.value.messages).toEqual([
      { role: "assistant", content: [toolUse(id)] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "rain, 9 C" }] },
    ]);
    expect(converted.losses.map((loss) => [loss.path, loss.code])).toEqual([
      ["/0", "synthesized"],
      ["/1", "synthesized"],
    ]);
  });
});

describe("itemsToMessages, arguments", () => {
  const inputOf = (args: string) => {
    const converted = itemsToMessages({ items: items([call("toolu_01A", args)]) });
    return { input: (converted.value.messages[0].content as Array<{ input: unknown }>)[0].input, losses: converted.losses };
  };

  test("a JSON object text becomes the input object; spelled as its JSON text, nothing is reported", () => {
    expect(inputOf('{"city":"Oslo"}')).toEqual({ input: { city: "Oslo" }, losses: [] });
  });

  test("spacing the input object's JSON text does not keep is reported: the values are kept, not the text", () => {
    expect(inputOf('{ "city" : "Oslo" }')).toEqual({
      input: { city: "Oslo" },
      losses: [{ path: "/0/arguments", code: "form_changed", detail: "the arguments text becomes the input object, whose JSON text is spelled otherwise (spaces, escapes or number forms): the values are kept, not the text" }],
    });
  });

  test('"" becomes the empty input, reported', () => {
    expect(inputOf("")).toEqual({ input: {}, losses: [{ path: "/0/arguments", code: "form_changed", detail: "empty arguments written as the empty input {}" }] });
  });

  test("text that is not JSON is written as it is, which Anthropic rejects: never dropped, never {}", () => {
    expect(inputOf('{"city": "Os')).toEqual({
      input: '{"city": "Os',
      losses: [{ path: "/0/arguments", code: "target_rejects", detail: "arguments that are not JSON cannot be an input object: written as the text it is, which Anthropic rejects" }],
    });
  });

  test("a JSON text that is not an object is written as the text it is", () => {
    expect(inputOf('["Oslo"]').input).toBe('["Oslo"]');
  });

  test("a name given twice is written as the text it is, which Anthropic rejects: no value is chosen", () => {
    expect(inputOf('{"city":"Oslo","city":"Bergen"}')).toEqual({
      input: '{"city":"Oslo","city":"Bergen"}',
      losses: [{ path: "/0/arguments", code: "target_rejects", detail: 'the name "city" is given twice in one object: the input object would not hold what the arguments text says, so the text is written as it is, which Anthropic rejects' }],
    });
  });

  test("a number a double cannot hold keeps the text as it is; one spelled otherwise is reported as spelling only", () => {
    expect(inputOf('{"id":12345678901234567890}').losses.map((loss) => loss.detail)).toEqual([
      "the number 12345678901234567890 is not one a double holds: the input object would not hold what the arguments text says, so the text is written as it is, which Anthropic rejects",
    ]);
    expect(inputOf('{"a":1.50,"b":1e2,"c":-0.0}').losses.map((loss) => loss.detail)).toEqual([
      "the arguments text becomes the input object, whose JSON text is spelled otherwise (spaces, escapes or number forms): the values are kept, not the text",
    ]);
  });
});

describe("itemsToMessages, another envelope's failure flag", () => {
  test("Bedrock's status of an output is the tool_result's is_error, which says the same, reported", () => {
    for (const [status, isError] of [["error", true], ["success", false]] as const) {
      const converted = itemsToMessages({ items: items([call("toolu_1"), { ...output("toolu_1"), "bedrock:status": status }]) });
      expect(converted.value.messages[1]).toEqual({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "rain, 9 C", is_error: isError }] });
      expect(converted.losses).toEqual([{ path: "/1/bedrock:status", code: "form_changed", detail: `Bedrock's status "${status}" written as Anthropic's is_error ${isError}` }]);
    }
  });
});

describe("itemsToMessages, opaque values", () => {
  test("Anthropic's reasoning items go back as the blocks they were, byte for byte", () => {
    const conversation = {
      messages: messages([
        { role: "user", content: "Think." },
        { role: "assistant", content: [{ type: "thinking", thinking: "Hmm.", signature: "EqQBCkYIBxgC+/==" }, { type: "redacted_thinking", data: "EmwKAhgB/+==" }, { type: "text", text: "Done." }] },
      ]),
    };
    const converted = messagesToItems({ ...conversation, model: "claude-sonnet-4-0" });
    expect(itemsToMessages({ items: converted.value })).toEqual({ value: conversation, losses: [] });
  });

  test("a reasoning item of another provider is not replayed: its encrypted_content is not Anthropic's", () => {
    const converted = itemsToMessages({ items: items([{ type: "reasoning", summary: [], encrypted_content: "gAAAAABo" }, { type: "message", role: "assistant", content: "Hi." }]) });
    expect(converted).toEqual({
      value: { messages: [{ role: "assistant", content: "Hi." }] },
      losses: [{ path: "/0", code: "unsupported_item", detail: "a reasoning item not written by Anthropic cannot be replayed to it: its encrypted_content is not an Anthropic signature" }],
    });
  });

  test("another provider's extension item is reported, Anthropic's goes back as its block", () => {
    const converted = itemsToMessages({
      items: items([
        { type: "openai:web_search_call", id: "ws_01", status: "completed" },
        { type: "anthropic:server_tool_use", id: "srvtoolu_01X", name: "web_search", input: { query: "fjords" } },
      ]),
    });
    expect(converted).toEqual({
      value: { messages: [{ role: "assistant", content: [{ type: "server_tool_use", id: "srvtoolu_01X", name: "web_search", input: { query: "fjords" } }] }] },
      losses: [{ path: "/0", code: "unsupported_item", detail: 'an item of type "openai:web_search_call" is another provider\'s: Anthropic Messages has no equivalent' }],
    });
  });

  test("a refusal part is not replayed, and a message left empty is not written", () => {
    expect(itemsToMessages({ items: items([{ type: "message", role: "assistant", content: [{ type: "refusal", refusal: "No." }] }]) })).toEqual({
      value: { messages: [] },
      losses: [{ path: "/0/content/0", code: "unsupported_part", detail: "Anthropic has no refusal block (a refusal is a response's stop_reason): the refusal is not replayed" }],
    });
  });

  test("a message with no parts gives no message, reported", () => {
    expect(itemsToMessages({ items: items([{ type: "message", role: "user", content: [] }]) })).toEqual({
      value: { messages: [] },
      losses: [{ path: "/0", code: "unsupported_item", detail: "a message with no parts gives no Anthropic message" }],
    });
  });

  test("url citations Anthropic did not write are reported", () => {
    const converted = itemsToMessages({
      items: items([{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Deep.", annotations: [{ type: "url_citation", start_index: 0, end_index: 5, url: "https://example.org", title: "E" }] }] }]),
    });
    expect(converted).toEqual({
      value: { messages: [{ role: "assistant", content: [{ type: "text", text: "Deep." }] }] },
      losses: [{ path: "/0/content/0/annotations", code: "unsupported_field", detail: "url citations have no Anthropic form: a web search citation needs the encrypted_index Anthropic gave" }],
    });
  });
});
