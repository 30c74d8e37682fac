// A handoff as the OpenAI Agents SDK logs it: the first agent calls
// transfer_to_summarizer, and the next request sends the same history, with the
// call's output, under the summarizer's instructions.
import { describe, expect, test } from "vitest";
import { normalizeJournal, type NormalizedRecord } from "../../src/journal/normalize.js";
import { runOrbridge } from "../support/run-cli.js";

const parameters = { type: "object", properties: {}, additionalProperties: false };
const ask = { role: "user", content: "Soccer news?" };
const handOff = "{'assistant': 'Summarizer'}";

const responsesJournal = [
  { model: "gpt-4o", instructions: "You research.", input: [ask], tools: [{ type: "function", name: "transfer_to_summarizer", parameters }] },
  { id: "resp_1", object: "response", status: "completed", output: [{ type: "function_call", id: "fc_1", call_id: "call_1", name: "transfer_to_summarizer", arguments: "{}", status: "completed" }] },
  {
    model: "gpt-4o",
    instructions: "You summarize.",
    input: [ask, { arguments: "{}", call_id: "call_1", name: "transfer_to_summarizer", type: "function_call", id: "fc_1", status: "completed" }, { call_id: "call_1", output: handOff, type: "function_call_output" }],
    tools: [],
  },
];

const chatCall = { id: "call_1", type: "function", function: { name: "transfer_to_summarizer", arguments: "{}" } };
const chatJournal = [
  { model: "gpt-4o", messages: [{ role: "system", content: "You research." }, ask], tools: [{ type: "function", function: { name: "transfer_to_summarizer", parameters } }] },
  { id: "chatcmpl-1", object: "chat.completion", created: 1, model: "gpt-4o", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [chatCall] }, finish_reason: "tool_calls" }] },
  { model: "gpt-4o", messages: [{ role: "system", content: "You summarize." }, ask, { role: "assistant", tool_calls: [chatCall] }, { role: "tool", tool_call_id: "call_1", content: handOff }] },
];

const linesOf = (records: unknown[]) => records.map((record) => JSON.stringify(record) + "\n").join("");

async function lastRecord(records: unknown[]): Promise<NormalizedRecord | undefined> {
  let last: NormalizedRecord | undefined;
  for await (const record of normalizeJournal(records.map((record) => JSON.stringify(record)))) last = record;
  return last;
}

const INSTRUCTIONS_DETAIL = "instructions other than those the conversation began with, under which the request replays it: what the model is to do from this request on, not a turn of the conversation, so no item";

describe("gate: a request that replays the conversation under another agent's instructions", () => {
  const verdicts = [
    'line 1  message -  pass not_function_call: "message" is not a function_call',
    'line 1.1  message -  pass not_function_call: "message" is not a function_call',
    "line 2  function_call call_1  pass ok: completed call with arguments valid for its schema",
    'line 3.3  function_call_output call_1  pass not_function_call: "function_call_output" is not a function_call',
    "",
  ].join("\n");

  test("an Open Responses body: only the call's output is new", async () => {
    expect(await runOrbridge(["gate", "-"], linesOf(responsesJournal))).toEqual({ code: 0, stdout: verdicts, stderr: "read 3 lines: 4 items, 0 errors; 0 blocked\n" });
  });

  test("a Chat body: only the call's output is new", async () => {
    expect(await runOrbridge(["gate", "-"], linesOf(chatJournal))).toEqual({ code: 0, stdout: verdicts, stderr: "read 3 lines: 4 items, 0 errors; 0 blocked\n" });
  });
});

describe("normalize: the new instructions are left behind, reported at their field", () => {
  test("an Open Responses body's instructions", async () => {
    const record = await lastRecord(responsesJournal);
    expect(record?.kind === "items" && [record.repeated, record.items.map((entry) => entry.item), record.losses.filter((loss) => loss.detail === INSTRUCTIONS_DETAIL)]).toEqual([
      2,
      [{ call_id: "call_1", output: handOff, type: "function_call_output" }],
      [{ path: "/instructions", code: "left_behind", detail: INSTRUCTIONS_DETAIL }],
    ]);
  });

  test("a Chat body's system message", async () => {
    const record = await lastRecord(chatJournal);
    expect(record?.kind === "items" && [record.repeated, record.items.map((entry) => entry.item), record.losses.filter((loss) => loss.detail === INSTRUCTIONS_DETAIL)]).toEqual([
      2,
      [{ type: "function_call_output", call_id: "call_1", output: handOff }],
      [{ path: "/messages/0", code: "left_behind", detail: INSTRUCTIONS_DETAIL }],
    ]);
  });

  test("an Anthropic body's system", async () => {
    const toolUse = { type: "tool_use", id: "toolu_01", name: "transfer_to_summarizer", input: {} };
    const record = await lastRecord([
      { model: "claude-sonnet-4-0", max_tokens: 1024, system: "You research.", tools: [{ name: "transfer_to_summarizer", input_schema: parameters }], messages: [ask] },
      { id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-0", content: [toolUse], stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 10, output_tokens: 10 } },
      { model: "claude-sonnet-4-0", max_tokens: 1024, system: "You summarize.", messages: [ask, { role: "assistant", content: [toolUse] }, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: handOff }] }] },
    ]);
    expect(record?.kind === "items" && [record.repeated, record.items.map((entry) => entry.item.type), record.losses.filter((loss) => loss.detail === INSTRUCTIONS_DETAIL)]).toEqual([
      2,
      ["function_call_output"],
      [{ path: "/system", code: "left_behind", detail: INSTRUCTIONS_DETAIL }],
    ]);
  });

  test("an exchange's request, under request", async () => {
    const [request, response, next] = responsesJournal;
    const record = await lastRecord([{ request, response }, { request: next, response: { id: "resp_2", object: "response", status: "completed", output: [] } }]);
    expect(record?.kind === "items" && record.losses.filter((loss) => loss.detail === INSTRUCTIONS_DETAIL)).toEqual([{ path: "/request/instructions", code: "left_behind", detail: INSTRUCTIONS_DETAIL }]);
  });
});
