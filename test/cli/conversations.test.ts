// `gate --conversation POINTER`: a journal that interleaves conversations is gated
// conversation by conversation, and the verdicts come back in journal order,
// each naming its conversation.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ConversationRouter, gateJournal, parsePointer, resolvePointer, ToolRegistry, type ConversationGateRecord } from "../../src/index.js";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const tools = "golden/examples/sales-tools.json";
const jsonl = (...records: unknown[]) => records.map((record) => (typeof record === "string" ? record : JSON.stringify(record)) + "\n").join("");
const json = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));

const report = (region: string) => JSON.stringify({ region });
const chunk = (conversation: string, delta: Record<string, unknown>, finish: string | null) => ({ conversation_id: conversation, object: "chat.completion.chunk", id: `chatcmpl-${conversation}`, choices: [{ index: 0, delta, finish_reason: finish }] });

// Two conversations written at once, each numbering its call call_0 as services
// do; "b" streams its call while "a" goes on, and "a" reasons before its call.
const twoConversations = jsonl(
  { conversation_id: "a", type: "message", role: "user", content: "apac figures please" },
  { conversation_id: "b", type: "message", role: "user", content: "emea figures please" },
  { conversation_id: "a", type: "reasoning", id: "rs_0", summary: [] },
  chunk("b", { role: "assistant", tool_calls: [{ index: 0, id: "call_0", type: "function", function: { name: "get_latest_sales_report", arguments: "" } }] }, null),
  { conversation_id: "a", type: "function_call", id: "fc_0", call_id: "call_0", name: "get_latest_sales_report", arguments: report("apac"), status: "completed" },
  chunk("b", { tool_calls: [{ index: 0, function: { arguments: report("emea") } }] }, "tool_calls"),
  { conversation_id: "a", type: "function_call_output", call_id: "call_0", output: "apac: up" },
  { conversation_id: "b", role: "tool", tool_call_id: "call_0", content: "emea: flat" },
);

