// pydantic-ai's first instrumentation (Logfire's default) writes a chat span's
// exchange as GenAI events of older conventions in one attribute, `events`: the
// request's messages, then the answer in its gen_ai.choice events. It is read
// as a dialect: the history, the answer's calls, gated; a tool message's `id`
// names the call it answers; a choice cut by the length limit makes its calls
// incomplete; a list of events of another form is not read.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { chatSpan, DELETE_FILE, gateVerdicts } from "../../support/span-documents.js";

const call = (id: string, args: unknown) => ({ id, type: "function", function: { name: "delete_file", arguments: args } });
const events = (choice: Record<string, unknown>) =>
  JSON.stringify([
    { content: "Be brief.", role: "system", "gen_ai.message.index": 0, "event.name": "gen_ai.system.message" },
    { content: "delete the temp file", role: "user", "gen_ai.message.index": 0, "event.name": "gen_ai.user.message" },
    { role: "assistant", tool_calls: [call("call_1", '{"path":"/tmp/a"}')], "gen_ai.message.index": 1, "event.name": "gen_ai.assistant.message" },
    { content: "deleted", role: "tool", id: "call_1", name: "delete_file", "gen_ai.message.index": 2, "event.name": "gen_ai.tool.message" },
    { index: 0, ...choice, "event.name": "gen_ai.choice" },
  ]);

function reading(document: unknown) {
  const { records, losses } = READERS.otlp.read(document);
  return { records: records.map(({ record }) => record), said: losses.filter((loss) => loss.code !== "left_behind").map(({ path, code, detail }) => ({ path, code, detail })) };
}

describe("a chat span's events attribute", () => {
  test("gives the history and the answer's call, each once", () => {
    expect(reading(chatSpan({ events: events({ message: { role: "assistant", tool_calls: [call("call_2", '{"path":"/tmp/b"}')] } }) }))).toEqual({
      records: [
        { type: "message", role: "system", content: "Be brief." },
        { type: "message", role: "user", content: "delete the temp file" },
        { type: "function_call", call_id: "call_1", name: "delete_file", arguments: '{"path":"/tmp/a"}', status: "completed" },
        { type: "function_call_output", call_id: "call_1", output: "deleted" },
        { type: "function_call", call_id: "call_2", name: "delete_file", arguments: '{"path":"/tmp/b"}', status: "completed" },
      ],
      said: [],
    });
  });

  test("the gate judges the answer's call", async () => {
    const document = chatSpan({ events: events({ message: { role: "assistant", tool_calls: [call("call_2", '{"path":7}')] } }) });
    expect(await gateVerdicts(document, [DELETE_FILE])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["not_function_call", false], ["ok", false], ["not_function_call", false], ["arguments_schema", true]] });
  });

  test("arguments stored parsed, as pydantic-ai writes them, become JSON text, said", () => {
    const { records, said } = reading(chatSpan({ events: events({ message: { role: "assistant", tool_calls: [call("call_2", { path: "/tmp/b" })] } }) }));
    expect(records.at(-1)).toEqual({ type: "function_call", call_id: "call_2", name: "delete_file", arguments: '{"path":"/tmp/b"}', status: "completed" });
    expect(said.map(({ code, path }) => [code, path])).toEqual([["form_changed", "/spans/0/attributes/events"]]);
  });

  test("a choice cut at the length limit: its call is incomplete", () => {
    const { records } = reading(chatSpan({ events: events({ message: { role: "assistant", tool_calls: [call("call_2", '{"path":"/tmp/b"}')] }, finish_reason: "length" }) }));
    expect(records.at(-1)).toEqual({ type: "function_call", call_id: "call_2", name: "delete_file", arguments: '{"path":"/tmp/b"}', status: "incomplete" });
  });

  describe("a call beside the part of an event that is read is not passed over: the list is not read, and its call is unreadable", () => {
    const unreadable = [{ path: "/spans/0/attributes/events", code: "unreadable", detail: "the attribute events holds a tool call in no form a dialect reads beside the span's messages: not read" }];
    for (const [form, choice] of [
      ["a choice's tool_calls beside its message", { message: { role: "assistant", content: "done" }, tool_calls: [call("call_2", '{"path":"/etc"}')] }],
      ["a choice's function_call beside its message and its call", { message: { role: "assistant", tool_calls: [call("call_2", '{"path":"/tmp/b"}')] }, function_call: { name: "delete_file", arguments: '{"path":"/etc"}' } }],
      ["a call in its bookkeeping", { message: { role: "assistant", content: "done" }, "gen_ai.system": { tool_calls: [call("call_2", '{"path":"/etc"}')] } }],
    ] as const) {
      test(form, () => {
        expect(reading(chatSpan({ events: events(choice) }))).toEqual({ records: [], said: unreadable });
      });
    }
  });

  test("a list with an event of another name is not read: its call is unreadable", () => {
    const list = JSON.stringify([{ content: "delete the temp file", role: "user", "event.name": "gen_ai.user.message" }, { message: { role: "assistant", tool_calls: [call("call_2", "{}")] }, "event.name": "acme.choice" }]);
    expect(reading(chatSpan({ events: list }))).toEqual({ records: [], said: [{ path: "/spans/0/attributes/events", code: "unreadable", detail: "the attribute events holds a tool call in no form a dialect reads beside the span's messages: not read" }] });
  });
});

