// Langfuse extracts an observation's calls from its output at ingestion and
// keeps them beside it: `toolCalls`, each the JSON text of {id, arguments, type,
// index}, and `toolCallNames` (in a blob storage export, `tool_calls` and
// `tool_call_names`). A reader of that list runs what it holds: each entry must
// be a call of the trace as read. One that gives a call's id other arguments
// withdraws the call, one no LLM call holds, or that gives no name, is
// unreadable; the gate blocks each.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { DELETE_FILE, gateVerdicts } from "../../support/span-documents.js";

const user = [{ role: "user", content: "clean up" }];
const answer = { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "delete_file", arguments: '{"path":"/tmp/x"}' } }] };
const listed = (id: string, args: string, index = 0) => JSON.stringify({ id, arguments: args, type: "function", index });
const download = (fields: Record<string, unknown>) => ({ trace: { id: "tr1" }, observations: [{ id: "o1", traceId: "tr1", type: "GENERATION", startTime: "2026-01-01T00:00:00.000Z", input: user, output: answer, ...fields }] });

function reading(document: unknown) {
  const { records, losses, messages } = READERS.langfuse.read(document);
  return {
    calls: records.map(({ record }) => record as Record<string, unknown>).filter((record) => record.type === "function_call").map(({ call_id }) => call_id),
    said: losses.filter((loss) => loss.code === "unreadable" || loss.code === "conflict").map(({ path, code, detail }) => ({ path, code, detail })),
    messages,
  };
}

describe("a GENERATION's list of calls", () => {
  test("that lists the answer's call: read once, nothing more said", () => {
    expect(reading(download({ toolCalls: [listed("call_1", '{"path": "/tmp/x"}')], toolCallNames: ["delete_file"] }))).toEqual({ calls: ["call_1"], said: [], messages: { read: 2, emitted: 2, repeated: 0, reported: 0 } });
  });

  test("that gives the call's id other arguments: the call is withdrawn, each copy a conflict", () => {
    expect(reading(download({ toolCalls: [listed("call_1", '{"path":"/etc"}')], toolCallNames: ["delete_file"] }))).toEqual({
      calls: [],
      said: [
        { path: "/observations/0/output/tool_calls/0", code: "conflict", detail: 'the call "call_1" is recorded in ways that disagree: two readers would run two calls, so none is read' },
        { path: "/observations/0/toolCalls/0", code: "conflict", detail: 'the GENERATION observation\'s list of calls records the call "call_1" as "delete_file" with {"path":"/etc"}: two readers would run two calls, so none is read' },
      ],
      messages: { read: 2, emitted: 1, repeated: 0, reported: 1 },
    });
  });

  test("that lists a call the answer does not hold: unreadable, and the gate blocks it", async () => {
    const document = download({ tool_calls: [listed("call_1", '{"path":"/tmp/x"}'), listed("call_2", "{}", 1)], tool_call_names: ["delete_file", "format_disk"] });
    expect(reading(document).said).toEqual([
      { path: "/observations/0/tool_calls/1", code: "unreadable", detail: 'the GENERATION observation\'s list of calls holds a call of "format_disk" with {} that no LLM call of the trace holds, and Langfuse\'s list is read as a copy of its answer: not read' },
    ]);
    expect(await gateVerdicts(document, [DELETE_FILE])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["ok", false], ["error", true]] });
  });

  test("an entry without a name beside it: unreadable", () => {
    expect(reading(download({ toolCalls: [listed("call_1", '{"path":"/tmp/x"}')] })).said).toEqual([
      { path: "/observations/0/toolCalls/0", code: "unreadable", detail: "the GENERATION observation's list of calls holds a call that gives no name beside it, or is no JSON object: not read" },
    ]);
  });

  describe("an entry of another form, whose arguments a reader of the list finds where {id, arguments} does not hold them: unreadable, not taken for a call of none", () => {
    const noArguments = { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "list_files", arguments: "{}" } }] };
    for (const [form, entry] of [
      ["OpenAI's {function: {name, arguments}}", { id: "call_1", type: "function", function: { name: "list_files", arguments: '{"dir":"/etc"}' } }],
      ["an input of its own", { id: "call_1", type: "tool_use", input: { dir: "/etc" } }],
      ["a name of its own that is not the one beside it", { id: "call_1", name: "delete_file", arguments: "{}", type: "function", index: 0 }],
      ["no arguments", { id: "call_1", type: "function", index: 0 }],
    ] as const) {
      test(form, () => {
        const document = { trace: { id: "tr1" }, observations: [{ id: "o1", traceId: "tr1", type: "GENERATION", startTime: "2026-01-01T00:00:00.000Z", input: user, output: noArguments, toolCalls: [JSON.stringify(entry)], toolCallNames: ["list_files"] }] };
        expect(reading(document).said).toEqual([
          { path: "/observations/0/toolCalls/0", code: "unreadable", detail: 'the GENERATION observation\'s list of calls holds a call of "list_files" that is not of the form {id, arguments, type, index}: not read' },
        ]);
      });
    }

    test("a name of its own that is the one beside it, and arguments as an object: read, nothing said", () => {
      expect(reading(download({ toolCalls: [{ id: "call_1", name: "delete_file", arguments: { path: "/tmp/x" }, type: "function", index: 0 }], toolCallNames: ["delete_file"] })).said).toEqual([]);
    });
  });

  test("an empty list says nothing", () => {
    expect(reading(download({ toolCalls: [], toolCallNames: [] })).said).toEqual([]);
  });
});
