import { describe, expect, test } from "vitest";
import { completionToItems } from "../../../adapters/chat-completions/completion-to-response.js";
import { ChatStreamAssembler } from "../../../adapters/chat-completions/stream.js";
import { replayGate } from "../../../src/gate/replay-gate.js";
import type { AssembledResponse } from "../../../src/models/assembled-response.js";

const ID = "chatcmpl-Bq7TnX2kLm9Pw4Rs";
const lookupSchema = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false };

/** A chunk with one choice at index 0, shaped like the recorded ones. */
function chunk(delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}) {
  return { id: ID, object: "chat.completion.chunk", created: 1754693439, model: "gpt-4o-2024-08-06", choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...extra };
}
const role = () => chunk({ role: "assistant", content: null });
const fragment = (call: Record<string, unknown>) => chunk({ tool_calls: [call] });
const finish = (reason: string) => chunk({}, reason);
const usage = () => ({ id: ID, object: "chat.completion.chunk", created: 1754693439, model: "gpt-4o-2024-08-06", choices: [], usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 } });
const call = (callId: string, name: string, args: string, status: string) => ({ type: "function_call", call_id: callId, name, arguments: args, status });

/** A field the items do not hold, as normalize reports it: at the first chunk that held it. */
const leftBehind = (line: number, path: string, what = "the chat.completion") => ({ line, path, code: "left_behind", detail: `${path.split("/").pop()} of ${what} is in no item: normalize writes items only` });
/** The fields of the completion the chunks above rebuild that no item holds: its id, created and model, from the opening chunk. */
const recordFields = (line = 1) => ["/id", "/created", "/model"].map((path) => leftBehind(line, path));
/** A completed choice with no call: no item's status says how it finished. */
const finishLeftBehind = (line: number) => leftBehind(line, "/choices/0/finish_reason", "the choice");

/** Pushes chunks numbered from 1; returns what push and finish gave, in order. */
function run(chunks: unknown[]): AssembledResponse[] {
  const assembler = new ChatStreamAssembler();
  const out = chunks.flatMap((record, i) => assembler.push(record, i + 1));
  return [...out, ...assembler.finish()];
}

