// Gemini contents ⇄ items on small conversations shaped like the recorded ones:
// each rule of contents-to-items.ts and items-to-contents.ts, the losses with it.
import { describe, expect, test } from "vitest";
import { contentsToItems } from "../../../adapters/gemini/contents-to-items.js";
import { itemsToContents } from "../../../adapters/gemini/items-to-contents.js";
import { CallPairing, synthesizedCallId, unansweredOutputId } from "../../../adapters/gemini/call-ids.js";

const SIGNATURE = "Es8FCswFAXLI2nxFGW9oAYt0fTQoHlYcudYTgqNXlir9nzbXoqFX";
const weather = (city: string, id?: string) => ({ functionCall: { args: { city }, name: "get_weather", ...(id ? { id } : {}) } });
const answer = (text: string, id?: string) => ({ functionResponse: { name: "get_weather", response: { result: text }, ...(id ? { id } : {}) } });
const asText = (at: string) => ({ path: `${at}/functionResponse/response`, code: "form_changed", detail: "the response object is written as its JSON text, member order kept; the way back parses it again" });

describe("calls without ids", () => {
  const contents = [
    { parts: [{ text: "Weather in Lisbon and Oslo?" }], role: "user" },
    { parts: [weather("Lisbon"), weather("Oslo")], role: "model" },
    { parts: [answer("sunny"), answer("rain")], role: "user" },
  ];

  const lisbon = synthesizedCallId(1, "get_weather", '{"city":"Lisbon"}');
  const oslo = synthesizedCallId(2, "get_weather", '{"city":"Oslo"}');

  test("get call_ids derived from their rank, name and args, the same on every run", () => {
    const first = contentsToItems({ contents });
    const second = contentsToItems({ contents });
    expect(first.value).toEqual(second.value);
    // sha256 of "\0" "1" "\0" "get_weather" "\0" and the args text, as `printf` and `sha256sum` give it.
    expect(lisbon).toBe("gemini_call_797dd687dbcc9a8b");
    expect(first.value.slice(1)).toEqual([
      { type: "function_call", call_id: lisbon, name: "get_weather", arguments: '{"city":"Lisbon"}', status: "completed" },
      { type: "function_call", call_id: oslo, name: "get_weather", arguments: '{"city":"Oslo"}', status: "completed" },
      { type: "function_call_output", call_id: lisbon, output: '{"result":"sunny"}', "gemini:name": "get_weather" },
      { type: "function_call_output", call_id: oslo, output: '{"result":"rain"}', "gemini:name": "get_weather" },
    ]);
  });

  test("every synthesized id is reported, and every result paired by name and order", () => {
    expect(contentsToItems({ contents }).losses).toEqual([
      { path: "/contents/1/parts/0/functionCall/id", code: "synthesized", detail: `a functionCall without id: call_id ${lisbon} synthesized from its rank among the conversation's calls, its name and its args` },
      { path: "/contents/1/parts/1/functionCall/id", code: "synthesized", detail: `a functionCall without id: call_id ${oslo} synthesized from its rank among the conversation's calls, its name and its args` },
      { path: "/contents/2/parts/0/functionResponse/id", code: "synthesized", detail: `a functionResponse without id answers the earliest unanswered call of its name: call_id ${lisbon}` },
      asText("/contents/2/parts/0"),
      { path: "/contents/2/parts/1/functionResponse/id", code: "synthesized", detail: `a functionResponse without id answers the earliest unanswered call of its name: call_id ${oslo}` },
      asText("/contents/2/parts/1"),
    ]);
  });

  test("written into a record, a synthesized id is reported at the item's call_id there", () => {
    expect(contentsToItems({ contents, itemsAt: { path: "/input", offset: 2 } }).losses.filter((loss) => loss.code === "synthesized")).toEqual([
      { path: "/input/3/call_id", code: "synthesized", detail: `a functionCall without id: call_id ${lisbon} synthesized from its rank among the conversation's calls, its name and its args` },
      { path: "/input/4/call_id", code: "synthesized", detail: `a functionCall without id: call_id ${oslo} synthesized from its rank among the conversation's calls, its name and its args` },
      { path: "/input/5/call_id", code: "synthesized", detail: `a functionResponse without id answers the earliest unanswered call of its name: call_id ${lisbon}` },
      { path: "/input/6/call_id", code: "synthesized", detail: `a functionResponse without id answers the earliest unanswered call of its name: call_id ${oslo}` },
    ]);
  });

  test("a call without args, written into a record, reports its arguments there", () => {
    const converted = contentsToItems({ contents: [{ parts: [{ functionCall: { name: "get_time", id: "c1" } }], role: "model" }], itemsAt: { path: "/output", offset: 0 } });
    expect(converted).toEqual({
      value: [{ type: "function_call", call_id: "c1", name: "get_time", arguments: "{}", status: "completed", "gemini:argsAbsent": true }],
      losses: [{ path: "/output/0/arguments", code: "synthesized", detail: 'a functionCall without args: arguments "{}" written, a call without parameters' }],
    });
  });

  test("go back without an id, as they came", () => {
    const back = itemsToContents({ items: contentsToItems({ contents }).value });
    expect(back).toEqual({ value: { contents }, losses: [] });
  });

  test("a result that follows no call of its name gets an id of its own, reported", () => {
    const converted = contentsToItems({ contents: [{ parts: [answer("sunny")], role: "user" }] });
    const callId = unansweredOutputId(1, "get_weather");
    expect(converted).toEqual({
      value: [{ type: "function_call_output", call_id: callId, output: '{"result":"sunny"}', "gemini:name": "get_weather" }],
      losses: [{ path: "/contents/0/parts/0/functionResponse/id", code: "synthesized", detail: `a functionResponse without id that follows no unanswered call of its name: call_id ${callId} synthesized; it answers no call` }, asText("/contents/0/parts/0")],
    });
  });
});

