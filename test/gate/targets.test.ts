import { describe, expect, test } from "vitest";
import { TargetRewriter, rewriteForTarget } from "../../src/gate/target-rewriter.js";
import { checkTarget, isTarget, TargetChecker, TARGETS, type Rewritten, type Target } from "../../src/gate/targets.js";
import { JournalChecker } from "../../src/gate/journal-checks.js";
import type { Envelope, JournalItem, Provenance } from "../../src/models/journal-item.js";
import { profileOf } from "../../adapters/profiles.js";

/** An item of a normalized journal: `line.index`, its envelope, optionally its response. */
function at(place: string, envelope: Envelope, item: Record<string, unknown>, response?: Provenance["response"]): JournalItem {
  const [line, index] = place.split(".").map(Number);
  const provenance: Provenance = { line, index, envelope };
  if (response) provenance.response = response;
  return { item, provenance };
}

const placeOf = (item: JournalItem) => `${item.provenance.line}.${item.provenance.index}`;
const placesOf = (rewritten: Rewritten) => rewritten.items.map(placeOf);

const paris = "{\"city\":\"Paris\"}";
const lyon = "{\"city\":\"Lyon\"}";
const user = (content: string) => ({ type: "message", role: "user", content });
const call = (callId: string, args: string, id?: string) => ({ type: "function_call", ...(id ? { id } : {}), call_id: callId, name: "get_weather", arguments: args, status: "completed" });
const output = (callId: string, text: string) => ({ type: "function_call_output", call_id: callId, output: text });
const assistant = (id: string, text: string) => ({ type: "message", id, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] });
const reasoning = (id: string) => ({ type: "reasoning", id, summary: [], encrypted_content: "gAAAAB-opaque" });
const webSearch = { type: "openai:web_search_call", id: "ws_001", status: "completed", action: { type: "search", query: "weather paris" } };
const response = { id: "resp_01", status: "completed" };

describe("the target names", () => {
  test("are the five shapes of the design and the five providers known by their profile", () => {
    expect(TARGETS).toEqual(["open-responses", "openai-responses", "chat-completions", "strict", "adjacent", "anthropic", "gemini", "bedrock", "deepseek", "mistral"]);
    expect([isTarget("adjacent"), isTarget("anthropic"), isTarget("openrouter")]).toEqual([true, true, false]);
  });
});

