import { describe, expect, test } from "vitest";
import { FINDING_CODES, JournalChecker, MAX_HELD_REASONING, type CheckedItem, type Finding, type GatedItem, type ItemCheck } from "../../src/gate/journal-checks.js";
import { replayGate } from "../../src/gate/replay-gate.js";
import { ToolRegistry } from "../../src/gate/tool-registry.js";
import type { Envelope, JournalItem, Provenance } from "../../src/models/journal-item.js";

const salesParameters = {
  type: "object",
  additionalProperties: false,
  required: ["region"],
  properties: { region: { type: "string", enum: ["apac", "emea", "amer"] } },
};
const weatherParameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const tools = [
  { type: "function", name: "get_latest_sales_report", parameters: salesParameters },
  { type: "function", name: "get_weather", parameters: weatherParameters },
];

/** One record of a journal, as normalization gives it. */
interface JournalRecord {
  line: number;
  envelope: Envelope;
  items: Array<Record<string, unknown>>;
  response?: Provenance["response"];
  /** A request body whose tools and tool_choice apply from this record on. */
  request?: Record<string, unknown>;
  /** The input file, when the journal is read from several. */
  source?: string;
}

/** Runs the checks as the gate does: request body first, then verdicts, then the record's items. */
function check(records: readonly JournalRecord[], options: { registry?: ToolRegistry; checks?: ItemCheck[] } = {}): CheckedItem[] {
  const registry = options.registry ?? new ToolRegistry();
  if (!options.registry) registry.addTools(tools, "tools.json");
  const checker = new JournalChecker({ registry, checks: options.checks });
  const checked: CheckedItem[] = [];
  for (const record of records) {
    if (record.request) registry.addRequestBody(record.request, `line ${record.line}`);
    const items: GatedItem[] = record.items.map((item, index) => {
      const provenance: Provenance = { line: record.line, index, envelope: record.envelope };
      if (record.response) provenance.response = record.response;
      if (record.source !== undefined) provenance.source = record.source;
      const gated: GatedItem = { item, provenance };
      if (item.type === "function_call") gated.verdict = replayGate(item, registry.schemaFor(String(item.name)));
      return gated;
    });
    checked.push(...checker.push(items));
  }
  checked.push(...checker.finish());
  return checked;
}

/** Every item of the output, in order, with its findings. */
function findingsOf(checked: readonly CheckedItem[]): Array<[string, Finding[]]> {
  return checked.map((item) => [`${item.provenance.line}.${item.provenance.index}`, item.findings]);
}

const user = (content: string) => ({ type: "message", role: "user", content });
const chatCall = (callId: string, name: string, args: string) => ({ type: "function_call", call_id: callId, name, arguments: args, status: "completed" });
const responsesCall = (id: string, callId: string, name: string, args: string) => ({ type: "function_call", id, call_id: callId, name, arguments: args, status: "completed" });
const output = (callId: string, text: string) => ({ type: "function_call_output", call_id: callId, output: text });
const assistant = (id: string, text: string) => ({ type: "message", id, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] });
const reasoning = (id: string) => ({ type: "reasoning", id, summary: [{ type: "summary_text", text: "look the report up" }], encrypted_content: "gAAAAB-opaque" });

const apac = "{\"region\":\"apac\"}";
const paris = "{\"city\":\"Paris\"}";

describe("a journal that mixes both envelopes", () => {
  test("chat calls answered by Open Responses outputs pair with no finding", () => {
    const checked = check([
      { line: 1, envelope: "chat", items: [{ type: "message", role: "user", content: "apac sales and the weather in Paris?" }] },
      { line: 2, envelope: "chat", response: { id: "chatcmpl-AbC1", status: "completed" }, items: [chatCall("call_Vx1", "get_latest_sales_report", apac), chatCall("call_Vx2", "get_weather", paris)] },
      { line: 3, envelope: "responses", items: [output("call_Vx1", "sales report for apac")] },
      { line: 4, envelope: "responses", items: [output("call_Vx2", "light rain")] },
      { line: 5, envelope: "responses", response: { id: "resp_01", status: "completed" }, items: [assistant("msg_01", "Here they are.")] },
    ]);
    expect(findingsOf(checked)).toEqual([["1.0", []], ["2.0", []], ["2.1", []], ["3.0", []], ["4.0", []], ["5.0", []]]);
  });

  test("Open Responses calls answered by chat tool messages pair with no finding", () => {
    const checked = check([
      { line: 1, envelope: "responses", items: [user("apac sales?")] },
      { line: 2, envelope: "responses", response: { id: "resp_02", status: "completed" }, items: [reasoning("rs_01"), responsesCall("fc_01", "call_kL0P", "get_latest_sales_report", apac)] },
      { line: 3, envelope: "chat", items: [output("call_kL0P", "sales report for apac")] },
      { line: 4, envelope: "chat", response: { id: "chatcmpl-2", status: "completed" }, items: [{ type: "message", role: "assistant", content: "Done." }] },
    ]);
    expect(findingsOf(checked)).toEqual([["1.0", []], ["2.0", []], ["2.1", []], ["3.0", []], ["4.0", []]]);
  });

  test("every finding code is a literal of the list", () => {
    expect(FINDING_CODES).toContain("orphan_output");
    expect(new Set(FINDING_CODES).size).toBe(FINDING_CODES.length);
  });
});