describe("one pairing across the records of a journal", () => {
  const call = { parts: [weather("Lisbon")], role: "model" };
  const result = { parts: [answer("sunny")], role: "user" };
  const lisbon = synthesizedCallId(1, "get_weather", '{"city":"Lisbon"}');

  test("a result on a later record answers the call of an earlier one", () => {
    const pairing = new CallPairing();
    const first = contentsToItems({ contents: [call], pairing });
    const second = contentsToItems({ contents: [result], pairing });
    expect(first.value).toEqual([{ type: "function_call", call_id: lisbon, name: "get_weather", arguments: '{"city":"Lisbon"}', status: "completed" }]);
    expect(second).toEqual({
      value: [{ type: "function_call_output", call_id: lisbon, output: '{"result":"sunny"}', "gemini:name": "get_weather" }],
      losses: [{ path: "/contents/0/parts/0/functionResponse/id", code: "synthesized", detail: `a functionResponse without id answers the earliest unanswered call of its name: call_id ${lisbon}` }, asText("/contents/0/parts/0")],
    });
  });

  test("a whole conversation (a request body's) starts the count again, so a replayed call keeps its id", () => {
    const pairing = new CallPairing();
    contentsToItems({ contents: [{ parts: [{ text: "Lisbon?" }], role: "user" }, call], pairing });
    const replay = contentsToItems({ contents: [{ parts: [{ text: "Lisbon?" }], role: "user" }, call, result], pairing, whole: true });
    expect(replay.value.slice(1).map((item) => (item as { call_id: string }).call_id)).toEqual([lisbon, lisbon]);
    const next = contentsToItems({ contents: [call], pairing });
    expect(next.value).toEqual([{ type: "function_call", call_id: synthesizedCallId(2, "get_weather", '{"city":"Lisbon"}'), name: "get_weather", arguments: '{"city":"Lisbon"}', status: "completed" }]);
  });

  test("without a pairing, each conversion pairs only within itself: the result answers no call", () => {
    contentsToItems({ contents: [call] });
    expect(contentsToItems({ contents: [result] }).value).toEqual([{ type: "function_call_output", call_id: unansweredOutputId(1, "get_weather"), output: '{"result":"sunny"}', "gemini:name": "get_weather" }]);
  });
});