describe("open-responses", () => {
  const journal = [
    at("1.0", "chat", user("weather in Paris?")),
    at("2.0", "responses", reasoning("rs_01"), response),
    at("2.1", "responses", webSearch, response),
    at("2.2", "responses", call("call_1", paris, "fc_01"), response),
    at("3.0", "chat", output("call_1", "light rain")),
    at("4.0", "responses", { type: "item_reference", id: "msg_00" }),
    at("5.0", "responses", { type: "compaction", id: "cmp_01", encrypted_content: "gAAAAB-summary" }),
    at("6.0", "chat", assistant("__fake_id__", "Light rain in Paris.")),
  ];

  test("keeps the portable core, removes and reports the rest", () => {
    const rewritten = rewriteForTarget(journal, "open-responses");
    expect(placesOf(rewritten)).toEqual(["1.0", "2.2", "3.0", "6.0"]);
    expect(rewritten.items[3].item).toEqual({ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Light rain in Paris.", annotations: [] }] });
    expect(rewritten.changes).toEqual([
      { line: 2, index: 0, path: "", code: "unsupported_item", detail: 'an item of type \"reasoning\" is not part of the portable core' },
      { line: 2, index: 1, path: "", code: "unsupported_item", detail: '"openai:web_search_call" is one provider\'s extension, not part of the portable core' },
      { line: 4, index: 0, path: "", code: "unsupported_item", detail: 'an item of type \"item_reference\" is not part of the portable core' },
      { line: 5, index: 0, path: "", code: "unsupported_item", detail: 'an item of type \"compaction\" is not part of the portable core' },
      { line: 6, index: 0, path: "/id", code: "foreign_id_removed", detail: '"__fake_id__" is a placeholder id; removed' },
    ]);
  });

  test("the kept items are left untouched", () => {
    const rewritten = rewriteForTarget(journal, "open-responses");
    expect(rewritten.items.slice(0, 3)).toEqual([journal[0], journal[3], journal[4]]);
  });

  test("a message without type gets one", () => {
    const rewritten = rewriteForTarget([at("1.0", "responses", { role: "user", content: "hi" })], "open-responses");
    expect(rewritten).toEqual({
      items: [at("1.0", "responses", { role: "user", content: "hi", type: "message" })],
      changes: [{ line: 1, index: 0, path: "/type", code: "form_changed", detail: 'the message gets `type: "message"`, which Open Responses requires' }],
    });
  });

  test("the check rejects what is not portable, and portable items that break the item schema", () => {
    const badName = call("call_2", paris, "fc_02");
    badName.name = "weather.get";
    const checked = checkTarget([...journal, at("7.0", "responses", badName), at("8.0", "responses", { content: "no role, no type" })], "open-responses");
    expect(checked.map((item) => [placeOf(item), item.findings])).toEqual([
      ["1.0", []],
      ["2.0", [{ code: "target_rejects", detail: 'an item of type \"reasoning\" is not part of the portable core', path: "" }]],
      ["2.1", [{ code: "target_rejects", detail: '"openai:web_search_call" is one provider\'s extension, not part of the portable core', path: "" }]],
      ["2.2", []],
      ["3.0", []],
      ["4.0", [{ code: "target_rejects", detail: 'an item of type \"item_reference\" is not part of the portable core', path: "" }]],
      ["5.0", [{ code: "target_rejects", detail: 'an item of type \"compaction\" is not part of the portable core', path: "" }]],
      ["6.0", []],
      ["7.0", [{ code: "target_rejects", detail: "not a valid Open Responses function_call: /name Invalid string: must match pattern /^[a-zA-Z0-9_-]+$/", path: "/name" }]],
      ["8.0", [{ code: "target_rejects", detail: "an item without a type", path: "" }]],
    ]);
  });

  test("a call_id past Open Responses' 64 characters is rewritten, the call and its output alike, and the check then takes both", () => {
    const long = `call_${"x".repeat(60)}`;
    // 65 code points; 40 of them, 80 UTF-16 code units, would be 40 characters and kept.
    const astral = "🔧".repeat(65);
    const edge = `call_${"🔧".repeat(59)}`;
    const items = [at("1.0", "responses", call(long, paris)), at("2.0", "chat", output(long, "sunny")), at("3.0", "responses", call(astral, paris)), at("4.0", "chat", output(astral, "sunny")), at("5.0", "responses", call(edge, paris)), at("6.0", "responses", call("", paris))];
    expect(checkTarget(items, "open-responses").map((item) => item.findings.map((finding) => finding.path))).toEqual([["/call_id"], ["/call_id"], ["/call_id"], ["/call_id"], [], ["/call_id"]]);
    const rewritten = rewriteForTarget(items, "open-responses");
    const ids = rewritten.items.map((item) => (item.item as { call_id: string }).call_id);
    expect({ sameForCallAndOutput: [ids[0] === ids[1], ids[2] === ids[3]], kept: [ids[4], ids[5]], lengths: ids.slice(0, 4).map((id) => id.length <= 64 && id.length > 0) }).toEqual({ sameForCallAndOutput: [true, true], kept: [edge, ""], lengths: [true, true, true, true] });
    expect(rewritten.changes.map((change) => [change.line, change.path, change.code])).toEqual([1, 2, 3, 4].map((line) => [line, "/call_id", "id_rewritten"]));
    expect(rewritten.changes[0].detail).toBe(`call_id ${JSON.stringify(long)} does not match Open Responses' limit of 1 to 64 characters: written as ${JSON.stringify(ids[0])}, the call and its output alike`);
    // The empty call_id is left for the journal check to block: rewritten, it would pair what the journal never paired.
    expect(checkTarget(rewritten.items, "open-responses").map((item) => item.findings.map((finding) => finding.path))).toEqual([[], [], [], [], [], ["/call_id"]]);
  });
});

describe("openai-responses", () => {
  test("gives OpenAI's own items back their plain type and removes other providers' items", () => {
    const journal = [
      at("1.0", "responses", webSearch, response),
      at("1.1", "responses", { type: "anthropic:server_tool_use", id: "srvtoolu_01", name: "web_search" }, response),
      at("1.2", "responses", { type: "openai:function_call", id: "fc_01", call_id: "call_1", name: "get_weather", arguments: paris, status: "completed" }, response),
      at("1.3", "responses", reasoning("rs_01"), response),
      at("1.4", "responses", call("call_1", paris, "fc_01"), response),
    ];
    const rewritten = rewriteForTarget(journal, "openai-responses");
    expect(placesOf(rewritten)).toEqual(["1.0", "1.3", "1.4"]);
    expect(rewritten.items[0].item).toEqual({ ...webSearch, type: "web_search_call" });
    expect(rewritten.changes).toEqual([
      { line: 1, index: 0, path: "/type", code: "form_changed", detail: '"openai:web_search_call" is written as OpenAI\'s own "web_search_call"' },
      { line: 1, index: 1, path: "", code: "unsupported_item", detail: '"anthropic:server_tool_use" is not an item type OpenAI accepts' },
      { line: 1, index: 2, path: "", code: "unsupported_item", detail: '"openai:function_call" is not an item type OpenAI accepts' },
    ]);
  });

  test("removes ids OpenAI would refuse, and reasoning it cannot replay", () => {
    const journal = [
      at("1.0", "chat", call("call_1", paris, "call_1")),
      at("1.1", "chat", call("toolu_02", lyon, "toolu_02")),
      at("2.0", "chat", assistant("chatcmpl-B9x", "Done.")),
      at("3.0", "responses", reasoning("reasoning_7")),
    ];
    const rewritten = rewriteForTarget(journal, "openai-responses");
    expect(rewritten.items.map((item) => item.item)).toEqual([
      { type: "function_call", call_id: "call_1", name: "get_weather", arguments: paris, status: "completed" },
      { type: "function_call", call_id: "toolu_02", name: "get_weather", arguments: lyon, status: "completed" },
      { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Done.", annotations: [] }] },
    ]);
    expect(rewritten.changes).toEqual([
      { line: 1, index: 0, path: "/id", code: "foreign_id_removed", detail: '"call_1" is a call id put in the item id; removed' },
      { line: 1, index: 1, path: "/id", code: "foreign_id_removed", detail: 'the id repeats the call_id "toolu_02"; removed' },
      { line: 2, index: 0, path: "/id", code: "foreign_id_removed", detail: '"chatcmpl-B9x" is a Chat completion id, not an item id; removed' },
      { line: 3, index: 0, path: "", code: "unsupported_item", detail: "OpenAI replays a reasoning item only with its own `rs` id" },
    ]);
  });

  test("the check accepts OpenAI's items and rejects ids of another form", () => {
    const checked = checkTarget(
      [at("1.0", "responses", webSearch), at("1.1", "responses", call("toolu_9", paris, "toolu_01")), at("1.2", "responses", { type: "openai:function_call", call_id: "call_1" }), at("2.0", "chat", { role: "user", content: "hi" })],
      "openai-responses",
    );
    expect(checked.map((item) => [placeOf(item), item.findings])).toEqual([
      ["1.0", []],
      ["1.1", [{ code: "target_rejects", detail: 'OpenAI expects the id of a function_call to begin with "fc", not "toolu_01"', path: "/id" }]],
      ["1.2", [{ code: "target_rejects", detail: '"openai:function_call" is not an item type OpenAI accepts', path: "" }]],
      ["2.0", []],
    ]);
  });
});

describe("chat-completions", () => {
  test("removes what Chat cannot hold and writes a turn's text before its calls", () => {
    const journal = [
      at("1.0", "chat", user("weather in Paris and Lyon?")),
      at("2.0", "responses", reasoning("rs_01"), response),
      at("2.1", "responses", call("call_A", paris, "fc_A"), response),
      at("2.2", "responses", assistant("msg_01", "Checking both cities."), response),
      at("2.3", "responses", call("call_B", lyon, "fc_B"), response),
      at("3.0", "chat", output("call_A", "light rain")),
      at("4.0", "chat", output("call_B", "sunny")),
      at("5.0", "chat", user("thanks")),
    ];
    const rewritten = rewriteForTarget(journal, "chat-completions");
    expect(placesOf(rewritten)).toEqual(["1.0", "2.2", "2.1", "2.3", "3.0", "4.0", "5.0"]);
    expect(rewritten.changes).toEqual([
      { line: 2, index: 0, path: "", code: "unsupported_item", detail: 'an item of type "reasoning" has no Chat Completions form' },
      { line: 2, index: 2, path: "", code: "reordered", detail: "moved before the turn's calls: Chat keeps a turn's text and calls in one assistant message (now ahead of line 2, item 1)" },
    ]);
  });

  test("groups a call that came between the outputs of its turn", () => {
    const journal = [
      at("1.0", "chat", call("call_A", paris)),
      at("1.1", "chat", call("call_B", lyon)),
      at("2.0", "responses", output("call_A", "light rain")),
      at("3.0", "responses", call("call_C", "{\"city\":\"Nice\"}", "fc_C")),
      at("4.0", "responses", output("call_B", "sunny")),
      at("5.0", "responses", output("call_C", "windy")),
    ];
    const rewritten = rewriteForTarget(journal, "chat-completions");
    expect(placesOf(rewritten)).toEqual(["1.0", "1.1", "3.0", "2.0", "4.0", "5.0"]);
    expect(rewritten.changes).toEqual([{ line: 3, index: 0, path: "", code: "reordered", detail: "moved up to join the other calls of its turn (now ahead of line 2, item 0)" }]);
  });

  test("calls answered one by one are sequential turns and stay as they are", () => {
    const journal = [at("1.0", "responses", call("call_A", paris, "fc_A")), at("2.0", "chat", output("call_A", "light rain")), at("3.0", "responses", call("call_B", lyon, "fc_B")), at("4.0", "chat", output("call_B", "sunny"))];
    expect(rewriteForTarget(journal, "chat-completions")).toEqual({ items: journal, changes: [] });
  });

  test("the check reports text after calls and an output away from its calls", () => {
    const checked = checkTarget(
      [
        at("1.0", "responses", call("call_A", paris, "fc_A")),
        at("1.1", "responses", assistant("msg_01", "Checking.")),
        at("2.0", "chat", output("call_A", "light rain")),
        at("3.0", "chat", call("call_B", lyon)),
        at("4.0", "chat", user("and Nice?")),
        at("5.0", "responses", output("call_B", "sunny")),
        at("6.0", "responses", webSearch),
      ],
      "chat-completions",
    );
    expect(checked.map((item) => [placeOf(item), item.findings])).toEqual([
      ["1.0", []],
      ["1.1", [{ code: "target_order", detail: "assistant text between a turn's calls and their outputs: Chat writes a turn's text before its calls", path: "" }]],
      ["2.0", []],
      ["3.0", []],
      ["4.0", []],
      ["5.0", [{ code: "target_order", detail: "the output is not among the tool messages right after its call (line 3)", path: "", related_line: 3 }]],
      ["6.0", [{ code: "target_rejects", detail: '"openai:web_search_call" is one provider\'s extension and has no Chat Completions form', path: "" }]],
    ]);
  });

  test("the rewrite passes its own check", () => {
    const journal = [
      at("1.0", "responses", call("call_A", paris, "fc_A")),
      at("1.1", "responses", assistant("msg_01", "Checking.")),
      at("1.2", "responses", reasoning("rs_1")),
      at("1.3", "responses", call("call_B", lyon, "fc_B")),
      at("2.0", "chat", output("call_B", "sunny")),
      at("3.0", "chat", output("call_A", "light rain")),
    ];
    const rewritten = rewriteForTarget(journal, "chat-completions");
    expect(checkTarget(rewritten.items, "chat-completions").flatMap((item) => item.findings)).toEqual([]);
    expect(checkTarget(journal, "chat-completions").flatMap((item) => item.findings.map((finding) => finding.code))).toEqual(["target_order", "target_rejects"]);
  });
});

describe("chat-completions with a Chat dialect's reasoning field", () => {
  const dialectReasoning = { type: "reasoning", summary: [{ type: "summary_text", text: "Paris first, then Lyon." }], chat_field: "reasoning_content" };
  const journal = [
    at("1.0", "chat", user("weather in Paris and Lyon?")),
    at("2.0", "chat", call("call_A", paris)),
    at("2.1", "chat", dialectReasoning),
    at("2.2", "chat", call("call_B", lyon)),
    at("3.0", "chat", reasoning("rs_02")),
    at("4.0", "chat", output("call_A", "light rain")),
    at("5.0", "chat", output("call_B", "sunny")),
  ];

  test("keeps reasoning with text, written with the turn's text ahead of its calls; reasoning with no text is removed", () => {
    const rewritten = rewriteForTarget(journal, "chat-completions", { reasoningField: "reasoning_content" });
    expect(placesOf(rewritten)).toEqual(["1.0", "2.1", "2.0", "2.2", "4.0", "5.0"]);
    expect(rewritten.changes).toEqual([
      { line: 3, index: 0, path: "", code: "unsupported_item", detail: "a reasoning item with no text: reasoning_content has nothing to carry" },
      { line: 2, index: 1, path: "", code: "reordered", detail: "moved before the turn's calls: Chat keeps a turn's text and calls in one assistant message (now ahead of line 2, item 0)" },
    ]);
  });

  test("without the field, every reasoning item is removed", () => {
    expect(placesOf(rewriteForTarget(journal, "chat-completions"))).toEqual(["1.0", "2.0", "2.2", "4.0", "5.0"]);
  });

  test("the check given the same field accepts the reasoning it keeps", () => {
    const rewritten = rewriteForTarget(journal, "chat-completions", { reasoningField: "reasoning_content" });
    expect(checkTarget(rewritten.items, "chat-completions", { reasoningField: "reasoning_content" }).flatMap((item) => item.findings)).toEqual([]);
    expect(checkTarget(rewritten.items, "chat-completions").flatMap((item) => item.findings.map((finding) => finding.code))).toEqual(["target_rejects"]);
  });
});

describe("strict", () => {
  test("removes status from every item that has one", () => {
    const journal = [at("1.0", "chat", user("hi")), at("2.0", "responses", call("call_A", paris, "fc_A"), response), at("2.1", "responses", { ...assistant("msg_1", "Hello."), status: null }, response)];
    const rewritten = rewriteForTarget(journal, "strict");
    expect(rewritten).toEqual({
      items: [
        journal[0],
        at("2.0", "responses", { type: "function_call", id: "fc_A", call_id: "call_A", name: "get_weather", arguments: paris }, response),
        at("2.1", "responses", { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Hello.", annotations: [] }] }, response),
      ],
      changes: [
        { line: 2, index: 0, path: "/status", code: "unsupported_field", detail: "strict input items carry no status" },
        { line: 2, index: 1, path: "/status", code: "unsupported_field", detail: "strict input items carry no status" },
      ],
    });
  });

  test("keeps the status of an unfinished call, reported, so that it cannot read as one that ran; the check still rejects it", () => {
    const journal = ["incomplete", "in_progress"].map((status, index) => at(`${index + 1}.0`, "responses", { ...call(`call_${index}`, paris), status }));
    const rewritten = rewriteForTarget(journal, "strict");
    expect(rewritten.items).toEqual(journal);
    expect(rewritten.changes.map((change) => [change.line, change.path, change.code, change.detail.startsWith("kept: the call is ")])).toEqual([
      [1, "/status", "unsupported_field", true],
      [2, "/status", "unsupported_field", true],
    ]);
    expect(checkTarget(rewritten.items, "strict").map((item) => item.findings.map((finding) => finding.code))).toEqual([["target_rejects"], ["target_rejects"]]);
  });

  test("the source items are not modified", () => {
    const item = call("call_A", paris, "fc_A");
    rewriteForTarget([at("1.0", "responses", item)], "strict");
    expect(item.status).toBe("completed");
  });

  test("the check rejects a status", () => {
    const checked = checkTarget([at("1.0", "chat", user("hi")), at("2.0", "responses", call("call_A", paris, "fc_A"))], "strict");
    expect(checked.map((item) => [placeOf(item), item.findings])).toEqual([
      ["1.0", []],
      ["2.0", [{ code: "target_rejects", detail: "strict input items carry no status", path: "/status" }]],
    ]);
  });
});

describe("adjacent", () => {
  test("moves each output directly after its call, keeping reasoning before its call", () => {
    const journal = [
      at("1.0", "responses", reasoning("rs_1"), response),
      at("1.1", "responses", call("call_A", paris, "fc_A"), response),
      at("1.2", "responses", reasoning("rs_2"), response),
      at("1.3", "responses", call("call_B", lyon, "fc_B"), response),
      at("2.0", "chat", output("call_B", "sunny")),
      at("3.0", "chat", output("call_A", "light rain")),
      at("4.0", "chat", user("thanks")),
    ];
    const rewritten = rewriteForTarget(journal, "adjacent");
    expect(placesOf(rewritten)).toEqual(["1.0", "1.1", "3.0", "1.2", "1.3", "2.0", "4.0"]);
    expect(rewritten.changes).toEqual([{ line: 3, index: 0, path: "", code: "reordered", detail: "moved directly after its call (now ahead of line 1, item 2)" }]);
  });

  test("a call left without output is released when the turn ends", () => {
    const journal = [at("1.0", "chat", call("call_A", paris)), at("1.1", "chat", call("call_B", lyon)), at("2.0", "responses", output("call_A", "light rain")), at("3.0", "responses", user("stop"))];
    const rewritten = rewriteForTarget(journal, "adjacent");
    expect(placesOf(rewritten)).toEqual(["1.0", "2.0", "1.1", "3.0"]);
    expect(rewritten.changes).toEqual([{ line: 2, index: 0, path: "", code: "reordered", detail: "moved directly after its call (now ahead of line 1, item 1)" }]);
  });

  test("the rewriter holds the open turn only", () => {
    const rewriter = new TargetRewriter("adjacent");
    const callA = at("2.0", "chat", call("call_A", paris));
    const callB = at("2.1", "chat", call("call_B", lyon));
    const outB = at("3.0", "responses", output("call_B", "sunny"));
    const outA = at("4.0", "responses", output("call_A", "light rain"));
    expect(rewriter.push([at("1.0", "chat", user("weather?"))]).items.map(placeOf)).toEqual(["1.0"]);
    expect(rewriter.push([callA, callB]).items).toEqual([]);
    expect(rewriter.push([outB]).items).toEqual([]);
    expect(rewriter.push([outA]).items).toEqual([callA, outA, callB, outB]);
    expect(rewriter.finish()).toEqual({ items: [], changes: [] });
  });

  test("a turn longer than the limit is released as it is", () => {
    const journal = [at("1.0", "chat", call("call_A", paris)), at("1.1", "chat", call("call_B", lyon)), at("1.2", "chat", call("call_C", paris)), at("2.0", "responses", output("call_A", "light rain"))];
    const rewritten = rewriteForTarget(journal, "adjacent", { maxTurnItems: 2 });
    expect(rewritten).toEqual({ items: journal, changes: [] });
    expect(checkTarget(rewritten.items, "adjacent")[3].findings).toEqual([{ code: "target_order", detail: "the output does not directly follow its call (line 1)", path: "", related_line: 1 }]);
  });

  test("the check reports each output away from its call", () => {
    const checked = checkTarget(
      [at("1.0", "chat", call("call_A", paris)), at("1.1", "chat", call("call_B", lyon)), at("2.0", "responses", output("call_A", "light rain")), at("3.0", "responses", output("call_B", "sunny"))],
      "adjacent",
    );
    expect(checked.map((item) => [placeOf(item), item.findings])).toEqual([
      ["1.0", []],
      ["1.1", []],
      ["2.0", [{ code: "target_order", detail: "the output does not directly follow its call (line 1)", path: "", related_line: 1 }]],
      ["3.0", [{ code: "target_order", detail: "the output does not directly follow its call (line 1)", path: "", related_line: 1 }]],
    ]);
  });
});

describe.each(["adjacent", "chat-completions"] as const)("%s: an output that comes before its call", (target) => {
  const journal = [
    at("1.0", "chat", user("weather in Paris?")),
    at("2.0", "responses", output("call_late", "light rain")),
    at("3.0", "responses", call("call_late", paris, "fc_late")),
  ];

  test("is moved after its call, and the move is reported", () => {
    const rewritten = rewriteForTarget(journal, target);
    expect(placesOf(rewritten)).toEqual(["1.0", "3.0", "2.0"]);
    expect(rewritten.changes).toEqual([{ line: 2, index: 0, path: "", code: "reordered", detail: "the output came before its call (line 3, item 0): moved after it" }]);
  });

  test("the rewrite leaves the journal checks nothing to block", () => {
    const gated = (items: JournalItem[]) => new JournalChecker({ checks: [new TargetChecker(target)] }).push(items.map((item) => ({ ...item, verdict: { reason: "ok" as const, detail: "" } })));
    expect(gated(rewriteForTarget(journal, target).items).flatMap((checked) => checked.findings.map((finding) => finding.code))).toEqual([]);
    expect(gated(journal).flatMap((checked) => checked.findings.map((finding) => finding.code))).toEqual(["orphan_output"]);
  });

  test("the items after it are held until its call comes, then released in their order", () => {
    const rewriter = new TargetRewriter(target);
    const between = at("2.1", "chat", user("still there?"));
    expect(rewriter.push([journal[0]]).items).toEqual([journal[0]]);
    expect(rewriter.push([journal[1], between]).items).toEqual([]);
    const released = rewriter.push([journal[2], at("4.0", "chat", user("thanks"))]);
    expect(released.items.map(placeOf)).toEqual(["2.1", "3.0", "2.0", "4.0"]);
    expect(rewriter.finish()).toEqual({ items: [], changes: [] });
  });

  test("one whose call never comes stays where it is, reported as one the target rejects", () => {
    const orphan = [at("1.0", "chat", user("weather?")), at("2.0", "responses", output("call_nowhere", "light rain")), at("3.0", "chat", user("thanks"))];
    expect(rewriteForTarget(orphan, target)).toEqual({
      items: orphan,
      changes: [
        {
          line: 2,
          index: 0,
          path: "",
          code: "orphan_output",
          detail: "its call comes neither before it nor in the 1 item held after it: left where it is; the target rejects an output without its call",
        },
      ],
    });
  });

  test("one whose call comes only after the limit is released where it is, with what was held", () => {
    const late = [at("1.0", "responses", output("call_late", "light rain")), at("2.0", "chat", user("a")), at("3.0", "chat", user("b")), at("4.0", "responses", call("call_late", paris))];
    const rewritten = rewriteForTarget(late, target, { maxTurnItems: 2 });
    expect(placesOf(rewritten)).toEqual(["1.0", "2.0", "3.0", "4.0"]);
    expect(rewritten.changes).toEqual([
      { line: 1, index: 0, path: "", code: "orphan_output", detail: "its call comes neither before it nor in the 2 items held after it: left where it is; the target rejects an output without its call" },
    ]);
  });
});

describe("a target check inside the journal checks", () => {
  test("its findings join the journal findings of each item", () => {
    const target: Target = "strict";
    const checker = new JournalChecker({ checks: [new TargetChecker(target)] });
    const item = { ...at("1.0", "responses", call("call_A", paris, "call_A")), verdict: { reason: "ok" as const, detail: "" } };
    expect(checker.push([item]).map((checked) => checked.findings)).toEqual([
      [
        { code: "target_rejects", detail: "strict input items carry no status", path: "/status" },
        { code: "foreign_id", detail: '"call_A" is a call id put in the item id', path: "/id" },
      ],
    ]);
  });
});

describe("a provider's target, judged by the profile handed over", () => {
  const kimi = "functions.get_weather:0";
  const anthropic = { profile: profileOf("anthropic") };
  const mistral = { profile: profileOf("mistral") };
  const bedrock = { profile: profileOf("bedrock") };
  const gemini = { profile: profileOf("gemini") };
  const signed = (envelope: string) => ({ type: "reasoning", summary: [{ type: "summary_text", text: "Check the sky." }], encrypted_content: "EqQBCkYIBRgCKkB-sig", provenance: { envelope, block: "thinking" } });

  test("without its profile, it cannot be judged: the checker refuses to start", () => {
    expect(() => new TargetChecker("anthropic")).toThrow("the target anthropic is judged by its profile, and none was handed over for it");
    expect(() => new TargetChecker("anthropic", mistral)).toThrow("the target anthropic is judged by its profile");
  });

  test("anthropic: a call id of another grammar, the call and its output, with Anthropic's own error text", () => {
    const checked = checkTarget([at("1.0", "chat", call(kimi, paris)), at("2.0", "chat", output(kimi, "sunny"))], "anthropic", anthropic);
    const detail = `call_id "${kimi}" does not match ^[a-zA-Z0-9_-]+$: a tool_use id (and the tool_use_id of its tool_result) is letters, digits, _ and - only; anthropic answers "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"`;
    expect(checked.map((item) => item.findings)).toEqual([[{ code: "target_rejects", detail, path: "/call_id" }], [{ code: "target_rejects", detail, path: "/call_id" }]]);
  });

  test("anthropic: another family's signature and an empty text are refused, its own signature is taken", () => {
    const checked = checkTarget([at("1.0", "gemini", signed("gemini")), at("2.0", "anthropic", signed("anthropic")), at("3.0", "chat", { type: "message", role: "assistant", content: "" })], "anthropic", anthropic);
    expect(checked.map((item) => item.findings)).toEqual([
      [{ code: "target_rejects", detail: 'the reasoning carries gemini\'s opaque payload: a thinking block\'s signature is Anthropic\'s own, bound to the model family that wrote it; anthropic answers "Invalid signature in thinking block"', path: "" }],
      [],
      [{ code: "target_rejects", detail: 'empty or blank text: a text block holds at least one character other than white space; anthropic answers "messages: text content blocks must be non-empty"', path: "/content" }],
    ]);
  });

  test.each([
    ["anthropic", anthropic],
    ["bedrock", bedrock],
  ] as const)("%s: text of white space alone is refused as empty text is, as content and as a part", (name, profile) => {
    const blanks = [" ", "\n\t", "\u00a0", "\u3000", "\u2028", "\u0085", "\u001c"];
    const items = blanks.flatMap((text, index) => [
      at(`${2 * index + 1}.0`, "chat", { type: "message", role: "user", content: text }),
      at(`${2 * index + 2}.0`, "responses", { type: "message", role: "assistant", content: [{ type: "output_text", text: "Paris." }, { type: "output_text", text }] }),
    ]);
    const checked = checkTarget(items, name, profile);
    expect(checked.map((item) => item.findings.map((finding) => [finding.code, finding.path]))).toEqual(blanks.flatMap(() => [[["target_rejects", "/content"]], [["target_rejects", "/content/1/text"]]]));
  });

  test("gemini: text of white space alone is text; only empty text is refused", () => {
    const checked = checkTarget([at("1.0", "chat", { type: "message", role: "user", content: " " }), at("2.0", "chat", { type: "message", role: "user", content: "" })], "gemini", gemini);
    expect(checked.map((item) => item.findings.map((finding) => finding.code))).toEqual([[], ["target_rejects"]]);
  });

  test("mistral: ids of exactly 9 letters or digits, no reasoning at all, nothing but text in a tool message", () => {
    const parts = [{ type: "input_text", text: "the chart" }, { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" }, { type: "input_file", file_id: "file_1" }, { type: "input_video", video_url: "https://example.com/v.mp4" }, { text: "no type" }];
    const media = { type: "function_call_output", call_id: "a1b2c3d4e", output: parts };
    const checked = checkTarget([at("1.0", "chat", call("a1b2c3d4e", paris)), at("2.0", "chat", media), at("3.0", "chat", { type: "reasoning", summary: [{ type: "summary_text", text: "Think." }] })], "mistral", mistral);
    const rule = "a tool message holds text parts only; an image or a file goes in a user message";
    expect(checked.map((item) => item.findings)).toEqual([
      [],
      [
        { code: "target_rejects", detail: `an image in a tool result: ${rule}`, path: "/output/1" },
        { code: "target_rejects", detail: `a file in a tool result: ${rule}`, path: "/output/2" },
        { code: "target_rejects", detail: `a video in a tool result: ${rule}`, path: "/output/3" },
        { code: "target_rejects", detail: `a part without a type in a tool result: ${rule}`, path: "/output/4" },
      ],
      [{ code: "target_rejects", detail: "a reasoning item without the target's own payload: an assistant message carries no reasoning input", path: "" }],
    ]);
  });

  test("an empty call_id is not rewritten: it names no call, and an id made of it would pair a call and an output the journal never paired", () => {
    const items = [at("1.0", "responses", call("", paris)), at("2.0", "responses", output("", "sunny"))];
    const rewriter = new TargetRewriter("mistral", mistral);
    const rewritten = rewriter.push(items);
    expect(rewritten.items.map((item) => (item.item as { call_id: string }).call_id)).toEqual(["", ""]);
    expect(rewritten.changes).toEqual([]);
    expect(rewriter.idMap()).toEqual([]);
  });

  test("normalize's rewrite for mistral gives 9-character ids, the call and its output alike, distinct ids kept distinct, the same on every run", () => {
    const items = [at("1.0", "chat", call(kimi, paris)), at("1.1", "chat", call("functions.get_weather:1", lyon)), at("2.0", "chat", output(kimi, "sunny")), at("2.1", "chat", output("functions.get_weather:1", "rain"))];
    const first = new TargetRewriter("mistral", mistral);
    const rewritten = first.push(items);
    const ids = rewritten.items.map((item) => (item.item as { call_id: string }).call_id);
    expect(ids.every((id) => /^[a-zA-Z0-9]{9}$/.test(id))).toBe(true);
    expect([ids[0] === ids[2], ids[1] === ids[3], ids[0] !== ids[1]]).toEqual([true, true, true]);
    expect(first.idMap()).toEqual([
      { original: kimi, rewritten: ids[0] },
      { original: "functions.get_weather:1", rewritten: ids[1] },
    ]);
    expect(new TargetRewriter("mistral", mistral).push(items).items).toEqual(rewritten.items);
    expect(rewritten.changes.map((change) => [change.line, change.index, change.path, change.code])).toEqual([
      [1, 0, "/call_id", "id_rewritten"],
      [1, 1, "/call_id", "id_rewritten"],
      [2, 0, "/call_id", "id_rewritten"],
      [2, 1, "/call_id", "id_rewritten"],
    ]);
    expect(checkTarget(rewritten.items, "mistral", mistral).flatMap((item) => item.findings)).toEqual([]);
  });

  test("deepseek in thinking mode: a later turn whose calls come without their reasoning is refused, in DeepSeek's words, once per turn", () => {
    const thought = (text: string) => ({ type: "reasoning", summary: [{ type: "summary_text", text }], chat_field: "reasoning_content" });
    const deepseek = { profile: profileOf("deepseek") };
    const journal = [
      at("1.0", "chat", user("Weather in Paris and Lyon?")),
      at("2.0", "chat", thought("Both cities, one call each.")),
      at("2.1", "chat", call("call_1", paris)),
      at("3.0", "chat", output("call_1", "sunny")),
      at("4.0", "chat", call("call_2", lyon)),
      at("4.1", "chat", call("call_3", lyon)),
      at("5.0", "chat", output("call_2", "rain")),
      at("6.0", "chat", output("call_3", "rain")),
      at("7.0", "chat", user("And Nice?")),
      at("8.0", "chat", thought("One more.")),
      at("8.1", "chat", assistant("msg_1", "Checking Nice.")),
      at("8.2", "chat", call("call_4", "{\"city\":\"Nice\"}")),
    ];
    const findings = checkTarget(journal, "deepseek", deepseek).map((item) => item.findings);
    expect(findings).toEqual([
      [],
      [],
      [],
      [],
      [
        {
          code: "target_rejects",
          detail:
            "an assistant turn makes tool calls without the reasoning written with them: in thinking mode, an assistant message with tool calls carries back the reasoning_content the model wrote with them; deepseek answers \"The `reasoning_content` in the thinking mode must be passed back to the API.\"",
          path: "",
        },
      ],
      [],
      [],
      [],
      [],
      [],
      [],
      [],
    ]);
  });

  test("deepseek: a conversation that shows no reasoning is not in thinking mode, and its calls need none", () => {
    const journal = [at("1.0", "chat", user("Weather in Paris?")), at("2.0", "chat", call("call_1", paris)), at("3.0", "chat", output("call_1", "sunny")), at("4.0", "chat", call("call_2", lyon))];
    expect(checkTarget(journal, "deepseek", { profile: profileOf("deepseek") }).flatMap((item) => item.findings)).toEqual([]);
  });

  test("the rule is DeepSeek's: mistral and chat-completions have no such rule for the same journal", () => {
    const journal = [at("1.0", "chat", { type: "reasoning", summary: [{ type: "summary_text", text: "Think." }] }), at("1.1", "chat", call("a1b2c3d4e", paris)), at("2.0", "chat", output("a1b2c3d4e", "sunny")), at("3.0", "chat", call("b1b2c3d4e", lyon))];
    const codes = (target: Target) => checkTarget(journal, target, { profile: profileOf(target as "mistral") }).flatMap((item) => item.findings.map((finding) => `${item.provenance.line}:${finding.code}`));
    expect(codes("chat-completions")).toEqual(["1:target_rejects"]);
    expect(codes("mistral")).toEqual(["1:target_rejects"]);
    expect(codes("deepseek")).toEqual(["3:target_rejects"]);
  });

  test("normalize's rewrite for deepseek keeps another family's reasoning text and drops its payload, reported", () => {
    const rewritten = rewriteForTarget([at("1.0", "anthropic", signed("anthropic"))], "deepseek", { profile: profileOf("deepseek") });
    expect(rewritten.items.map((item) => item.item)).toEqual([{ type: "reasoning", summary: [{ type: "summary_text", text: "Check the sky." }] }]);
    expect(rewritten.changes).toEqual([
      { line: 1, index: 0, path: "/encrypted_content", code: "unsupported_field", detail: "the reasoning carries anthropic's opaque payload: a Chat message has no field for another provider's signature or encrypted reasoning: removed, its text kept" },
    ]);
  });

  test("normalize's rewrite for a Chat target moves a tool result's image and file into a user message after the turn's tool results", () => {
    const chart = { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" };
    const report = { type: "input_file", file_id: "file_1" };
    const withImage = { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "the chart" }, chart, report] };
    const items = [at("1.0", "chat", call("call_1", paris)), at("1.1", "chat", call("call_2", lyon)), at("2.0", "chat", withImage), at("3.0", "chat", output("call_2", "rain"))];
    const rewritten = rewriteForTarget(items, "chat-completions", { profile: profileOf("chat-completions") });
    expect(rewritten.items.map((item) => item.item)).toEqual([
      call("call_1", paris),
      call("call_2", lyon),
      { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "the chart" }] },
      output("call_2", "rain"),
      { type: "message", role: "user", content: [chart, report] },
    ]);
    expect(rewritten.changes).toEqual([
      { line: 2, index: 0, path: "/output/1", code: "form_changed", detail: "an image in a tool result, which chat-completions refuses: moved into a user message after the turn's tool results" },
      { line: 2, index: 0, path: "/output/2", code: "form_changed", detail: "a file in a tool result, which chat-completions refuses: moved into a user message after the turn's tool results" },
    ]);
    expect(checkTarget(rewritten.items, "chat-completions", { profile: profileOf("chat-completions") }).flatMap((item) => item.findings)).toEqual([]);
  });

  test("deepseek takes no image or file in any message: the check names each, and the rewrite removes them, never moving them into a user message", () => {
    const chart = { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" };
    const report = { type: "input_file", file_id: "file_1" };
    const deepseek = { profile: profileOf("deepseek") };
    const asked = { type: "message", role: "user", content: [{ type: "input_text", text: "What does the chart say?" }, chart] };
    const shown = { type: "message", role: "user", content: [report] };
    const withParts = { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "the chart" }, chart] };
    const items = [at("1.0", "chat", asked), at("2.0", "chat", call("call_1", paris)), at("3.0", "chat", withParts), at("4.0", "chat", shown)];
    expect(checkTarget(items, "deepseek", deepseek).flatMap((item) => item.findings.map((finding) => [item.provenance.line, finding.path, finding.detail.split(":")[0]]))).toEqual([
      [1, "/content/1", "an image in a message"],
      [3, "/output/1", "an image in a tool result"],
      [4, "/content/0", "a file in a message"],
    ]);
    const rewritten = rewriteForTarget(items, "deepseek", deepseek);
    expect(rewritten.items.map((item) => item.item)).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "What does the chart say?" }] },
      call("call_1", paris),
      { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "the chart" }] },
    ]);
    expect(rewritten.changes.map((change) => [change.line, change.path, change.code, change.detail])).toEqual([
      [1, "/content/1", "unsupported_field", "an image in a message, which deepseek refuses: removed"],
      [3, "/output/1", "unsupported_field", "an image in a tool result, which deepseek refuses in any message: removed"],
      [4, "/content/0", "unsupported_field", "a file in a message, which deepseek refuses: removed"],
      [4, "", "unsupported_item", "only parts deepseek refuses"],
    ]);
    expect(checkTarget(rewritten.items, "deepseek", deepseek).flatMap((item) => item.findings)).toEqual([]);
    // Chat Completions takes them in a user message.
    expect(checkTarget([items[0]!, items[3]!], "chat-completions", { profile: profileOf("chat-completions") }).flatMap((item) => item.findings)).toEqual([]);
  });

  test("normalize's rewrite for anthropic removes another family's signed reasoning and empty text parts, each reported", () => {
    const message = { type: "message", role: "assistant", content: [{ type: "output_text", text: "", annotations: [] }, { type: "output_text", text: "Sunny.", annotations: [] }] };
    const rewritten = rewriteForTarget([at("1.0", "gemini", signed("gemini")), at("2.0", "chat", message)], "anthropic", anthropic);
    expect(rewritten.items.map((item) => item.item)).toEqual([{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Sunny.", annotations: [] }] }]);
    expect(rewritten.changes.map((change) => [change.line, change.path, change.code])).toEqual([
      [1, "", "unsupported_item"],
      [2, "/content/0", "unsupported_field"],
    ]);
  });

  test("normalize's rewrite for bedrock removes a blank text part, and a message of blank text, each reported, and the gate then finds nothing", () => {
    const message = { type: "message", role: "assistant", content: [{ type: "output_text", text: "Sunny.", annotations: [] }, { type: "output_text", text: " \n", annotations: [] }] };
    const rewritten = rewriteForTarget([at("1.0", "chat", { type: "message", role: "user", content: "Weather?" }), at("2.0", "chat", message), at("3.0", "chat", { type: "message", role: "user", content: "\u3000" })], "bedrock", bedrock);
    expect(rewritten.items.map((item) => item.item)).toEqual([{ type: "message", role: "user", content: "Weather?" }, { type: "message", role: "assistant", content: [{ type: "output_text", text: "Sunny.", annotations: [] }] }]);
    expect(rewritten.changes.map((change) => [change.line, change.path, change.code, change.detail])).toEqual([
      [2, "/content/1", "unsupported_field", "an empty or blank text part, which bedrock refuses: removed"],
      [3, "", "unsupported_item", "empty or blank text, which bedrock refuses"],
    ]);
    expect(checkTarget(rewritten.items, "bedrock", bedrock).flatMap((item) => item.findings)).toEqual([]);
  });

  const asked = at("0.0", "responses", { type: "message", role: "user", content: "Weather in Paris?" });

  test("bedrock refuses a tool name outside its grammar: a dot, or more than 64 characters; one within it passes", () => {
    const named = (name: string) => at("1.0", "responses", { ...call("call_1", paris), name });
    const rejects = (name: string) => checkTarget([asked, named(name)], "bedrock", bedrock).flatMap((item) => item.findings);
    expect(rejects("weather.get")).toEqual([
      { code: "target_rejects", detail: 'the tool name "weather.get" does not match ^[a-zA-Z0-9_-]{1,64}$: a tool\'s name (ToolSpecification, ToolUseBlock) is 1 to 64 letters, digits, _ and -', path: "/name" },
    ]);
    expect(rejects("w".repeat(65)).map((finding) => finding.code)).toEqual(["target_rejects"]);
    expect(rejects("get_weather-2")).toEqual([]);
  });

  test.each([
    ["anthropic", "weather.get", "w".repeat(128), "w".repeat(129)],
    ["gemini", "2weather", "ns:weather.get_v-2", "w".repeat(65)],
    ["chat-completions", "weather.get", "get_weather-2", "w".repeat(65)],
    ["deepseek", "weather get", "w".repeat(64), "w".repeat(65)],
    ["mistral", "weather.get", "get_weather-2", "w".repeat(65)],
  ])("%s refuses a tool name outside its grammar (%s), and takes one within it", (target, refused, taken, tooLong) => {
    const named = (name: string) => at("1.0", "responses", { ...call("a1b2c3d4e", paris), name });
    const codes = (name: string) => checkTarget([asked, named(name)], target as Target, { profile: profileOf(target) }).flatMap((item) => item.findings.map((finding) => [finding.code, finding.path]));
    expect([codes(refused), codes(taken), codes(tooLong)]).toEqual([[["target_rejects", "/name"]], [], [["target_rejects", "/name"]]]);
  });

  test("a target that states no tool-name grammar takes any name", () => {
    const named = at("1.0", "responses", { ...call("call_1", paris), name: "weather.get" });
    expect(checkTarget([named], "openai-responses", { profile: profileOf("openai-responses") }).flatMap((item) => item.findings)).toEqual([]);
  });

  describe("the order of a conversation's turns", () => {
    const message = (role: string, content = "text") => ({ type: "message", role, content });
    const items = (...list: Array<Record<string, unknown>>) => list.map((item, index) => at(`${index + 1}.0`, "responses", item));
    // The line and the first words of each finding on the turn rules.
    const turnFindings = (target: string, list: Array<Record<string, unknown>>) =>
      checkTarget(items(...list), target as Target, { profile: profileOf(target) }).flatMap((item) => item.findings.filter((finding) => !finding.detail.startsWith("call_id")).map((finding) => [item.provenance.line, finding.detail.split(":")[0]]));
    const asked = message("user", "Weather in Paris?");
    const answered = [call("c1", paris), output("c1", "sunny")];

    test.each(["bedrock"])("%s: a conversation that does not begin with a user message is refused at its first item, past its system prompt", (target) => {
      expect(turnFindings(target, [message("system"), asked, ...answered])).toEqual([]);
      expect(turnFindings(target, [message("developer"), ...answered, asked])).toEqual([[2, "the conversation begins with the model's turn, not a user message"]]);
      expect(turnFindings(target, [message("assistant"), asked])).toEqual([[1, "the conversation begins with the model's turn, not a user message"]]);
      expect(turnFindings(target, [output("c0", "late"), asked])).toEqual([[1, "the conversation begins with a tool result, not a user message"]]);
      // A system message later on is refused as such, and what follows it does not begin the conversation again.
      expect(turnFindings(target, [asked, message("assistant"), message("system"), message("assistant")])).toEqual([[3, "a system message after the model's turn"]]);
      // An item the target cannot hold is no turn: the conversation begins after it.
      expect(turnFindings(target, [{ type: "openai:web_search_call", id: "ws_1", status: "completed" }, asked]).filter(([line]) => line === 2)).toEqual([]);
    });

    test("gemini: each call before any user message or tool result is refused; a conversation may begin otherwise", () => {
      expect(turnFindings("gemini", [message("system"), call("c1", paris), call("c2", lyon), asked])).toEqual([
        [2, "a call made before any user message or tool result"],
        [3, "a call made before any user message or tool result"],
      ]);
      expect(turnFindings("gemini", [message("assistant", "Hello."), asked, ...answered])).toEqual([]);
      expect(turnFindings("gemini", [output("c0", "late"), call("c1", paris)])).toEqual([]);
    });

    test.each(["anthropic", "gemini", "bedrock"])("%s: a system or developer message once the conversation has begun is refused; before it, it is the system prompt", (target) => {
      expect(turnFindings(target, [message("system"), message("developer"), asked])).toEqual([]);
      expect(turnFindings(target, [asked, message("system")])).toEqual([[2, "a system message after a user message"]]);
      expect(turnFindings(target, [asked, ...answered, message("developer")])).toEqual([[4, "a developer message after a tool result"]]);
    });

    test("mistral: a system message is refused right after the model's turn or a tool result, and taken after a user message", () => {
      expect(turnFindings("mistral", [asked, message("system")])).toEqual([]);
      expect(turnFindings("mistral", [asked, message("assistant"), message("system")])).toEqual([[3, "a system message after the model's turn"]]);
      expect(turnFindings("mistral", [asked, ...answered, message("system")])).toEqual([[4, "a system message after a tool result"]]);
      expect(turnFindings("mistral", [asked, ...answered, asked, message("system")])).toEqual([]);
    });

    test.each(["chat-completions", "deepseek", "openai-responses", "open-responses"])("%s has no such rule", (target) => {
      const list = [call("c1", paris), output("c1", "sunny"), message("system"), asked];
      expect(turnFindings(target, list).filter(([, detail]) => !String(detail).startsWith("not a valid"))).toEqual([]);
    });
  });
});