describe("gate --conversation: each conversation gated as if alone", () => {
  test("two interleaved conversations that both call call_0, one streaming, pass as each passes alone, in journal order", async () => {
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "-"], twoConversations);
    expect(result).toEqual({
      code: 0,
      stdout: [
        'conversation "a"  line 1  message -  pass not_function_call: "message" is not a function_call',
        'conversation "b"  line 2  message -  pass not_function_call: "message" is not a function_call',
        'conversation "a"  line 3  reasoning -  pass not_function_call: "reasoning" is not a function_call',
        // b's streamed call is at the chunk that finished it, after a's call.
        'conversation "a"  line 5  function_call call_0  pass ok: completed call with arguments valid for its schema',
        'conversation "b"  line 6  function_call call_0  pass ok: completed call with arguments valid for its schema',
        'conversation "a"  line 7  function_call_output call_0  pass not_function_call: "function_call_output" is not a function_call',
        'conversation "b"  line 8  function_call_output call_0  pass not_function_call: "function_call_output" is not a function_call',
        "",
      ].join("\n"),
      stderr: "read 8 lines: 7 items, 0 errors; 0 blocked; 2 conversations\n",
    });
  });

  test("without --conversation the whole input is one conversation, as it always was: the stream is cut and call_0 is a duplicate", async () => {
    const result = await runOrbridge(["gate", "--tools", tools, "-"], twoConversations);
    expect(result).toEqual({
      code: 1,
      stdout: [
        'line 1  message -  pass not_function_call: "message" is not a function_call',
        'line 2  message -  pass not_function_call: "message" is not a function_call',
        'line 3  reasoning -  pass not_function_call: "reasoning" is not a function_call',
        'line 4  function_call call_0  BLOCKED status: status is "in_progress"; only "completed" may run',
        'line 5  function_call call_0  BLOCKED duplicate_call_id: the call_id "call_0" was already used by the call of line 4',
        "    verdict ok: completed call with arguments valid for its schema",
        'line 6  function_call synth_1_cd10928e7d0172ea  BLOCKED unknown_tool: no schema is known for ""',
        "    missing_field: the call has an empty name: no tool can be chosen for it",
        'line 7  function_call_output call_0  BLOCKED output_for_blocked_call: its call "call_0" on line 4 is blocked (status): only a completed, valid call may get an output',
        '    verdict not_function_call: "function_call_output" is not a function_call',
        'line 8  function_call_output call_0  BLOCKED duplicate_call_id: the call "call_0" was already answered on line 7',
        '    verdict not_function_call: "function_call_output" is not a function_call',
        "",
      ].join("\n"),
      stderr: "read 8 lines: 8 items, 0 errors; 5 blocked\n  blocked by: duplicate_call_id 2, output_for_blocked_call 1, status 1, unknown_tool 1\n  findings: duplicate_call_id 2, missing_field 1, output_for_blocked_call 1\n",
    });
  });

  test("a run of reasoning that spans lines of its conversation keeps its verdicts in journal order around the other's lines", async () => {
    // Anthropic writes thinking blocks in a row before the answer; "a" logs one a line.
    const result = await runOrbridge(
      ["gate", "--tools", tools, "--conversation", "/conversation_id", "-"],
      jsonl(
        { conversation_id: "a", type: "reasoning", id: "rs_0", summary: [] },
        { conversation_id: "b", type: "message", role: "user", content: "emea figures please" },
        { conversation_id: "a", type: "reasoning", id: "rs_1", summary: [] },
        { conversation_id: "b", type: "message", role: "user", content: "and amer" },
        { conversation_id: "a", type: "message", id: "msg_0", role: "assistant", content: [{ type: "output_text", text: "apac is up." }] },
      ),
    );
    expect(result).toEqual({
      code: 0,
      stdout: [
        'conversation "a"  line 1  reasoning -  pass not_function_call: "reasoning" is not a function_call',
        'conversation "b"  line 2  message -  pass not_function_call: "message" is not a function_call',
        'conversation "a"  line 3  reasoning -  pass not_function_call: "reasoning" is not a function_call',
        'conversation "b"  line 4  message -  pass not_function_call: "message" is not a function_call',
        'conversation "a"  line 5  message -  pass not_function_call: "message" is not a function_call',
        "",
      ].join("\n"),
      stderr: "read 5 lines: 5 items, 0 errors; 0 blocked; 2 conversations\n",
    });
  });

  test("JSON verdicts lead with a conversation field", async () => {
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--format", "json", "-"], twoConversations);
    expect(result.code).toBe(0);
    expect(json(result.stdout).slice(3, 5)).toEqual([
      { conversation: "a", line: 5, index: 0, type: "function_call", call_id: "call_0", name: "get_latest_sales_report", reason: "ok", detail: "completed call with arguments valid for its schema", blocked: false, findings: [] },
      { conversation: "b", line: 6, index: 0, type: "function_call", call_id: "call_0", name: "get_latest_sales_report", reason: "ok", detail: "completed call with arguments valid for its schema", blocked: false, findings: [] },
    ]);
    expect(Object.keys(json(result.stdout)[0])[0]).toBe("conversation");
  });

  test("one conversation's allowed_tools do not govern another's calls", async () => {
    const stdin = jsonl(
      { conversation_id: "a", model: "m", messages: [{ role: "user", content: "only reports" }], tools: [], tool_choice: "none" },
      { conversation_id: "b", type: "function_call", id: "fc_0", call_id: "call_0", name: "get_latest_sales_report", arguments: report("amer"), status: "completed" },
      { conversation_id: "a", type: "function_call", id: "fc_0", call_id: "call_0", name: "get_latest_sales_report", arguments: report("amer"), status: "completed" },
    );
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--format", "json", "-"], stdin);
    expect(result.code).toBe(1);
    expect(json(result.stdout).map((record) => [record.conversation, record.line, record.reason, record.blocked, record.findings.map((finding: { code: string }) => finding.code)])).toEqual([
      ["a", 1, "not_function_call", false, []],
      ["b", 2, "ok", false, []],
      ["a", 3, "ok", true, ["tool_not_allowed"]],
    ]);
  });

  test("nor does a record of one conversation that carries a tool_choice without being a request body", async () => {
    const stdin = jsonl(
      { conversation_id: "a", tool_choice: "none" },
      { conversation_id: "b", type: "function_call", id: "fc_0", call_id: "call_0", name: "get_latest_sales_report", arguments: report("amer"), status: "completed" },
      { conversation_id: "a", type: "function_call", id: "fc_0", call_id: "call_0", name: "get_latest_sales_report", arguments: report("amer"), status: "completed" },
    );
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--format", "json", "-"], stdin);
    expect(json(result.stdout).map((record) => [record.conversation, record.line, record.reason, record.blocked, record.findings.map((finding: { code: string }) => finding.code)])).toEqual([
      ["a", 1, "namespaced", true, []],
      ["b", 2, "ok", false, []],
      ["a", 3, "ok", true, ["tool_not_allowed"]],
    ]);
  });

  test("--for checks each conversation's order on its own: outputs that follow their calls within a conversation are adjacent", async () => {
    const stdin = jsonl(
      { conversation_id: "a", type: "function_call", id: "fc_0", call_id: "call_0", name: "get_latest_sales_report", arguments: report("apac"), status: "completed" },
      { conversation_id: "b", type: "function_call", id: "fc_0", call_id: "call_0", name: "get_latest_sales_report", arguments: report("emea"), status: "completed" },
      { conversation_id: "a", type: "function_call_output", call_id: "call_0", output: "apac: up" },
      { conversation_id: "b", type: "function_call_output", call_id: "call_0", output: "emea: flat" },
    );
    const keyed = await runOrbridge(["gate", "--tools", tools, "--for", "adjacent", "--conversation", "/conversation_id", "-"], stdin);
    expect(keyed.code).toBe(0);
    expect(keyed.stderr).toBe("read 4 lines: 4 items, 0 errors; 0 blocked; 2 conversations\n");
    const whole = await runOrbridge(["gate", "--tools", tools, "--for", "adjacent", "-"], stdin);
    expect(whole.code).toBe(1);
    expect(whole.stdout).toContain("BLOCKED target_order: the output does not directly follow its call (line 1)\n");
  });

  test("--jobs 2 writes what --jobs 1 writes: the gate runs in one thread with --conversation", async () => {
    const one = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--jobs", "1", "--format", "json", "-"], twoConversations);
    const two = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--jobs", "2", "--format", "json", "-"], twoConversations);
    expect(two).toEqual(one);
  });

  test("a conversation that goes on in the next file keeps its state; records say their source", async () => {
    const folder = scratchFolder("conversations");
    const first = join(folder, "first.jsonl");
    const second = join(folder, "second.jsonl");
    writeFileSync(first, jsonl({ conversation_id: "a", type: "function_call", id: "fc_0", call_id: "call_0", name: "get_latest_sales_report", arguments: report("apac"), status: "completed" }, { conversation_id: "b", role: "user", content: "hello" }));
    writeFileSync(second, jsonl({ conversation_id: "b", role: "user", content: "again" }, { conversation_id: "a", type: "function_call_output", call_id: "call_0", output: "apac: up" }));
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--format", "json", first, second]);
    expect(result.code).toBe(0);
    expect(json(result.stdout).map((record) => [record.conversation, record.source, record.line, record.type, record.blocked])).toEqual([
      ["a", first, 1, "function_call", false],
      ["b", first, 2, "message", false],
      ["b", second, 1, "message", false],
      ["a", second, 2, "function_call_output", false],
    ]);
  });
});

