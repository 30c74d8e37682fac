// The stream assembler on events shaped like the recorded ones: what each delta
// does, where a cut stream leaves its calls, and what is reported.
import { describe, expect, test } from "vitest";
import { AnthropicStreamAssembler, type AnthropicAssembledResponse } from "../../../adapters/anthropic/stream.js";
import { replayGate } from "../../../src/gate/replay-gate.js";
import { createHash } from "node:crypto";
import { responseWith } from "../../support/response-object.js";
import { withoutNeutralFields } from "../../support/response-neutrals.js";

const ID = "msg_013zKrzHmx2EAPhcF2gQKQ4k";
const secretSchema = { type: "object", properties: { password: { type: "string" } }, required: ["password"], additionalProperties: false };

const start = (id = ID) => ({
  type: "message_start",
  message: { model: "claude-sonnet-4-20250514", id, type: "message", role: "assistant", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 416, output_tokens: 1 } },
});
const blockStart = (index: number, block: Record<string, unknown>) => ({ type: "content_block_start", index, content_block: block });
const delta = (index: number, value: Record<string, unknown>) => ({ type: "content_block_delta", index, delta: value });
const text = (index: number, value: string) => delta(index, { type: "text_delta", text: value });
const json = (index: number, value: string) => delta(index, { type: "input_json_delta", partial_json: value });
const stop = (index: number) => ({ type: "content_block_stop", index });
const messageDelta = (stopReason: string) => ({ type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 109 } });
const messageStop = { type: "message_stop" };
const toolUse = (index: number, id: string) => blockStart(index, { type: "tool_use", id, name: "secret_retrieval_tool", input: {} });
const call = (callId: string, args: string, status: string) => ({ type: "function_call", call_id: callId, name: "secret_retrieval_tool", arguments: args, status });

/** Pushes events numbered from 1; returns what push and finish gave, in order. */
function assembled(events: unknown[], message = false): AnthropicAssembledResponse[] {
  const assembler = new AnthropicStreamAssembler({ message });
  const out = events.flatMap((event, i) => assembler.push(event, i + 1));
  return [...out, ...assembler.finish()];
}

/**
 * What normalize takes of each response, less what the tests of the message's
 * own fields look at apart: the response object convert writes, and the fields
 * left behind.
 */
function run(events: unknown[], message = false): AnthropicAssembledResponse[] {
  return assembled(events, message).map(({ record: _record, ...response }) => ({ ...response, losses: response.losses.filter((loss) => loss.code !== "left_behind") }));
}

describe("text and thinking deltas", () => {
  test("text deltas become one assistant message; ping is ignored", () => {
    const events = [start(), blockStart(0, { type: "text", text: "" }), text(0, "Mellon"), { type: "ping" }, text(0, " it is."), stop(0), messageDelta("end_turn"), messageStop];
    expect(run(events)).toEqual([
      { id: ID, status: "completed", items: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Mellon it is.", annotations: [] }] }], losses: [], line: 1, lastLine: 8 },
    ]);
  });

  test("thinking and signature deltas become a reasoning item holding the signature", () => {
    const events = [
      start(),
      blockStart(0, { type: "thinking", thinking: "", signature: "" }),
      delta(0, { type: "thinking_delta", thinking: "Speak" }),
      delta(0, { type: "thinking_delta", thinking: " friend." }),
      delta(0, { type: "signature_delta", signature: "EusBClsIDRgC" }),
      stop(0),
      messageDelta("end_turn"),
      messageStop,
    ];
    expect(run(events)[0].items).toEqual([
      {
        type: "reasoning",
        summary: [{ type: "summary_text", text: "Speak friend." }],
        encrypted_content: "EusBClsIDRgC",
        provenance: { envelope: "anthropic", block: "thinking", model: "claude-sonnet-4-20250514" },
      },
    ]);
  });

  test("citations deltas add citations to their text block", () => {
    const citation = { type: "web_search_result_location", cited_text: "Doors of Durin.", url: "https://example.org/moria", title: "Moria", encrypted_index: "Eo8BCio" };
    const events = [start(), blockStart(0, { type: "text", text: "", citations: [] }), delta(0, { type: "citations_delta", citation }), text(0, "West gate."), stop(0), messageDelta("end_turn"), messageStop];
    expect(run(events)[0].items).toEqual([
      {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: "West gate.", annotations: [{ type: "url_citation", start_index: 0, end_index: 10, url: "https://example.org/moria", title: "Moria" }], "anthropic:citations": [citation] }],
      },
    ]);
  });
});

