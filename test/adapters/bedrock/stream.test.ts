// The event-stream decoder and the ConverseStream assembler: the edges the
// golden streams do not pin.
import { describe, expect, test } from "vitest";
import { decodeEventStream, eventOfFrame, eventStreamRecords } from "../../../adapters/bedrock/event-stream.js";
import { BedrockStreamAssembler } from "../../../adapters/bedrock/stream.js";
import { eventFrame, frame } from "./event-stream-frames.js";

function assemble(events: unknown[], options = {}) {
  const assembler = new BedrockStreamAssembler(options);
  return [...events.flatMap((event, index) => assembler.push(event, index + 1)), ...assembler.finish()];
}

describe("decodeEventStream, frames", () => {
  test("gives each frame's headers and payload, and the event it stands for", () => {
    const bytes = Buffer.concat([eventFrame("messageStart", { p: "abc", role: "assistant" }), eventFrame("messageStop", { p: "ab", stopReason: "end_turn" })]);
    const decoded = decodeEventStream({ bytes });
    expect(decoded.rest).toBe(0);
    expect(decoded.frames.map((one) => one.headers)).toEqual([
      { ":event-type": "messageStart", ":content-type": "application/json", ":message-type": "event" },
      { ":event-type": "messageStop", ":content-type": "application/json", ":message-type": "event" },
    ]);
    expect(decoded.frames.map(eventOfFrame)).toEqual([{ messageStart: { p: "abc", role: "assistant" } }, { messageStop: { p: "ab", stopReason: "end_turn" } }]);
  });

  test("counts the bytes of a frame the recording cut", () => {
    const whole = eventFrame("messageStart", { role: "assistant" });
    const cut = eventFrame("messageStop", { stopReason: "end_turn" }).subarray(0, 20);
    const decoded = decodeEventStream({ bytes: Buffer.concat([whole, cut]) });
    expect([decoded.frames.length, decoded.rest]).toEqual([1, 20]);
  });

  test("refuses a frame whose prelude CRC does not match", () => {
    expect(() => decodeEventStream({ bytes: frame({ ":event-type": "messageStart" }, "{}", "prelude") })).toThrow("event-stream frame at byte 0: the prelude CRC does not match");
  });

  test("refuses a frame whose message CRC does not match", () => {
    const bytes = Buffer.concat([eventFrame("messageStart", {}), frame({ ":event-type": "messageStop" }, "{}", "message")]);
    expect(() => decodeEventStream({ bytes })).toThrow(/the message CRC does not match/);
  });

  test("an exception frame names its event by its exception type", () => {
    const [exception] = decodeEventStream({ bytes: frame({ ":exception-type": "throttlingException", ":message-type": "exception" }, '{"message":"Too many requests"}') }).frames;
    expect(eventOfFrame(exception)).toEqual({ throttlingException: { message: "Too many requests" } });
  });

  test("an exception frame whose type does not end in Exception is an error: as the event it names it would go on with the stream the SDKs stopped", () => {
    const [exception] = decodeEventStream({ bytes: frame({ ":exception-type": "contentBlockDelta", ":message-type": "exception" }, JSON.stringify({ contentBlockIndex: 0, delta: { toolUse: { input: "}" } } })) }).frames;
    expect(() => eventOfFrame(exception!)).toThrow('event-stream frame at byte 0 is an exception named "contentBlockDelta": the AWS SDKs throw at it, and as an event of that name it would be read as no exception');
  });

  test("an error frame, or one of no known :message-type, is an error whatever its :event-type says: the AWS SDKs throw at it", () => {
    const payload = JSON.stringify({ contentBlockIndex: 0, delta: { toolUse: { input: "}" } } });
    const frames = [
      { ":event-type": "contentBlockDelta", ":message-type": "error", ":error-code": "InternalFailure", ":error-message": "try again" },
      { ":event-type": "contentBlockDelta", ":message-type": "Event" },
      { ":event-type": "contentBlockDelta" },
    ].map((headers) => decodeEventStream({ bytes: frame(headers, payload) }).frames[0]!);
    expect(frames.map((one) => { try { return eventOfFrame(one); } catch (error) { return (error as Error).message; } })).toEqual([
      "event-stream frame at byte 0 is an error frame (InternalFailure: try again): the stream failed there",
      'event-stream frame at byte 0 has the :message-type "Event", neither event nor exception: the AWS SDKs read no event of it and fail the stream',
      "event-stream frame at byte 0 has no :message-type, neither event nor exception: the AWS SDKs read no event of it and fail the stream",
    ]);
  });
});