describe("outputs", () => {
  test("an output with no earlier call is an orphan", () => {
    const checked = check([
      { line: 1, envelope: "responses", items: [output("call_late", "sales report for apac")] },
      { line: 2, envelope: "chat", items: [chatCall("call_late", "get_latest_sales_report", apac)] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", [{ code: "orphan_output", detail: 'no earlier function_call has the call_id "call_late"', path: "/call_id" }]],
      ["2.0", []],
    ]);
  });

  test("an output for a call whose arguments fail the schema", () => {
    const checked = check([
      { line: 1, envelope: "chat", items: [chatCall("call_1", "get_latest_sales_report", "{\"region\":\"global\"}")] },
      { line: 2, envelope: "responses", items: [output("call_1", "sales report for global")] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["2.0", [{ code: "output_for_blocked_call", detail: 'its call "call_1" on line 1 is blocked (arguments_schema): only a completed, valid call may get an output', path: "/call_id", related_line: 1 }]],
    ]);
  });

  test("an output for a call of an unknown tool", () => {
    const checked = check([
      { line: 1, envelope: "responses", items: [responsesCall("fc_1", "call_1", "send_email", "{}")] },
      { line: 2, envelope: "chat", items: [output("call_1", "sent")] },
    ]);
    expect(findingsOf(checked)[1]).toEqual(["2.0", [{ code: "output_for_blocked_call", detail: 'its call "call_1" on line 1 is blocked (unknown_tool): only a completed, valid call may get an output', path: "/call_id", related_line: 1 }]]);
  });

  test("an output for a call that became an extension item", () => {
    const checked = check([
      { line: 1, envelope: "responses", items: [{ type: "openai:function_call", id: "fc_1", call_id: "call_1", name: "get_latest_sales_report", arguments: apac, status: "completed" }] },
      { line: 2, envelope: "responses", items: [output("call_1", "sales report for apac")] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["2.0", [{ code: "output_for_blocked_call", detail: 'its call "call_1" on line 1 is blocked (namespaced): only a completed, valid call may get an output', path: "/call_id", related_line: 1 }]],
    ]);
  });

  test("an output for a call still in progress", () => {
    const checked = check([
      { line: 1, envelope: "responses", response: { id: "resp_1", status: "in_progress" }, items: [{ ...responsesCall("fc_1", "call_1", "get_weather", "{\"ci"), status: "in_progress" }] },
      { line: 2, envelope: "responses", items: [output("call_1", "light rain")] },
    ]);
    expect(findingsOf(checked)[1][1].map((finding) => finding.code)).toEqual(["output_for_blocked_call"]);
  });

  test("an output that answers a call a second time", () => {
    const checked = check([
      { line: 1, envelope: "chat", items: [chatCall("call_1", "get_weather", paris)] },
      { line: 2, envelope: "chat", items: [output("call_1", "light rain")] },
      { line: 3, envelope: "responses", items: [output("call_1", "light rain")] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["2.0", []],
      ["3.0", [{ code: "duplicate_call_id", detail: 'the call "call_1" was already answered on line 2', path: "/call_id", related_line: 2 }]],
    ]);
  });
});

describe("calls", () => {
  test("a call_id used by two calls", () => {
    const checked = check([
      { line: 1, envelope: "chat", items: [chatCall("call_1", "get_weather", paris)] },
      { line: 2, envelope: "responses", items: [output("call_1", "light rain")] },
      { line: 3, envelope: "responses", items: [responsesCall("fc_9", "call_1", "get_weather", paris)] },
    ]);
    expect(findingsOf(checked)[2]).toEqual(["3.0", [{ code: "duplicate_call_id", detail: 'the call_id "call_1" was already used by the call of line 1', path: "/call_id", related_line: 1 }]]);
  });

  test("calls without a call_id or a name", () => {
    const checked = check([
      { line: 1, envelope: "responses", items: [{ type: "function_call", id: "fc_1", name: "get_weather", arguments: paris, status: "completed" }] },
      { line: 2, envelope: "chat", items: [chatCall("call_2", "", paris)] },
      { line: 3, envelope: "responses", items: [{ type: "function_call_output", output: "light rain" }] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", [{ code: "missing_field", detail: "the call has no call_id: no output can be paired with it", path: "/call_id" }]],
      ["2.0", [{ code: "missing_field", detail: "the call has an empty name: no tool can be chosen for it", path: "/name" }]],
      ["3.0", [{ code: "missing_field", detail: "the output has no call_id: it answers no call", path: "/call_id" }]],
    ]);
  });

  describe("call_ids and ids with a lone surrogate, which Go's encoding/json reads as U+FFFD", () => {
    test("two calls whose call_ids differ only there are one call_id read so: the second is a duplicate, and an output for them answers the blocked first", () => {
      const checked = check([
        { line: 1, envelope: "responses", items: [responsesCall("fc_1", "call_1\ud800", "get_latest_sales_report", '{"region":"global"}')] },
        { line: 2, envelope: "responses", items: [responsesCall("fc_2", "call_1\udc00", "get_latest_sales_report", '{"region":"apac"}')] },
        { line: 3, envelope: "responses", items: [output("call_1\ufffd", "apac: up")] },
      ]);
      expect(checked.map((item) => item.verdict?.reason)).toEqual(["arguments_schema", "ok", undefined]);
      expect(findingsOf(checked)).toEqual([
        ["1.0", []],
        ["2.0", [{ code: "duplicate_call_id", detail: 'the call_id "call_1\\udc00" was already used by the call of line 1', path: "/call_id", related_line: 1 }]],
        ["3.0", [{ code: "output_for_blocked_call", detail: 'its call "call_1\ufffd" on line 1 is blocked (arguments_schema): only a completed, valid call may get an output', path: "/call_id", related_line: 1 }]],
      ]);
    });

    test("a call_id written with U+FFFD after one with a lone surrogate is a duplicate too", () => {
      const checked = check([
        { line: 1, envelope: "chat", items: [chatCall("call_1\udfff", "get_weather", paris)] },
        { line: 2, envelope: "chat", items: [chatCall("call_1\ufffd", "get_weather", paris)] },
      ]);
      expect(findingsOf(checked)[1]).toEqual(["2.0", [{ code: "duplicate_call_id", detail: 'the call_id "call_1\ufffd" was already used by the call of line 1', path: "/call_id", related_line: 1 }]]);
    });

    test("two item ids that differ only there are one id read so", () => {
      const checked = check([{ line: 1, envelope: "responses", items: [assistant("msg_\ud800", "first"), assistant("msg_\udc00", "second")] }]);
      expect(findingsOf(checked)[1]).toEqual(["1.1", [{ code: "duplicate_id", detail: 'the id "msg_\\udc00" was used by an earlier item, on line 1', path: "/id", related_line: 1 }]]);
    });

    test("a call and its output of one call_id with a lone surrogate pair as before", () => {
      const checked = check([
        { line: 1, envelope: "chat", items: [chatCall("call_1\ud800", "get_weather", paris)] },
        { line: 2, envelope: "chat", items: [output("call_1\ud800", "light rain")] },
        { line: 3, envelope: "chat", items: [assistant("msg_1", "light rain in Paris")] },
      ]);
      expect(findingsOf(checked)).toEqual([["1.0", []], ["2.0", []], ["3.0", []]]);
    });
  });

  test("a call_id that is not a string", () => {
    const checked = check([{ line: 1, envelope: "responses", items: [{ type: "function_call", call_id: 7, name: "get_weather", arguments: paris, status: "completed" }] }]);
    expect(findingsOf(checked)).toEqual([["1.0", [{ code: "missing_field", detail: "the call has a non-string (number 7) call_id: no output can be paired with it", path: "/call_id" }]]]);
  });
});

/** A Chat request body whose tool_choice allows get_weather alone. */
const weatherOnlyRequest = {
  model: "gpt-4o",
  messages: [{ role: "user", content: "weather in Paris?" }],
  tool_choice: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name: "get_weather" } }] } },
};