describe("text and refusal deltas", () => {
  test("text fragments become one assistant message, its text a string as the non-streamed message has it", () => {
    expect(run([chunk({ role: "assistant", content: "" }), chunk({ content: "Lyon" }), chunk({ content: " it is." }), finish("stop"), usage()])).toEqual([
      { id: ID, status: "completed", items: [{ type: "message", role: "assistant", content: "Lyon it is." }], losses: [finishLeftBehind(4), ...recordFields(), leftBehind(5, "/usage")], line: 1, lastLine: 5 },
    ]);
  });

  test("refusal fragments become a refusal part", () => {
    const chunks = [chunk({ role: "assistant", content: null, refusal: "" }), chunk({ refusal: "Not" }), chunk({ refusal: " that one." }), finish("stop")];
    expect(run(chunks)).toEqual([
      { id: ID, status: "completed", items: [{ type: "message", role: "assistant", content: [{ type: "refusal", refusal: "Not that one." }] }], losses: [finishLeftBehind(4), ...recordFields()], line: 1, lastLine: 4 },
    ]);
  });

  test("a refusal beside text: both parts, and the loss points at the chunk that carried the refusal", () => {
    const [result] = run([chunk({ role: "assistant", content: "Partly" }), chunk({ refusal: "No more." }), finish("stop")]);
    expect(result.items).toEqual([{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Partly", annotations: [] }, { type: "refusal", refusal: "No more." }] }]);
    expect(result.losses).toEqual([
      { line: 2, path: "/choices/0/delta/refusal", code: "form_changed", detail: "a refusal beside text becomes a refusal part next to the text parts" },
      finishLeftBehind(3),
      ...recordFields(),
    ]);
  });

  test("a delta field no envelope defines is a field of the rebuilt message, never merged into the text: the stored message's loss, at the first chunk that held it", () => {
    const [result] = run([
      chunk({ role: "assistant", content: null, vendor_note: "" }),
      chunk({ content: null, vendor_note: "Think" }),
      chunk({ content: null, vendor_note: " twice." }),
      chunk({ content: "Done." }),
      chunk({ content: "", vendor_note: null }, "stop"),
    ]);
    expect(result.items).toEqual([{ type: "message", role: "assistant", content: "Done." }]);
    expect(result.losses).toEqual([
      { line: 2, path: "/choices/0/delta/vendor_note", code: "provider_extension", detail: '"vendor_note" is not a field of the portable shape; Open Responses has no place for it' },
      finishLeftBehind(5),
      ...recordFields(),
    ]);
  });

  test("text next to tool calls is kept: a message item, then the calls, with no item id invented", () => {
    const [result] = run([
      chunk({ role: "assistant", content: "Looking it up." }),
      fragment({ index: 0, id: "call_Lk2", type: "function", function: { name: "lookup_city", arguments: "{\"city\":\"Lyon\"}" } }),
      finish("tool_calls"),
    ]);
    expect(result.items).toEqual([
      { type: "message", role: "assistant", content: "Looking it up." },
      call("call_Lk2", "lookup_city", "{\"city\":\"Lyon\"}", "completed"),
    ]);
  });
});

describe("tool call fragments", () => {
  test("id, type and name come on the first fragment; arguments are appended", () => {
    const [result] = run([
      role(),
      fragment({ index: 0, id: "call_Lk2", type: "function", function: { name: "lookup_city", arguments: "" } }),
      fragment({ index: 0, function: { arguments: "{\"ci" } }),
      fragment({ index: 0, function: { arguments: "ty\": \"Ly" } }),
      fragment({ index: 0, function: { arguments: "on\"}" } }),
      finish("tool_calls"),
    ]);
    expect(result).toEqual({ id: ID, status: "completed", items: [call("call_Lk2", "lookup_city", "{\"city\": \"Lyon\"}", "completed")], losses: recordFields(), line: 1, lastLine: 6 });
  });

  test("parallel calls stream one after another and keep their order", () => {
    const [result] = run([
      role(),
      fragment({ index: 0, id: "call_A1", type: "function", function: { name: "lookup_city", arguments: "{\"city\":" } }),
      fragment({ index: 0, function: { arguments: "\"Lyon\"}" } }),
      fragment({ index: 1, id: "call_B2", type: "function", function: { name: "lookup_city", arguments: "{\"city\":\"Nantes\"}" } }),
      finish("tool_calls"),
    ]);
    expect(result.items).toEqual([call("call_A1", "lookup_city", "{\"city\":\"Lyon\"}", "completed"), call("call_B2", "lookup_city", "{\"city\":\"Nantes\"}", "completed")]);
  });

  test("interleaved fragments go to the call their index names", () => {
    const [result] = run([
      role(),
      chunk({ tool_calls: [{ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{\"a\"" } }, { index: 1, id: "call_B2", type: "function", function: { name: "second", arguments: "{\"b\"" } }] }),
      fragment({ index: 1, function: { arguments: ":2}" } }),
      fragment({ index: 0, function: { arguments: ":1}" } }),
      finish("tool_calls"),
    ]);
    expect(result.items).toEqual([call("call_A1", "first", "{\"a\":1}", "completed"), call("call_B2", "second", "{\"b\":2}", "completed")]);
  });

  test("a whole call in one delta, index last, as Groq sends it", () => {
    const [result] = run([role(), fragment({ id: "tk85n1k4m", type: "function", function: { name: "weather", arguments: "{}" }, index: 0 }), finish("tool_calls")]);
    expect(result.items).toEqual([call("tk85n1k4m", "weather", "{}", "completed")]);
  });

  /** The loss on line 3 of a stream whose calls two readers read apart, which leaves them incomplete. */
  const readApartAt = (line: number, path: string, readings: string) => ({ line, path, code: "form_changed", detail: `${readings}, so no one call is the stream's and the choice's calls are written incomplete` });
  const readApart = (path: string, readings: string) => readApartAt(3, path, readings);

  test("two calls sent at the same index with different ids stay two calls, incomplete: the SDKs key calls by index and read one call of both", () => {
    const [result] = run([
      role(),
      fragment({ index: 0, id: "call_A1", type: "function", function: { name: "transfer", arguments: '{"amount":5}' } }),
      fragment({ index: 0, id: "call_B2", type: "function", function: { name: "transfer", arguments: '{"amount":5}' } }),
      finish("tool_calls"),
    ]);
    expect(result.items).toEqual([call("call_A1", "transfer", '{"amount":5}', "incomplete"), call("call_B2", "transfer", '{"amount":5}', "incomplete")]);
    expect(result.losses).toContainEqual(
      readApart("/choices/0/delta/tool_calls/0/id", 'a fragment at the index of the call "call_A1" gives the id "call_B2": the SDKs add it to the call at that index, its arguments appended, this reader starts another call'),
    );
    expect(replayGate(result.items[1]!, lookupSchema).reason).toBe("status");
  });

  test("a fragment without index continues the last call, incomplete: the SDKs throw at it, or skip it", () => {
    const [result] = run([role(), fragment({ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{\"a\"" } }), fragment({ function: { arguments: ":1}" } }), finish("tool_calls")]);
    expect(result.items).toEqual([call("call_A1", "first", "{\"a\":1}", "incomplete")]);
    expect(result.losses).toContainEqual(
      readApart("/choices/0/delta/tool_calls/0/index", "the tool call fragment gives the index nothing, not an integer from 0: openai-node throws at it, openai-python throws at a missing one and counts a negative one from the end, and this reader places it otherwise"),
    );
  });

  describe("fragments without index that each give a whole call, as Mistral streams them", () => {
    const mistral = (id: string, name: string, args: string) => ({ id, function: { name, arguments: args } });
    const missing = "the tool call fragment gives the index nothing, not an integer from 0: openai-node throws at it, openai-python throws at a missing one and counts a negative one from the end, and this reader places it otherwise";

    test("one call, in the chunk that finishes the choice: completed", () => {
      const [result] = run([role(), chunk({ content: null, tool_calls: [mistral("gSIMJiOkT", "weather", '{"location": "Lyon"}')] }, "tool_calls")]);
      expect(result.items).toEqual([call("gSIMJiOkT", "weather", '{"location": "Lyon"}', "completed")]);
      expect(replayGate(result.items[0]!, { type: "object", properties: { location: { type: "string" } } }).reason).toBe("ok");
    });

    test("two calls, in one list or one a chunk: two completed calls", () => {
      const [list] = run([role(), fragment(mistral("aaaaaaaa1", "weather", '{"location": "Lyon"}')), fragment(mistral("aaaaaaaa2", "weather", '{"location": "Nice"}')), finish("tool_calls")]);
      const [both] = run([role(), chunk({ tool_calls: [mistral("aaaaaaaa1", "weather", '{"location": "Lyon"}'), mistral("aaaaaaaa2", "weather", '{"location": "Nice"}')] }), finish("tool_calls")]);
      const expected = [call("aaaaaaaa1", "weather", '{"location": "Lyon"}', "completed"), call("aaaaaaaa2", "weather", '{"location": "Nice"}', "completed")];
      expect(list.items).toEqual(expected);
      expect(both.items).toEqual(expected);
    });

    test("a fragment that could continue a call (no id, or the id of a call before it) leaves the calls incomplete", () => {
      const [noId] = run([role(), fragment(mistral("aaaaaaaa1", "weather", '{"location": ')), fragment({ function: { arguments: '"Lyon"}' } }), finish("tool_calls")]);
      expect(noId.items).toEqual([call("aaaaaaaa1", "weather", '{"location": "Lyon"}', "incomplete")]);
      expect(noId.losses).toContainEqual(readApart("/choices/0/delta/tool_calls/0/index", missing));
      const [sameId] = run([role(), fragment(mistral("aaaaaaaa1", "weather", '{"location": ')), fragment(mistral("aaaaaaaa1", "weather", '"Lyon"}')), finish("tool_calls")]);
      expect(sameId.items.every((item) => (item as { status?: string }).status === "incomplete")).toBe(true);
    });

    test("fragments placed both ways, by index and whole without one, leave the calls incomplete", () => {
      const [result] = run([role(), fragment({ index: 0, ...mistral("aaaaaaaa1", "weather", "{}") }), fragment(mistral("aaaaaaaa2", "weather", "{}")), finish("tool_calls")]);
      expect(result.items).toEqual([call("aaaaaaaa1", "weather", "{}", "incomplete"), call("aaaaaaaa2", "weather", "{}", "incomplete")]);
      const [reversed] = run([role(), fragment(mistral("aaaaaaaa1", "weather", "{}")), fragment({ index: 1, ...mistral("aaaaaaaa2", "weather", "{}") }), finish("tool_calls")]);
      expect(reversed.items.every((item) => (item as { status?: string }).status === "incomplete")).toBe(true);
    });

    test("an index of null is no missing index: the calls are incomplete", () => {
      const [result] = run([role(), fragment({ index: null, ...mistral("aaaaaaaa1", "weather", "{}") }), finish("tool_calls")]);
      expect(result.items).toEqual([call("aaaaaaaa1", "weather", "{}", "incomplete")]);
    });
  });

  test("a fragment at a negative index, which openai-python counts from the end, leaves the choice's calls incomplete", () => {
    const [result] = run([role(), fragment({ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{}" } }), fragment({ index: -1, id: "call_B2", type: "function", function: { name: "first", arguments: "{}" } }), finish("tool_calls")]);
    expect(result.items).toEqual([call("call_A1", "first", "{}", "incomplete"), call("call_B2", "first", "{}", "incomplete")]);
  });

  describe("indices openai-python places by position", () => {
    const byPosition = (index: number, before: number, what = "tool call fragment", whose = "calls") =>
      `the ${what} gives the index ${index} where ${before} ${whose} came before it: openai-python adds it at the end of its list, and later fragments to the one at the position their index names, where openai-node and this reader place each by its index`;

    test("calls that open out of index order: openai-python pairs each later fragment with the other call, so the choice's calls are incomplete", () => {
      const [result] = run([
        role(),
        chunk({ tool_calls: [{ index: 1, id: "call_B2", type: "function", function: { name: "delete_file", arguments: '{"path":"/tmp/' } }, { index: 0, id: "call_A1", type: "function", function: { name: "search", arguments: '{"query":"' } }] }),
        fragment({ index: 0, function: { arguments: '../../etc/passwd"}' } }),
        fragment({ index: 1, function: { arguments: 'abc"}' } }),
        finish("tool_calls"),
      ]);
      expect(result.items).toEqual([call("call_A1", "search", '{"query":"../../etc/passwd"}', "incomplete"), call("call_B2", "delete_file", '{"path":"/tmp/abc"}', "incomplete")]);
      expect(result.losses).toContainEqual(readApartAt(2, "/choices/0/delta/tool_calls/0/index", byPosition(1, 0)));
    });

    test("an index left out (0, then 2) or a first call at 1: the same", () => {
      const [gap] = run([
        role(),
        fragment({ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{}" } }),
        fragment({ index: 2, id: "call_C3", type: "function", function: { name: "first", arguments: "{}" } }),
        finish("tool_calls"),
      ]);
      expect(gap.items).toEqual([call("call_A1", "first", "{}", "incomplete"), call("call_C3", "first", "{}", "incomplete")]);
      expect(gap.losses).toContainEqual(readApart("/choices/0/delta/tool_calls/0/index", byPosition(2, 1)));
      const [late] = run([role(), fragment({ index: 1, id: "call_B2", type: "function", function: { name: "first", arguments: "{" } }), fragment({ index: 1, function: { arguments: "}" } }), finish("tool_calls")]);
      expect(late.items).toEqual([call("call_B2", "first", "{}", "incomplete")]);
    });

    test("an index given twice in the choice's first list, which openai-python keeps as two calls: the same; twice in a later list, every reader joins them", () => {
      const [first] = run([
        role(),
        chunk({ tool_calls: [{ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{" } }, { index: 0, function: { arguments: "}" } }] }),
        finish("tool_calls"),
      ]);
      expect(first.items).toEqual([call("call_A1", "first", "{}", "incomplete")]);
      expect(first.losses).toContainEqual({
        line: 2,
        path: "/choices/0/delta/tool_calls/1/index",
        code: "form_changed",
        detail: "the choice's first tool_calls list gives the index 0 twice: openai-python keeps each entry as a call of its own, where openai-node and this reader put them together, so no one call is the stream's and the choice's calls are written incomplete",
      });
      const [later] = run([role(), fragment({ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "" } }), chunk({ tool_calls: [{ index: 0, function: { arguments: "{" } }, { index: 0, function: { arguments: "}" } }] }), finish("tool_calls")]);
      expect(later.items).toEqual([call("call_A1", "first", "{}", "completed")]);
    });

    test("choices that open out of index order: the same, for each choice", () => {
      const choiceChunk = (index: number, delta: Record<string, unknown>, finishReason: string | null = null) => ({ ...chunk(delta, finishReason), choices: [{ index, delta, logprobs: null, finish_reason: finishReason }] });
      const results = run([
        choiceChunk(1, { role: "assistant", tool_calls: [{ index: 0, id: "call_B2", type: "function", function: { name: "first", arguments: "{}" } }] }),
        choiceChunk(0, { role: "assistant", tool_calls: [{ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{}" } }] }),
        choiceChunk(0, {}, "tool_calls"),
        choiceChunk(1, {}, "tool_calls"),
      ]);
      // openai-python reads choice 0's delta into the choice it placed first, choice 1: neither is the stream's.
      expect(results.map((result) => result.items)).toEqual([[call("call_A1", "first", "{}", "incomplete")], [call("call_B2", "first", "{}", "incomplete")]]);
      expect(results[0]!.losses).toContainEqual(readApartAt(2, "/choices/0/index", byPosition(0, 1, "choice", "choices")));
      expect(results[1]!.losses).toContainEqual(readApartAt(1, "/choices/0/index", byPosition(1, 0, "choice", "choices")));
    });
  });

  test.each([
    ["arguments", { function: { arguments: ["../../etc/passwd"] } }, "/choices/0/delta/tool_calls/0/function/arguments", "function.arguments as an array"],
    ["a name", { function: { name: ["delete_file"] } }, "/choices/0/delta/tool_calls/0/function/name", "function.name as an array"],
    ["an id", { id: 7 }, "/choices/0/delta/tool_calls/0/id", "id as number 7"],
    ["a type", { type: true }, "/choices/0/delta/tool_calls/0/type", "type as boolean true"],
  ])("%s that is no string, which openai-node appends or sets and this reader would skip, leaves the choice's calls incomplete", (_label, odd, path, given) => {
    const [result] = run([role(), fragment({ index: 0, id: "call_A1", type: "function", function: { name: "read_file", arguments: '{"path":"/tmp/' } }), fragment({ index: 0, ...odd }), fragment({ index: 0, function: { arguments: 'abc"}' } }), finish("tool_calls")]);
    expect(result.items).toEqual([call("call_A1", "read_file", '{"path":"/tmp/abc"}', "incomplete")]);
    expect(result.losses).toContainEqual(readApart(path, `the tool call fragment gives ${given}, not a string: openai-node appends or sets it as it is, openai-python replaces the text with it or skips it, and this reader skips it`));
  });

  test("a legacy function_call whose arguments are no string: the same; null is nothing", () => {
    const [legacy] = run([role(), chunk({ function_call: { name: "lookup", arguments: "{" } }), chunk({ function_call: { arguments: { city: "Lyon" } } }), chunk({ function_call: { arguments: "}" } }), finish("function_call")]);
    expect(legacy.items).toEqual([call("legacy_1_lookup", "lookup", "{}", "incomplete")]);
    expect(legacy.losses).toContainEqual(readApart("/choices/0/delta/function_call/arguments", "the function_call gives arguments as an object, not a string: openai-node appends or sets it as it is, openai-python replaces the text with it or skips it, and this reader skips it"));
    const [nulls] = run([role(), fragment({ index: 0, id: "call_A1", type: "function", function: { name: "lookup", arguments: "{" } }), fragment({ index: 0, id: null, type: null, function: { name: null, arguments: null } }), fragment({ index: 0, function: { arguments: "}" } }), finish("tool_calls")]);
    expect(nulls.items).toEqual([call("call_A1", "lookup", "{}", "completed")]);
  });

  test("a choice without index, which the SDKs throw at, is read as the first choice, its calls incomplete", () => {
    const unindexed = (delta: Record<string, unknown>, finishReason: string | null = null) => ({ ...chunk(delta, finishReason), choices: [{ delta, logprobs: null, finish_reason: finishReason }] });
    const [result] = run([role(), unindexed({ tool_calls: [{ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{}" } }] }), finish("tool_calls")]);
    expect(result.items).toEqual([call("call_A1", "first", "{}", "incomplete")]);
    expect(result.losses).toContainEqual(
      readApartAt(2, "/choices/0/index", "the choice gives the index nothing, not an integer from 0: openai-node throws at it, openai-python throws at a missing one and counts a negative one from the end, and this reader places it otherwise"),
    );
  });

  // Some OpenAI-compatible servers (Fireworks among them) send the id, type and
  // name again on every fragment. openai-python appends them (an id or name
  // doubled, which answers or names nothing); openai-node, openai-go and most
  // other readers keep them once, as this reader does.
  test("an id and a name repeated on every fragment are not doubled", () => {
    const [result] = run([
      role(),
      fragment({ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{" } }),
      fragment({ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "}" } }),
      finish("tool_calls"),
    ]);
    expect(result.items).toEqual([call("call_A1", "first", "{}", "completed")]);
  });

  test("a later fragment that names the call otherwise: openai-python appends it, openai-node takes it as the name, so the choice's calls are incomplete", () => {
    const chunks = [
      role(),
      fragment({ index: 0, id: "call_A1", type: "function", function: { name: "soft_", arguments: "" } }),
      fragment({ index: 0, function: { name: "delete_user", arguments: "{}" } }),
      fragment({ index: 1, id: "call_B2", type: "function", function: { name: "lookup", arguments: "{}" } }),
      finish("tool_calls"),
    ];
    const [result] = run(chunks);
    expect(result.items).toEqual([call("call_A1", "soft_delete_user", "{}", "incomplete"), call("call_B2", "lookup", "{}", "incomplete")]);
    expect(result.losses).toContainEqual(
      readApart("/choices/0/delta/tool_calls/0/function/name", 'a fragment names the call "delete_user" after it was named "soft_": openai-python appends the fragment, openai-node reads it as the whole name'),
    );
    expect(replayGate(result.items[0]!, lookupSchema).reason).toBe("status");
    // The legacy function_call the same way; and a type a later fragment changes, which the SDKs take the last of.
    const [legacy] = run([role(), chunk({ function_call: { name: "soft_", arguments: "" } }), chunk({ function_call: { name: "delete_user", arguments: "{}" } }), finish("function_call")]);
    expect(legacy.items).toEqual([call("legacy_1_soft_delete_user", "soft_delete_user", "{}", "incomplete")]);
    const [retyped] = run([role(), fragment({ index: 0, id: "call_A1", type: "function", function: { name: "lookup", arguments: "{}" } }), fragment({ index: 0, type: "custom" }), finish("tool_calls")]);
    expect(retyped.items).toEqual([call("call_A1", "lookup", "{}", "incomplete")]);
    // A name given first as "" and then whole is the name every reader reads.
    const [named] = run([role(), fragment({ index: 0, id: "call_A1", type: "function", function: { name: "", arguments: "" } }), fragment({ index: 0, function: { name: "lookup", arguments: "{}" } }), finish("tool_calls")]);
    expect(named.items).toEqual([call("call_A1", "lookup", "{}", "completed")]);
  });

  test("a provider field on a call fragment is a loss at that fragment", () => {
    const [result] = run([
      role(),
      fragment({ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{}" }, extra_content: { google: { thought_signature: "c2ln" } } }),
      finish("tool_calls"),
    ]);
    expect(result.items).toEqual([call("call_A1", "first", "{}", "completed")]);
    expect(result.losses).toEqual([
      { line: 2, path: "/choices/0/delta/tool_calls/0/extra_content", code: "provider_extension", detail: '"extra_content" is not a field of the portable shape; Open Responses has no place for it' },
      ...recordFields(),
    ]);
  });

  test("a custom tool call is a loss pointing at its first fragment", () => {
    const [result] = run([role(), fragment({ index: 0, id: "call_C3", type: "custom", custom: { name: "shell", input: "ls" } }), finish("tool_calls")]);
    expect(result.items).toEqual([]);
    expect(result.losses).toEqual([
      { line: 1, path: "/choices/0/delta", code: "unsupported_item", detail: "an assistant message with no content, refusal or tool call gives no item" },
      { line: 2, path: "/choices/0/delta/tool_calls/0", code: "unsupported_tool_call", detail: "custom tool call \"shell\" has no portable Open Responses item" },
      finishLeftBehind(3),
      ...recordFields(),
    ]);
  });

  test("legacy function_call deltas make a call with a synthesized call_id, reported", () => {
    const [result] = run([role(), chunk({ function_call: { name: "lookup_city", arguments: "{\"city\"" } }), chunk({ function_call: { arguments: ":\"Lyon\"}" } }), finish("function_call")]);
    expect(result.items).toEqual([call("legacy_1_lookup_city", "lookup_city", "{\"city\":\"Lyon\"}", "completed")]);
    expect(result.losses).toEqual([
      { line: 2, path: "/choices/0/delta/function_call", code: "synthesized", detail: "a legacy function call has no id: call_id \"legacy_1_lookup_city\" was synthesized" },
      ...recordFields(),
    ]);
  });
});

describe("finish reasons and status", () => {
  const opened = [role(), fragment({ index: 0, id: "call_Lk2", type: "function", function: { name: "lookup_city", arguments: "" } }), fragment({ index: 0, function: { arguments: "{\"city\":\"Ly" } })];

  test.each([
    ["tool_calls", "completed"],
    ["stop", "completed"],
  ])("finish_reason %s gives status %s to the response and its calls", (reason, status) => {
    const [result] = run([...opened, finish(reason)]);
    expect(result.status).toBe(status);
    expect(result.items).toEqual([call("call_Lk2", "lookup_city", "{\"city\":\"Ly", status)]);
    expect(result.losses).toEqual(recordFields());
  });

  test.each(["length", "content_filter", "an_unknown_reason"])("finish_reason %s gives status incomplete to the response and its calls, and the reason is a loss", (reason) => {
    const [result] = run([...opened, finish(reason)]);
    expect(result.status).toBe("incomplete");
    expect(result.items).toEqual([call("call_Lk2", "lookup_city", "{\"city\":\"Ly", "incomplete")]);
    expect(result.losses).toEqual([{ line: 4, path: "/choices/0/finish_reason", code: "form_changed", detail: `finish_reason "${reason}" written as status incomplete on the choice's items` }, ...recordFields()]);
  });

  test("a text cut by max_tokens: the message is incomplete too, and the reason is a loss", () => {
    expect(run([chunk({ role: "assistant", content: "" }), chunk({ content: "Lyon is the" }), finish("length")])).toEqual([
      {
        id: ID,
        status: "incomplete",
        items: [{ type: "message", role: "assistant", content: "Lyon is the", status: "incomplete" }],
        losses: [{ line: 3, path: "/choices/0/finish_reason", code: "form_changed", detail: 'finish_reason "length" written as status incomplete on the choice\'s items' }, ...recordFields()],
        line: 1,
        lastLine: 3,
      },
    ]);
  });

  test("cut mid-arguments without finish_reason: in_progress, and the gate blocks the call with status", () => {
    const [result] = run(opened);
    expect(result).toEqual({ id: ID, status: "in_progress", items: [call("call_Lk2", "lookup_city", "{\"city\":\"Ly", "in_progress")], losses: recordFields(), line: 1, lastLine: 3 });
    expect(replayGate(result.items[0], lookupSchema).reason).toBe("status");
  });

  test("arguments that parse are not final: `{}` without finish_reason stays in_progress", () => {
    const [result] = run([role(), fragment({ index: 0, id: "call_Lk2", type: "function", function: { name: "lookup_city", arguments: "{}" } })]);
    expect(result.items).toEqual([call("call_Lk2", "lookup_city", "{}", "in_progress")]);
    expect(replayGate(result.items[0], lookupSchema).reason).toBe("status");
  });

  test("a finished call with valid arguments passes the gate", () => {
    const [result] = run([...opened, fragment({ index: 0, function: { arguments: "on\"}" } }), finish("tool_calls")]);
    expect(replayGate(result.items[0], lookupSchema).reason).toBe("ok");
  });

  describe("a delta after the choice's finish_reason", () => {
    const late = (line: number) => ({ line, path: "/choices/0/delta", code: "form_changed", detail: "a delta came after the choice's finish_reason (line 4): a reader that stops there and one that reads on see different calls, so its calls are written incomplete" });
    const completing = fragment({ index: 0, function: { arguments: "on\"}" } });

    test("that completes the arguments makes the call incomplete, and the gate blocks it", () => {
      const [result] = run([...opened, finish("tool_calls"), completing]);
      expect(result.items).toEqual([call("call_Lk2", "lookup_city", "{\"city\":\"Lyon\"}", "incomplete")]);
      expect(result.losses).toContainEqual(late(5));
      expect(replayGate(result.items[0], lookupSchema).reason).toBe("status");
    });

    test("that adds a call or text does too, and a second finish_reason does not make them complete", () => {
      for (const after of [fragment({ index: 1, id: "call_Zp9", type: "function", function: { name: "lookup_city", arguments: "{\"city\":\"Nice\"}" } }), chunk({ content: "Done." })]) {
        const [result] = run([...opened, fragment({ index: 0, function: { arguments: "on\"}" } }), finish("tool_calls"), after, finish("tool_calls")]);
        expect(result.items.filter((item) => item.type === "function_call").map((item) => (item as { status?: unknown }).status)).toEqual(after.choices[0]!.delta.tool_calls ? ["incomplete", "incomplete"] : ["incomplete"]);
        expect(result.losses).toContainEqual({ ...late(6), detail: late(6).detail.replace("line 4", "line 5") });
      }
    });

    test("that holds nothing (an empty delta, a filter chunk, a usage chunk) changes nothing", () => {
      const filter = chunk({}, null);
      (filter.choices[0] as Record<string, unknown>).content_filter_results = { hate: { filtered: false } };
      const [result] = run([...opened, completing, finish("tool_calls"), chunk({ content: "", role: "assistant" }), chunk({ tool_calls: [] }), filter, usage()]);
      expect(result.items).toEqual([call("call_Lk2", "lookup_city", "{\"city\":\"Lyon\"}", "completed")]);
      expect(result.losses.filter((loss) => loss.detail.includes("finish_reason"))).toEqual([]);
    });

    test("is kept in the rebuilt completion, and reported there; the calls stay incomplete, so that no conversion passes them", () => {
      const assembler = new ChatStreamAssembler({ completion: true });
      const chunks = [...opened, finish("tool_calls"), completing];
      const [result] = [...chunks.flatMap((record, i) => assembler.push(record, i + 1)), ...assembler.finish()];
      const rebuilt = result.completion?.rebuilt?.value as { choices: Array<{ message: { tool_calls: Array<{ function: { arguments: string } }> } }> };
      expect(rebuilt.choices[0]!.message.tool_calls[0]!.function.arguments).toBe("{\"city\":\"Lyon\"}");
      expect(result.losses).toContainEqual({ line: 5, path: "/choices/0/delta", code: "form_changed", detail: "a delta came after the choice's finish_reason (line 4): a reader that stops there and one that reads on see different calls; the completion holds every delta, as the second sees it, and its calls are written incomplete" });
      expect(result.items.map((item) => (item as { status?: string }).status)).toEqual(["incomplete"]);
    });
  });

  describe("a second finish_reason of the choice", () => {
    const completed = [...opened, fragment({ index: 0, function: { arguments: "on\"}" } })];

    test("that says another reason makes the calls incomplete: a reader that stops at the first sees them cut", () => {
      for (const [first, second] of [["length", "tool_calls"], ["content_filter", "tool_calls"], ["tool_calls", "length"]]) {
        const [result] = run([...completed, finish(first!), finish(second!)]);
        expect(result.items).toEqual([call("call_Lk2", "lookup_city", "{\"city\":\"Lyon\"}", "incomplete")]);
        expect(result.losses).toContainEqual({
          line: 6,
          path: "/choices/0/finish_reason",
          code: "form_changed",
          detail: `the choice said finish_reason ${JSON.stringify(first)} on line 5 and another one here: a reader that stops at the first and one that reads on see its calls end two ways, so its calls are written incomplete`,
        });
        expect(replayGate(result.items[0], lookupSchema).reason).toBe("status");
      }
    });

    test("that says the same reason again, or another that completes the calls too, changes nothing", () => {
      for (const [first, second] of [["tool_calls", "tool_calls"], ["tool_calls", "stop"], ["stop", "tool_calls"]]) {
        const [result] = run([...completed, finish(first!), finish(second!)]);
        expect(result.items).toEqual([call("call_Lk2", "lookup_city", "{\"city\":\"Lyon\"}", "completed")]);
        expect(result.losses.filter((loss) => loss.detail.includes("another one here"))).toEqual([]);
      }
    });
  });

  test("a whole message beside a chunk's delta is not read: the message is the deltas', and the message is reported", () => {
    const stray = chunk({}, "tool_calls", {});
    (stray.choices[0] as Record<string, unknown>).message = { role: "assistant", content: "Nothing to call." };
    const [result] = run([...opened, fragment({ index: 0, function: { arguments: "on\"}" } }), stray]);
    expect(result.items).toEqual([call("call_Lk2", "lookup_city", "{\"city\":\"Lyon\"}", "completed")]);
    expect(result.losses).toContainEqual({ line: 5, path: "/choices/0/message", code: "unsupported_field", detail: "a whole message beside the delta is not read: the choice's message is rebuilt from its deltas" });
  });

  test("a stream cut right after its role chunk gives no item, and says so", () => {
    expect(run([role()])).toEqual([
      { id: ID, status: "in_progress", items: [], losses: [{ line: 1, path: "/choices/0/delta", code: "unsupported_item", detail: "an assistant message with no content, refusal or tool call gives no item" }, ...recordFields()], line: 1, lastLine: 1 },
    ]);
  });
});

describe("chunks that carry no delta", () => {
  test("the usage chunk is skipped but counts as the completion's last line", () => {
    const [result] = run([chunk({ role: "assistant", content: "Hi" }), finish("stop"), usage()]);
    expect(result).toEqual({ id: ID, status: "completed", items: [{ type: "message", role: "assistant", content: "Hi" }], losses: [finishLeftBehind(2), ...recordFields(), leftBehind(3, "/usage")], line: 1, lastLine: 3 });
  });

  test("Azure's prompt filter chunk opens nothing; what it holds is the next completion's, left behind, and its created 0, which the completion does not take, is said on its line", () => {
    const filter = { choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] };
    expect(run([filter, chunk({ role: "assistant", content: "Hi" }), finish("stop")])).toEqual([
      {
        id: ID,
        status: "completed",
        items: [{ type: "message", role: "assistant", content: "Hi" }],
        losses: [
          finishLeftBehind(3),
          ...recordFields(2),
          leftBehind(1, "/prompt_filter_results"),
          { line: 1, path: "/created", code: "left_behind", detail: "created 0 of this chunk is not the completion's (1754693439, which is written)" },
        ],
        line: 2,
        lastLine: 3,
      },
    ]);
  });

  test("a completion field a later chunk says otherwise: the opening chunk's is kept, the other said on its line; a null the opening chunk held is filled by the later value", () => {
    const opening = chunk({ role: "assistant", content: "Hi" }, null, { system_fingerprint: null });
    const later = chunk({}, "stop", { model: "gpt-4o-mini-2024-07-18", system_fingerprint: "fp_7c4e1a" });
    const [result] = run([opening, later]);
    expect(result.losses).toEqual([
      finishLeftBehind(2),
      ...recordFields(),
      leftBehind(2, "/system_fingerprint"),
      { line: 2, path: "/model", code: "left_behind", detail: 'model "gpt-4o-mini-2024-07-18" of this chunk is not the completion\'s ("gpt-4o-2024-08-06", which is written)' },
    ]);
  });

  test("obfuscation is padding of the transport: no item holds it, and each chunk that carried one says so on its line", () => {
    const padded = (record: ReturnType<typeof chunk>, obfuscation: string) => ({ ...record, obfuscation });
    const filter = { choices: [], created: 0, id: "", model: "", object: "", obfuscation: "q1" };
    const [result] = run([filter, padded(chunk({ role: "assistant", content: "Hi" }), "D3Wb"), padded(finish("stop"), "NNpA6"), padded(usage(), "Zx")]);
    expect(result).toEqual({
      id: ID,
      status: "completed",
      items: [{ type: "message", role: "assistant", content: "Hi" }],
      losses: [
        finishLeftBehind(3),
        ...recordFields(2),
        leftBehind(4, "/usage"),
        // In line order: what the filter chunk said is known when the completion opens.
        { line: 1, path: "/obfuscation", code: "left_behind", detail: "obfuscation is padding of the transport: no item or record holds it" },
        { line: 1, path: "/created", code: "left_behind", detail: "created 0 of this chunk is not the completion's (1754693439, which is written)" },
        ...[2, 3, 4].map((line) => ({ line, path: "/obfuscation", code: "left_behind", detail: "obfuscation is padding of the transport: no item or record holds it" })),
      ],
      line: 2,
      lastLine: 4,
    });
  });

  test("padding of chunks that go into no completion is said with what else they held", () => {
    const assembler = new ChatStreamAssembler();
    expect(assembler.push({ ...usage(), obfuscation: "q1" }, 1)).toEqual([]);
    expect(assembler.finish()).toEqual([]);
    expect(assembler.unplaced()).toEqual([{ line: 1, path: "/obfuscation", code: "left_behind", detail: "obfuscation is padding of the transport: no item or record holds it" }]);
  });

  test("a null logprobs carries nothing; x_groq and content_filter_results are left behind, as the stored completion's; obfuscation is said as padding", () => {
    const withMetadata = { ...chunk({ role: "assistant", content: "Hi" }, "stop", { obfuscation: "D3Wb", x_groq: { id: "req_01" } }) };
    (withMetadata.choices[0] as Record<string, unknown>).content_filter_results = { hate: { filtered: false } };
    expect(run([withMetadata])).toEqual([
      {
        id: ID,
        status: "completed",
        items: [{ type: "message", role: "assistant", content: "Hi" }],
        losses: [
          finishLeftBehind(1),
          leftBehind(1, "/choices/0/content_filter_results", "the choice"),
          ...recordFields(),
          leftBehind(1, "/x_groq"),
          { line: 1, path: "/obfuscation", code: "left_behind", detail: "obfuscation is padding of the transport: no item or record holds it" },
        ],
        line: 1,
        lastLine: 1,
      },
    ]);
  });

  test("a chunk with no choices and a tool call beside them: the call is no item, and a loss on its line says it is not checked", () => {
    const stray = { ...usage(), usage: undefined, tool_calls: [{ id: "call_z9", type: "function", function: { name: "delete_all", arguments: "{}" } }] };
    const [result] = run([chunk({ role: "assistant", content: "Hi" }), stray, finish("stop")]);
    expect(result.items).toEqual([{ type: "message", role: "assistant", content: "Hi" }]);
    expect(result.losses).toEqual([
      finishLeftBehind(3),
      ...recordFields(),
      { line: 2, path: "/tool_calls", code: "unsupported_tool_call", detail: "tool_calls of the chat.completion stands outside any message: no item is made of it, and its call is not checked" },
    ]);
  });

  test("chunks with no choices that go into no completion are told by unplaced", () => {
    const assembler = new ChatStreamAssembler();
    const stray = { ...usage(), tool_calls: [{ id: "call_z9", type: "function", function: { name: "delete_all", arguments: "{}" } }] };
    expect(assembler.push(stray, 1)).toEqual([]);
    expect(assembler.finish()).toEqual([]);
    expect(assembler.unplaced()).toEqual([{ line: 1, path: "/tool_calls", code: "provider_extension", detail: '"tool_calls" is not a field of the portable shape; Open Responses has no place for it' }]);
    expect(assembler.unplaced()).toEqual([]);
  });
});

describe("chunks that repeat a limit of the request two ways", () => {
  const opened = (extra: Record<string, unknown>) => chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "lookup_city", arguments: '{"city":"Lyon"}' } }] }, null, extra);
  const twoWays = (key: string, line: number) => ({ line, path: `/${key}`, code: "form_changed", detail: `"${key}" of this chunk is not the one the completion keeps: a reader that keeps the first and one that keeps the last see other limits on its calls, so they are written incomplete` });

  test.each([
    ["tool_choice", "auto", "none"],
    ["tool_choice", { type: "function", function: { name: "lookup_city" } }, { type: "function", function: { name: "delete_city" } }],
    ["parallel_tool_calls", true, false],
    ["Tool_choice", "auto", "none"],
  ])("%s %j, then %j: the call is written incomplete, reported where the second said it", (key, first, second) => {
    const [result] = run([opened({ [key]: first }), chunk({}, "tool_calls", { [key]: second })]);
    expect(result!.items).toEqual([call("call_1", "lookup_city", '{"city":"Lyon"}', "incomplete")]);
    expect(result!.losses.filter((loss) => loss.code === "form_changed")).toEqual([twoWays(key, 2)]);
  });

  test("the same limit said again keeps the call completed", () => {
    const choice = { type: "function", function: { name: "lookup_city" } };
    const [result] = run([opened({ tool_choice: choice }), chunk({}, "tool_calls", { tool_choice: { ...choice } })]);
    expect(result!.items).toEqual([call("call_1", "lookup_city", '{"city":"Lyon"}', "completed")]);
  });
});

describe("parts of a chunk that hold nothing a completion can take", () => {
  test("a choice that is no object, a delta that is no object, a tool call fragment that is no object: each said on its line", () => {
    const odd = [
      { ...chunk({ role: "assistant", content: "Hi" }), choices: [null, { index: 0, delta: { role: "assistant", content: "Hi" }, finish_reason: null }] },
      { ...chunk({}), choices: [{ index: 0, delta: "more", finish_reason: null }] },
      chunk({ tool_calls: [7] }),
      finish("stop"),
    ];
    expect(run(odd)).toEqual([
      {
        id: ID,
        status: "completed",
        items: [{ type: "message", role: "assistant", content: "Hi" }],
        losses: [
          finishLeftBehind(4),
          { line: 1, path: "/choices/0", code: "unsupported_item", detail: "the choice is null, not an object: it is not read" },
          { line: 2, path: "/choices/0/delta", code: "unsupported_field", detail: 'the delta is "more", not an object: it is not read' },
          { line: 3, path: "/choices/0/delta/tool_calls/0", code: "unsupported_item", detail: "the tool call fragment is number 7, not an object: it is not read" },
          ...recordFields(),
        ],
        line: 1,
        lastLine: 4,
      },
    ]);
  });

  test("a delta field of the message with another type than the stream's is kept as sent: the stored message's loss", () => {
    const chunks = [chunk({ role: "assistant", content: "Hi", tool_calls: { id: "call_x", function: { name: "f", arguments: "{}" } } }), finish("stop")];
    const twin = { id: ID, object: "chat.completion", created: 1754693439, model: "gpt-4o-2024-08-06", choices: [{ index: 0, message: { role: "assistant", content: "Hi", tool_calls: { id: "call_x", function: { name: "f", arguments: "{}" } } }, logprobs: null, finish_reason: "stop" }] };
    const [result] = run(chunks);
    const converted = completionToItems({ completion: twin });
    expect(result.items).toEqual(converted.value[0]!.items);
    expect(result.losses.map(({ code, detail }) => ({ code, detail }))).toEqual([...converted.value[0]!.losses, ...converted.losses].map(({ code, detail }) => ({ code, detail })));
    expect(result.losses[0]).toMatchObject({ line: 1, path: "/choices/0/delta/tool_calls" });
  });
});

describe("completion boundaries", () => {
  const other = (delta: Record<string, unknown>, reason: string | null = null) => ({ ...chunk(delta, reason), id: "chatcmpl-Zr4Yv8Qe1Nd6Hc3J" });

  test("a new completion id closes the previous completion, returned by that push", () => {
    const assembler = new ChatStreamAssembler();
    expect(assembler.push(chunk({ role: "assistant", content: "One" }), 1)).toEqual([]);
    expect(assembler.push(finish("stop"), 2)).toEqual([]);
    expect(assembler.push(other({ role: "assistant", content: "Two" }), 3)).toEqual([
      { id: ID, status: "completed", items: [{ type: "message", role: "assistant", content: "One" }], losses: [finishLeftBehind(2), ...recordFields()], line: 1, lastLine: 2 },
    ]);
    expect(assembler.finish()).toEqual([
      { id: "chatcmpl-Zr4Yv8Qe1Nd6Hc3J", status: "in_progress", items: [{ type: "message", role: "assistant", content: "Two", status: "in_progress" }], losses: recordFields(3), line: 3, lastLine: 3 },
    ]);
  });

  test("without ids, a new message after every choice finished is another completion", () => {
    const bare = (delta: Record<string, unknown>, reason: string | null = null) => ({ object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: reason }] });
    expect(run([bare({ role: "assistant", content: "One" }), bare({}, "stop"), bare({ role: "assistant", content: "Two" }), bare({}, "stop")])).toEqual([
      { status: "completed", items: [{ type: "message", role: "assistant", content: "One" }], losses: [finishLeftBehind(2)], line: 1, lastLine: 2 },
      { status: "completed", items: [{ type: "message", role: "assistant", content: "Two" }], losses: [finishLeftBehind(4)], line: 3, lastLine: 4 },
    ]);
  });

  test("a choice after the first is a response of its own, after the first, saying so in a loss", () => {
    const two = { ...chunk({ role: "assistant", content: "A" }), choices: [{ index: 0, delta: { role: "assistant", content: "A" }, finish_reason: "stop" }, { index: 1, delta: { role: "assistant", content: "B" }, finish_reason: "stop" }] };
    expect(run([two])).toEqual([
      { id: ID, status: "completed", items: [{ type: "message", role: "assistant", content: "A" }], losses: [finishLeftBehind(1), ...recordFields()], line: 1, lastLine: 1 },
      {
        id: ID,
        status: "completed",
        items: [{ type: "message", role: "assistant", content: "B" }],
        laterChoice: true,
        losses: [
          { line: 1, path: "/choices/1", code: "form_changed", detail: "choice 1 is another answer to the same request: its items are a response of their own, after the first choice's; only one answer continues the conversation" },
          leftBehind(1, "/choices/1/finish_reason", "the choice"),
        ],
        line: 1,
        lastLine: 1,
      },
    ]);
  });

  test("a field named __proto__, in a delta, a choice or a chunk, is a field like any other: no call comes of it", () => {
    const hostile = JSON.parse(
      `{"id":"${ID}","object":"chat.completion.chunk","created":1754693439,"model":"gpt-4o-2024-08-06","__proto__":{"x":1},` +
        `"choices":[{"index":0,"delta":{"role":"assistant","content":"Hi","__proto__":{"tool_calls":[{"id":"call_p","type":"function","function":{"name":"delete_all","arguments":"{}"}}]}},"__proto__":{"finish_reason":"stop"},"finish_reason":"stop"}]}`,
    );
    const [result] = run([hostile]);
    expect(result.items).toEqual([{ type: "message", role: "assistant", content: "Hi" }]);
    expect(result.losses.map(({ line, path, code }) => [line, path, code])).toEqual([
      [1, "/choices/0/delta/__proto__", "provider_extension"],
      [1, "/choices/0/finish_reason", "left_behind"],
      [1, "/choices/0/__proto__", "left_behind"],
      [1, "/id", "left_behind"],
      [1, "/created", "left_behind"],
      [1, "/model", "left_behind"],
      [1, "/__proto__", "left_behind"],
    ]);
  });

  test("something that is not a chunk is refused", () => {
    const assembler = new ChatStreamAssembler();
    expect(() => assembler.push({ role: "assistant", content: "Hi" }, 1)).toThrow(TypeError);
    expect(() => assembler.push(null, 1)).toThrow(TypeError);
  });

  test("the chunks given to the assembler are not changed", () => {
    const chunks = [role(), fragment({ index: 0, id: "call_A1", type: "function", function: { name: "first", arguments: "{" } }), fragment({ index: 0, function: { arguments: "}" } }), finish("tool_calls")];
    const before = structuredClone(chunks);
    run(chunks);
    expect(chunks).toEqual(before);
  });
});

describe("a stream and its non-streamed twin", () => {
  // Each case: the chunks, and the chat.completion the API returns for the same answer.
  const twinOf = (choices: unknown[]) => ({ id: ID, object: "chat.completion", created: 1754693439, model: "gpt-4o-2024-08-06", choices });
  const token = (text: string) => ({ token: text, logprob: -0.01, bytes: [...Buffer.from(text)], top_logprobs: [] });
  const cases: Array<[string, unknown[], ReturnType<typeof twinOf>]> = [
    [
      "logprobs of the text and of the refusal",
      [
        { ...chunk({ role: "assistant", content: "Ly" }), choices: [{ index: 0, delta: { role: "assistant", content: "Ly" }, logprobs: { content: [token("Ly")], refusal: null }, finish_reason: null }] },
        { ...chunk({ content: "on" }), choices: [{ index: 0, delta: { content: "on" }, logprobs: { content: [token("on")], refusal: null }, finish_reason: null }] },
        { ...chunk({ refusal: "No." }), choices: [{ index: 0, delta: { refusal: "No." }, logprobs: { content: null, refusal: [token("No.")] }, finish_reason: null }] },
        finish("stop"),
      ],
      twinOf([{ index: 0, message: { role: "assistant", content: "Lyon", refusal: "No." }, logprobs: { content: [token("Ly"), token("on")], refusal: [token("No.")] }, finish_reason: "stop" }]),
    ],
    [
      "Azure's content_filter_results on every chunk, and OpenRouter's native_finish_reason",
      [
        { ...chunk({}), choices: [{ content_filter_results: {}, delta: { content: "", role: "assistant" }, finish_reason: null, index: 0, logprobs: null, native_finish_reason: null }] },
        { ...chunk({}), choices: [{ content_filter_results: { hate: { filtered: false, severity: "safe" } }, delta: { content: "Lyon." }, finish_reason: null, index: 0, logprobs: null, native_finish_reason: null }] },
        { ...chunk({}), choices: [{ content_filter_results: {}, delta: {}, finish_reason: "stop", index: 0, logprobs: null, native_finish_reason: "STOP" }] },
      ],
      twinOf([{ content_filter_results: { hate: { filtered: false, severity: "safe" } }, finish_reason: "stop", index: 0, logprobs: null, message: { role: "assistant", content: "Lyon." }, native_finish_reason: "STOP" }]),
    ],
    [
      "two choices, the second with a call, finishing apart",
      [
        { ...chunk({}), choices: [{ index: 0, delta: { role: "assistant", content: "Lyon." }, finish_reason: null }, { index: 1, delta: { role: "assistant", content: null }, finish_reason: null }] },
        { ...chunk({}), choices: [{ index: 1, delta: { tool_calls: [{ index: 0, id: "call_N2", type: "function", function: { name: "lookup_city", arguments: "{\"city\":\"Lyon\"}" } }] }, finish_reason: null }] },
        { ...chunk({}), choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
        { ...chunk({}), choices: [{ index: 1, delta: {}, finish_reason: "length" }] },
      ],
      twinOf([
        { index: 0, message: { role: "assistant", content: "Lyon." }, finish_reason: "stop" },
        { index: 1, message: { role: "assistant", content: null, tool_calls: [{ id: "call_N2", type: "function", function: { name: "lookup_city", arguments: "{\"city\":\"Lyon\"}" } }] }, finish_reason: "length" },
      ]),
    ],
    ["a text cut by max_tokens", [chunk({ role: "assistant", content: "Lyon is" }), finish("length")], twinOf([{ index: 0, message: { role: "assistant", content: "Lyon is" }, logprobs: null, finish_reason: "length" }])],
  ];

  test.each(cases)("%s: the same items, statuses and losses, choice by choice", (_, chunks, twin) => {
    // Losses in any order: a rebuilt choice lists its fields in the API's order, a stored one in its own.
    const said = (losses: ReadonlyArray<{ code: string; detail: string }>) => losses.map(({ code, detail }) => `${code}: ${detail}`).sort();
    const streamed = run(chunks).map((response) => ({ items: response.items, status: response.status, losses: said(response.losses) }));
    const converted = completionToItems({ completion: twin });
    const stored = converted.value.map((choice, position) => ({
      items: choice.items,
      status: choice.status,
      // The completion's own fields are said with the first choice's response.
      losses: said([...choice.losses, ...(position === 0 ? converted.losses : [])]),
    }));
    expect(streamed).toEqual(stored);
  });

  test("the second choice's call is an item of its own response, with its choice's status, for the gate to judge", () => {
    const [, second] = run(cases[2]![1]);
    expect(second).toEqual({
      id: ID,
      status: "incomplete",
      items: [call("call_N2", "lookup_city", "{\"city\":\"Lyon\"}", "incomplete")],
      laterChoice: true,
      losses: [
        { line: 1, path: "/choices/1", code: "form_changed", detail: "choice 1 is another answer to the same request: its items are a response of their own, after the first choice's; only one answer continues the conversation" },
        { line: 4, path: "/choices/0/finish_reason", code: "form_changed", detail: 'finish_reason "length" written as status incomplete on the choice\'s items' },
      ],
      line: 1,
      lastLine: 4,
    });
  });

  test("the logprobs are left behind, at the first chunk that held any", () => {
    const [result] = run(cases[0]![1]);
    expect(result.losses).toEqual([
      { line: 3, path: "/choices/0/delta/refusal", code: "form_changed", detail: "a refusal beside text becomes a refusal part next to the text parts" },
      leftBehind(1, "/choices/0/logprobs", "the choice"),
      finishLeftBehind(4),
      ...recordFields(),
    ]);
  });
});