describe("eventStreamRecords: a recording's frames as the journal's lines", () => {
  test("an error frame, or an exception named as an event, between events is an error record where it stood, as the CLI reads the bytes", () => {
    const bytes = Buffer.concat([
      eventFrame("messageStart", { role: "assistant" }),
      frame({ ":event-type": "contentBlockDelta", ":message-type": "error", ":error-code": "InternalFailure", ":error-message": "try again" }, "{}"),
      frame({ ":exception-type": "contentBlockDelta", ":message-type": "exception" }, "{}"),
      eventFrame("messageStop", { stopReason: "end_turn" }),
    ]);
    const second = eventFrame("messageStart", { role: "assistant" }).length;
    const third = second + frame({ ":event-type": "contentBlockDelta", ":message-type": "error", ":error-code": "InternalFailure", ":error-message": "try again" }, "{}").length;
    expect(eventStreamRecords(bytes)).toEqual({
      records: [
        { text: '{"messageStart":{"role":"assistant"}}' },
        { error: `event-stream frame at byte ${second} is an error frame (InternalFailure: try again): the stream failed there; it is not read` },
        { error: `event-stream frame at byte ${third} is an exception named "contentBlockDelta": the AWS SDKs throw at it, and as an event of that name it would be read as no exception; it is not read` },
        { text: '{"messageStop":{"stopReason":"end_turn"}}' },
      ],
    });
  });
});