describe("pydantic-ai's agent run span, read as no LLM call, and its all_messages_events", () => {
  const agentRun = (messages: string) => ({ name: "agent run", context: { trace_id: "t1", span_id: "a1" }, parent: null, start_time: 0, attributes: { agent_name: "agent", all_messages_events: messages } });
  const chat = (choice: Record<string, unknown>) => ({ ...chatSpan({ events: events(choice) }).spans[0] as Record<string, unknown>, parent: { span_id: "a1" } });
  const answer = { message: { role: "assistant", tool_calls: [call("call_2", '{"path":"/tmp/b"}')] } };

  test("that repeat the chat span's calls: nothing more said", () => {
    expect(reading({ spans: [agentRun(events(answer)), chat(answer)] }).said).toEqual([]);
  });

  test("that hold a call no chat span holds: unreadable", () => {
    const other = { message: { role: "assistant", tool_calls: [call("call_3", '{"path":"/"}')] } };
    expect(reading({ spans: [agentRun(events(other)), chat(answer)] }).said).toEqual([
      { path: "/spans/0/attributes/all_messages_events", code: "unreadable", detail: 'the attribute all_messages_events of the span "agent run" holds a call of "delete_file" with {"path":"/"} that no LLM call of the trace holds, and the span is read as no LLM call: not read' },
    ]);
  });
});

// Choices of several indices are the answers `n` asked for, alternatives a
// conversation goes on from one of: their calls are not read. pydantic-ai
// writes each event of its one response as a choice of index 0: one answer.
describe("an events attribute of several gen_ai.choice events", () => {
  const choices = (...written: Array<Record<string, unknown>>) => JSON.stringify([{ content: "delete the temp file", role: "user", "gen_ai.message.index": 0, "event.name": "gen_ai.user.message" }, ...written.map((choice) => ({ ...choice, "event.name": "gen_ai.choice" }))]);
  const user = { type: "message", role: "user", content: "delete the temp file" };
  const withheld = (count: number) => ({ path: "/spans/0/attributes/events", code: "unreadable", detail: `the call of "delete_file" is in one of the ${count} gen_ai.choice events of several indices, which are alternatives the reader cannot order: a conversation goes on from one of them, and no item says which, so it is not read` });

  test("of indices 0 and 1, each with a call: neither call read, each unreadable", () => {
    const written = choices({ index: 0, message: { role: "assistant", tool_calls: [call("call_1", '{"path":"/tmp/a"}')] } }, { index: 1, message: { role: "assistant", tool_calls: [call("call_2", '{"path":"/"}')] } });
    expect(reading(chatSpan({ events: written }))).toEqual({ records: [user], said: [withheld(2), withheld(2)] });
  });

  test("without an index, each with a call: neither call read, each unreadable", () => {
    const written = choices({ message: { role: "assistant", tool_calls: [call("call_1", '{"path":"/tmp/a"}')] } }, { message: { role: "assistant", tool_calls: [call("call_2", '{"path":"/"}')] } });
    expect(reading(chatSpan({ events: written }))).toEqual({ records: [user], said: [withheld(2), withheld(2)] });
  });

  test("all of index 0, text then a call: one answer in a row, its call read", () => {
    const written = choices({ index: 0, message: { role: "assistant", content: "On it." } }, { index: 0, message: { role: "assistant", tool_calls: [call("call_1", '{"path":"/tmp/a"}')] } });
    expect(reading(chatSpan({ events: written }))).toEqual({
      records: [user, { type: "message", role: "assistant", content: "On it." }, { type: "function_call", call_id: "call_1", name: "delete_file", arguments: '{"path":"/tmp/a"}', status: "completed" }],
      said: [],
    });
  });
});