describe("allowed tools from request bodies", () => {
  test("a call outside the allowed_tools of its request body", () => {
    const checked = check([
      { line: 1, envelope: "chat", request: weatherOnlyRequest, items: [user("weather in Paris?")] },
      { line: 2, envelope: "chat", response: { id: "chatcmpl-3", status: "completed" }, items: [chatCall("call_1", "get_weather", paris), chatCall("call_2", "get_latest_sales_report", apac)] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["2.0", []],
      ["2.1", [{ code: "tool_not_allowed", detail: '"get_latest_sales_report" is not allowed: tool_choice of line 1 allows only "get_weather"', path: "/name" }]],
    ]);
  });

  test("the next request body's choice replaces it", () => {
    const checked = check([
      { line: 1, envelope: "responses", request: { input: "sales?", tool_choice: { type: "function", name: "get_weather" } }, items: [user("sales?")] },
      { line: 2, envelope: "responses", request: { input: [], tool_choice: "auto" }, items: [] },
      { line: 3, envelope: "responses", response: { id: "resp_3", status: "completed" }, items: [responsesCall("fc_3", "call_3", "get_latest_sales_report", apac)] },
    ]);
    expect(findingsOf(checked)).toEqual([["1.0", []], ["3.0", []]]);
  });

  test("an exchange's request applies to the calls of its own response", () => {
    const checked = check([
      {
        line: 1,
        envelope: "responses",
        request: { input: "sales?", tools, tool_choice: "none" },
        response: { id: "resp_4", status: "completed" },
        items: [responsesCall("fc_4", "call_4", "get_latest_sales_report", apac)],
      },
    ]);
    expect(findingsOf(checked)).toEqual([["1.0", [{ code: "tool_not_allowed", detail: '"get_latest_sales_report" is not allowed: tool_choice of line 1 allows no function', path: "/name" }]]]);
  });
});

describe("calls passed by without an output", () => {
  test("a user message passes a waiting call; the finding sits on the message", () => {
    const checked = check([
      { line: 1, envelope: "chat", items: [chatCall("call_1", "get_weather", paris)] },
      { line: 2, envelope: "responses", items: [user("never mind")] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["2.0", [{ code: "missing_output", detail: 'the call "call_1" (get_weather) on line 1 has no function_call_output before this user message', related_line: 1 }]],
    ]);
  });

  test("a new call after outputs passes the calls still waiting", () => {
    const checked = check([
      { line: 1, envelope: "chat", items: [chatCall("call_A", "get_weather", paris), chatCall("call_B", "get_weather", "{\"city\":\"Lyon\"}")] },
      { line: 2, envelope: "responses", items: [output("call_A", "light rain")] },
      { line: 3, envelope: "responses", items: [responsesCall("fc_C", "call_C", "get_latest_sales_report", apac)] },
      { line: 4, envelope: "chat", items: [output("call_B", "sunny")] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["1.1", []],
      ["2.0", []],
      ["3.0", [{ code: "missing_output", detail: 'the call "call_B" (get_weather) on line 1 has no function_call_output before this function_call', related_line: 1 }]],
      ["4.0", []],
    ]);
  });

  test("assistant text and reasoning in the calls' own response are part of the turn", () => {
    const checked = check([
      {
        line: 1,
        envelope: "responses",
        response: { id: "resp_5", status: "completed" },
        items: [reasoning("rs_1"), responsesCall("fc_1", "call_1", "get_weather", paris), reasoning("rs_2"), responsesCall("fc_2", "call_2", "get_latest_sales_report", apac), assistant("msg_1", "Checking both.")],
      },
      { line: 2, envelope: "chat", items: [output("call_1", "light rain"), output("call_2", "sales report for apac")] },
    ]);
    expect(findingsOf(checked)).toEqual([["1.0", []], ["1.1", []], ["1.2", []], ["1.3", []], ["1.4", []], ["2.0", []], ["2.1", []]]);
  });

  test("assistant text of a later response passes the calls", () => {
    const checked = check([
      { line: 1, envelope: "chat", response: { id: "chatcmpl-5", status: "completed" }, items: [chatCall("call_1", "get_weather", paris)] },
      { line: 2, envelope: "responses", response: { id: "resp_11", status: "completed" }, items: [assistant("msg_2", "It rains.")] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["2.0", [{ code: "missing_output", detail: 'the call "call_1" (get_weather) on line 1 has no function_call_output before this assistant message', related_line: 1 }]],
    ]);
  });

  test("assistant text in the calls' own record, outside any response, is part of the turn; in the next record it passes them", () => {
    const checked = check([
      { line: 1, envelope: "responses", items: [responsesCall("fc_1", "call_1", "get_weather", paris), assistant("msg_1", "Checking.")] },
      { line: 2, envelope: "responses", items: [assistant("msg_2", "It rains.")] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["1.1", []],
      ["2.0", [{ code: "missing_output", detail: 'the call "call_1" (get_weather) on line 1 has no function_call_output before this assistant message', related_line: 1 }]],
    ]);
  });

  test("the calls a message keeps in its turn are still paired with their outputs, and passed by later on their own", () => {
    const checked = check([
      { line: 1, envelope: "chat", items: [chatCall("call_X", "get_weather", paris)] },
      { line: 2, envelope: "responses", items: [responsesCall("fc_A", "call_A", "get_weather", paris), responsesCall("fc_B", "call_B", "get_latest_sales_report", apac), assistant("msg_1", "Checking both.")] },
      { line: 3, envelope: "responses", items: [output("call_B", "report")] },
      { line: 4, envelope: "responses", items: [user("and Lyon?")] },
      { line: 5, envelope: "chat", items: [output("call_X", "late answer")] },
      { line: 6, envelope: "responses", items: [output("call_A", "later still")] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["2.0", []],
      ["2.1", []],
      ["2.2", [{ code: "missing_output", detail: 'the call "call_X" (get_weather) on line 1 has no function_call_output before this assistant message', related_line: 1 }]],
      ["3.0", []],
      ["4.0", [{ code: "missing_output", detail: 'the call "call_A" (get_weather) on line 2 has no function_call_output before this user message', related_line: 2 }]],
      ["5.0", []],
      ["6.0", []],
    ]);
  });

  test("outputs written each right after its call", () => {
    const checked = check([
      { line: 1, envelope: "responses", items: [responsesCall("fc_1", "call_1", "get_weather", paris)] },
      { line: 2, envelope: "responses", items: [output("call_1", "light rain")] },
      { line: 3, envelope: "responses", items: [responsesCall("fc_2", "call_2", "get_weather", "{\"city\":\"Lyon\"}")] },
      { line: 4, envelope: "responses", items: [output("call_2", "sunny")] },
    ]);
    expect(findingsOf(checked)).toEqual([["1.0", []], ["2.0", []], ["3.0", []], ["4.0", []]]);
  });

  test("a call still waiting at the end of the journal is normal", () => {
    const checked = check([
      { line: 1, envelope: "chat", items: [user("weather?")] },
      { line: 2, envelope: "chat", response: { id: "chatcmpl-9", status: "completed" }, items: [chatCall("call_1", "get_weather", paris)] },
    ]);
    expect(findingsOf(checked)).toEqual([["1.0", []], ["2.0", []]]);
  });

  test("a blocked call waits for no output: the turn ends without one, and the next call is not blocked for it", () => {
    const inProgress = { ...chatCall("call_2", "get_weather", '{"city":"Ly'), status: "in_progress" };
    const checked = check([
      { line: 1, envelope: "chat", items: [chatCall("call_1", "get_weather", "{\"town\":\"Paris\"}"), inProgress, chatCall("call_3", "get_weather", paris)] },
      { line: 2, envelope: "responses", items: [output("call_3", "light rain")] },
      { line: 3, envelope: "responses", items: [user("and tomorrow?")] },
      { line: 4, envelope: "responses", items: [responsesCall("fc_4", "call_4", "get_weather", paris)] },
    ]);
    expect(checked.map((item) => item.verdict?.reason)).toEqual(["arguments_schema", "status", "ok", undefined, undefined, "ok"]);
    expect(findingsOf(checked)).toEqual([["1.0", []], ["1.1", []], ["1.2", []], ["2.0", []], ["3.0", []], ["4.0", []]]);
  });

  test("a call a finding blocks waits for no output, and an output for it is one for a blocked call", () => {
    const checked = check([
      { line: 1, envelope: "chat", request: weatherOnlyRequest, items: [user("weather in Paris?")] },
      { line: 2, envelope: "chat", items: [chatCall("call_1", "get_latest_sales_report", apac), chatCall("call_2", "get_weather", paris)] },
      { line: 3, envelope: "chat", items: [output("call_1", "sales report for apac")] },
      { line: 4, envelope: "chat", items: [user("thanks")] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["2.0", [{ code: "tool_not_allowed", detail: '"get_latest_sales_report" is not allowed: tool_choice of line 1 allows only "get_weather"', path: "/name" }]],
      ["2.1", []],
      [
        "3.0",
        [
          {
            code: "output_for_blocked_call",
            detail: 'its call "call_1" on line 2 is blocked (tool_not_allowed): only a completed, valid call may get an output',
            path: "/call_id",
            related_line: 2,
          },
        ],
      ],
      ["4.0", [{ code: "missing_output", detail: 'the call "call_2" (get_weather) on line 2 has no function_call_output before this user message', related_line: 2 }]],
    ]);
  });
});

describe("incomplete items", () => {
  test("an incomplete item followed by more items of its response", () => {
    const checked = check([
      {
        line: 1,
        envelope: "responses",
        response: { id: "resp_6", status: "incomplete" },
        items: [{ ...assistant("msg_1", "The report for ap"), status: "incomplete" }, responsesCall("fc_1", "call_1", "get_latest_sales_report", apac)],
      },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", [{ code: "incomplete_not_last", detail: "the item is incomplete, yet 1 more item(s) of its response follow it", path: "/status" }]],
      ["1.1", []],
    ]);
  });

  test("an incomplete item inside a completed response", () => {
    const checked = check([
      { line: 1, envelope: "chat", response: { id: "chatcmpl-7", status: "completed" }, items: [{ ...chatCall("call_1", "get_weather", "{\"city\":"), status: "incomplete" }] },
    ]);
    expect(findingsOf(checked)).toEqual([["1.0", [{ code: "incomplete_not_last", detail: 'the item is incomplete inside a response with status "completed"', path: "/status" }]]]);
  });

  test("a response status is quoted as ids are: whole up to 60 characters, cut after", () => {
    const status = "finished_by_the_gateway_after_the_upstream_timed_out"; // 52 characters
    const longer = `${status}_then_retried`; // 65 characters
    const checked = check([
      { line: 1, envelope: "chat", response: { id: "chatcmpl-8", status }, items: [{ ...chatCall("call_1", "get_weather", "{\"city\":"), status: "incomplete" }] },
      { line: 2, envelope: "chat", response: { id: "chatcmpl-9", status: longer }, items: [{ ...chatCall("call_2", "get_weather", "{\"city\":"), status: "incomplete" }] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", [{ code: "incomplete_not_last", detail: `the item is incomplete inside a response with status "${status}"`, path: "/status" }]],
      ["2.0", [{ code: "incomplete_not_last", detail: `the item is incomplete inside a response with status "${longer.slice(0, 60)}…"`, path: "/status" }]],
    ]);
  });

  test("the last item of an incomplete response may be incomplete", () => {
    const checked = check([
      { line: 1, envelope: "responses", response: { id: "resp_8", status: "incomplete" }, items: [reasoning("rs_1"), { ...assistant("msg_1", "The report for ap"), status: "incomplete" }] },
    ]);
    expect(findingsOf(checked)).toEqual([["1.0", []], ["1.1", []]]);
  });

  test("in an exchange, the request's items are not items of the response", () => {
    const checker = new JournalChecker();
    const fromRequest: GatedItem = { item: { ...assistant("msg_0", "cut sho"), status: "incomplete" }, provenance: { line: 1, index: 0, envelope: "responses" } };
    const fromResponse: GatedItem = { item: assistant("msg_1", "Go on."), provenance: { line: 1, index: 1, envelope: "responses", response: { id: "resp_9", status: "completed" } } };
    expect(checker.push([fromRequest, fromResponse])).toEqual([
      { ...fromRequest, findings: [] },
      { ...fromResponse, findings: [] },
    ]);
  });
});

describe("reasoning items", () => {
  test("a reasoning followed by an output, not by the item it precedes", () => {
    const checked = check([
      { line: 1, envelope: "chat", items: [chatCall("call_1", "get_weather", paris)] },
      { line: 2, envelope: "responses", items: [reasoning("rs_1")] },
      { line: 3, envelope: "chat", items: [output("call_1", "light rain")] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["2.0", [{ code: "reasoning_without_following_item", detail: "the reasoning is followed by function_call_output, not by the message or call it precedes", related_line: 3 }]],
      ["3.0", []],
    ]);
  });

  test("a run of reasoning followed by the call it leads to: each reasoning's following item is the next", () => {
    const call = { ...responsesCall("fc_1", "call_1", "get_weather", paris) };
    const checked = check([
      { line: 1, envelope: "responses", items: [reasoning("rs_1"), reasoning("rs_2")] },
      { line: 2, envelope: "responses", items: [reasoning("rs_3"), call] },
    ]);
    expect(findingsOf(checked)).toEqual([["1.0", []], ["1.1", []], ["2.0", []], ["2.1", []]]);
  });

  test("a run of reasoning followed by an output: each reasoning of the run is without its following item", () => {
    const checked = check([
      { line: 1, envelope: "chat", items: [chatCall("call_1", "get_weather", paris)] },
      { line: 2, envelope: "responses", items: [reasoning("rs_1"), reasoning("rs_2")] },
      { line: 3, envelope: "chat", items: [output("call_1", "light rain")] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["2.0", [{ code: "reasoning_without_following_item", detail: "the reasoning is followed by reasoning, then by function_call_output, not by the message or call it precedes", related_line: 3 }]],
      ["2.1", [{ code: "reasoning_without_following_item", detail: "the reasoning is followed by function_call_output, not by the message or call it precedes", related_line: 3 }]],
      ["3.0", []],
    ]);
  });

  test("a run of reasoning at the end of the journal", () => {
    const checked = check([{ line: 1, envelope: "responses", items: [reasoning("rs_1"), reasoning("rs_2")] }]);
    const atTheEnd = [{ code: "reasoning_without_following_item", detail: "the journal ends after the reasoning, without the item it precedes" }];
    expect(findingsOf(checked)).toEqual([["1.0", atTheEnd], ["1.1", atTheEnd]]);
  });

  test("a run longer than MAX_HELD_REASONING is released with the finding, not held without bound", () => {
    const run = Array.from({ length: MAX_HELD_REASONING + 1 }, (_, index) => reasoning(`rs_${index}`));
    const checked = check([{ line: 1, envelope: "responses", items: [...run, assistant("msg_1", "Done.")] }]);
    const tooLong = [{ code: "reasoning_without_following_item", detail: `the reasoning is one of more than ${MAX_HELD_REASONING} in a row; the item they precede is not waited for` }];
    expect(findingsOf(checked)).toEqual([...run.map((_, index): [string, Finding[]] => [`1.${index}`, tooLong]), [`1.${run.length}`, []]]);
  });

  test("a reasoning at the end of the journal", () => {
    const checked = check([{ line: 1, envelope: "responses", response: { id: "resp_10", status: "incomplete" }, items: [reasoning("rs_1")] }]);
    expect(findingsOf(checked)).toEqual([["1.0", [{ code: "reasoning_without_following_item", detail: "the journal ends after the reasoning, without the item it precedes" }]]]);
  });

  test("a reasoning is held until the next record shows what follows it", () => {
    const checker = new JournalChecker();
    const thought: GatedItem = { item: reasoning("rs_1"), provenance: { line: 1, index: 0, envelope: "responses" } };
    const call: GatedItem = { item: responsesCall("fc_1", "call_1", "get_weather", paris), provenance: { line: 2, index: 0, envelope: "responses" }, verdict: { reason: "ok", detail: "" } };
    expect(checker.push([thought])).toEqual([]);
    expect(checker.push([call])).toEqual([{ ...thought, findings: [] }, { ...call, findings: [] }]);
    expect(checker.finish()).toEqual([]);
  });
});

describe("ids", () => {
  test("an id used twice, across envelopes", () => {
    const checked = check([
      { line: 1, envelope: "responses", items: [assistant("msg_1", "Hello.")] },
      { line: 2, envelope: "responses", items: [user("hi"), { ...assistant("msg_1", "Hello again.") }] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["2.0", []],
      ["2.1", [{ code: "duplicate_id", detail: 'the id "msg_1" was used by an earlier item, on line 1', path: "/id", related_line: 1 }]],
    ]);
  });

  test("an item_reference brings back the item it names: one blocked, or one the journal does not hold, blocks the reference", () => {
    const bad = "{\"region\":\"global\"}";
    const checked = check([
      { line: 1, envelope: "responses", items: [responsesCall("fc_1", "call_1", "get_latest_sales_report", bad), { ...output("call_1", "global report"), id: "fco_1" }] },
      { line: 2, envelope: "responses", items: [assistant("msg_1", "Hello."), { type: "openai:web_search_call", id: "ws_1", status: "completed" }] },
      { line: 3, envelope: "responses", items: [{ type: "item_reference", id: "fc_1" }, { type: "item_reference", id: "fco_1" }, { type: "item_reference", id: "msg_1" }, { id: "ws_1" }, { type: "item_reference", id: "msg_elsewhere" }] },
    ]);
    expect(findingsOf(checked).slice(4)).toEqual([
      ["3.0", [{ code: "blocked_reference", detail: "the reference brings back the item of line 1, which is blocked", path: "/id", related_line: 1 }]],
      ["3.1", [{ code: "blocked_reference", detail: "the reference brings back the item of line 1, which is blocked", path: "/id", related_line: 1 }]],
      ["3.2", []],
      ["3.3", [{ code: "blocked_reference", detail: "the reference brings back the item of line 2, which is blocked", path: "/id", related_line: 2 }]],
      ["3.4", [{ code: "blocked_reference", detail: 'the reference names the id "msg_elsewhere", which no earlier item of the journal has: what it brings back was never gated', path: "/id" }]],
    ]);
  });

  test("an item_reference to an id two items gave may bring back either: it is blocked, even when the first passed", () => {
    const checked = check([
      { line: 1, envelope: "responses", items: [assistant("msg_1", "Hello.")] },
      { line: 2, envelope: "responses", items: [assistant("msg_1", "Goodbye.")] },
      { line: 3, envelope: "responses", items: [{ type: "item_reference", id: "msg_1" }] },
    ]);
    expect(findingsOf(checked)[2]).toEqual([
      "3.0",
      [{ code: "blocked_reference", detail: 'the reference brings back one of the items that share the id "msg_1", the first on line 1: which one the provider keeps cannot be told', path: "/id", related_line: 1 }],
    ]);
  });

  test("an item_reference that would bring an item back a second time is blocked: brought back already, or a call already answered, or its output", () => {
    const apacCall = (id: string, callId: string) => responsesCall(id, callId, "get_latest_sales_report", apac);
    const checked = check([
      { line: 1, envelope: "responses", items: [apacCall("fc_1", "call_1")] },
      // As a request that answers a stored call sends it: the reference stands for the call, its output follows.
      { line: 2, envelope: "responses", items: [{ type: "item_reference", id: "fc_1" }, { ...output("call_1", "apac report"), id: "fco_1" }] },
      { line: 3, envelope: "responses", items: [{ type: "item_reference", id: "fc_1" }] },
      { line: 4, envelope: "responses", items: [apacCall("fc_2", "call_2"), { ...output("call_2", "apac report"), id: "fco_2" }, { type: "item_reference", id: "fc_2" }, { type: "item_reference", id: "fco_2" }] },
    ]);
    expect(findingsOf(checked).slice(1)).toEqual([
      ["2.0", []],
      ["2.1", []],
      ["3.0", [{ code: "duplicate_id", detail: "the reference brings back the item of line 1, which an earlier reference brought back already: it would come twice", path: "/id", related_line: 1 }]],
      ["4.0", []],
      ["4.1", []],
      ["4.2", [{ code: "duplicate_call_id", detail: "the reference brings back the item of line 4, whose call was answered on line 4: the call or its output would come twice", path: "/id", related_line: 4 }]],
      ["4.3", [{ code: "duplicate_call_id", detail: "the reference brings back the item of line 4, whose call was answered on line 4: the call or its output would come twice", path: "/id", related_line: 4 }]],
    ]);
  });

  test("a call_id given to a second call, blocked or an extension's: an output after both answers neither, and is blocked", () => {
    const bad = "{\"region\":\"global\"}";
    for (const second of [chatCall("call_1", "get_latest_sales_report", bad), { type: "openai:custom_tool_call", call_id: "call_1", name: "shell", input: "rm -rf /" }]) {
      const checked = check([
        { line: 1, envelope: "chat", items: [chatCall("call_1", "get_latest_sales_report", apac)] },
        { line: 2, envelope: "chat", items: [second] },
        { line: 3, envelope: "chat", items: [output("call_1", "a report")] },
      ]);
      expect(findingsOf(checked)[2]).toEqual([
        "3.0",
        [{ code: "output_for_blocked_call", detail: 'its call_id "call_1" names more than one call (the first on line 1): which one it answers is not known, so none may get an output', path: "/call_id", related_line: 1 }],
      ]);
    }
  });

  test("an output that names another tool than the call its call_id names answers no call it can be sure of", () => {
    for (const named of [{ "gemini:name": "wire_money" }, { name: "wire_money" }]) {
      const checked = check([
        { line: 1, envelope: "gemini", items: [chatCall("a", "get_latest_sales_report", apac)] },
        { line: 2, envelope: "gemini", items: [{ ...output("a", "wired"), ...named }] },
      ]);
      expect(findingsOf(checked)[1]).toEqual([
        "2.0",
        [{ code: "orphan_output", detail: 'the output names the tool "wire_money", another than the call of line 1 its call_id "a" names: which call it answers is not known', path: "/call_id", related_line: 1 }],
      ]);
    }
    // Its own call's name is the pair every reader makes.
    const same = check([
      { line: 1, envelope: "gemini", items: [chatCall("a", "get_latest_sales_report", apac)] },
      { line: 2, envelope: "gemini", items: [{ ...output("a", "report"), "gemini:name": "get_latest_sales_report" }] },
    ]);
    expect(findingsOf(same)[1]).toEqual(["2.0", []]);
  });

  test("an item_reference names an earlier id without giving it a second time; a second reference, typed or not, would bring the item back twice", () => {
    const checked = check([
      { line: 1, envelope: "responses", items: [assistant("msg_1", "Hello.")] },
      { line: 2, envelope: "responses", items: [{ type: "item_reference", id: "msg_1" }, { id: "msg_1" }] },
    ]);
    expect(findingsOf(checked)).toEqual([
      ["1.0", []],
      ["2.0", []],
      ["2.1", [{ code: "duplicate_id", detail: "the reference brings back the item of line 1, which an earlier reference brought back already: it would come twice", path: "/id", related_line: 1 }]],
    ]);
  });

  test.each([
    ["a placeholder", { ...assistant("__fake_id__", "Hi.") }, '"__fake_id__" is a placeholder id'],
    ["a Chat completion id", { ...assistant("chatcmpl-B9x", "Hi.") }, '"chatcmpl-B9x" is a Chat completion id, not an item id'],
    ["a call id on a function_call", responsesCall("call_123", "call_123", "get_weather", paris), '"call_123" is a call id put in the item id'],
    ["an output whose id repeats its call_id", { ...output("toolu_01", "light rain"), id: "toolu_01" }, 'the id repeats the call_id "toolu_01"'],
    ["an empty id", { ...assistant("", "Hi.") }, "the id is empty"],
    ["a numeric id", { ...assistant("msg_1", "Hi."), id: 12 }, "the id is number 12, not a string"],
  ])("%s is foreign", (_label, item, detail) => {
    const call = item.type === "function_call_output" ? [{ line: 0, envelope: "chat" as const, items: [chatCall("toolu_01", "get_weather", paris)] }] : [];
    const checked = check([...call, { line: 1, envelope: "responses", items: [item] }]);
    expect(checked.at(-1)?.findings).toEqual([{ code: "foreign_id", detail, path: "/id" }]);
  });
});

describe("Chat structures inside items", () => {
  test("tool_calls on a message item", () => {
    const item = { type: "message", role: "assistant", content: "", tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: paris } }] };
    const checked = check([{ line: 1, envelope: "responses", items: [item] }]);
    expect(findingsOf(checked)).toEqual([["1.0", [{ code: "mixed_envelope", detail: '"tool_calls" is a Chat Completions field, not part of an item', path: "/tool_calls" }]]]);
  });

  test("a tool role and a Chat image part", () => {
    const item = { type: "message", role: "tool", tool_call_id: "call_1", content: [{ type: "image_url", image_url: { url: "https://example.com/chart.png" } }] };
    const checked = check([{ line: 1, envelope: "responses", items: [item] }]);
    expect(findingsOf(checked)).toEqual([
      [
        "1.0",
        [
          { code: "mixed_envelope", detail: '"tool_call_id" is a Chat Completions field, not part of an item', path: "/tool_call_id" },
          { code: "mixed_envelope", detail: 'the role "tool" is a Chat Completions role; an output is a function_call_output item', path: "/role" },
          { code: "mixed_envelope", detail: 'a "image_url" part is a Chat Completions content part', path: "/content/0/type" },
        ],
      ],
    ]);
  });

  test("a Chat tool call written as an item", () => {
    const item = { type: "function", id: "call_1", function: { name: "get_weather", arguments: paris } };
    const checked = check([{ line: 1, envelope: "responses", items: [item] }]);
    expect(findingsOf(checked)).toEqual([["1.0", [{ code: "mixed_envelope", detail: 'a "function" object is the Chat form of a tool call, not an item', path: "/function" }]]]);
  });
});

describe("more checks", () => {
  test("their findings come first on each item", () => {
    const flagged: ItemCheck = { check: (item: JournalItem) => (item.provenance.line === 1 ? [{ code: "target_rejects", detail: "not here", path: "" }] : []) };
    const checked = check([{ line: 1, envelope: "responses", items: [{ ...assistant("__fake_id__", "Hi.") }] }], { checks: [flagged] });
    expect(findingsOf(checked)).toEqual([
      [
        "1.0",
        [
          { code: "target_rejects", detail: "not here", path: "" },
          { code: "foreign_id", detail: '"__fake_id__" is a placeholder id', path: "/id" },
        ],
      ],
    ]);
  });
});

describe("a function of a namespace, in a request body", () => {
  // `{"namespace": "crm", "name": "lookup"}` names the namespace's function, which
  // is called with its namespace; a reader that does not know the field takes the
  // top-level function of that name. Read either way, a top-level call of that
  // name is not one the body allowed.
  const notAllowed = (detail: string) => [{ code: "tool_not_allowed", detail, path: "/name" }];
  const callAfter = (request: Record<string, unknown>) =>
    findingsOf(check([
      { line: 1, envelope: "responses", request, items: [user("weather?")] },
      { line: 2, envelope: "responses", response: { id: "resp_1", status: "completed" }, items: [responsesCall("fc_1", "call_1", "get_weather", paris)] },
    ]))[1];

  test("forced by tool_choice, it allows no top-level function", () => {
    expect(callAfter({ input: "weather?", tools, tool_choice: { type: "function", name: "get_weather", namespace: "crm" } })).toEqual(["2.0", notAllowed('"get_weather" is not allowed: tool_choice of line 1 allows no function')]);
  });
  test("listed in allowed_tools, it allows no top-level function", () => {
    const choice = { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "get_weather", namespace: "crm" }] };
    expect(callAfter({ input: "weather?", tools, tool_choice: choice })).toEqual(["2.0", notAllowed('"get_weather" is not allowed: tool_choice of line 1 allows no function')]);
  });
  test("defined with its namespace, it defines no top-level function: the call is refused", () => {
    const registry = new ToolRegistry();
    const request = { input: "weather?", tools: [{ type: "function", name: "get_weather", namespace: "crm", parameters: { type: "object" } }] };
    const checked = check(
      [
        { line: 1, envelope: "responses", request, items: [user("weather?")] },
        { line: 2, envelope: "responses", response: { id: "resp_1", status: "completed" }, items: [responsesCall("fc_1", "call_1", "get_weather", paris)] },
      ],
      { registry },
    );
    expect(findingsOf(checked)[1]).toEqual(["2.0", notAllowed('"get_weather" is not allowed: tools[0] of line 1 defines it in namespace "crm", which a reader that does not know the field takes for the top-level function')]);
    expect(checked[1]!.verdict?.reason).toBe("unknown_tool");
  });
  test("a choice of the top-level function, and a namespace of null, allow it as before", () => {
    expect(callAfter({ input: "weather?", tools, tool_choice: { type: "function", name: "get_weather", namespace: null } })).toEqual(["2.0", []]);
  });
});

describe("a journal read from several inputs", () => {
  // Each input numbers its lines from 1: a finding about an item of another input names that input.
  test("an earlier item of another input is named with its input, one of the same input by its line alone", () => {
    const checked = check([
      { source: "monday.jsonl", line: 1, envelope: "responses", items: [responsesCall("fc_1", "call_1", "get_weather", '{"city":"Paris"}')] },
      { source: "monday.jsonl", line: 2, envelope: "responses", items: [output("call_1", "sunny")] },
      { source: "monday.jsonl", line: 3, envelope: "responses", items: [responsesCall("fc_2", "call_2", "get_weather", '{"city":"Oslo"}')] },
      { source: "tuesday.jsonl", line: 1, envelope: "responses", items: [responsesCall("fc_1", "call_1", "get_weather", '{"city":"Rome"}')] },
      { source: "tuesday.jsonl", line: 2, envelope: "responses", items: [output("call_2", "rain")] },
      { source: "tuesday.jsonl", line: 3, envelope: "responses", items: [responsesCall("fc_3", "call_3", "get_weather", '{"city":"Lima"}')] },
      { source: "tuesday.jsonl", line: 4, envelope: "responses", items: [responsesCall("fc_3", "call_4", "get_weather", '{"city":"Kyiv"}')] },
    ]);
    expect(findingsOf(checked).slice(3)).toEqual([
      [
        "1.0",
        [
          { code: "duplicate_id", detail: 'the id "fc_1" was used by an earlier item, on line 1 of monday.jsonl', path: "/id", related_line: 1, related_source: "monday.jsonl" },
          { code: "duplicate_call_id", detail: 'the call_id "call_1" was already used by the call of line 1 of monday.jsonl', path: "/call_id", related_line: 1, related_source: "monday.jsonl" },
        ],
      ],
      ["2.0", []],
      ["3.0", []],
      ["4.0", [{ code: "duplicate_id", detail: 'the id "fc_3" was used by an earlier item, on line 3', path: "/id", related_line: 3 }]],
    ]);
  });

  test("a call of another input passed by without its output is named with its input", () => {
    const checked = check([
      { source: "a.jsonl", line: 7, envelope: "responses", items: [responsesCall("fc_1", "call_1", "get_weather", '{"city":"Paris"}')] },
      { source: "b.jsonl", line: 1, envelope: "responses", items: [user("and now?")] },
    ]);
    expect(findingsOf(checked)[1]).toEqual([
      "1.0",
      [{ code: "missing_output", detail: 'the call "call_1" (get_weather) on line 7 of a.jsonl has no function_call_output before this user message', related_line: 7, related_source: "a.jsonl" }],
    ]);
  });
});