describe("BedrockStreamAssembler, events", () => {
  test("a toolUse delta after the block's contentBlockStop is appended, and the call is incomplete, reported", () => {
    const events = [
      { messageStart: { role: "assistant" } },
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tooluse_A", name: "top_song" } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"sign": "WKRP"' } } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: "}" } } } },
      { messageStop: { stopReason: "tool_use" } },
    ];
    const [response] = assemble(events);
    expect(response!.items).toEqual([{ type: "function_call", call_id: "tooluse_A", name: "top_song", arguments: '{"sign": "WKRP"}', status: "incomplete" }]);
    expect(response!.losses).toEqual([
      { path: "/contentBlockDelta/delta", code: "form_changed", detail: "a toolUse delta after the block's contentBlockStop: appended, as a reader that reads on sees it; one that stops there sees another call, so the call is written incomplete", line: 5 },
    ]);
  });

  test("block events out of order: a block started again, one past the next index, or an event for a block after another began; the message's calls are incomplete, reported", () => {
    const start = (index: number, id: string) => ({ contentBlockStart: { contentBlockIndex: index, start: { toolUse: { toolUseId: id, name: "top_song" } } } });
    const input = (index: number, text: string) => ({ contentBlockDelta: { contentBlockIndex: index, delta: { toolUse: { input: text } } } });
    const stop = (index: number) => ({ contentBlockStop: { contentBlockIndex: index } });
    const cases: Array<[unknown[], string]> = [
      // A reader that resets the input when the block starts again runs {} here.
      [[start(0, "tooluse_A"), input(0, '{"sign": "WKRP"}'), start(0, "tooluse_A"), stop(0)], "block 0 starts again"],
      // A reader that keeps one current call runs tooluse_A with tooluse_B's input.
      [[start(1, "tooluse_B"), start(0, "tooluse_A"), input(1, '{"sign": "WKRP"}'), stop(1), input(0, '{"sign": "KBBL"}'), stop(0)], "block 1 opens where the blocks before it make it block 0"],
      [[start(0, "tooluse_A"), start(1, "tooluse_B"), input(0, '{"sign": "WKRP"}'), stop(0), input(1, '{"sign": "KBBL"}'), stop(1)], "an event for block 0 comes after block 1 began"],
    ];
    for (const [blocks, why] of cases) {
      const [response] = assemble([{ messageStart: { role: "assistant" } }, ...blocks, { messageStop: { stopReason: "tool_use" } }]);
      expect(response!.items.map((item) => (item as { status?: unknown }).status)).toEqual(blocks.length === 4 ? ["incomplete"] : ["incomplete", "incomplete"]);
      expect(response!.losses).toContainEqual(expect.objectContaining({ code: "form_changed", detail: expect.stringContaining(`${why}: a reader that takes the events in order`) }));
      expect((response!.record!().value.output as Array<{ status?: unknown }>).filter((item) => item.status !== undefined).every((item) => item.status === "incomplete")).toBe(true);
    }
    // Blocks one after another, a text block opened by its first delta, are read alike by every reader.
    const [ordered] = assemble([{ messageStart: { role: "assistant" } }, { contentBlockDelta: { contentBlockIndex: 0, delta: { text: "Looking." } } }, { contentBlockStop: { contentBlockIndex: 0 } }, start(1, "tooluse_A"), input(1, '{"sign": "WKRP"}'), stop(1), { messageStop: { stopReason: "tool_use" } }]);
    expect(ordered!.items.at(-1)).toMatchObject({ type: "function_call", status: "completed" });
  });

  test("a toolUse start that gives an input, then input fragments: the fragments make the arguments, the call is incomplete, reported", () => {
    const events = [
      { messageStart: { role: "assistant" } },
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tooluse_A", name: "top_song", input: { sign: "OTHER" } } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"sign": "WKRP"}' } } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: { stopReason: "tool_use" } },
    ];
    const [response] = assemble(events);
    expect(response!.items.map((item) => (item as { status?: unknown }).status)).toEqual(["incomplete"]);
    expect(response!.losses).toEqual([
      { path: "/contentBlockDelta/delta", code: "form_changed", detail: "the toolUse block started with an input of its own, and input fragments follow: the fragments make the arguments, a reader that keeps the started input sees another call, so the call is written incomplete", line: 3 },
    ]);
  });

  test.each([
    ["an array", ["WKRP"], "an array"],
    ["null", null, "null"],
    ["left out", undefined, "nothing"],
  ])("a toolUse delta whose input is %s, which a reader that appends each fragment adds to the text: the call is incomplete, reported", (_label, input, shown) => {
    const odd = input === undefined ? {} : { input };
    const events = [
      { messageStart: { role: "assistant" } },
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tooluse_A", name: "top_song" } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"sign": "' } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: odd } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: 'WKRP"}' } } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: { stopReason: "tool_use" } },
    ];
    const [response] = assemble(events);
    expect(response!.items).toEqual([{ type: "function_call", call_id: "tooluse_A", name: "top_song", arguments: '{"sign": "WKRP"}', status: "incomplete" }]);
    expect(response!.losses).toEqual([
      { path: "/contentBlockDelta/delta/toolUse", code: "form_changed", detail: `a toolUse delta gives input as ${shown}, not a string: a reader that appends each fragment reads another call, and this reader skips it, so the call is written incomplete`, line: 4 },
    ]);
  });

  test("a block's event or another stopReason after messageStop makes the message's calls incomplete, reported", () => {
    const opened = [
      { messageStart: { role: "assistant" } },
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tooluse_A", name: "top_song" } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"sign": "WKRP"}' } } } },
    ];
    const late = (name: string, line: number) => ({ path: `/${name}`, code: "form_changed", detail: `a ${name} event came after messageStop (line 4): a reader that stops there and one that reads on see different calls, so the message's calls are written incomplete`, line });
    // The block stops only after messageStop: a reader that stops at messageStop sees the call cut.
    const [stoppedLate] = assemble([...opened, { messageStop: { stopReason: "tool_use" } }, { contentBlockStop: { contentBlockIndex: 0 } }]);
    expect(stoppedLate!.items).toEqual([{ type: "function_call", call_id: "tooluse_A", name: "top_song", arguments: '{"sign": "WKRP"}', status: "incomplete" }]);
    expect(stoppedLate!.losses).toEqual([late("contentBlockStop", 5)]);
    const stopped = [...opened, { contentBlockStop: { contentBlockIndex: 0 } }];
    const [restopped] = assemble([...stopped, { messageStop: { stopReason: "max_tokens" } }, { messageStop: { stopReason: "tool_use" } }]);
    expect(restopped!.items.map((item) => (item as { status?: unknown }).status)).toEqual(["incomplete"]);
    expect(restopped!.losses).toEqual([{ ...late("messageStop", 6), detail: late("messageStop", 6).detail.replace("line 4", "line 5") }]);
    // The same stopReason said again, or another that completes the call too, changes nothing.
    for (const first of ["tool_use", "end_turn"]) {
      const [again] = assemble([...stopped, { messageStop: { stopReason: first } }, { messageStop: { stopReason: "tool_use" } }]);
      expect(again!.items.map((item) => (item as { status?: unknown }).status)).toEqual(["completed"]);
      expect(again!.losses).toEqual([]);
    }
  });


  test("a block's event or a messageStop after metadata makes the message's calls incomplete; a new message after it does not", () => {
    const ended = [
      { messageStart: { role: "assistant" } },
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tooluse_A", name: "delete_all" } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"confirm":false}' } } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: { stopReason: "tool_use" } },
      { metadata: { usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } } },
    ];
    // boto3 and the readers built on it go on to the end of the stream: they read the events after metadata into the message.
    const late = [
      { messageStop: { stopReason: "guardrail_intervened" } },
      { messageStop: { stopReason: "tool_use" } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: "x" } } } },
      { contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: "tooluse_B", name: "delete_all" } } } },
    ];
    for (const event of late) {
      const responses = assemble([...ended, event]);
      expect(responses).toHaveLength(1);
      expect(responses[0]!.items.map((item) => (item as { status?: unknown }).status)).not.toContain("completed");
      const name = Object.keys(event)[0];
      expect(responses[0]!.losses).toContainEqual({ path: `/${name}`, code: "form_changed", detail: `a ${name} event came after metadata (line 6): a reader that stops there and one that reads on see different calls, so the message's calls are written incomplete`, line: 7 });
    }
    const [first, second] = assemble([...ended, ...ended]);
    expect(first!.items).toEqual([{ type: "function_call", call_id: "tooluse_A", name: "delete_all", arguments: '{"confirm":false}', status: "completed" }]);
    expect(first!.losses.filter((loss) => loss.code !== "left_behind")).toEqual([]);
    expect(second!.items).toEqual(first!.items);
  });
  test("joins toolUse input fragments as streamed, and gives the response at the end of the recording, metadata's fields left behind where they were said", () => {
    const events = [
      { messageStart: { role: "assistant" } },
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tooluse_A", name: "top_song" } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"sign": ' } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '"WKRP"}' } } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: { stopReason: "tool_use" } },
      { metadata: { usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, metrics: { latencyMs: 100 } } },
    ];
    const assembler = new BedrockStreamAssembler({ message: true });
    const closed = events.map((event, index) => assembler.push(event, index + 1));
    expect(closed.map((responses) => responses.length)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(assembler.finish().map(({ record: _record, ...response }) => response)).toEqual([
      {
        status: "completed",
        items: [{ type: "function_call", call_id: "tooluse_A", name: "top_song", arguments: '{"sign": "WKRP"}', status: "completed" }],
        losses: [
          { line: 7, path: "/metadata/usage", code: "left_behind", detail: "usage of the response is in no item: normalize writes items only" },
          { line: 7, path: "/metadata/metrics", code: "left_behind", detail: "metrics of the response is in no item: normalize writes items only" },
        ],
        line: 1,
        lastLine: 7,
        message: {
          output: { message: { role: "assistant", content: [{ toolUse: { toolUseId: "tooluse_A", name: "top_song", input: { sign: "WKRP" } } }] } },
          stopReason: "tool_use",
          usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
          metrics: { latencyMs: 100 },
        },
      },
    ]);
  });

  test("a recording that ends inside a toolUse leaves it in_progress, reported", () => {
    const responses = assemble([
      { messageStart: { role: "assistant" } },
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tooluse_A", name: "f" } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"a":' } } } },
    ]);
    expect(responses.map(({ record: _record, ...response }) => response)).toEqual([
      {
        status: "in_progress",
        items: [{ type: "function_call", call_id: "tooluse_A", name: "f", arguments: '{"a":', status: "in_progress" }],
        losses: [{ path: "", code: "unsupported_item", detail: "the recording ends before messageStop: the response is in_progress", line: 3 }],
        line: 1,
        lastLine: 3,
      },
    ]);
  });

  test("a call whose arguments parse before its block stops is not completed", () => {
    const [response] = assemble([
      { messageStart: { role: "assistant" } },
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tooluse_A", name: "f" } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: "{}" } } } },
    ]);
    expect(response.items).toEqual([{ type: "function_call", call_id: "tooluse_A", name: "f", arguments: "{}", status: "in_progress" }]);
  });

  test("a delta that names two members (text and toolUse, either order): readers take one each, so the message's calls are incomplete, reported", () => {
    // The AWS SDK for JavaScript reads the text; a boto3 reader that tests toolUse first appends ',"x":1'.
    for (const delta of [{ text: "x", toolUse: { input: ',"x":1' } }, { toolUse: { input: ',"x":1' }, text: "x" }]) {
      const [response] = assemble([
        { messageStart: { role: "assistant" } },
        { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tooluse_A", name: "f" } } } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"city":"Paris"' } } } },
        { contentBlockDelta: { contentBlockIndex: 0, delta } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: "}" } } } },
        { contentBlockStop: { contentBlockIndex: 0 } },
        { messageStop: { stopReason: "tool_use" } },
      ]);
      expect(response!.items.map((item) => (item as { status?: unknown }).status)).toEqual(["incomplete"]);
      expect(response!.losses[0]).toEqual({ path: "/contentBlockDelta/delta", code: "form_changed", detail: `a delta names ${Object.keys(delta).map((key) => JSON.stringify(key)).join(" and ")}: readers of ConverseStream take one of them each, not the same one, so the message's calls are written incomplete`, line: 4 });
    }
  });

  test("a delta that does not fit its block is reported, not applied", () => {
    const [response] = assemble([
      { messageStart: { role: "assistant" } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: "Hi" } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: "{}" } } } },
      { messageStop: { stopReason: "end_turn" } },
    ]);
    expect(response.items).toEqual([{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Hi", annotations: [] }] }]);
    expect(response.losses).toEqual([{ path: "/contentBlockDelta/delta", code: "unsupported_part", detail: 'a "toolUse" delta does not fit its block: not applied', line: 3 }]);
  });

  test("redacted content deltas give a reasoning item holding them, with the model given", () => {
    const [response] = assemble(
      [
        { messageStart: { role: "assistant" } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: "RXU4" } } } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: "RUNr" } } } },
        { contentBlockStop: { contentBlockIndex: 0 } },
        { messageStop: { stopReason: "end_turn" } },
      ],
      { model: "us.anthropic.claude-3-7-sonnet-20250219-v1:0" },
    );
    expect(response.items).toEqual([{ type: "reasoning", summary: [], encrypted_content: "RXU4RUNr", provenance: { envelope: "bedrock", block: "redactedContent", model: "us.anthropic.claude-3-7-sonnet-20250219-v1:0" } }]);
  });

  test("an exception event fails the response, reported", () => {
    const [response] = assemble([
      { messageStart: { role: "assistant" } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: "Par" } } },
      { modelStreamErrorException: { message: "The model stopped" } },
    ]);
    expect([response.status, response.losses]).toEqual(["failed", [{ path: "/modelStreamErrorException", code: "unsupported_item", detail: "the stream failed: modelStreamErrorException: The model stopped", line: 3 }]]);
  });

  describe("a message's events after an exception", () => {
    const call = [
      { contentBlockStart: { start: { toolUse: { toolUseId: "tooluse_01", name: "get_weather" } }, contentBlockIndex: 0 } },
      { contentBlockDelta: { delta: { toolUse: { input: '{"city":"Paris"}' } }, contentBlockIndex: 0 } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: { stopReason: "tool_use" } },
    ];
    const failed = [{ messageStart: { role: "assistant" } }, { contentBlockDelta: { contentBlockIndex: 0, delta: { text: "Let me" } } }, { modelStreamErrorException: { message: "The model stream failed" } }];

    test("with no messageStart, which the SDKs never read past the exception, leave its calls incomplete, reported", () => {
      const [, after] = assemble([...failed, ...call]);
      expect(after.items).toEqual([{ type: "function_call", call_id: "tooluse_01", name: "get_weather", arguments: '{"city":"Paris"}', status: "incomplete" }]);
      expect(after.losses).toContainEqual({
        path: "/contentBlockStart",
        code: "form_changed",
        detail: "a message's events came after the exception that ended the stream, with no messageStart: the AWS SDKs throw at the exception and read nothing after it, so the message's calls are written incomplete",
        line: 4,
      });
    });

    test("opened by messageStart, a message of its own: its call completed", () => {
      const [, after] = assemble([...failed, { messageStart: { role: "assistant" } }, ...call]);
      expect(after.items).toEqual([{ type: "function_call", call_id: "tooluse_01", name: "get_weather", arguments: '{"city":"Paris"}', status: "completed" }]);
    });
  });

  test("throws on what is not a Bedrock event", () => {
    expect(() => new BedrockStreamAssembler().push({ a: 1, b: 2 }, 1)).toThrow("a Bedrock stream event is an object of one member, the event's name");
  });
});