describe("tool_use deltas", () => {
  test("input_json_delta fragments are the arguments, as streamed; the message's input is them parsed", () => {
    const events = [start(), toolUse(0, "toolu_015c"), json(0, ""), json(0, '{"passwo'), json(0, 'rd": "mellon'), json(0, '"}'), stop(0), messageDelta("tool_use"), messageStop];
    const [result] = run(events, true);
    expect(result.items).toEqual([call("toolu_015c", '{"password": "mellon"}', "completed")]);
    expect(result.message?.content).toEqual([{ type: "tool_use", id: "toolu_015c", name: "secret_retrieval_tool", input: { password: "mellon" } }]);
    expect(replayGate(result.items[0], secretSchema).reason).toBe("ok");
  });

  test("a call whose fragments are all empty keeps the input it started with", () => {
    const events = [start(), blockStart(0, { type: "tool_use", id: "toolu_01C3", name: "get_mixed_content", input: {} }), json(0, ""), stop(0), messageDelta("tool_use"), messageStop];
    expect(run(events)[0].items).toEqual([{ type: "function_call", call_id: "toolu_01C3", name: "get_mixed_content", arguments: "{}", status: "completed" }]);
  });

  test("a server tool call's fragments become the extension item's parsed input", () => {
    const events = [
      start(),
      blockStart(0, { type: "server_tool_use", id: "srvtoolu_01Mw", name: "bash_code_execution", input: {} }),
      json(0, '{"command": "ec'),
      json(0, 'ho 1"}'),
      stop(0),
      blockStart(1, { type: "bash_code_execution_tool_result", tool_use_id: "srvtoolu_01Mw", content: { type: "bash_code_execution_result", stdout: "1\n", stderr: "", return_code: 0, content: [] } }),
      stop(1),
      messageDelta("end_turn"),
      messageStop,
    ];
    expect(run(events)[0].items).toEqual([
      { type: "anthropic:server_tool_use", id: "srvtoolu_01Mw", name: "bash_code_execution", input: { command: "echo 1" } },
      { type: "anthropic:bash_code_execution_tool_result", tool_use_id: "srvtoolu_01Mw", content: { type: "bash_code_execution_result", stdout: "1\n", stderr: "", return_code: 0, content: [] } },
    ]);
  });

  test("a block started over a tool_use block: the replaced call is reported unsupported_tool_call, and the call left is incomplete", () => {
    const events = [start(), toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), toolUse(0, "toolu_2"), json(0, '{"password": "b"}'), stop(0), messageDelta("tool_use"), messageStop];
    const [result] = run(events);
    expect(result.items).toEqual([call("toolu_2", '{"password": "b"}', "incomplete")]);
    expect(result.losses.filter((loss) => loss.code === "unsupported_tool_call" || loss.path === "")).toEqual([
      { line: 4, path: "/index", code: "unsupported_tool_call", detail: "a second block started at index 0: it replaces a tool_use block whose call then gives no item and is not checked" },
      { line: 8, path: "", code: "form_changed", detail: 'a block started over a tool_use block: the call "toolu_2" is written incomplete, as no one reading of the stream runs it' },
    ]);
    expect(replayGate(result.items[0], secretSchema).reason).toBe("status");
  });

  test("a tool_use block that starts with an input of its own and gets fragments too: the fragments make the arguments, the call is incomplete", () => {
    const started = blockStart(0, { type: "tool_use", id: "toolu_1", name: "secret_retrieval_tool", input: { password: "other" } });
    const [result] = run([start(), started, json(0, '{"password": "a"}'), stop(0), messageDelta("tool_use"), messageStop]);
    expect(result.items).toEqual([call("toolu_1", '{"password": "a"}', "incomplete")]);
    expect(result.losses).toContainEqual({ line: 3, path: "/delta/partial_json", code: "form_changed", detail: "the tool_use block started with an input of its own, and input_json_delta fragments follow: the fragments make the arguments, a reader that keeps the started input sees another call, so the call is written incomplete" });
    // The empty input every recorded start gives says nothing of its own.
    const [usual] = run([start(), toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0), messageDelta("tool_use"), messageStop]);
    expect(usual.items).toEqual([call("toolu_1", '{"password": "a"}', "completed")]);
  });

  test.each([
    ["an array", ["../../etc/passwd"], "an array"],
    ["null", null, "null"],
    ["a number", 7, "number 7"],
  ])("an input_json_delta whose partial_json is %s, which the SDKs append to the input text and this reader skips: the call is incomplete", (_label, partial, shown) => {
    const odd = delta(0, { type: "input_json_delta", partial_json: partial });
    const [result] = run([start(), toolUse(0, "toolu_1"), json(0, '{"password": "'), odd, json(0, 'a"}'), stop(0), messageDelta("tool_use"), messageStop]);
    expect(result.items).toEqual([call("toolu_1", '{"password": "a"}', "incomplete")]);
    expect(result.losses).toContainEqual({ line: 4, path: "/delta/partial_json", code: "form_changed", detail: `the input_json_delta gives partial_json as ${shown}, not a string: the SDKs append it to the call's input text or throw at it, and this reader skips it, so the call is written incomplete` });
    expect(replayGate(result.items[0], secretSchema).reason).toBe("status");
  });

  test("a message_delta whose stop_reason replaces another makes the calls incomplete: which one ended them is not known", () => {
    const events = [start(), toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0), messageDelta("max_tokens"), messageDelta("tool_use"), messageStop];
    const [result] = run(events);
    expect(result.items).toEqual([call("toolu_1", '{"password": "a"}', "incomplete")]);
    expect(result.losses).toContainEqual({ line: 7, path: "", code: "form_changed", detail: 'a message_delta said stop_reason "max_tokens" on line 5 and a later one another: the call "toolu_1" is written incomplete, as no one reading of the stream runs it' });
    expect(replayGate(result.items[0], secretSchema).reason).toBe("status");
    // The same stop_reason said twice, or another that completes the call too, leaves it completed.
    for (const first of ["tool_use", "end_turn"]) {
      const [again] = run([start(), toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0), messageDelta(first), messageDelta("tool_use"), messageStop]);
      expect(again.items).toEqual([call("toolu_1", '{"password": "a"}', "completed")]);
    }
  });

  test("a later message_delta that leaves stop_reason out, or has no delta, clears it as the SDKs do: the calls are not completed", () => {
    for (const later of [{ type: "message_delta", delta: { stop_sequence: null }, usage: { output_tokens: 110 } }, { type: "message_delta", delta: null, usage: { output_tokens: 110 } }]) {
      const [response] = run([start(), toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0), messageDelta("tool_use"), later, messageStop]);
      expect([response!.status, response!.items]).toEqual(["in_progress", [call("toolu_1", '{"password": "a"}', "in_progress")]]);
      expect(response!.losses).toEqual([{ line: 6, path: later.delta === null ? "" : "/delta", code: "form_changed", detail: 'a message_delta without stop_reason clears the "tool_use" said before, as the SDKs set it from each message_delta: the message has none, and its calls are not completed' }]);
    }
  });

  test("a delta after a tool_use block's content_block_stop is not applied, and the call is incomplete, here and in the response object", () => {
    const events = [start(), toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0), json(0, ', "x": 1}'), messageDelta("tool_use"), messageStop];
    const [response] = assembled(events);
    expect(response!.items).toEqual([call("toolu_1", '{"password": "a"}', "incomplete")]);
    expect(response!.losses).toContainEqual({ line: 5, path: "/delta", code: "unsupported_field", detail: "a input_json_delta after the block's content_block_stop: not applied; a reader that applies it reads another call, so the call is written incomplete" });
    expect(replayGate(response!.items[0], secretSchema).reason).toBe("status");
    expect((response!.record().value.output as Array<{ status?: unknown }>)[0]!.status).toBe("incomplete");
  });

  test("an event that changes the message after message_stop leaves no call of it completed, here or in the response object", () => {
    // The SDKs' accumulators go on applying events to the message after message_stop: they read '{"password": "a", "x": 1}'.
    const late = [
      [json(0, ', "x": 1}')],
      [toolUse(1, "toolu_2"), json(1, '{"password": "b"}'), stop(1)],
      [messageDelta("max_tokens")],
    ];
    for (const after of late) {
      const events = [start(), toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0), messageDelta("tool_use"), messageStop, ...after];
      const responses = assembled(events);
      expect(responses).toHaveLength(1);
      const [response] = responses;
      for (const item of response!.items) expect(replayGate(item, secretSchema).reason).toBe("status");
      expect(response!.losses).toContainEqual({ line: 7, path: "/type", code: "form_changed", detail: `a ${(after[0] as { type: string }).type} event after the message's message_stop: the SDKs' accumulators apply it, a reader that stops at message_stop does not, so no call of the message is written completed` });
      expect((response!.record().value.output as Array<{ type: string; status?: unknown }>).filter((item) => item.type === "function_call").map((item) => item.status)).not.toContain("completed");
    }
    // A ping, a second message_stop, or a new message after it changes nothing of the first.
    const [first, second] = run([start(), toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0), messageDelta("tool_use"), messageStop, { type: "ping" }, messageStop, start("msg_2"), toolUse(0, "toolu_2"), json(0, '{"password": "b"}'), stop(0), messageDelta("tool_use"), messageStop]);
    expect(first!.items).toEqual([call("toolu_1", '{"password": "a"}', "completed")]);
    expect(first!.losses).toEqual([]);
    expect(second!.items).toEqual([call("toolu_2", '{"password": "b"}', "completed")]);
  });

  test("blocks started out of order: the SDKs append each block and apply deltas by position, so no call is completed, here or in the response object", () => {
    // A reader that appends reads toolu_2 with toolu_1's arguments, and toolu_1 with toolu_2's.
    const events = [start(), toolUse(1, "toolu_2"), toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), json(1, '{"password": "b"}'), stop(0), stop(1), messageDelta("tool_use"), messageStop];
    const [response] = assembled(events);
    expect(response!.items.map((item) => (item as { status?: unknown }).status)).toEqual(["incomplete", "incomplete"]);
    expect(response!.losses).toContainEqual({ line: 2, path: "/index", code: "unsupported_tool_call", detail: "a block started at index 1, where the SDKs' accumulators, which append each block, put it at 0: their deltas then go to other blocks than here, so no call of the message is written completed" });
    for (const item of response!.items) expect(replayGate(item, secretSchema).reason).toBe("status");
    expect((response!.record().value.output as Array<{ status?: unknown }>).map((item) => item.status)).toEqual(["incomplete", "incomplete"]);
    // A gap in the indices moves every later block too; so does a start with no index.
    for (const odd of [[toolUse(1, "toolu_1"), json(1, '{"password": "a"}'), stop(1)], [{ type: "content_block_start", content_block: { type: "text", text: "" } }, toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0)]]) {
      const [gap] = run([start(), ...odd, messageDelta("tool_use"), messageStop]);
      expect(gap.items.at(-1)).toEqual(call("toolu_1", '{"password": "a"}', "incomplete"));
    }
  });

  test("a block start whose content_block is no object takes a position: a block started after it at the same index is out of place, and no call is completed", () => {
    // anthropic-sdk-typescript appends {...null}, an empty block: its deltas at index 0 reach that block, and toolu_1 keeps the input {} it started with.
    for (const content_block of [null, "text", undefined]) {
      const [response] = assembled([start(), { type: "content_block_start", index: 0, content_block }, toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0), messageDelta("tool_use"), messageStop]);
      expect(response!.items).toEqual([call("toolu_1", '{"password": "a"}', "incomplete")]);
      expect(response!.losses).toContainEqual({ line: 3, path: "/index", code: "unsupported_tool_call", detail: "a block started at index 0, where the SDKs' accumulators, which append each block, put it at 1: their deltas then go to other blocks than here, so no call of the message is written completed" });
      expect(replayGate(response!.items[0], secretSchema).reason).toBe("status");
    }
    // Numbered after it, the call is the one every reader that reads it reads.
    const [after] = run([start(), { type: "content_block_start", index: 0, content_block: null }, toolUse(1, "toolu_1"), json(1, '{"password": "a"}'), stop(1), messageDelta("tool_use"), messageStop]);
    expect(after!.items).toEqual([call("toolu_1", '{"password": "a"}', "completed")]);
  });

  test("a message_delta without usage, a message_start without usage or content, a delta without its delta object: the SDKs throw there, so no call is completed", () => {
    const bare = (drop: string) => {
      const { [drop]: _dropped, ...message } = start().message;
      return { type: "message_start", message };
    };
    const cases: Array<[unknown[], number, string]> = [
      [[start(), toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0), { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null } }], 5, "a message_delta without a usage object, whose output_tokens they read"],
      [[bare("usage"), toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0), messageDelta("tool_use")], 5, "a message_delta, whose output_tokens they set on a usage object message_start did not give"],
      [[bare("content"), toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0), messageDelta("tool_use")], 2, "a content_block_start, whose block they append to a content array message_start did not give"],
      [[start(), toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), { type: "content_block_delta", index: 0 }, stop(0), messageDelta("tool_use")], 4, "a content_block_delta without a delta object, whose type they read"],
    ];
    for (const [events, line, why] of cases) {
      const [response] = assembled([...events, messageStop]);
      expect(response!.items).toEqual([call("toolu_1", '{"password": "a"}', "incomplete")]);
      expect(response!.losses).toContainEqual({ line, path: "", code: "form_changed", detail: `the SDKs throw at ${why}: they give no message, so no call of the message is written completed` });
      expect(replayGate(response!.items[0], secretSchema).reason).toBe("status");
      expect((response!.record!().value.output as Array<{ status?: unknown }>).map((item) => item.status)).toEqual(["incomplete"]);
    }
  });

  test("a delta whose index names no block started (-1, \"0\"): the SDKs read it at a position, so no call is completed, here or in the response object", () => {
    // anthropic-sdk-typescript takes content.at(index), as Python's list does a negative index: both read '{"password": "a", "x": 1}'.
    for (const index of [-1, "0"]) {
      const stray = { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: ', "x": 1' } };
      const [response] = assembled([start(), toolUse(0, "toolu_1"), json(0, '{"password": "a"'), stray, json(0, "}"), stop(0), messageDelta("tool_use"), messageStop]);
      expect(response!.items).toEqual([call("toolu_1", '{"password": "a"}', "incomplete")]);
      expect(response!.losses.filter((loss) => loss.code !== "left_behind")).toEqual([
        { line: 4, path: "/delta", code: "unsupported_field", detail: `a delta for index ${JSON.stringify(index)}, which no block started at: not applied; the SDKs may apply it to a block by position, so no call of the message is written completed` },
        { line: 8, path: "", code: "form_changed", detail: 'a delta on line 4 names an index no block started at, which the SDKs may read as another block\'s: the call "toolu_1" is written incomplete, as no one reading of the stream runs it' },
      ]);
      expect((response!.record().value.output as Array<{ status?: unknown }>).map((item) => item.status)).toEqual(["incomplete"]);
    }
  });

  test("a block started at index 0 after message_start gave a block of its own: the SDKs put it at 1, so its call is not completed", () => {
    const opening = start();
    opening.message.content = [{ type: "text", text: "ok" }] as never[];
    const [result] = run([opening, toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0), messageDelta("tool_use"), messageStop]);
    expect(result.items.at(-1)).toEqual(call("toolu_1", '{"password": "a"}', "incomplete"));
    // Started at the next position, after message_start's block, it is the call every reader reads.
    const [next] = run([opening, toolUse(1, "toolu_1"), json(1, '{"password": "a"}'), stop(1), messageDelta("tool_use"), messageStop]);
    expect(next.items.at(-1)).toEqual(call("toolu_1", '{"password": "a"}', "completed"));
  });

  test("a stop_reason only message_start gives ends no call: without a message_delta's the call is in_progress", () => {
    const opening = start();
    (opening.message as Record<string, unknown>).stop_reason = "tool_use";
    const cut = [opening, toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0)];
    for (const events of [cut, [...cut, messageStop]]) {
      const [result] = run(events);
      expect(result.items).toEqual([call("toolu_1", '{"password": "a"}', "in_progress")]);
      expect(result.losses).toContainEqual({ line: 1, path: "/message/stop_reason", code: "form_changed", detail: 'message_start says stop_reason "tool_use", and no message_delta says one: a stream\'s message starts with none, so this one ends no call; the response is written as if none came' });
      expect(replayGate(result.items[0], secretSchema).reason).toBe("status");
    }
    // A message_delta's stop_reason ends the calls, whatever message_start said.
    const [stopped] = run([...cut, messageDelta("tool_use"), messageStop]);
    expect(stopped.items).toEqual([call("toolu_1", '{"password": "a"}', "completed")]);
  });

  // Programmatic tool calling: each call the code makes comes as a message_start
  // holding the whole tool_use block and its stop_reason, then message_stop.
  const callerOfCode = { type: "code_execution_20250825", tool_id: "srvtoolu_01MzSrFWsmzBdcoQkGWLyRjK" };
  const wholeStart = () => {
    const opening = start("msg_01KSVw3xmXbMNJPNMt46BC5W");
    Object.assign(opening.message, {
      content: [{ type: "tool_use", id: "toolu_015dGLMbwBKv1ZRQr6KdJzeH", name: "secret_retrieval_tool", input: { password: "b" }, caller: callerOfCode }],
      container: { id: "container_011CWHPPTDTn1XufeRB9uHeH", expires_at: "2025-12-20T05:33:37.969567Z" },
      stop_reason: "tool_use",
      usage: { input_tokens: 0, output_tokens: 0 },
    });
    return opening;
  };

  test("a message that message_start gives whole with its stop_reason, closed by message_stop, ends its call as that stop_reason says", () => {
    expect(run([wholeStart(), messageStop])).toEqual([
      {
        id: "msg_01KSVw3xmXbMNJPNMt46BC5W",
        status: "completed",
        items: [{ ...call("toolu_015dGLMbwBKv1ZRQr6KdJzeH", '{"password":"b"}', "completed"), "anthropic:caller": callerOfCode }],
        losses: [{ line: 1, path: "/message/content/0/input", code: "synthesized", detail: "input is an object, not a text: the arguments are its JSON text as JSON.stringify writes it (no spaces, member order kept)" }],
        line: 1,
        lastLine: 2,
      },
    ]);
  });

  test("a message that message_start gives whole ends no call without its message_stop, or when a block event follows", () => {
    const cases = [[wholeStart()], [wholeStart(), toolUse(1, "toolu_2"), json(1, '{"password": "a"}'), stop(1), messageStop], [wholeStart(), stop(0), messageStop]];
    for (const events of cases) {
      const [result] = run(events);
      expect(result.items[0]).toEqual({ ...call("toolu_015dGLMbwBKv1ZRQr6KdJzeH", '{"password":"b"}', "in_progress"), "anthropic:caller": callerOfCode });
    }
  });

  test("a delta after a text block's content_block_stop is not applied, and leaves the call of another block as it was", () => {
    const events = [start(), blockStart(0, { type: "text", text: "" }), text(0, "Here."), stop(0), text(0, " More."), toolUse(1, "toolu_1"), json(1, '{"password": "a"}'), stop(1), messageDelta("tool_use"), messageStop];
    const [result] = run(events);
    expect(result.items.at(-1)).toEqual(call("toolu_1", '{"password": "a"}', "completed"));
    expect(result.losses).toContainEqual({ line: 5, path: "/delta", code: "unsupported_field", detail: "a text_delta after the block's content_block_stop: not applied" });
  });

  test("max_tokens with a call as the last block: the call is incomplete, and the gate blocks it", () => {
    const events = [start(), toolUse(0, "toolu_015c"), json(0, '{"password": "mel'), stop(0), messageDelta("max_tokens"), messageStop];
    const [result] = run(events);
    expect(result.status).toBe("incomplete");
    expect(result.items).toEqual([call("toolu_015c", '{"password": "mel', "incomplete")]);
    expect(replayGate(result.items[0], secretSchema).reason).toBe("status");
  });
});