describe("calls with ids", () => {
  test("a call_id of the synthesized form that two calls give goes in id: a reading gives each call its own, and the gate must still see them share one", () => {
    const shared = synthesizedCallId(1, "get_weather", '{"city":"Lisbon"}');
    const call = { type: "function_call" as const, call_id: shared, name: "get_weather", arguments: '{"city":"Lisbon"}', status: "completed" as const };
    expect(itemsToContents({ items: [call, call, { type: "function_call_output", call_id: shared, output: "sunny" }] })).toEqual({
      value: {
        contents: [
          { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Lisbon" }, id: shared } }, { functionCall: { name: "get_weather", args: { city: "Lisbon" }, id: shared } }] },
          { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { output: "sunny" }, id: shared } }] },
        ],
      },
      losses: [],
    });
  });

  test("the id is the call_id, and goes back in id", () => {
    const contents = [
      { parts: [weather("Lisbon", "oqeiriep")], role: "model" },
      { parts: [answer("sunny", "oqeiriep")], role: "user" },
    ];
    const items = contentsToItems({ contents });
    expect(items).toEqual({
      value: [
        { type: "function_call", call_id: "oqeiriep", name: "get_weather", arguments: '{"city":"Lisbon"}', status: "completed" },
        { type: "function_call_output", call_id: "oqeiriep", output: '{"result":"sunny"}', "gemini:name": "get_weather" },
      ],
      losses: [asText("/contents/1/parts/0")],
    });
    expect(itemsToContents({ items: items.value })).toEqual({ value: { contents }, losses: [] });
  });
});

describe("a result of files", () => {
  const call = { type: "function_call" as const, call_id: "call_img", name: "get_photo", arguments: '{"city":"Lisbon"}', status: "completed" as const };
  const photo = { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" };
  const contents = [
    { role: "model", parts: [{ functionCall: { name: "get_photo", args: { city: "Lisbon" }, id: "call_img" } }] },
    { role: "user", parts: [{ functionResponse: { name: "get_photo", response: { output: "" }, id: "call_img", parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }] } }] },
  ];

  test("an output of an image alone goes there and back as the image alone, with no empty text added", () => {
    const there = itemsToContents({ items: [call, { type: "function_call_output", call_id: "call_img", output: [photo] }] });
    expect(there).toEqual({ value: { contents }, losses: [] });
    expect(contentsToItems({ contents }).value[1]).toEqual({ type: "function_call_output", call_id: "call_img", output: [photo], "gemini:name": "get_photo" });
  });

  test("an empty text part beside the image is not written, reported", () => {
    const there = itemsToContents({ items: [call, { type: "function_call_output", call_id: "call_img", output: [{ type: "input_text", text: "" }, photo] }] });
    expect(there).toEqual({ value: { contents }, losses: [{ path: "/1/output", code: "form_changed", detail: "an empty text beside files is no part of a Gemini result: written as the files alone" }] });
  });
});

describe("a result of one text part", () => {
  test("is written as the response's text, reported, since it comes back as text and not as parts", () => {
    const call = { type: "function_call" as const, call_id: "call_w", name: "get_weather", arguments: '{"city":"Lisbon"}', status: "completed" as const };
    const there = itemsToContents({ items: [call, { type: "function_call_output", call_id: "call_w", output: [{ type: "input_text", text: "sunny" }] }] });
    expect(there).toEqual({
      value: {
        contents: [
          { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Lisbon" }, id: "call_w" } }] },
          { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { output: "sunny" }, id: "call_w" } }] },
        ],
      },
      losses: [{ path: "/1/output", code: "form_changed", detail: "a text part written as the response's text: a Gemini result holds files as parts, never text" }],
    });
  });
});

describe("a result of no parts", () => {
  test("is written as the empty text result, reported, since it comes back as text and not as parts", () => {
    const call = { type: "function_call" as const, call_id: "call_w", name: "get_weather", arguments: '{"city":"Lisbon"}', status: "completed" as const };
    const there = itemsToContents({ items: [call, { type: "function_call_output", call_id: "call_w", output: [] }] });
    expect(there.value.contents[1]).toEqual({ role: "user", parts: [{ functionResponse: { name: "get_weather", response: { output: "" }, id: "call_w" } }] });
    expect(there.losses).toEqual([{ path: "/1/output", code: "form_changed", detail: "an output of no parts written as an empty text result: it comes back as text, not as parts" }]);
    expect(contentsToItems(there.value).value[1]).toMatchObject({ type: "function_call_output", call_id: "call_w", output: "" });
  });
});