describe("BedrockStreamAssembler, the response object the stream amounts to", () => {
  const events = [
    { messageStart: { role: "assistant" } },
    { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tooluse_A", name: "top_song" } } } },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"sign":  "WKRP"}' } } } },
    { contentBlockStop: { contentBlockIndex: 0 } },
    { messageStop: { stopReason: "tool_use" } },
    { metadata: { usage: { inputTokens: 36, outputTokens: 73, totalTokens: 109, cacheReadInputTokens: 5 }, metrics: { latencyMs: 1999 } } },
  ];

  test("holds the usage and metrics the stream said, and the call's arguments as streamed", () => {
    const record = assemble(events)[0]!.record!();
    expect(record.value).toMatchObject({
      status: "completed",
      usage: { input_tokens: 41, output_tokens: 73, input_tokens_details: { cached_tokens: 5 } },
      "bedrock:metrics": { latencyMs: 1999 },
      output: [{ type: "function_call", call_id: "tooluse_A", arguments: '{"sign":  "WKRP"}', status: "completed" }],
    });
    expect(record.losses.filter((loss) => loss.code !== "synthesized")).toEqual([]);
  });

  test("a messageStop field said again with another value is the last one, and the one it replaces is reported where it was said", () => {
    const restated = assemble([...events.slice(0, 4), { messageStop: { stopReason: "tool_use", additionalModelResponseFields: { a: 1 } } }, { messageStop: { stopReason: "tool_use", additionalModelResponseFields: { a: 2 } } }]);
    expect(restated[0]!.record!().value).toMatchObject({ "bedrock:additionalModelResponseFields": { a: 2 } });
    expect(restated[0]!.losses.filter((loss) => loss.code === "form_changed")).toEqual([{ line: 5, path: "/messageStop/additionalModelResponseFields", code: "form_changed", detail: "additionalModelResponseFields {\"a\":1} is replaced by the one on line 6, which the response holds" }]);
  });
});

describe("a call's streamed input is its own block's", () => {
  const toolUse = (index: number, start: Record<string, unknown>, input: string) => [
    { contentBlockStart: { contentBlockIndex: index, start: { toolUse: start } } },
    { contentBlockDelta: { contentBlockIndex: index, delta: { toolUse: { input } } } },
    { contentBlockStop: { contentBlockIndex: index } },
  ];
  const calls = (events: unknown[]) =>
    assemble([{ messageStart: { role: "assistant" } }, ...events, { messageStop: { stopReason: "tool_use" } }])[0]!.items.filter((item) => (item as { type: string }).type === "function_call").map((item) => {
      const { call_id, arguments: args, status } = item as { call_id: string; arguments: string; status: string };
      return [call_id, args, status];
    });

  test("a toolUse of another type before a call does not hand the call its input", () => {
    const events = [...toolUse(0, { toolUseId: "s1", name: "search", type: "server_tool_use" }, '{"confirm":false}'), ...toolUse(1, { toolUseId: "t1", name: "delete_all" }, '{"confirm":true}')];
    expect(calls(events)).toEqual([["t1", '{"confirm":true}', "completed"]]);
  });

  test("two blocks of one toolUseId: neither input can be told the call's, and both calls are incomplete", () => {
    const events = [...toolUse(0, { toolUseId: "t1", name: "delete_all" }, '{"confirm":false}'), ...toolUse(1, { toolUseId: "t1", name: "delete_all" }, '{"confirm":true}')];
    expect(calls(events).map(([id, , status]) => [id, status])).toEqual([
      ["t1", "incomplete"],
      ["t1", "incomplete"],
    ]);
  });
});