describe("the key", () => {
  const keys = jsonl(
    { metadata: { session: 7 }, role: "user", content: "number seven" },
    { metadata: { session: "7" }, role: "user", content: "string seven" },
    '{"metadata":{"session":7.0},"role":"assistant","content":"seven again"}',
    { metadata: { session: "" }, role: "user", content: "an empty key is a key" },
  );

  test("is read at any depth; 7 and 7.0 are one key, and the string \"7\" after the number 7 is a blocked error record", async () => {
    const result = await runOrbridge(["gate", "--conversation", "/metadata/session", "-"], keys);
    expect(result).toEqual({
      code: 1,
      stdout: [
        'conversation 7  line 1  message -  pass not_function_call: "message" is not a function_call',
        'line 2  - -  BLOCKED error: no conversation key at /metadata/session: the key "7" names the conversation an earlier record keyed by the number 7: a replayer that groups records by the key\'s text takes both for one conversation, which the gate would judge as two',
        'conversation 7  line 3  message -  pass not_function_call: "message" is not a function_call',
        'conversation ""  line 4  message -  pass not_function_call: "message" is not a function_call',
        "",
      ].join("\n"),
      stderr: "read 4 lines: 3 items, 1 error; 1 blocked; 2 conversations\n  blocked by: error 1\n",
    });
  });

  test("a call keyed by the number 7 after a request keyed \"7\" that allows no tool: the call is in no conversation, blocked, where as its own conversation it ran", async () => {
    const noTools = { conversation_id: "7", model: "gpt-4o-mini", messages: [{ role: "user", content: "no tools now" }], tools: [{ type: "function", function: { name: "get_latest_sales_report", parameters: { type: "object" } } }], tool_choice: "none" };
    const call = { conversation_id: 7, type: "function_call", id: "fc_1", call_id: "call_1", name: "get_latest_sales_report", arguments: report("apac"), status: "completed" };
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--format", "json", "-"], jsonl(noTools, call));
    expect({ code: result.code, verdicts: json(result.stdout).map(({ conversation, line, reason, detail }) => ({ conversation, line, reason, detail })) }).toEqual({
      code: 1,
      verdicts: [
        { conversation: "7", line: 1, reason: "not_function_call", detail: '"message" is not a function_call' },
        { conversation: undefined, line: 2, reason: "error", detail: 'no conversation key at /conversation_id: the key 7 names the conversation an earlier record keyed by the string "7": a replayer that groups records by the key\'s text takes both for one conversation, which the gate would judge as two' },
      ],
    });
  });

  test("in text, a key holding a character that does not show or turns the line is written with its escape: two keys never read as one", async () => {
    const call = (conversation: string, callId: string, region: string) => ({ conversation_id: conversation, type: "function_call", id: `fc_${callId}`, call_id: callId, name: "get_latest_sales_report", arguments: report(region), status: "completed" });
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "-"], jsonl(call("c1", "call_1", "apac"), call("c1\u200b", "call_2", "global"), call("\u202e1c", "call_3", "global")));
    expect(result.stdout.split("\n").map((line) => line.split("  line ")[0])).toEqual(['conversation "c1"', 'conversation "c1\\u200b"', 'conversation "\\u202e1c"', ""]);
    expect(result.stdout).not.toMatch(/[\u200b\u202e]/);
  });

  test("a member name with / or ~ is written ~1 and ~0", async () => {
    const result = await runOrbridge(["gate", "--conversation", "/trace~1ids/a~0b", "--format", "json", "-"], jsonl({ "trace/ids": { "a~b": "t-1" }, role: "user", content: "hi" }));
    expect(json(result.stdout).map((record) => record.conversation)).toEqual(["t-1"]);
  });
});

