// A call the OpenAI SDKs' parse helpers read carries its arguments twice: the
// text, and `parsed_arguments`, which a runner built on those helpers runs. The
// gate judges one reading only when the two are the same, in every envelope
// that writes them, and a conversion keeps the second reading where it can.
import { describe, expect, test } from "vitest";
import { itemsToMessages } from "../../adapters/chat-completions/items-to-messages.js";
import { messagesToItems } from "../../adapters/chat-completions/messages-to-items.js";
import { gateJournal } from "../../src/gate/gate-journal.js";
import type { ChatMessage } from "../../src/models/chat-completions.js";
import type { CanonicalItem } from "../../src/models/open-responses.js";

const schema = { type: "object" };

async function callReasons(record: unknown): Promise<string[]> {
  const reasons: string[] = [];
  for await (const verdict of gateJournal([JSON.stringify(record)], { schema })) if (verdict.type === "function_call") reasons.push(verdict.reason);
  return reasons;
}

const chatCall = (parsed: unknown) => ({ id: "call_1", type: "function", function: { name: "set_region", arguments: '{"region":"apac"}', ...(parsed === undefined ? {} : { parsed_arguments: parsed }) } });
const chatMessage = (parsed: unknown) => ({ role: "assistant", content: null, tool_calls: [chatCall(parsed)] });
const completion = (parsed: unknown) => ({ id: "chatcmpl-1", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, finish_reason: "tool_calls", message: chatMessage(parsed) }] });
const responsesCall = (parsed: unknown) => ({ type: "function_call", call_id: "call_1", name: "set_region", arguments: '{"region":"apac"}', status: "completed", ...(parsed === undefined ? {} : { parsed_arguments: parsed }) });

describe("a call with parsed_arguments", () => {
  test.each([
    ["an Open Responses item", responsesCall],
    ["a Chat message", chatMessage],
    ["a chat.completion", completion],
  ])("in %s is blocked when they read otherwise than its arguments, and passes when they read the same", async (_, record) => {
    expect(await callReasons(record({ region: "global" }))).toEqual(["arguments_parse"]);
    expect(await callReasons(record({ region: "apac" }))).toEqual(["ok"]);
    // null: the helpers did not parse this tool's arguments.
    expect(await callReasons(record(null))).toEqual(["ok"]);
    expect(await callReasons(record(undefined))).toEqual(["ok"]);
  });
});

async function lineReasons(line: string): Promise<string[]> {
  const reasons: string[] = [];
  for await (const verdict of gateJournal([line], { schema })) reasons.push(verdict.reason);
  return reasons;
}

describe("parsed_arguments whose line writes a number a double does not stand for", () => {
  const item = (parsed: string, key = "parsed_arguments") => `{"type":"function_call","call_id":"call_1","name":"set_id","arguments":"{\\"id\\":9007199254740992}","status":"completed","${key}":${parsed}}`;
  const message = (parsed: string) => `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"set_id","arguments":"{\\"id\\":9007199254740992}","parsed_arguments":${parsed}}}]}`;

  test.each([
    ["an Open Responses item", item('{"id":9007199254740993}')],
    ["an Open Responses item, its key written with an escape", item('{"id":9007199254740993}', "parsed\\u005farguments")],
    ["a Chat call", message('{"id":9007199254740993}')],
  ])("in %s refuses the line: the number a runner reads is not the one judged", async (_, line) => {
    expect(await lineReasons(line)).toEqual(["error"]);
  });

  test("elsewhere in the line leaves a call whose parsed_arguments hold numbers a double stands for alone", async () => {
    const line = `{"type":"function_call","call_id":"call_1","name":"set_id","arguments":"{\\"id\\":7}","status":"completed","parsed_arguments":{"id":7},"usage":12345678901234567890123}`;
    expect(await lineReasons(line)).toEqual(["ok"]);
  });
});

describe("parsed_arguments through the Chat adapter", () => {
  test("a Chat call's parsed_arguments go onto its item, and back into the Chat call, with no loss", () => {
    const items = messagesToItems({ messages: [chatMessage({ region: "apac" }) as ChatMessage] });
    expect(items).toStrictEqual({
      value: [{ type: "function_call", call_id: "call_1", name: "set_region", arguments: '{"region":"apac"}', status: "completed", parsed_arguments: { region: "apac" } }],
      losses: [],
    });
    const messages = itemsToMessages({ items: items.value as CanonicalItem[] });
    expect(messages.value).toStrictEqual([chatMessage({ region: "apac" })]);
    expect(messages.losses).toEqual([]);
  });
});