describe("streams cut short", () => {
  test("cut before content_block_stop: the call is in_progress, both the block and the missing message_stop reported", () => {
    const events = [start(), toolUse(0, "toolu_015c"), json(0, '{"password": "mellon"}')];
    const [result] = run(events, true);
    expect(result).toEqual({
      id: ID,
      status: "in_progress",
      items: [call("toolu_015c", '{"password": "mellon"}', "in_progress")],
      losses: [
        { line: 2, path: "/content_block", code: "form_changed", detail: "the stream ended before this tool_use block's content_block_stop: its call is in_progress" },
        { line: 3, path: "", code: "form_changed", detail: "the stream ended without message_stop or a stop_reason: the response is in_progress" },
      ],
      line: 1,
      lastLine: 3,
      message: { ...start().message, content: [{ type: "tool_use", id: "toolu_015c", name: "secret_retrieval_tool", input: { password: "mellon" } }], stop_reason: null },
    });
    expect(replayGate(result.items[0], secretSchema).reason).toBe("status");
  });

  test("cut mid-arguments: the item keeps the text that came, the message the input the block started with", () => {
    const [result] = run([start(), toolUse(0, "toolu_015c"), json(0, '{"passwo')], true);
    expect(result.items).toEqual([call("toolu_015c", '{"passwo', "in_progress")]);
    expect(result.message?.content).toEqual([{ type: "tool_use", id: "toolu_015c", name: "secret_retrieval_tool", input: {} }]);
  });

  test("a stop_reason without message_stop gives the status, and the missing message_stop is reported", () => {
    const [result] = run([start(), blockStart(0, { type: "text", text: "" }), text(0, "Done."), stop(0), messageDelta("end_turn")]);
    expect(result.status).toBe("completed");
    expect(result.losses).toEqual([{ line: 5, path: "", code: "form_changed", detail: 'the stream ended without message_stop; the status comes from the stop_reason "end_turn" of message_delta' }]);
  });

  test("a tool_use stopped with stop_reason tool_use but no message_stop: the call stays in_progress, in the items and in the response object", () => {
    // The SDK for TypeScript gives a message only at message_stop: its finalMessage() rejects and its tool runner runs nothing.
    const events = [start(), toolUse(0, "toolu_015c"), json(0, '{"password": "mellon"}'), stop(0), messageDelta("tool_use")];
    const [result] = assembled(events);
    expect(result.items).toEqual([call("toolu_015c", '{"password": "mellon"}', "in_progress")]);
    expect(result.losses.filter((loss) => loss.code !== "left_behind")).toEqual([
      { line: 5, path: "", code: "form_changed", detail: 'the stream ended without message_stop; the status comes from the stop_reason "tool_use" of message_delta' },
      { line: 5, path: "", code: "form_changed", detail: 'the recording ends before message_stop: the call "toolu_015c" is written in_progress, as the SDK for TypeScript gives no message without message_stop and runs none of its calls' },
    ]);
    expect(replayGate(result.items[0], secretSchema).reason).toBe("status");
    expect((result.record!().value.output as Array<Record<string, unknown>>).map((item) => item.status)).toEqual(["in_progress"]);
    // With message_stop, the same call is completed.
    expect(run([...events, messageStop])[0]!.items).toEqual([call("toolu_015c", '{"password": "mellon"}', "completed")]);
  });

  test("an error event fails the response: its calls are in_progress and the error reported", () => {
    const events = [start(), toolUse(0, "toolu_015c"), json(0, '{"password": "mellon"}'), stop(0), { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }];
    expect(run(events)).toEqual([
      {
        id: ID,
        status: "failed",
        items: [call("toolu_015c", '{"password": "mellon"}', "in_progress")],
        losses: [{ line: 5, path: "/error", code: "unsupported_field", detail: "the stream failed with overloaded_error: Overloaded; the response is failed, its calls in_progress" }],
        line: 1,
        lastLine: 5,
      },
    ]);
  });
});