describe("a line that names no conversation is a blocked error record naming the line and the pointer", () => {
  test("one line for each way the key can be missing", async () => {
    const stdin = jsonl(
      { metadata: { session: null }, role: "user", content: "null" },
      '{"metadata":{"session":1.5},"role":"user","content":"a fraction"}',
      '{"metadata":{"session":12345678901234567890},"role":"user","content":"past 2^53"}',
      { metadata: "s-1", role: "user", content: "metadata is text" },
      { role: "user", content: "no metadata" },
      ["metadata"],
      { metadata: { session: { id: "x" } }, role: "user", content: "an object" },
      { metadata: { session: true }, role: "user", content: "a boolean" },
      "not json",
      "",
      { metadata: { session: "s-2" }, role: "user", content: "this one has a key" },
    );
    const result = await runOrbridge(["gate", "--conversation", "/metadata/session", "-"], stdin);
    const missing = (line: number, why: string) => `line ${line}  - -  BLOCKED error: no conversation key at /metadata/session: ${why}`;
    const notAKey = "; a key is a string or a whole number up to 2^53 - 1";
    expect(result).toEqual({
      code: 1,
      stdout: [
        missing(1, `it is null${notAKey}`),
        missing(2, `it is the number 1.5, not a whole number${notAKey}`),
        missing(3, `it is a number past 2^53 - 1, where two different ids can read as one${notAKey}`),
        missing(4, '/metadata is "s-1", not an object or an array'),
        missing(5, 'the record has no member "metadata"'),
        missing(6, 'the record is an array, and "metadata" is not an index'),
        missing(7, `it is an object${notAKey}`),
        missing(8, `it is boolean true${notAKey}`),
        `line 9  - -  BLOCKED error: line is not JSON, so it names no conversation: Unexpected token 'o', "not json" is not valid JSON`,
        'conversation "s-2"  line 11  message -  pass not_function_call: "message" is not a function_call',
        "",
      ].join("\n"),
      stderr: "read 11 lines: 1 item, 9 errors; 9 blocked; 1 conversation\n  blocked by: error 9\n",
    });
  });

  test("a key with a lone surrogate, which UTF-8 writes as U+FFFD, another key's text, is no key", async () => {
    const stdin = jsonl(
      '{"conversation_id":"a\\ufffd","tool_choice":"none","messages":[{"role":"user","content":"no tools here"}]}',
      '{"conversation_id":"a\\ud800","type":"function_call","call_id":"c1","name":"f","arguments":"{}","status":"completed"}',
      '{"conversation_id":"a\\ud83d\\ude00","role":"user","content":"a pair is one character"}',
    );
    const result = await runOrbridge(["gate", "--conversation", "/conversation_id", "--format", "json", "-"], stdin);
    const records = json(result.stdout) as Array<{ line: number; reason: string; conversation?: unknown; detail: string }>;
    expect(records.map(({ line, reason, conversation }) => [line, reason, conversation])).toEqual([
      [1, "not_function_call", "a\ufffd"],
      [2, "error", undefined],
      [3, "not_function_call", "a\ud83d\ude00"],
    ]);
    expect(records[1]!.detail).toBe("no conversation key at /conversation_id: the string holds a lone surrogate, which UTF-8 writes as U+FFFD, so that two different keys can read as one");
  });

  test("a number written so that its double is another whole number is no key: the line would join another conversation", async () => {
    const stdin = jsonl(
      '{"conversation_id":1.0000000000000001,"tool_choice":"none","messages":[{"role":"user","content":"no tools here"}]}',
      '{"conversation_id":1.0,"role":"user","content":"1.0 is the number 1, written exactly"}',
      '{"conversation_id":9007199254740991.0000001,"role":"user","content":"near 2^53"}',
    );
    const result = await runOrbridge(["gate", "--conversation", "/conversation_id", "--format", "json", "-"], stdin);
    const records = json(result.stdout) as Array<{ line: number; reason: string; conversation?: unknown; detail: string }>;
    expect(records.map(({ line, reason, conversation }) => [line, reason, conversation])).toEqual([
      [1, "error", undefined],
      [2, "not_function_call", 1],
      [3, "error", undefined],
    ]);
    expect(records[0]!.detail).toBe(
      "no conversation key at /conversation_id: the line writes 1.0000000000000001, which a double reads as 1; a key is a string or a whole number written as one; it may be a request body (it names a request's tools, or was not read at all) of a conversation it does not name, so in none may a function run until its next request body",
    );
  });

  test("in JSON, such a record has no conversation field", async () => {
    const result = await runOrbridge(["gate", "--conversation", "/conversation_id", "--format", "json", "-"], jsonl({ role: "user", content: "no key" }));
    expect(json(result.stdout)).toEqual([{ line: 1, index: 0, reason: "error", detail: 'no conversation key at /conversation_id: the record has no member "conversation_id"', blocked: true, findings: [] }]);
  });
});