describe("a piece of a call streamed in parts", () => {
  test.each([
    [{ name: "delete_all", partialArgs: [{ jsonPath: "$.path", stringValue: "/" }], willContinue: true }, "partialArgs"],
    [{ name: "delete_all", args: {}, willContinue: true }, "willContinue"],
    [{ name: "delete_all", partialArgs: [{ jsonPath: "$.path", stringValue: "/" }] }, "partialArgs"],
    [{ name: "delete_all", partial_args: [] }, "partial_args"],
    [{ name: "delete_all", args: {}, will_continue: true }, "willContinue"],
    [{ name: "delete_all", args: {}, willContinue: "true" }, "willContinue"],
  ])("%j in a whole record is written incomplete: its args are not the call's", (functionCall, why) => {
    const converted = contentsToItems({ contents: [{ role: "model", parts: [{ functionCall: { id: "c1", ...functionCall } }] }] });
    expect(converted.value).toMatchObject([{ type: "function_call", call_id: "c1", name: "delete_all", status: "incomplete" }]);
    expect(converted.losses).toContainEqual({ path: "/contents/0/parts/0/functionCall", code: "form_changed", detail: `a functionCall with ${why} is a piece of a call streamed in parts: its arguments are not whole, so it is written incomplete` });
  });
});

describe("items without a call_id", () => {
  test("a call and its output whose call_id is \"\" or absent: written without id, and each said, since a reader of Gemini gives them one", () => {
    const items = [
      { type: "function_call", call_id: "", name: "get_weather", arguments: '{"city":"Lisbon"}', status: "completed" },
      { type: "function_call_output", call_id: "", output: "sunny" },
      { type: "function_call", name: "get_weather", arguments: '{"city":"Oslo"}', status: "completed" },
    ];
    const written = itemsToContents({ items: items as never });
    expect(written.value.contents.map((content) => content.parts)).toEqual([[weather("Lisbon")], [{ functionResponse: { name: "get_weather", response: { output: "sunny" } } }], [weather("Oslo")]]);
    expect(written.losses.filter((loss) => loss.path.endsWith("/call_id"))).toEqual([
      { path: "/0/call_id", code: "form_changed", detail: 'the call has the call_id "", which is none: written without an id, which a reader of Gemini replaces with one of its own' },
      { path: "/1/call_id", code: "form_changed", detail: 'the output has the call_id "", which is none: written without an id, which a reader of Gemini replaces with one of its own' },
      { path: "/2/call_id", code: "form_changed", detail: "the call has no call_id: written without an id, which a reader of Gemini replaces with one of its own" },
    ]);
  });

  test("an id synthesized for Gemini's own call without one goes back as none, unsaid", () => {
    const contents = [{ parts: [weather("Lisbon")], role: "model" }];
    const written = itemsToContents({ items: contentsToItems({ contents }).value });
    expect(written).toEqual({ value: { contents }, losses: [] });
  });
});

describe("thought parts and signatures", () => {
  const contents = [
    {
      parts: [
        { text: "Planning the answer.", thought: true },
        { text: "Cross at the lights.", thoughtSignature: SIGNATURE },
      ],
      role: "model",
    },
  ];

  test("a thought is a reasoning item of provenance gemini; the signature stays on its part", () => {
    expect(contentsToItems({ contents, model: "gemini-3-pro-preview" })).toEqual({
      value: [
        { type: "reasoning", summary: [{ type: "summary_text", text: "Planning the answer." }], provenance: { envelope: "gemini", part: "thought", model: "gemini-3-pro-preview" } },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Cross at the lights.", annotations: [], "gemini:thoughtSignature": SIGNATURE }] },
      ],
      losses: [{ path: "/contents/0/parts/0/thought", code: "form_changed", detail: "thought: true is said by the reasoning item the part becomes, not written as a field" }],
    });
  });

  test("both go back byte for byte", () => {
    expect(itemsToContents({ items: contentsToItems({ contents }).value })).toEqual({ value: { contents }, losses: [] });
  });

  test("a signed thought holds its signature as encrypted_content", () => {
    const signed = [{ parts: [{ text: "Thinking.", thought: true, thoughtSignature: SIGNATURE }], role: "model" }];
    const items = contentsToItems({ contents: signed });
    expect(items.value).toEqual([{ type: "reasoning", summary: [{ type: "summary_text", text: "Thinking." }], encrypted_content: SIGNATURE, provenance: { envelope: "gemini", part: "thought" } }]);
    expect(itemsToContents({ items: items.value }).value).toEqual({ contents: signed });
  });

  test("a reasoning item of another provider is reported, never sent as a thought", () => {
    const items = [{ type: "reasoning" as const, summary: [], encrypted_content: "EqQBCkgIBxAB", provenance: { envelope: "anthropic", block: "thinking" } }];
    expect(itemsToContents({ items: items as never })).toEqual({
      value: { contents: [] },
      losses: [{ path: "/0", code: "unsupported_item", detail: "a reasoning item not written by Gemini cannot be replayed to it: its encrypted_content is not a thoughtSignature" }],
    });
  });
});