describe("several messages and stray events", () => {
  test("message_stop closes a message; the next message_start opens another", () => {
    const events = [start("msg_A"), blockStart(0, { type: "text", text: "" }), text(0, "One."), stop(0), messageDelta("end_turn"), messageStop, start("msg_B"), blockStart(0, { type: "text", text: "Two." }), stop(0), messageDelta("end_turn"), messageStop];
    expect(run(events).map((response) => [response.id, response.line, response.lastLine])).toEqual([
      ["msg_A", 1, 6],
      ["msg_B", 7, 11],
    ]);
  });

  test("a message_start while a message is open closes it, reported", () => {
    const results = run([start("msg_A"), blockStart(0, { type: "text", text: "One" }), start("msg_B"), messageDelta("end_turn"), messageStop]);
    expect(results.map((response) => [response.id, response.status])).toEqual([
      ["msg_A", "in_progress"],
      ["msg_B", "completed"],
    ]);
    expect(results[0].losses.map((loss) => [loss.line, loss.path])).toEqual([
      [2, "/content_block"],
      [2, ""],
    ]);
  });

  test("a delta for an index no block started at, or of an unknown type, is reported and not applied", () => {
    const [result] = run([start(), blockStart(0, { type: "text", text: "A" }), text(3, "B"), delta(0, { type: "sparkle_delta", sparkle: 1 }), stop(0), messageDelta("end_turn"), messageStop]);
    expect(result.items).toEqual([{ type: "message", role: "assistant", content: [{ type: "output_text", text: "A", annotations: [] }] }]);
    expect(result.losses).toEqual([
      { line: 3, path: "/delta", code: "unsupported_field", detail: "a delta for index 3, which no block started at: not applied; the SDKs may apply it to a block by position, so no call of the message is written completed" },
      { line: 4, path: "/delta", code: "unsupported_field", detail: 'a delta of type "sparkle_delta" is not one this assembler knows: not applied' },
    ]);
  });

  test("an event before message_start opens a message without id, reported", () => {
    const [result] = run([blockStart(0, { type: "text", text: "Hi" }), stop(0), messageStop]);
    expect(result).toEqual({
      status: "in_progress",
      items: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Hi", annotations: [] }] }],
      losses: [{ line: 1, path: "", code: "form_changed", detail: "an event before message_start: the message has no id, model or usage, and the SDKs throw at it, so no call of the message is written completed" }],
      line: 1,
      lastLine: 3,
    });
  });

  test("events after an error event, with no message_start, make a message whose calls are not completed: the SDKs threw at the error", () => {
    const error = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    const [failed, after] = run([start(), blockStart(0, { type: "text", text: "" }), error, toolUse(0, "toolu_1"), json(0, '{"password": "a"}'), stop(0), messageDelta("tool_use"), messageStop]);
    expect(failed!.status).toBe("failed");
    expect(after).toEqual({
      status: "completed",
      items: [call("toolu_1", '{"password": "a"}', "incomplete")],
      losses: [
        { line: 4, path: "", code: "form_changed", detail: "an event before message_start: the message has no id, model or usage, and the SDKs throw at it, so no call of the message is written completed" },
        { line: 8, path: "", code: "form_changed", detail: 'the message opened on line 4 without message_start, where the SDKs throw: the call "toolu_1" is written incomplete, as no one reading of the stream runs it' },
      ],
      line: 4,
      lastLine: 8,
    });
  });

  test("an event that is not an object with a type is refused", () => {
    expect(() => new AnthropicStreamAssembler().push([1], 1)).toThrow(TypeError);
  });
});