describe("a line that names no conversation and may be a request body narrows every conversation", () => {
  const call = (conversation: string, id: string) => ({ conversation_id: conversation, type: "function_call", call_id: id, name: "get_latest_sales_report", arguments: report("apac"), status: "completed" });
  // The request offers the tools file's tool, as a request whose answer calls it must.
  const offered = JSON.stringify(JSON.parse(readFileSync(tools, "utf8")));
  const request = (conversation: string | undefined, choice: string) => `{${conversation === undefined ? "" : `"conversation_id":"${conversation}",`}"model":"gpt-4o","messages":[{"role":"user","content":"figures"}],"tools":${offered},"tool_choice":"${choice}"}`;
  const gate = async (...lines: unknown[]) => {
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--format", "json", "-"], jsonl(...lines));
    return json(result.stdout).map((record: { line: number; conversation?: string; reason: string; blocked: boolean }) => [record.line, record.conversation ?? null, record.reason, record.blocked]);
  };

  test.each([
    ["a request body cut short", request("a", "none").slice(0, -3)],
    ["a request body with no key", request(undefined, "none")],
    ["a request body whose key is not one", request("a", "none").replace('"a"', "1.5")],
  ])("%s: no function runs in a conversation open then, or opened later, until its next request body", async (_name, line) => {
    expect(await gate(request("a", "auto"), request("b", "auto"), line, call("a", "c1"), call("b", "c2"), request("a", "auto"), call("a", "c3"), call("c", "c4"), request("c", "auto"), call("c", "c5"))).toEqual([
      [1, "a", "not_function_call", false],
      [2, "b", "not_function_call", false],
      [3, null, "error", true],
      [4, "a", "ok", true],
      [5, "b", "ok", true],
      [6, "a", "not_function_call", false],
      [7, "a", "ok", false],
      [8, "c", "ok", true],
      [9, "c", "not_function_call", false],
      [10, "c", "ok", false],
    ]);
  });

  test("a request body that names its key twice is refused in the conversation JSON.parse reads, and narrows the others", async () => {
    const twice = request("b", "none").replace('"conversation_id":"b"', '"conversation_id":"a","conversation_id":"b"');
    expect(await gate(request("a", "auto"), request("b", "auto"), twice, call("a", "c1"), call("b", "c2"))).toEqual([
      [1, "a", "not_function_call", false],
      [2, "b", "not_function_call", false],
      [3, "b", "error", true],
      [4, "a", "ok", true],
      [5, "b", "ok", true],
    ]);
  });

  test("a call whose key a case-folding reader reads as another conversation's is in none: Go's encoding/json keeps the last of the two", async () => {
    const folded = { ...call("a", "c1"), Conversation_id: "b" };
    expect(await gate(request("a", "auto"), request("b", "none"), folded, call("a", "c2"))).toEqual([
      [1, "a", "not_function_call", false],
      [2, "b", "not_function_call", false],
      [3, null, "error", true],
      [4, "a", "ok", false],
    ]);
  });

  test("so is a request body whose key is given so on the pointer's way, and it narrows every conversation", async () => {
    const folded = request("b", "none").replace('{"conversation_id":"b"', '{"meta":{"conversation_id":"a","CONVERSATION_ID":"b"}');
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/meta/conversation_id", "--format", "json", "-"], jsonl(request("a", "auto").replace('"conversation_id":"a"', '"meta":{"conversation_id":"a"}'), folded, { meta: { conversation_id: "a" }, type: "function_call", call_id: "c1", name: "get_latest_sales_report", arguments: report("apac"), status: "completed" }));
    const records = json(result.stdout) as Array<{ line: number; conversation?: string; reason: string; detail: string; blocked: boolean }>;
    expect(records.map((record) => [record.line, record.conversation ?? null, record.reason, record.blocked])).toEqual([
      [1, "a", "not_function_call", false],
      [2, null, "error", true],
      [3, "a", "ok", true],
    ]);
    expect(records[1]!.detail).toBe(
      'no conversation key at /meta/conversation_id: the record has the names "conversation_id" and "CONVERSATION_ID" in one object, at "/meta": a reader that matches names regardless of case or width (Go\'s encoding/json does) takes them for one name and keeps the last value; it may be a request body (it names a request\'s tools, or was not read at all) of a conversation it does not name, so in none may a function run until its next request body',
    );
  });

  test("a line that names no conversation and no request's tools narrows none", async () => {
    expect(await gate(request("a", "auto"), "not json", { conversation_id: 1.5, role: "user", content: "hi" }, call("a", "c1"), call("b", "c2"))).toEqual([
      [1, "a", "not_function_call", false],
      [2, null, "error", true],
      [3, null, "error", true],
      [4, "a", "ok", false],
      [5, "b", "ok", false],
    ]);
  });

  test("a conversation whose stream is still held when such a line comes gives its call damaged and restricted, at its end", async () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null) => ({ conversation_id: "a", object: "chat.completion.chunk", id: "chatcmpl-a", choices: [{ index: 0, delta, finish_reason: finish }] });
    const opened = chunk({ role: "assistant", tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "get_latest_sales_report", arguments: report("apac") } }] }, null);
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--format", "json", "-"], jsonl(request("a", "auto"), opened, chunk({}, "tool_calls"), request(undefined, "none")));
    const records = json(result.stdout) as Array<{ line: number; conversation?: string; reason: string; blocked: boolean; findings: Array<{ code: string }> }>;
    expect(records.map((record) => [record.line, record.conversation ?? null, record.reason, record.blocked, record.findings.map((finding) => finding.code)])).toEqual([
      [1, "a", "not_function_call", false, []],
      [3, "a", "status", true, ["tool_not_allowed", "incomplete_not_last"]],
      [4, null, "error", true, []],
    ]);
  });

  describe("a stream open when such a line comes is damaged from it: the line may have been one of its chunks", () => {
    const free = join(scratchFolder("conversation-streams"), "free-tools.json");
    writeFileSync(free, JSON.stringify([{ type: "function", function: { name: "send_note", parameters: { type: "object", properties: { note: { type: "string" } }, required: ["note"], additionalProperties: false } } }]));
    const chunk = (delta: Record<string, unknown>, finish: string | null) => JSON.stringify({ conversation_id: "a", object: "chat.completion.chunk", id: "chatcmpl-a", choices: [{ index: 0, delta, finish_reason: finish }] });
    const piece = (text: string) => chunk({ tool_calls: [{ index: 0, function: { arguments: text } }] }, null);
    // "pay nothing to bob" without its middle piece is "pay  bob", valid for the schema.
    const stream = (middle: string) => [chunk({ role: "assistant", tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "send_note", arguments: '{"note":"pay ' } }] }, null), middle, piece(' bob"}'), chunk({}, "tool_calls")];
    const gateStream = async (lines: string[]) => {
      const result = await runOrbridge(["gate", "--tools", free, "--conversation", "/conversation_id", "--format", "json", "-"], jsonl(...lines));
      return json(result.stdout).map((record: { line: number; conversation?: string; reason: string; blocked: boolean }) => [record.line, record.conversation ?? null, record.reason, record.blocked]);
    };

    test.each([
      ["a chunk without its key", piece("nothing to").replace('"conversation_id":"a",', "")],
      ["a chunk cut short", piece("nothing to").slice(0, -20)],
      ["a chunk whose key is named twice", piece("nothing to").replace('"conversation_id":"a"', '"conversation_id":"a","conversation_id":"b"')],
    ])("%s: the call is not completed", async (_name, middle) => {
      const verdicts = await gateStream(stream(middle));
      expect(verdicts.at(-1)).toEqual([4, "a", "status", true]);
      expect(verdicts.filter(([, , reason]) => reason === "ok")).toEqual([]);
    });

    test("the same stream whole passes, and a line that names no conversation before it opens leaves it whole", async () => {
      expect(await gateStream(stream(piece("nothing to")))).toEqual([[4, "a", "ok", false]]);
      expect(await gateStream(["not json", ...stream(piece("nothing to"))])).toEqual([
        [1, null, "error", true],
        [5, "a", "ok", false],
      ]);
    });
  });

  test("the blocked call says which line took its tools away", async () => {
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--format", "json", "-"], jsonl(request("a", "auto"), request(undefined, "none"), call("a", "c1")));
    const blocked = json(result.stdout)[2] as { findings: Array<{ code: string; detail: string }> };
    expect(blocked.findings).toEqual([{ code: "tool_not_allowed", path: "/name", detail: '"get_latest_sales_report" is not allowed: line 2, which may be a request body of any conversation and cannot be read as one, allows no function' }]);
  });
});

