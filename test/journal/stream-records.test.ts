import { describe, expect, test } from "vitest";
import { StreamRecords, type JournalRecord, type StreamRecordsOptions } from "../../src/journal/stream-records.js";
import { countWrittenCalls } from "../../src/journal/count-written-calls.js";

type Line = string | { error: string };

/** Pushes lines numbered from 1 (objects as JSON, `{ error }` as a line the reader did not read), then finishes. */
function read(lines: Array<Line | object>, options: StreamRecordsOptions = {}): JournalRecord[] {
  const records = new StreamRecords(options);
  const out = lines.flatMap((entry, i) => {
    if (typeof entry === "string") return records.push({ source: "-", line: i + 1, text: entry });
    if ("error" in entry && typeof entry.error === "string") return records.push({ source: "-", line: i + 1, text: "", error: entry.error });
    return records.push({ source: "-", line: i + 1, text: JSON.stringify(entry) });
  });
  return [...out, ...records.finish()];
}

const parseError = (text: string) => {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} is JSON`);
};

const CHAT_ID = "chatcmpl-b610d559-f156-4aca-8827-24b4fe6af54f";
const chunk = (delta: object, finishReason: string | null = null, id = CHAT_ID) => ({
  id,
  object: "chat.completion.chunk",
  created: 1770770843,
  model: "llama-3.3-70b-versatile",
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
});
const roleChunk = (id = CHAT_ID) => chunk({ role: "assistant", content: null }, null, id);
const callChunk = (args: string, id = CHAT_ID) => chunk({ tool_calls: [{ index: 0, id: "tk85n1k4m", type: "function", function: { name: "weather", arguments: args } }] }, null, id);
const argsChunk = (args: string) => chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] });
const finishChunk = (id = CHAT_ID) => chunk({}, "tool_calls", id);
const weatherCall = (status: string, args = "{}") => ({ type: "function_call", call_id: "tk85n1k4m", name: "weather", arguments: args, status });

const RESP = "resp_0b7f2c1e9a4d";
const FC = "fc_0b7f2c1e9a4d01";
const callOpened = { id: FC, type: "function_call", status: "in_progress", arguments: "", call_id: "call_Tq8mZ2vLx4Rb", name: "lookup_city" };
const callFinal = { ...callOpened, status: "completed", arguments: "{\"city\":\"Lyon\"}" };
const created = { type: "response.created", response: { id: RESP, object: "response", status: "in_progress", output: [] } };
const added = { type: "response.output_item.added", output_index: 0, item: callOpened };
const argsDelta = (delta: string) => ({ type: "response.function_call_arguments.delta", item_id: FC, output_index: 0, delta });
const itemDone = { type: "response.output_item.done", output_index: 0, item: callFinal };
const completed = { type: "response.completed", response: { id: RESP, object: "response", status: "completed", output: [callFinal] } };
const unknownEvent = { type: "response.audio.delta", delta: "AAAA" };

const userMessage = { role: "user", content: "Weather in Lyon?" };
/** The fields of a rebuilt completion no item holds, from its opening chunk: normalize writes items only. */
const leftBehind = (line: number, path: string, what = "the chat.completion") => ({ line, path, code: "left_behind", detail: `${path.split("/").pop()} of ${what} is in no item: normalize writes items only` });
const chatFields = (line: number) => ["/id", "/created", "/model"].map((path) => leftBehind(line, path));
/** The same for the last response object an event stream showed. */
const responseFields = (line: number) => ["/response/id", "/response/status"].map((path) => leftBehind(line, path, "the response"));
/** A record read from a line or SSE data carries the count of the calls it writes, which its parse made… */
const plain = (line: number, record: unknown, recordKind: string) => ({ kind: "plain", line, record, recordKind, writtenCalls: countWrittenCalls(record) });
/** …and one a caller parsed does not. */
const parsed = (line: number, record: unknown, recordKind: string) => ({ kind: "plain", line, record, recordKind });

describe("JSON lines", () => {
  test("each record comes out with its line and kind; blank lines give nothing", () => {
    const output = { type: "function_call_output", call_id: "tk85n1k4m", output: "sunny" };
    expect(read([userMessage, "", "   ", output])).toEqual([plain(1, userMessage, "chat_message"), plain(4, output, "responses_item")]);
  });

  test("a line of whitespace JSON does not allow (no-break space, form feed, line separator, byte order mark) is an error, not a blank line", () => {
    const lines = ["\u00a0", "\f", "\u2028", "\ufeff", " \t\r"];
    expect(read(lines)).toEqual(lines.slice(0, 4).map((text, i) => ({ kind: "error", line: i + 1, detail: `line is not JSON: ${parseError(text)}` })));
  });

  test("a line that is not JSON, and a line the reader did not read, are errors on their lines", () => {
    expect(read(["{not json", { error: "line is longer than 64 bytes (120 bytes); not read" }, userMessage])).toEqual([
      { kind: "error", line: 1, detail: `line is not JSON: ${parseError("{not json")}` },
      { kind: "error", line: 2, detail: "line is longer than 64 bytes (120 bytes); not read" },
      plain(3, userMessage, "chat_message"),
    ]);
  });

  test("a record of two kinds at once is an error on its line, read neither way", () => {
    const call = { type: "function_call", call_id: "call_1", name: "f", arguments: "{\"region\":\"global\"}", status: "completed" };
    const records = [
      { ...call, messages: [] },
      { ...call, object: "response", output: [] },
      { ...call, object: "chat.completion.chunk", choices: [] },
      { model: "m", messages: [userMessage], role: "assistant", tool_calls: [] },
    ];
    expect(read(records)).toEqual([
      { kind: "error", line: 1, detail: 'the record has the shape of a Chat request body and of a "function_call" item; it is read as neither' },
      { kind: "error", line: 2, detail: 'the record has the shape of a response object and of a "function_call" item; it is read as neither' },
      { kind: "error", line: 3, detail: 'the record has the shape of a chat.completion.chunk and of a "function_call" item; it is read as neither' },
      { kind: "error", line: 4, detail: "the record has the shape of a Chat request body and of a Chat assistant message; it is read as neither" },
    ]);
  });

  test("a record a registered envelope claims is of two kinds at once when it also has an item's type or a Chat role", () => {
    const call = { type: "function_call", call_id: "call_1", name: "f", arguments: "{\"region\":\"global\"}", status: "completed" };
    const assistantCalls = { role: "assistant", content: null, tool_calls: [{ id: "call_2", type: "function", function: { name: "f", arguments: "{}" } }] };
    const bedrockOutput = { output: { message: { role: "assistant", content: [] } }, stopReason: "end_turn" };
    const records = [
      { ...call, contents: [] },
      { ...assistantCalls, contents: [] },
      { ...call, ...bedrockOutput },
      { ...assistantCalls, ...bedrockOutput },
      { type: "function_call_output", call_id: "call_1", output: "ok", messages: [{ role: "user", content: [{ text: "hi" }] }] },
      { type: "message", ...assistantCalls, ...bedrockOutput },
    ];
    expect(read(records)).toEqual([
      { kind: "error", line: 1, detail: 'the record has the shape of a Gemini request body and of a "function_call" item; it is read as neither' },
      { kind: "error", line: 2, detail: "the record has the shape of a Gemini request body and of a Chat assistant message; it is read as neither" },
      { kind: "error", line: 3, detail: 'the record has the shape of a Bedrock response and of a "function_call" item; it is read as neither' },
      { kind: "error", line: 4, detail: "the record has the shape of a Bedrock response and of a Chat assistant message; it is read as neither" },
      { kind: "error", line: 5, detail: 'the record has the shape of a Bedrock request body and of a "function_call_output" item; it is read as neither' },
      { kind: "error", line: 6, detail: 'the record has the shape of a Bedrock response and of a "message" item; it is read as neither' },
    ]);
  });

  test("an envelope's own message role and its response typed \"message\" are not a second kind", () => {
    const anthropicResponse = { id: "msg_01", type: "message", role: "assistant", model: "claude", content: [{ type: "text", text: "hi" }], stop_reason: "end_turn", usage: {} };
    const geminiContent = { role: "model", parts: [{ text: "hi" }] };
    expect(read([anthropicResponse, geminiContent]).map((record) => record.kind)).toEqual(["plain", "plain"]);
  });

  test("a record of no known kind is a plain record for the reader to judge", () => {
    expect(read([{ hello: "world" }])).toEqual([plain(1, { hello: "world" }, "unknown")]);
  });

  test("a record already parsed goes through the same routing", () => {
    const records = new StreamRecords();
    expect(records.pushRecord(userMessage, 7)).toEqual([parsed(7, userMessage, "chat_message")]);
    expect(records.pushRecord(callChunk("{}"), 8)).toEqual([]);
    expect(records.finish()).toEqual([{ kind: "response", envelope: "chat", response: { id: CHAT_ID, status: "in_progress", items: [weatherCall("in_progress")], losses: chatFields(8), line: 8, lastLine: 8 }, records: 1 }]);
  });
});

describe("SSE text", () => {
  test("each data payload is a record on the line of its first field; comments, event names and [DONE] give none", () => {
    const lines = [": keep-alive", "event: message", `data: ${JSON.stringify(userMessage)}`, "", "data: [DONE]", ""];
    expect(read(lines)).toEqual([plain(2, userMessage, "chat_message")]);
  });

  test("an event whose name is not its data's type, or that has no name among named events, is an error that damages its stream", () => {
    const event = (name: string | undefined, record: object) => [...(name === undefined ? [] : [`event: ${name}`]), `data: ${JSON.stringify(record)}`, ""];
    const lines = [...event("response.created", created), ...event("response.output_item.added", added), ...event("ping", argsDelta("{\"city\"")), ...event(undefined, argsDelta(":\"Lyon\"}")), ...event("response.output_item.done", itemDone), ...event("response.completed", completed)];
    const records = read(lines);
    expect(records.filter((record) => record.kind === "error")).toEqual([
      { kind: "error", line: 7, detail: 'SSE event "ping" carries data of type "response.function_call_arguments.delta": a reader that goes by the name and one that goes by the type read it apart' },
      { kind: "error", line: 10, detail: 'SSE event with no name carries data of type "response.function_call_arguments.delta", where the events before it were named: a reader that goes by the name skips it' },
    ]);
    const response = records.find((record) => record.kind === "response");
    expect(response?.kind === "response" && response.response.items.map((item) => (item as { status?: string }).status)).toEqual(["incomplete"]);
  });

  test("a Chat chunk in an event named error, at which openai-node throws, is not read and damages its stream", () => {
    const out = read([...sse([roleChunk(), callChunk("{}")]), "event: error", `data: ${JSON.stringify(finishChunk())}`, "", "data: [DONE]", ""]);
    expect(out.filter((record) => record.kind === "error")).toEqual([
      { kind: "error", line: 5, detail: 'SSE event named "error" carries data that is no error event: openai-node throws at it and reads nothing after it, where other readers read its data, so it is not read' },
    ]);
    expect(callsOf(out)).toEqual([weatherCall("in_progress")]);
  });

  test("a provider's error in an event named error (Groq's tool_use_failed) is said as such, not read, and damages its stream", () => {
    const failed = { error: { message: "Tool call validation failed: parameters for tool get_weather did not match schema", type: "invalid_request_error", code: "tool_use_failed", failed_generation: '{"name": "get_weather", "arguments": {}}', status_code: 400 } };
    const out = read([...sse([roleChunk(), callChunk("{}")]), "event: error", `data: ${JSON.stringify(failed)}`, ""]);
    expect(out.filter((record) => record.kind === "error")).toEqual([
      { kind: "error", line: 5, detail: 'SSE event named "error" carries the provider\'s error (invalid_request_error tool_use_failed: "Tool call validation failed: parameters for tool get_weather did not match schema"): the stream failed there, and openai-node throws at it and reads nothing after it' },
    ]);
    expect(callsOf(out)).toEqual([weatherCall("in_progress")]);
  });

  test("data that is not JSON is an error on its line", () => {
    expect(read(["data: {broken", ""])).toEqual([{ kind: "error", line: 1, detail: `SSE data is not JSON: ${parseError("{broken")}` }]);
  });

  test("a JSON line after SSE text ends the SSE part: the event still being read, which its blank line never ended, is reported first and not read", () => {
    const output = { type: "function_call_output", call_id: "tk85n1k4m", output: "sunny" };
    expect(read([`data: ${JSON.stringify(userMessage)}`, JSON.stringify(output)])).toEqual([
      { kind: "error", line: 1, detail: "SSE event ends without the blank line that dispatches it: SSE readers discard it, so it is not read" },
      plain(2, output, "responses_item"),
    ]);
  });

  const sse = (records: object[]) => records.flatMap((record) => [`data: ${JSON.stringify(record)}`, ""]);
  const callsOf = (out: JournalRecord[]) => out.flatMap((record) => (record.kind === "response" ? record.response.items : []));

  test("a stream whose last event has no blank line after it: the event is read, and damages the stream, so no call it finishes runs", () => {
    const out = read([...sse([roleChunk(), callChunk("{}")]), `data: ${JSON.stringify(finishChunk())}`]);
    expect(out.filter((record) => record.kind === "error")).toEqual([]);
    expect(callsOf(out)).toEqual([weatherCall("incomplete")]);
    expect(out.find((record) => record.kind === "response")).toMatchObject({ damage: { detail: "line 5 is an SSE event the recording ends before its blank line, which SSE readers discard; its calls are marked incomplete" } });
  });

  test("an unended event that is no stream's is not read: an error on its line", () => {
    const call = { type: "function_call", call_id: "call_1", name: "weather", arguments: "{}", status: "completed" };
    expect(read([...sse([userMessage]), `data: ${JSON.stringify(call)}`])).toEqual([plain(1, userMessage, "chat_message"), { kind: "error", line: 3, detail: "SSE event ends without the blank line that dispatches it: SSE readers discard it, so it is not read" }]);
  });

  test("an unended [DONE] changes nothing: the stream ends there for every reader", () => {
    const out = read([...sse([roleChunk(), callChunk("{}"), finishChunk()]), "data: [DONE]"]);
    expect(out.filter((record) => record.kind === "error")).toEqual([]);
    expect(callsOf(out)).toEqual([weatherCall("completed")]);
  });

  test("a JSON line inside SSE text, which SSE readers skip, damages the stream it would continue", () => {
    const out = read([...sse([roleChunk(), callChunk("")]), JSON.stringify(argsChunk("{}")), ...sse([finishChunk()]), "data: [DONE]", ""]);
    expect(callsOf(out)).toEqual([weatherCall("incomplete")]);
    expect(out.find((record) => record.kind === "response")).toMatchObject({ damage: { detail: "line 5 is a JSON line inside the SSE text of this stream, which SSE readers do not read; its calls are marked incomplete" } });
  });

  test("a JSON line that opens a stream SSE events continue: the readers of either kind see two streams, and its calls are incomplete", () => {
    const out = read([": keep-alive", "", JSON.stringify(callChunk("")), ...sse([argsChunk("{}"), finishChunk()]), "data: [DONE]", ""]);
    expect(callsOf(out)).toEqual([weatherCall("incomplete")]);
    expect(out.find((record) => record.kind === "response")).toMatchObject({ damage: { detail: "line 4 is an SSE event of a stream that JSON lines opened, which a reader of either kind does not read whole; its calls are marked incomplete" } });
  });

  test("an error the API sent as a record of its own, after the finishing chunk: the stream's calls are incomplete", () => {
    const out = read([...sse([roleChunk(), callChunk("{}"), finishChunk(), { error: { message: "The server had an error.", type: "server_error", param: null, code: null } }]), "data: [DONE]", ""]);
    expect(callsOf(out)).toEqual([weatherCall("incomplete")]);
    expect(out.find((record) => record.kind === "response")).toMatchObject({ damage: { detail: "line 7 is an error sent in this stream, at which the OpenAI SDKs stop reading it; its calls are marked incomplete" } });
  });

  test("a JSON line after a stream the SSE text ended is a record of its own", () => {
    const out = read([...sse([roleChunk(), callChunk("{}"), finishChunk()]), "data: [DONE]", "", JSON.stringify(userMessage)]);
    expect(callsOf(out)).toEqual([weatherCall("completed")]);
    expect(out.at(-1)).toEqual(plain(9, userMessage, "chat_message"));
  });

  test("[DONE] inside an Open Responses stream ends it where the SDKs stop, and the stream the rest would open is damaged", () => {
    const out = read([...sse([created, added, argsDelta("{\"city\":")]), "data: [DONE]", "", ...sse([argsDelta("\"Lyon\"}"), itemDone, completed])]);
    const calls = callsOf(out).filter((item) => (item as { type?: string }).type === "function_call");
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => (call as { status?: string }).status !== "completed")).toBe(true);
  });

  test("a line that could not be read inside an SSE event: the event is not read, and the stream's calls are incomplete", () => {
    const out = read([...sse([roleChunk()]), `data: ${JSON.stringify(callChunk("{}")).slice(0, 40)}`, { error: "line is not valid UTF-8 (byte 3 of 9); it was not read" }, `data: ${JSON.stringify(callChunk("{}")).slice(40)}`, "", ...sse([finishChunk()])]);
    expect(out.filter((record) => record.kind === "error").map((record) => (record as { detail: string }).detail)).toEqual([
      "line is not valid UTF-8 (byte 3 of 9); it was not read",
      "SSE event holds line 4, which could not be read: read without it, it is another event than SSE readers read, so it is not read",
    ]);
    expect(out.filter((record) => record.kind === "response")).toMatchObject([{ damage: { detail: "line 4 of this stream could not be read; its calls are marked incomplete" } }]);
  });

  test("SSE data that is not JSON before a stream opens, at which the OpenAI SDKs throw, damages the stream that follows it", () => {
    const out = read(["data: {broken", "", ...sse([roleChunk(), callChunk("{}"), finishChunk()])]);
    expect(out.filter((record) => record.kind === "error")).toEqual([{ kind: "error", line: 1, detail: `SSE data is not JSON: ${parseError("{broken")}` }]);
    expect(callsOf(out)).toEqual([weatherCall("incomplete")]);
    const after = read(["data: {broken", "", ...sse([userMessage, roleChunk(), callChunk("{}"), finishChunk()])]);
    expect(callsOf(after)).toEqual([weatherCall("completed")]);
  });

  test("an event with a name and no data, at which the OpenAI SDKs throw, is an error that damages the stream it is in or opens", () => {
    const detail = 'SSE event "response.in_progress" has no data: the OpenAI SDKs read its empty data as JSON and throw there, reading nothing after it, where other SSE readers skip it';
    const inside = read([...sse([roleChunk(), callChunk("{}")]), "event: response.in_progress", "", ...sse([finishChunk()])]);
    expect(inside.filter((record) => record.kind === "error")).toEqual([{ kind: "error", line: 5, detail }]);
    expect(callsOf(inside)).toEqual([weatherCall("incomplete")]);
    const before = read(["event: response.in_progress", "", ...sse([roleChunk(), callChunk("{}"), finishChunk()])]);
    expect(before.filter((record) => record.kind === "error")).toEqual([{ kind: "error", line: 1, detail }]);
    expect(callsOf(before)).toEqual([weatherCall("incomplete")]);
  });

  test("a line that could not be read before a stream opens may have been its first record: the stream is damaged from it", () => {
    const out = read([{ error: "line is not valid UTF-8 (byte 3 of 9); it was not read" }, callChunk("{}"), finishChunk()]);
    expect(callsOf(out)).toEqual([weatherCall("incomplete")]);
    const after = read([{ error: "line is not valid UTF-8 (byte 3 of 9); it was not read" }, userMessage, roleChunk(), callChunk("{}"), finishChunk()]);
    expect(callsOf(after)).toEqual([weatherCall("completed")]);
  });

  test("a Chat chunk that carries an error, at which the OpenAI SDKs throw: the stream's calls are incomplete", () => {
    const out = read([roleChunk(), callChunk("{}"), { ...finishChunk(), error: { message: "upstream failed" } }]);
    expect(callsOf(out)).toEqual([weatherCall("incomplete")]);
    expect(read([roleChunk(), callChunk("{}"), { ...finishChunk(), error: null }]).flatMap((record) => (record.kind === "response" ? record.response.items : []))).toEqual([weatherCall("completed")]);
  });

  test("a Chat stream in SSE text ends at [DONE]", () => {
    const sse = [roleChunk(), callChunk("{}"), finishChunk()].flatMap((record) => [`data: ${JSON.stringify(record)}`, ""]);
    const records = new StreamRecords();
    const out = [...sse, "data: [DONE]"].flatMap((text, i) => records.push({ source: "-", line: i + 1, text }));
    expect(out).toEqual([]);
    expect(records.push({ source: "-", line: 8, text: "" })).toEqual([
      { kind: "response", envelope: "chat", response: { id: CHAT_ID, status: "completed", items: [weatherCall("completed")], losses: chatFields(1), line: 1, lastLine: 5 }, records: 3 },
    ]);
    expect(records.finish()).toEqual([]);
  });
});

describe("Chat chunks", () => {
  test("a stream gives its response at the first record that is not part of it, counting the chunks that went into it", () => {
    expect(read([userMessage, roleChunk(), callChunk("{}"), finishChunk(), userMessage])).toEqual([
      plain(1, userMessage, "chat_message"),
      { kind: "response", envelope: "chat", response: { id: CHAT_ID, status: "completed", items: [weatherCall("completed")], losses: chatFields(2), line: 2, lastLine: 4 }, records: 3 },
      plain(5, userMessage, "chat_message"),
    ]);
  });

  test("the first chunk of another completion closes the one before it", () => {
    const other = "chatcmpl-c720e66a-0a67-4bdb-9938-35c5ac83d750";
    const text = chunk({ role: "assistant", content: "Sunny in Lyon." }, null, other);
    expect(read([roleChunk(), callChunk("{}"), finishChunk(), text, chunk({}, "stop", other)])).toEqual([
      { kind: "response", envelope: "chat", response: { id: CHAT_ID, status: "completed", items: [weatherCall("completed")], losses: chatFields(1), line: 1, lastLine: 3 }, records: 3 },
      {
        kind: "response",
        envelope: "chat",
        response: { id: other, status: "completed", items: [{ type: "message", role: "assistant", content: "Sunny in Lyon." }], losses: [leftBehind(5, "/choices/0/finish_reason", "the choice"), ...chatFields(4)], line: 4, lastLine: 5 },
        records: 2,
      },
    ]);
  });

  test("a usage chunk with no completion is unassembled, with what it was", () => {
    const usage = { id: CHAT_ID, object: "chat.completion.chunk", created: 1770770843, model: "llama-3.3-70b-versatile", choices: [], usage: { prompt_tokens: 210, completion_tokens: 15, total_tokens: 225 } };
    expect(read([usage, usage])).toEqual([
      { kind: "unassembled", envelope: "chat", line: 1, lastLine: 2, records: 2, afterResponse: false, detail: "chat.completion.chunk records with no choices (2 records, lines 1-2) belong to no completion" },
    ]);
  });

  test("chunks of an envelope that is not reassembled are plain records, and end the other envelope's stream", () => {
    expect(read([created, roleChunk()], { reassemble: ["responses"] })).toEqual([
      { kind: "response", envelope: "responses", response: { id: RESP, status: "in_progress", items: [], losses: responseFields(1), line: 1, lastLine: 1 }, records: 1 },
      plain(2, roleChunk(), "chat_chunk"),
    ]);
  });

  test("a chunk the assembler rejects is rejected on its line, and the stream goes on", () => {
    const rejected = { object: "chat.completion.chunk", choices: "none" };
    expect(read([roleChunk(), rejected, callChunk("{}"), finishChunk()], { rejectionDamages: false })).toEqual([
      { kind: "rejected", line: 2, envelope: "chat", reason: "a chat.completion.chunk is an object with a choices array" },
      { kind: "response", envelope: "chat", response: { id: CHAT_ID, status: "completed", items: [weatherCall("completed")], losses: chatFields(1), line: 1, lastLine: 4 }, records: 3 },
    ]);
  });
});

describe("Open Responses events", () => {
  test("the terminal event's response is held until the stream ends, and counted with its events", () => {
    const records = new StreamRecords();
    const events = [created, added, argsDelta("{\"city\":\"Lyon\"}"), itemDone, completed];
    const out = events.map((event, i) => records.push({ source: "-", line: i + 1, text: JSON.stringify(event) }));
    expect(out).toEqual([[], [], [], [], []]);
    expect(records.finish()).toEqual([
      { kind: "response", envelope: "responses", response: { id: RESP, status: "completed", items: [callFinal], losses: responseFields(5), line: 1, lastLine: 5 }, records: 5 },
    ]);
  });

  test("events of no known type open no response: unassembled before any response, ignored in the response held after its terminal event", () => {
    expect(read([unknownEvent])).toEqual([
      { kind: "unassembled", envelope: "responses", line: 1, lastLine: 1, records: 1, afterResponse: false, detail: "a streaming event opens no response: response.audio.delta (line 1) is an event of no known type: ignored; its fields are not read" },
    ]);
    expect(read([created, completed, unknownEvent, unknownEvent])).toEqual([
      {
        kind: "response",
        envelope: "responses",
        response: {
          id: RESP,
          status: "completed",
          items: [callFinal],
          losses: [{ line: 3, path: "", code: "unsupported_item", detail: "response.audio.delta (2 events, lines 3–4) is an event of no known type: ignored; its fields are not read" }, ...responseFields(2)],
          line: 1,
          lastLine: 4,
        },
        records: 4,
      },
    ]);
  });

  test("asked for whole records, a response carries the response object its events showed", () => {
    const [response] = read([created, added, itemDone], { wholeRecords: true });
    expect(response).toEqual({
      kind: "response",
      envelope: "responses",
      response: {
        id: RESP,
        status: "in_progress",
        items: [{ ...callFinal, status: "in_progress" }],
        losses: [{ line: 3, path: "/item/status", code: "form_changed", detail: "the stream ends before its terminal event (response.completed, .incomplete or .failed), where openai-python and the Agents SDKs give no final response: the call is in_progress" }],
        line: 1,
        lastLine: 3,
        resource: { snapshot: { value: created.response, line: 1 }, itemLines: [3] },
      },
      records: 3,
    });
  });
});

describe("events that must not split an Open Responses stream", () => {
  const trace = { type: "acme:trace_event", sequence_number: 3, phase: "tool_resolution", latency_ms: 34 };
  const error = { type: "error", sequence_number: 4, error: { type: "server_error", code: "server_error", message: "The server had an error.", param: null } };

  test("an extension event is one of the stream's records: one response, every record counted", () => {
    expect(read([created, added, trace, argsDelta("{\"city\":\"Lyon\"}"), itemDone, completed])).toEqual([
      {
        kind: "response",
        envelope: "responses",
        response: {
          id: RESP,
          status: "completed",
          items: [callFinal],
          losses: [{ line: 3, path: "", code: "provider_extension", detail: "acme:trace_event (line 3) is an extension event: ignored, as the specification lets clients; its fields are not read" }, ...responseFields(6)],
          line: 1,
          lastLine: 6,
        },
        records: 6,
      },
    ]);
  });

  test("an extension event that has an id continues the stream; on its own it is an extension item", () => {
    const withId = { ...trace, id: "evt_1" };
    expect(read([created, added, withId, itemDone, completed]).map((record) => [record.kind, "records" in record ? record.records : undefined])).toEqual([["response", 5]]);
    expect(read([withId])).toEqual([plain(1, withId, "responses_item")]);
  });

  test("an error event before any response opens none: unassembled, the error in its detail", () => {
    expect(read([{ ...error, sequence_number: 0 }])).toEqual([
      { kind: "unassembled", envelope: "responses", line: 1, lastLine: 1, records: 1, afterResponse: false, detail: 'a streaming event opens no response: error event: server_error: "The server had an error."; the response failed' },
    ]);
  });

  test("an error event fails the response it is in; the response.failed after it closes that same response", () => {
    const failed = { type: "response.failed", response: { id: RESP, object: "response", status: "failed", output: [] } };
    expect(read([created, added, argsDelta("{\"ci"), error, failed])).toEqual([
      {
        kind: "response",
        envelope: "responses",
        response: {
          id: RESP,
          status: "failed",
          items: [{ ...callOpened, arguments: "{\"ci" }],
          losses: [{ line: 4, path: "", code: "unsupported_item", detail: 'error event: server_error: "The server had an error."; the response failed' }, ...responseFields(5)],
          line: 1,
          lastLine: 5,
        },
        records: 5,
      },
    ]);
  });
});

describe("a stream with a line that could not be read", () => {
  const damage = (line: number) => ({ path: "", code: "form_changed", detail: `line ${line} of this stream could not be read; its calls are marked incomplete` });

  test("a Chat stream with a line that is not JSON gives its calls incomplete, with the damage", () => {
    const out = read([roleChunk(), callChunk(""), argsChunk("{\"city\":"), "{\"id\":\"chatcmpl-b610", argsChunk("\"Lyon\"}"), finishChunk()]);
    expect(out).toEqual([
      { kind: "error", line: 4, detail: `line is not JSON: ${parseError("{\"id\":\"chatcmpl-b610")}` },
      {
        kind: "response",
        envelope: "chat",
        response: { id: CHAT_ID, status: "completed", items: [weatherCall("incomplete", "{\"city\":\"Lyon\"}")], losses: chatFields(1), line: 1, lastLine: 6 },
        records: 5,
        damage: damage(4),
      },
    ]);
  });

  test("an event stream with a line too long to read gives its calls incomplete, with the damage", () => {
    const out = read([created, added, { error: "line is longer than 64 bytes; not read" }, itemDone, completed]);
    expect(out).toEqual([
      { kind: "error", line: 3, detail: "line is longer than 64 bytes; not read" },
      { kind: "response", envelope: "responses", response: { id: RESP, status: "completed", items: [{ ...callFinal, status: "incomplete" }], losses: responseFields(5), line: 1, lastLine: 5 }, records: 4, damage: damage(3) },
    ]);
  });

  test("a line that cannot be read outside any stream damages none", () => {
    const out = read(["{not json", roleChunk(), callChunk("{}"), finishChunk()]);
    expect(out[1]).toEqual({ kind: "response", envelope: "chat", response: { id: CHAT_ID, status: "completed", items: [weatherCall("completed")], losses: chatFields(2), line: 2, lastLine: 4 }, records: 3 });
  });

  test("the damage ends with its stream", () => {
    const out = read([roleChunk(), "{not json", finishChunk(), userMessage, roleChunk(), callChunk("{}"), finishChunk()]);
    expect(out.slice(3)).toEqual([{ kind: "response", envelope: "chat", response: { id: CHAT_ID, status: "completed", items: [weatherCall("completed")], losses: chatFields(5), line: 5, lastLine: 7 }, records: 3 }]);
  });

  test("a stream record the assembler rejects damages its stream, unless told otherwise", () => {
    const lines = [roleChunk(), callChunk("{}"), { object: "chat.completion.chunk" }, finishChunk()];
    expect(read(lines)[1]).toEqual({
      kind: "response",
      envelope: "chat",
      response: { id: CHAT_ID, status: "completed", items: [weatherCall("incomplete")], losses: chatFields(1), line: 1, lastLine: 4 },
      records: 3,
      damage: damage(3),
    });
    expect(read(lines, { rejectionDamages: false })[1]).toEqual({
      kind: "response",
      envelope: "chat",
      response: { id: CHAT_ID, status: "completed", items: [weatherCall("completed")], losses: chatFields(1), line: 1, lastLine: 4 },
      records: 3,
    });
  });
});