async function verdictsOf(lines: readonly string[]) {
  const verdicts: Array<{ type?: unknown; reason: string; detail: string; blocked: boolean; findings: Array<{ code: string }> }> = [];
  for await (const verdict of gateJournal(lines, { schema })) verdicts.push(verdict);
  return verdicts;
}

describe("parsed_arguments in an Open Responses event stream", () => {
  const call = (fields: string) => `{"type":"function_call","id":"fc_7","call_id":"call_7","name":"set_ratio","arguments":"{\\"ratio\\":0.25}","status":"completed"${fields}}`;
  const stream = (doneFields: string, outputFields: string) => [
    '{"type":"response.created","sequence_number":0,"response":{"id":"resp_7","object":"response","status":"in_progress","output":[]}}',
    '{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"function_call","id":"fc_7","call_id":"call_7","name":"set_ratio","arguments":"","status":"in_progress"}}',
    `{"type":"response.output_item.done","sequence_number":2,"output_index":0,"item":${call(doneFields)}}`,
    `{"type":"response.completed","sequence_number":3,"response":{"id":"resp_7","object":"response","status":"completed","output":[${call(outputFields)}]}}`,
  ];
  const callVerdicts = async (lines: string[]) => (await verdictsOf(lines)).filter((verdict) => verdict.type === "function_call").map((verdict) => verdict.reason);

  test("as the stream gives them, the call passes", async () => {
    expect(await callVerdicts(stream(',"parsed_arguments":{"ratio":0.25}', ',"parsed_arguments":{"ratio":0.25}'))).toEqual(["ok"]);
  });

  test("written with a number a double does not stand for, the call is incomplete", async () => {
    expect(await callVerdicts(stream(',"parsed_arguments":{"ratio":0.2500000000000000001}', ',"parsed_arguments":{"ratio":0.2500000000000000001}'))).toEqual(["status"]);
  });

  test.each([
    ["parsed_arguments the terminal output leaves out", ',"parsed_arguments":{"ratio":0.75}', ""],
    ["parsed_arguments the terminal output gives otherwise", ',"parsed_arguments":{"ratio":0.75}', ',"parsed_arguments":{"ratio":0.25}'],
    ["a namespace the terminal output leaves out", ',"namespace":"billing"', ""],
  ])("finished with %s, the call is incomplete: a reader that runs it at output_item.done runs another", async (_, doneFields, outputFields) => {
    expect(await callVerdicts(stream(doneFields, outputFields))).toEqual(["status"]);
  });
});

describe("parsed_arguments in a logged exchange whose request is of an envelope that writes arguments as objects", () => {
  test("written with a number a double does not stand for, the line is refused", async () => {
    const line = `{"request":{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"halve it"}],"tools":[{"name":"set_ratio","input_schema":{"type":"object"}}]},"response":{"id":"resp_8","object":"response","status":"completed","output":[${'{"type":"function_call","id":"fc_8","call_id":"call_8","name":"set_ratio","arguments":"{\\"ratio\\":5e-1}","status":"completed","parsed_arguments":{"ratio":0.5000000000000000001}}'}]}}`;
    expect((await verdictsOf([line])).map((verdict) => verdict.reason)).toEqual(["error"]);
  });
});

describe("a history that replays a call the parse helpers read", () => {
  test("without its parsed_arguments, as a request sends it back, is the same call: nothing is blocked", async () => {
    const tools = '[{"type":"function","function":{"name":"set_region","parameters":{"type":"object"}}}]';
    const lines = [
      `{"model":"m","messages":[{"role":"user","content":"where?"}],"tools":${tools}}`,
      '{"id":"chatcmpl-8","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_8","type":"function","function":{"name":"set_region","arguments":"{\\"region\\":\\"apac\\"}","parsed_arguments":{"region":"apac"}}}]}}]}',
      `{"model":"m","messages":[{"role":"user","content":"where?"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_8","type":"function","function":{"name":"set_region","arguments":"{\\"region\\":\\"apac\\"}"}}]},{"role":"tool","tool_call_id":"call_8","content":"done"}],"tools":${tools}}`,
    ];
    const verdicts = await verdictsOf(lines);
    expect(verdicts.filter((verdict) => verdict.blocked)).toEqual([]);
    expect(verdicts.filter((verdict) => verdict.type === "function_call").map((verdict) => verdict.reason)).toEqual(["ok"]);
  });
});