describe("--max-open-conversations", () => {
  const evicted = jsonl(
    { conversation_id: "a", type: "function_call", id: "fc_0", call_id: "call_0", name: "get_latest_sales_report", arguments: report("apac"), status: "completed" },
    { conversation_id: "b", type: "message", role: "user", content: "hello" },
    { conversation_id: "a", type: "function_call_output", call_id: "call_0", output: "apac: up" },
    { conversation_id: "a", type: "message", role: "assistant", content: "apac is up" },
  );
  const note = "this conversation was closed after its line 1 to keep at most 1 conversation open; from line 3 it is gated afresh, without its earlier calls, tools and history, and no function may run in it";

  test("closes the conversation seen least recently; when it comes back it starts afresh, and its first verdict says so", async () => {
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--max-open-conversations", "1", "-"], evicted);
    expect(result).toEqual({
      code: 1,
      stdout: [
        'conversation "a"  line 1  function_call call_0  pass ok: completed call with arguments valid for its schema',
        'conversation "b"  line 2  message -  pass not_function_call: "message" is not a function_call',
        'conversation "a"  line 3  function_call_output call_0  BLOCKED orphan_output: no earlier function_call has the call_id "call_0"',
        '    verdict not_function_call: "function_call_output" is not a function_call',
        `    note: ${note}`,
        'conversation "a"  line 4  message -  pass not_function_call: "message" is not a function_call',
        "",
      ].join("\n"),
      stderr: "read 4 lines: 4 items, 0 errors; 1 blocked; 2 conversations (1 reopened after --max-open-conversations closed them)\n  blocked by: orphan_output 1\n  findings: orphan_output 1\n",
    });
  });

  test("in JSON the note is a field of that verdict", async () => {
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--max-open-conversations", "1", "--format", "json", "-"], evicted);
    expect(json(result.stdout)[2]).toEqual({
      conversation: "a",
      line: 3,
      index: 0,
      type: "function_call_output",
      call_id: "call_0",
      reason: "not_function_call",
      detail: '"function_call_output" is not a function_call',
      path: "/type",
      blocked_by: "orphan_output",
      blocked: true,
      findings: [{ code: "orphan_output", detail: 'no earlier function_call has the call_id "call_0"', path: "/call_id" }],
      note,
    });
  });

  test("a conversation opened again lets no function run, whatever its later request bodies say: what it called and allowed before is gone", async () => {
    const body = (choice: unknown) => ({ conversation_id: "a", model: "gpt-4o", input: "hi", tools: [{ type: "function", name: "get_latest_sales_report", parameters: { type: "object" } }], ...(choice === undefined ? {} : { tool_choice: choice }) });
    const call = (id: string) => ({ conversation_id: "a", type: "function_call", id: `fc_${id}`, call_id: `call_${id}`, name: "get_latest_sales_report", arguments: report("apac"), status: "completed" });
    const lines = jsonl(body("none"), { conversation_id: "b", type: "message", role: "user", content: "hello" }, call("1"), body(undefined), call("2"));
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--max-open-conversations", "1", "--format", "json", "-"], lines);
    const verdicts = json(result.stdout) as Array<Record<string, unknown>>;
    expect(verdicts.filter((verdict) => verdict.type === "function_call").map((verdict) => [verdict.call_id, verdict.blocked, (verdict.findings as Array<{ detail: string }>).map((finding) => finding.detail)])).toEqual([
      ["call_1", true, ['"get_latest_sales_report" is not allowed: this conversation was closed after its line 1 and opened again, so what it called and allowed before is not known; for the rest of the journal, it allows no function']],
      ["call_2", true, ['"get_latest_sales_report" is not allowed: this conversation was closed after its line 1 and opened again, so what it called and allowed before is not known; for the rest of the journal, it allows no function']],
    ]);
  });

  test("a call_id the conversation used before it was closed, used again after, is not passed: the first use is no longer known", async () => {
    const call = { conversation_id: "a", type: "function_call", id: "fc_1", call_id: "call_1", name: "get_latest_sales_report", arguments: report("apac"), status: "completed" };
    const body = { conversation_id: "a", model: "gpt-4o", input: "again", tools: [{ type: "function", name: "get_latest_sales_report", parameters: { type: "object" } }] };
    const lines = jsonl(call, { conversation_id: "a", type: "function_call_output", call_id: "call_1", output: "done" }, { conversation_id: "b", type: "message", role: "user", content: "hello" }, body, { ...call, id: "fc_2", arguments: report("emea") });
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--max-open-conversations", "1", "--format", "json", "-"], lines);
    const calls = (json(result.stdout) as Array<Record<string, unknown>>).filter((verdict) => verdict.type === "function_call");
    expect(calls.map((verdict) => [verdict.line, verdict.blocked_by ?? verdict.reason])).toEqual([
      [1, "ok"],
      [5, "tool_not_allowed"],
    ]);
  });

  test("with room for both, nothing is closed early", async () => {
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--max-open-conversations", "2", "-"], evicted);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("read 4 lines: 4 items, 0 errors; 0 blocked; 2 conversations\n");
  });

  test("a conversation closed with its stream open gives the stream's calls as incomplete: a later chunk of it could have changed them", async () => {
    const stdin = jsonl(
      chunk("a", { role: "assistant", tool_calls: [{ index: 0, id: "call_0", type: "function", function: { name: "get_latest_sales_report", arguments: report("apac") } }] }, "tool_calls"),
      { conversation_id: "b", role: "user", content: "hello" },
    );
    const result = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--max-open-conversations", "1", "--format", "json", "-"], stdin);
    expect(json(result.stdout).map((record) => [record.conversation, record.line, record.reason, record.blocked])).toEqual([
      ["a", 1, "status", true],
      ["b", 2, "not_function_call", false],
    ]);
    // Alone, the same stream is finished at the end of the input, and its call passes.
    const alone = await runOrbridge(["gate", "--tools", tools, "--format", "json", "-"], jsonl(chunk("a", { role: "assistant", tool_calls: [{ index: 0, id: "call_0", type: "function", function: { name: "get_latest_sales_report", arguments: report("apac") } }] }, "tool_calls")));
    expect(json(alone.stdout).map((record) => [record.line, record.reason])).toEqual([[1, "ok"]]);
  });

  test("a conversation closed longer ago than its line is remembered is still opened as one closed before; one never seen is opened as new", () => {
    const opened: Array<{ key: unknown; reopened: unknown }> = [];
    const router = new ConversationRouter<string, string>({
      pointer: parsePointer("/c"),
      maxOpen: 1,
      openLane: (key, reopened) => {
        opened.push({ key, reopened });
        return { pushLine: () => [], pushRecord: () => [], finish: () => [], pending: () => [], damage: () => undefined, restrict: () => undefined };
      },
      keyless: () => [],
      placeOf: () => ({ line: 0 }),
      present: (routed) => String(routed.output),
    });
    // Two tables of 2^18 keys each: the 2^19 + 1st conversation closed lets the
    // first table go, and with it the line conversation 0 was closed after.
    const remembered = 2 ** 19;
    // Each conversation opened closes the one before: 2^19 + 2 of them close 2^19 + 1.
    for (let i = 0; i <= remembered + 1; i++) router.pushRecord({ c: i }, { line: i + 1 });
    expect(opened.at(-1)).toEqual({ key: remembered + 1, reopened: undefined });
    router.pushRecord({ c: 0 }, { line: remembered + 3 });
    expect(opened.at(-1)).toEqual({ key: 0, reopened: {} });
    router.pushRecord({ c: "never seen" }, { line: remembered + 4 });
    expect(opened.at(-1)).toEqual({ key: "never seen", reopened: undefined });
    expect(router.counts.reopened).toBe(1);
  }, 60_000);
});