describe("the message's own fields", () => {
  const itemId = (prefix: string, index: number) => `${prefix}_${createHash("sha256").update(`${ID}\u0000${index}`).digest("hex").slice(0, 48)}`;
  const container = { id: "container_011CbRk4", expires_at: "2026-05-02T09:41:07.218840Z" };
  const closing = { type: "message_delta", delta: { stop_reason: "stop_sequence", stop_sequence: "END", container }, usage: { input_tokens: 416, output_tokens: 31 } };
  const events = [start(), blockStart(0, { type: "text", text: "" }), text(0, "Fed twice a day"), stop(0), closing, messageStop];

  test("normalize leaves each behind where its event said it: message_start's id, model and usage, message_delta's stop_reason, stop_sequence, container and usage", () => {
    const [result] = assembled(events);
    expect(result.losses).toEqual([
      { line: 1, path: "/message/model", code: "left_behind", detail: "model of the message is in no item: normalize writes items only" },
      { line: 1, path: "/message/id", code: "left_behind", detail: "id of the message is in no item: normalize writes items only" },
      { line: 1, path: "/message/usage", code: "left_behind", detail: "usage of the message is in no item: normalize writes items only" },
      { line: 5, path: "/delta/stop_reason", code: "left_behind", detail: "stop_reason of the message is in no item: normalize writes items only" },
      { line: 5, path: "/delta/stop_sequence", code: "left_behind", detail: "stop_sequence of the message is in no item: normalize writes items only" },
      { line: 5, path: "/delta/container", code: "left_behind", detail: "container of the message is in no item: normalize writes items only" },
      { line: 5, path: "/usage", code: "left_behind", detail: "usage of the message is in no item: normalize writes items only" },
    ]);
  });

  test("convert's response object holds them: id, model and usage in their places, the rest under the slug; a usage count message_delta replaced is reported", () => {
    const [result] = assembled(events);
    const record = result.record!();
    expect({ value: record.value, losses: withoutNeutralFields(record.losses) }).toEqual({
      value: {
        ...responseWith({
          id: ID,
          created_at: 0,
          model: "claude-sonnet-4-20250514",
          output: [{ id: itemId("msg", 0), type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Fed twice a day", annotations: [] }] }],
          usage: { input_tokens: 416, output_tokens: 31, total_tokens: 447, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
        }),
        "anthropic:stop_reason": "stop_sequence",
        "anthropic:stop_sequence": "END",
        "anthropic:usage": { input_tokens: 416, output_tokens: 31 },
        "anthropic:container": container,
      },
      losses: [
        { line: 1, path: "/message/usage/output_tokens", code: "form_changed", detail: "usage output_tokens 1 is replaced by message_delta's 31, which the response holds" },
        { line: 1, path: "/created_at", code: "synthesized", detail: "an Anthropic message has no creation time: created_at 0 written" },
        { line: 1, path: "/output/0/id", code: "synthesized", detail: `an Anthropic block has no item id: ${itemId("msg", 0)} derived from the message id and the item's place` },
      ],
    });
  });

  test("a call's arguments in the response object are the text streamed, byte for byte, and not said synthesized", () => {
    const [result] = assembled([start(), toolUse(0, "toolu_015c"), json(0, '{"passwo'), json(0, 'rd":  "mellon" }'), stop(0), messageDelta("tool_use"), messageStop]);
    const record = result.record!();
    expect((record.value.output as unknown[])).toEqual([{ id: itemId("fc", 0), ...call("toolu_015c", '{"passwo' + 'rd":  "mellon" }', "completed") }]);
    expect(record.losses.filter((loss) => loss.path.startsWith("/output/0/arguments"))).toEqual([]);
  });

  test("a stream without message_start gets an id and model written for its response object, reported", () => {
    const [result] = assembled([blockStart(0, { type: "text", text: "Hi" }), stop(0), messageStop]);
    const record = result.record!();
    const id = `msg_${createHash("sha256").update(JSON.stringify([{ type: "text", text: "Hi" }])).digest("hex").slice(0, 24)}`;
    expect([record.value.id, record.value.model, record.value.status]).toEqual([id, "", "in_progress"]);
    expect(withoutNeutralFields(record.losses).filter((loss) => loss.path === "/id" || loss.path === "/model")).toEqual([
      { line: 1, path: "/id", code: "synthesized", detail: `the stream has no message id: ${id} written, from its content` },
      { line: 1, path: "/model", code: "synthesized", detail: 'the stream does not name its model: "" written' },
    ]);
  });
});