describe("snake_case parts", () => {
  test("are read alike and written back as read", () => {
    const contents = [
      { parts: [{ function_call: { args: {}, id: "fc_1", name: "get_file" }, thought_signature: "Ab-_c" }], role: "model" },
      { parts: [{ function_response: { id: "fc_1", name: "get_file", response: { error: "not found" } } }], role: "user" },
      { parts: [{ file_data: { file_uri: "gs://bucket/photo.jpg", mime_type: "image/jpeg" } }], role: "user" },
    ];
    const items = contentsToItems({ contents });
    expect(items.value).toEqual([
      { type: "function_call", call_id: "fc_1", name: "get_file", arguments: "{}", status: "completed", "gemini:spelling": "snake", "gemini:thought_signature": "Ab-_c" },
      { type: "function_call_output", call_id: "fc_1", output: '{"error":"not found"}', "gemini:name": "get_file", "gemini:spelling": "snake" },
      { type: "message", role: "user", content: [{ type: "input_image", image_url: "gs://bucket/photo.jpg", "gemini:mimeType": "image/jpeg", "gemini:spelling": "snake" }] },
    ]);
    expect(itemsToContents({ items: items.value })).toEqual({ value: { contents }, losses: [] });
  });
});

describe("content rules", () => {
  test("text next to calls is kept, in its place", () => {
    const contents = [{ parts: [{ text: "Checking." }, weather("Oslo", "c1"), { text: "Done." }], role: "model" }];
    expect(contentsToItems({ contents }).value).toEqual([
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Checking.", annotations: [] }] },
      { type: "function_call", call_id: "c1", name: "get_weather", arguments: '{"city":"Oslo"}', status: "completed" },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Done.", annotations: [] }] },
    ]);
  });

  test("a text result is sent as {output} and comes back as the text", () => {
    const items = [
      { type: "function_call" as const, call_id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
      { type: "function_call_output" as const, call_id: "call_1", output: "rain" },
    ];
    const gemini = itemsToContents({ items });
    expect(gemini).toEqual({
      value: {
        contents: [
          { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" }, id: "call_1" } }] },
          { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { output: "rain" }, id: "call_1" } }] },
        ],
      },
      losses: [],
    });
    expect(contentsToItems(gemini.value).value[1]).toEqual({ type: "function_call_output", call_id: "call_1", output: "rain", "gemini:name": "get_weather" });
  });

  test("a result whose text is the object {output: text} is sent as that object and reported, since it comes back as the text it holds", () => {
    const items = [
      { type: "function_call" as const, call_id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
      { type: "function_call_output" as const, call_id: "call_1", output: '{"output":"rain"}' },
    ];
    const gemini = itemsToContents({ items });
    expect(gemini.value.contents[1]).toEqual({ role: "user", parts: [{ functionResponse: { name: "get_weather", response: { output: "rain" }, id: "call_1" } }] });
    expect(gemini.losses).toEqual([
      { path: "/1/output", code: "form_changed", detail: "the output text is the object {output: text}, which is how Gemini writes a plain result: it reads back as the text it holds, not as the object" },
    ]);
    expect(contentsToItems(gemini.value).value[1]).toEqual({ type: "function_call_output", call_id: "call_1", output: "rain", "gemini:name": "get_weather" });
  });

  test.each(['{"output":{"temp":"12"}}', '{"output":"{\\"temp\\":\\"12\\"}"}', '{"output":"rain","unit":"c"}'])("a result %j that does not read back as a text is sent as its object, unreported", (output) => {
    const gemini = itemsToContents({ items: [{ type: "function_call_output", call_id: "call_1", output, "gemini:name": "get_weather" } as never] });
    expect(gemini.losses).toEqual([]);
    expect(contentsToItems(gemini.value).value[0]).toMatchObject({ output });
  });

  // Only the text of a JSON object is kept wrapped, as its JSON text: JSON's own
  // whitespace may open it, any other character (a no-break space) makes it text.
  test.each([
    ["rain", "rain"],
    ['{"temp":"12"}', '{"output":"{\\"temp\\":\\"12\\"}"}'],
    [' \t\r\n{"temp":"12"}', '{"output":" \\t\\r\\n{\\"temp\\":\\"12\\"}"}'],
    ['\u00a0{"temp":"12"}', '\u00a0{"temp":"12"}'],
    ['\ufeff{"temp":"12"}', '\ufeff{"temp":"12"}'],
    ['{"temp":', '{"temp":'],
    ["[1]", "[1]"],
    ["  ", "  "],
    ["", ""],
  ])("a text result %j is unwrapped unless it is the text of a JSON object", (text, output) => {
    const contents = [{ role: "user", parts: [{ functionResponse: { name: "get_weather", response: { output: text }, id: "call_1" } }] }];
    const converted = contentsToItems({ contents });
    expect(converted.value).toEqual([{ type: "function_call_output", call_id: "call_1", output, "gemini:name": "get_weather" }]);
    expect(converted.losses.length).toBe(output === text ? 0 : 1);
  });

  test("arguments that are not a JSON object are written as the string, reported", () => {
    const items = [{ type: "function_call" as const, call_id: "call_1", name: "get_weather", arguments: '{"city":' }];
    expect(itemsToContents({ items })).toEqual({
      value: { contents: [{ role: "model", parts: [{ functionCall: { name: "get_weather", args: '{"city":', id: "call_1" } }] }] },
      losses: [{ path: "/0/arguments", code: "target_rejects", detail: "arguments are not the text of a JSON object: written as the string, which Gemini rejects" }],
    });
  });

  test("an extension part of Gemini is an extension item and goes back whole", () => {
    const part = { executableCode: { code: "print(1 + 1)", id: "8xju7mua", language: "PYTHON" }, thoughtSignature: SIGNATURE };
    const items = contentsToItems({ contents: [{ parts: [part], role: "model" }] });
    expect(items.value).toEqual([{ type: "gemini:executableCode", ...part }]);
    expect(itemsToContents({ items: items.value }).value).toEqual({ contents: [{ role: "model", parts: [part] }] });
  });
});

describe("messages with no parts", () => {
  test("are reported, never dropped quietly: Gemini refuses a content without parts", () => {
    const items = [
      { type: "message" as const, role: "user" as const, content: "Is the ferry running?" },
      { type: "message" as const, role: "assistant" as const, content: [] },
      { type: "message" as const, role: "user" as const, content: [] },
      { type: "message" as const, role: "user" as const, content: "Again?" },
    ];
    expect(itemsToContents({ items })).toEqual({
      value: { contents: [{ role: "user", parts: [{ text: "Is the ferry running?" }] }, { role: "user", parts: [{ text: "Again?" }] }] },
      losses: [
        { path: "/0/content", code: "form_changed", detail: "the text is written as one text part, Gemini's only form of a message's content: it comes back as parts, not as a string" },
        { path: "/1", code: "unsupported_item", detail: "a message with no parts gives no Gemini content" },
        { path: "/2", code: "unsupported_item", detail: "a message with no parts gives no Gemini content" },
        { path: "/3/content", code: "form_changed", detail: "the text is written as one text part, Gemini's only form of a message's content: it comes back as parts, not as a string" },
      ],
    });
  });
});