describe("usage errors exit 2 with one line", () => {
  const cases: Array<[string[], string]> = [
    [["--conversation", "conversation_id"], 'orbridge gate: --conversation: a JSON Pointer starts with "/" (got "conversation_id")\n'],
    [["--conversation", "/a~2"], 'orbridge gate: --conversation: in the JSON Pointer "/a~2", "~" must be followed by 0 or 1 ("~0" is "~", "~1" is "/")\n'],
    [["--conversation", ""], 'orbridge gate: --conversation must point to a member of each record, as /conversation_id, not to the whole record ("")\n'],
    [["--max-open-conversations", "5"], "orbridge gate: --max-open-conversations is for --conversation, which was not given\n"],
    [["--conversation", "/c", "--max-open-conversations", "0"], 'orbridge gate: --max-open-conversations must be a positive whole number (got "0")\n'],
  ];
  test.each(cases)("gate %j", async (argv, stderr) => {
    expect(await runOrbridge(["gate", ...argv, "-"], jsonl({ c: "x", role: "user", content: "hi" }))).toEqual({ code: 2, stdout: "", stderr });
  });

  test("--help says what the key is, that without it the input is one conversation, and that it runs in one thread", async () => {
    const result = await runOrbridge(["gate", "--help"]);
    expect(result.code).toBe(0);
    const prose = result.stdout.replace(/\s+/g, " ");
    for (const text of ["--conversation POINTER", "Without it the whole input is one conversation.", "Runs in one thread, whatever --jobs says", "--max-open-conversations N"]) {
      expect(prose).toContain(text);
    }
  });
});

describe("gateJournal with a conversation key", () => {
  const registry = () => ToolRegistry.fromToolsFile(JSON.parse(JSON.stringify([{ type: "function", function: { name: "get_latest_sales_report", parameters: { type: "object", properties: { region: { type: "string" } }, required: ["region"] } } }])), "tools");

  test("parsed records get the verdicts of their conversation alone, each with its conversation", async () => {
    const records = twoConversations.trimEnd().split("\n").map((line) => JSON.parse(line));
    const answers: ConversationGateRecord[] = [];
    for await (const record of gateJournal(records, { registry: registry(), conversation: "/conversation_id" })) answers.push(record);
    expect(answers.map((record) => [record.conversation, record.line, record.type, record.blocked])).toEqual([
      ["a", 1, "message", false],
      ["b", 2, "message", false],
      ["a", 3, "reasoning", false],
      ["a", 5, "function_call", false],
      ["b", 6, "function_call", false],
      ["a", 7, "function_call_output", false],
      ["b", 8, "function_call_output", false],
    ]);
  });

  test("lines of text too, and a line with no key is an error record with no conversation", async () => {
    const answers: ConversationGateRecord[] = [];
    for await (const record of gateJournal(['{"conversation_id":"a","role":"user","content":"hi"}', '{"role":"user"}'], { conversation: "/conversation_id" })) answers.push(record);
    expect(answers).toEqual([
      { conversation: "a", source: "-", line: 1, index: 0, type: "message", reason: "not_function_call", detail: '"message" is not a function_call', path: "/type", blocked: false, findings: [] },
      { source: "-", line: 2, index: 0, reason: "error", detail: 'no conversation key at /conversation_id: the record has no member "conversation_id"', blocked: true, findings: [] },
    ]);
  });
});

describe("records built in code, routed by conversation", () => {
  test("a record that cannot be written as JSON names no conversation and may be any one's request body: no function runs after it until a request body", async () => {
    const cyclic: Record<string, unknown> = { conversation_id: "a", tool_choice: "none" };
    cyclic.self = cyclic;
    const call = { conversation_id: "a", type: "function_call", call_id: "c1", name: "get_latest_sales_report", arguments: report("apac"), status: "completed" };
    const answers: ConversationGateRecord[] = [];
    for await (const record of gateJournal([cyclic, call, { conversation_id: "a", model: "m", messages: [{ role: "user", content: "go" }], tools: JSON.parse(readFileSync(tools, "utf8")), tool_choice: "auto" }, { ...call, call_id: "c2" }], { registry: ToolRegistry.fromToolsText(readFileSync(tools, "utf8"), tools), conversation: "/conversation_id" })) answers.push(record);
    expect(answers.map((record) => [record.line, record.reason, record.blocked])).toEqual([
      [1, "error", true],
      [2, "ok", true],
      [3, "not_function_call", false],
      [4, "ok", false],
    ]);
  });
});

describe("JSON Pointers (RFC 6901)", () => {
  test("tokens are unescaped ~1 first, then ~0", () => {
    expect(parsePointer("/a~1b/~01/0/")).toEqual({ text: "/a~1b/~01/0/", tokens: ["a/b", "~1", "0", ""] });
    expect(parsePointer("")).toEqual({ text: "", tokens: [] });
  });

  test("array elements by index only; own members only", () => {
    const record = JSON.parse('{"items":[{"id":"x"}],"__proto__":{"id":"own"},"":{"id":"empty"}}');
    expect(resolvePointer(record, parsePointer("/items/0/id"))).toEqual({ found: true, value: "x" });
    expect(resolvePointer(record, parsePointer("/__proto__/id"))).toEqual({ found: true, value: "own" });
    expect(resolvePointer(record, parsePointer("//id"))).toEqual({ found: true, value: "empty" });
    expect(resolvePointer(record, parsePointer("/items/01"))).toEqual({ found: false, reason: '/items is an array, and "01" is not an index' });
    expect(resolvePointer(record, parsePointer("/items/-"))).toEqual({ found: false, reason: '/items is an array, and "-" is not an index' });
    expect(resolvePointer(record, parsePointer("/items/1"))).toEqual({ found: false, reason: "/items is an array of 1 element" });
    expect(resolvePointer({}, parsePointer("/constructor"))).toEqual({ found: false, reason: 'the record has no member "constructor"' });
    expect(resolvePointer({ "a/b": 1 }, parsePointer("/a~1b/c"))).toEqual({ found: false, reason: "/a~1b is number 1, not an object or an array" });
  });
});
