import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { join } from "node:path";
import { normalizeJournal, type NormalizedRecord, type NormalizeOptions } from "../../src/journal/normalize.js";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

async function normalize(lines: Array<string | unknown>, options: NormalizeOptions = {}): Promise<NormalizedRecord[]> {
  const records: NormalizedRecord[] = [];
  for await (const record of normalizeJournal(lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))), options)) records.push(record);
  return records;
}
const itemsOf = (records: NormalizedRecord[]) => records.flatMap((record) => (record.kind === "items" ? record.items.map((entry) => entry.item) : []));

const salesTool = { type: "function", function: { name: "get_latest_sales_report", parameters: { type: "object", properties: { region: { type: "string" } } } } };
const assistantWithCalls = {
  role: "assistant",
  content: "Fetching both.",
  tool_calls: [
    { id: "call_apac01", type: "function", function: { name: "get_latest_sales_report", arguments: "{\"region\":\"apac\"}" } },
    { id: "call_emea02", type: "function", function: { name: "get_latest_sales_report", arguments: "{\"region\":\"emea\"}" } },
  ],
};
const callItem = (callId: string, region: string) => ({ type: "function_call", call_id: callId, name: "get_latest_sales_report", arguments: `{"region":"${region}"}`, status: "completed" });

describe("chat records", () => {
  test("a loose chat message becomes its items, with provenance", async () => {
    const records = await normalize([assistantWithCalls]);
    expect(records).toEqual([
      {
        kind: "items",
        source: "-",
        line: 1,
        recordKind: "chat_message",
        envelope: "chat",
        items: [
          { item: { type: "message", role: "assistant", content: "Fetching both." }, provenance: { source: "-", line: 1, index: 0, envelope: "chat" } },
          { item: callItem("call_apac01", "apac"), provenance: { source: "-", line: 1, index: 1, envelope: "chat" } },
          { item: callItem("call_emea02", "emea"), provenance: { source: "-", line: 1, index: 2, envelope: "chat" } },
        ],
        losses: [],
        repeated: 0,
      },
    ]);
  });

  test("a chat request body gives its history and keeps the body for the gate", async () => {
    const request = { model: "gpt-4o", messages: [{ role: "user", content: "Sales?" }], tools: [salesTool] };
    const [record] = await normalize([request]);
    expect(record).toMatchObject({ kind: "items", recordKind: "chat_request", envelope: "chat", request });
    expect(itemsOf([record])).toEqual([{ type: "message", role: "user", content: "Sales?" }]);
  });

  test("a chat.completion cut by length gives incomplete calls and the response's status", async () => {
    const completion = { id: "chatcmpl-9x", object: "chat.completion", created: 1, model: "gpt-4o", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [assistantWithCalls.tool_calls[0]] }, finish_reason: "length" }] };
    const [record] = await normalize([completion]);
    expect(record.kind === "items" && record.items).toEqual([
      { item: { ...callItem("call_apac01", "apac"), status: "incomplete" }, provenance: { source: "-", line: 1, index: 0, envelope: "chat", response: { id: "chatcmpl-9x", status: "incomplete" } } },
    ]);
  });

  test("every choice gives its items, each choice a response of its own, and a call in any choice is an item to gate", async () => {
    const message = { role: "assistant", content: "One." };
    const second = { role: "assistant", content: null, tool_calls: [assistantWithCalls.tool_calls[0]] };
    const completion = { id: "chatcmpl-n2", object: "chat.completion", created: 1, model: "gpt-4o", choices: [{ index: 0, message, finish_reason: "stop" }, { index: 1, message: second, finish_reason: "tool_calls" }] };
    const [record] = await normalize([completion]);
    expect(record.kind === "items" && record.items).toEqual([
      { item: { type: "message", role: "assistant", content: "One." }, provenance: { source: "-", line: 1, index: 0, envelope: "chat", response: { id: "chatcmpl-n2", status: "completed" } } },
      { item: { ...callItem("call_apac01", "apac"), status: "completed" }, provenance: { source: "-", line: 1, index: 1, envelope: "chat", response: { id: "chatcmpl-n2 choice 1", status: "completed" } } },
    ]);
    expect(record.kind === "items" && record.losses.filter((loss) => loss.code !== "left_behind")).toEqual([
      {
        path: "/choices/1",
        code: "form_changed",
        detail: "choice 1 is another answer to the same request: its items are a response of their own, after the first choice's; only one answer continues the conversation",
      },
    ]);
  });
});

describe("the fields of a record that no item holds are left behind, and said", () => {
  const leftBehind = (path: string, what: string) => ({ path, code: "left_behind", detail: `${path.split("/").pop()} of ${what} is in no item: normalize writes items only` });
  const lossesOf = async (record: unknown) => {
    const [normalized] = await normalize([record]);
    return normalized.kind === "items" ? normalized.losses : normalized;
  };

  test("a Chat request body: its model, settings and tools; nothing for null, [] or {}", async () => {
    const request = { model: "gpt-4o", temperature: 0.2, messages: [{ role: "user", content: "Sales?" }], tools: [salesTool], tool_choice: "auto", stop: null, metadata: {}, functions: [] };
    expect(await lossesOf(request)).toEqual([
      leftBehind("/model", "the request body"),
      leftBehind("/temperature", "the request body"),
      leftBehind("/tools", "the request body"),
      leftBehind("/tool_choice", "the request body"),
    ]);
  });

  test("a chat.completion: its id, model and usage, and the finish_reason when no call's status carries it", async () => {
    const completion = {
      id: "chatcmpl-9x",
      object: "chat.completion",
      created: 1,
      model: "gpt-4o",
      choices: [{ index: 0, message: { role: "assistant", content: "Sales are up." }, logprobs: null, finish_reason: "stop" }],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    };
    expect(await lossesOf(completion)).toEqual([
      leftBehind("/choices/0/finish_reason", "the choice"),
      leftBehind("/id", "the chat.completion"),
      leftBehind("/created", "the chat.completion"),
      leftBehind("/model", "the chat.completion"),
      leftBehind("/usage", "the chat.completion"),
    ]);
  });

  test("a completion whose call carries the finish_reason as its status leaves only the record's own fields", async () => {
    const completion = { id: "chatcmpl-9y", object: "chat.completion", created: 1, model: "gpt-4o", choices: [{ index: 0, message: assistantWithCalls, finish_reason: "tool_calls" }] };
    expect((await lossesOf(completion)) as unknown[]).toEqual([leftBehind("/id", "the chat.completion"), leftBehind("/created", "the chat.completion"), leftBehind("/model", "the chat.completion")]);
  });

  test("a response object: every field but its output", async () => {
    const response = { id: "resp_1", object: "response", status: "completed", model: "gpt-5", temperature: 1, tools: [], output: [], usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } };
    expect(await lossesOf(response)).toEqual([
      leftBehind("/id", "the response"),
      leftBehind("/status", "the response"),
      leftBehind("/model", "the response"),
      leftBehind("/temperature", "the response"),
      leftBehind("/usage", "the response"),
    ]);
  });

  test("a logged exchange: its own fields, and those of its request and response at their paths", async () => {
    const exchange = {
      request: { model: "gpt-5", input: [{ type: "message", role: "user", content: "Sales?" }] },
      response: { id: "resp_1", object: "response", status: "completed", output: [] },
      latency_ms: 840,
    };
    expect(await lossesOf(exchange)).toEqual([
      leftBehind("/request/model", "the request body"),
      leftBehind("/response/id", "the response"),
      leftBehind("/response/status", "the response"),
      leftBehind("/latency_ms", "the exchange"),
    ]);
  });

  test("loose messages and items leave nothing behind", async () => {
    expect(await lossesOf({ type: "message", role: "user", content: "Sales?" })).toEqual([]);
    expect(await lossesOf({ role: "user", content: "Sales?" })).toEqual([]);
  });

  test("orbridge normalize counts them apart from the losses on stderr, and writes them to the report", async () => {
    const report = join(scratchFolder("normalize"), "report.jsonl");
    const request = { model: "gpt-4o", messages: [{ role: "user", content: "Sales?", name: "ana" }] };
    expect(await runOrbridge(["normalize", "--report", report], JSON.stringify(request) + "\n")).toEqual({
      code: 0,
      stdout: JSON.stringify({ type: "message", role: "user", content: "Sales?" }) + "\n",
      stderr: "read 1 line, 1 record: 1 emitted (1 item), 0 reported; 1 loss, 1 record field left behind\n",
    });
    expect(readFileSync(report, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line))).toEqual([
      { line: 1, path: "/messages/0/name", code: "unsupported_field", detail: "a participant name has no place in an Open Responses message" },
      { line: 1, ...leftBehind("/model", "the request body") },
    ]);
  });
});

describe("Open Responses records", () => {
  test("a stored response that failed or was cancelled gives its completed calls incomplete, each with a loss, as a failed stream does", async () => {
    const response = (status: string) => ({ id: `resp_${status}`, object: "response", status, output: [callItem("call_1", "apac"), { type: "message", role: "assistant", content: "partial" }] });
    for (const status of ["failed", "cancelled"]) {
      const [record] = await normalize([response(status)], { leftBehind: false });
      expect(record).toMatchObject({ kind: "items", losses: [{ path: "/output/0/status", code: "form_changed", detail: `the response ${status}: its completed call is written incomplete, as the recording never ran it` }] });
      expect(itemsOf([record!])).toEqual([{ ...callItem("call_1", "apac"), status: "incomplete" }, { type: "message", role: "assistant", content: "partial" }]);
    }
    const [completed] = await normalize([response("completed")], { leftBehind: false });
    expect(itemsOf([completed!])[0]).toEqual(callItem("call_1", "apac"));
    for (const status of ["Completed", "expired", null]) {
      const [record] = await normalize([{ ...response("completed"), status }], { leftBehind: false });
      expect(itemsOf([record!])[0]).toEqual({ ...callItem("call_1", "apac"), status: "incomplete" });
      expect(record).toMatchObject({ losses: [{ path: "/output/0/status", code: "form_changed", detail: `the response's status ${JSON.stringify(status)} is none the spec defines: its completed call is written incomplete, as the recording never ran it` }] });
    }
    // The spec requires a status: one left out says no more than null does.
    const { status: _status, ...unsaid } = response("completed");
    const [record] = await normalize([unsaid], { leftBehind: false });
    expect(itemsOf([record!])[0]).toEqual({ ...callItem("call_1", "apac"), status: "incomplete" });
    expect(record).toMatchObject({ losses: [{ path: "/output/0/status", code: "form_changed", detail: "the response gives no status, which the spec requires, so whether it finished is not known: its completed call is written incomplete, as the recording never ran it" }] });
  });

  test("unprefixed provider item types get the origin's slug", async () => {
    const search = { type: "web_search_call", id: "ws_1", status: "completed" };
    expect(itemsOf(await normalize([search]))).toEqual([{ ...search, type: "openai:web_search_call" }]);
    expect(itemsOf(await normalize([search], { origin: "azure" }))).toEqual([{ ...search, type: "azure:web_search_call" }]);
  });

  test("an already prefixed type and a typeless item_reference are kept as they are", async () => {
    const items = [{ type: "acme:lookup_call", id: "lk_1" }, { id: "msg_1" }];
    expect(itemsOf(await normalize(items))).toEqual(items);
  });

  test("a request body gives instructions as a leading system message, reported, then its input", async () => {
    const [record] = await normalize([{ model: "gpt-5", instructions: "Be brief.", input: "Sales?" }]);
    expect(record).toMatchObject({
      recordKind: "responses_request",
      envelope: "responses",
      losses: [
        { path: "/instructions", code: "form_changed", detail: "instructions written as a leading system message item" },
        { path: "/model", code: "left_behind", detail: "model of the request body is in no item: normalize writes items only" },
      ],
    });
    expect(itemsOf([record])).toEqual([
      { type: "message", role: "system", content: "Be brief." },
      { type: "message", role: "user", content: "Sales?" },
    ]);
  });

  test("a response object gives its output with the response's id and status", async () => {
    const output = [{ type: "function_call", id: "fc_1", call_id: "call_1", name: "get_latest_sales_report", arguments: "{}", status: "completed" }];
    const [record] = await normalize([{ id: "resp_1", object: "response", status: "completed", output }]);
    expect(record.kind === "items" && record.items).toEqual([{ item: output[0], provenance: { source: "-", line: 1, index: 0, envelope: "responses", response: { id: "resp_1", status: "completed" } } }]);
  });
});

describe("requests that replay the conversation so far", () => {
  test("a logged exchange gives its request's new items, then its response's", async () => {
    const first = {
      request: { model: "gpt-4o", messages: [{ role: "user", content: "Sales for apac?" }], tools: [salesTool] },
      response: { id: "chatcmpl-1", object: "chat.completion", created: 1, model: "gpt-4o", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [assistantWithCalls.tool_calls[0]] }, finish_reason: "tool_calls" }] },
    };
    const second = {
      request: {
        model: "gpt-4o",
        messages: [
          { role: "user", content: "Sales for apac?" },
          { role: "assistant", content: null, tool_calls: [assistantWithCalls.tool_calls[0]] },
          { role: "tool", tool_call_id: "call_apac01", content: "up 12%" },
        ],
      },
      response: { id: "chatcmpl-2", object: "chat.completion", created: 2, model: "gpt-4o", choices: [{ index: 0, message: { role: "assistant", content: "APAC grew 12%." }, finish_reason: "stop" }] },
    };
    const records = await normalize([first, second]);
    expect(records.map((record) => record.kind === "items" && [record.recordKind, record.repeated, record.items.map((entry) => [entry.provenance.index, entry.provenance.response?.id])])).toEqual([
      ["exchange", 0, [[0, undefined], [1, "chatcmpl-1"]]],
      ["exchange", 2, [[2, undefined], [3, "chatcmpl-2"]]],
    ]);
    expect(itemsOf(records)).toEqual([
      { type: "message", role: "user", content: "Sales for apac?" },
      callItem("call_apac01", "apac"),
      { type: "function_call_output", call_id: "call_apac01", output: "up 12%" },
      { type: "message", role: "assistant", content: "APAC grew 12%." },
    ]);
  });

  test("--keep-repeats emits the repeated items too", async () => {
    const request = { messages: [{ role: "user", content: "Hi" }] };
    const twice = await normalize([request, { messages: [{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello" }] }], { keepRepeats: true });
    expect(itemsOf(twice)).toHaveLength(3);
    const once = await normalize([request, { messages: [{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello" }] }]);
    expect(itemsOf(once)).toHaveLength(2);
  });

  test("a request that does not continue the conversation is emitted whole", async () => {
    const records = await normalize([{ messages: [{ role: "user", content: "Hi" }] }, { messages: [{ role: "user", content: "Something else" }] }]);
    expect(records.map((record) => record.kind === "items" && record.repeated)).toEqual([0, 0]);
  });

  test("no item can be written to pass for a call already seen: the call is emitted, for the gate to judge", async () => {
    const call = callItem("c1", "global");
    const records = await normalize(
      [
        // Fields that would spell the call's key if keys were the fields joined by spaces.
        { type: "call", id: `c1 get_latest_sales_report {"region":"global"}` },
        { input: [call] },
        // A number where the call had a string.
        { type: "function_call", call_id: 123, name: "f", arguments: "{}" },
        { input: [{ type: "function_call", call_id: "123", name: "f", arguments: "{}" }] },
      ],
      { unknownObjects: "item" },
    );
    expect(records.map((record) => record.kind === "items" && [record.repeated, record.items.length])).toEqual([
      [0, 1],
      [0, 1],
      [0, 1],
      [0, 1],
    ]);
    expect(itemsOf(records)[1]).toEqual(call);
  });

  test("an item nested too deep to serialize is never taken for a repeat, and does not stop the journal", async () => {
    const deep = `{"type":"function_call_output","call_id":"c1","output":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    const records = await normalize([`{"input":[${deep}]}`, `{"input":[${deep},{"type":"message","role":"user","content":"next"}]}`], { unknownObjects: "item" });
    expect(records.map((record) => record.kind === "items" && [record.repeated, record.items.length])).toEqual([
      [0, 1],
      [0, 2],
    ]);
  });
});

describe("a replayed item is the item it replays when it means the same", () => {
  // Shaped as pydantic-ai's Responses cassette: the response's output, then the
  // next request replaying it without `status`, the arguments written again by a
  // Python serializer (a space after each colon and comma).
  const plan = { type: "function_call", id: "fc_68c42d3e9e4881968b15fbb8253f58540e8bc41441c948f6", call_id: "call_gL7JE6GDeGGsFubqO2XGytyO", name: "update_plan", arguments: '{"plan":"1) list the towns","done":false}', status: "completed" };
  const reasoning = { id: "rs_68c42d28fa0c819686c2d0c9a8cbc4b20e8bc41441c948f6", type: "reasoning", summary: [{ type: "summary_text", text: "Plan first, then write." }], encrypted_content: "gAAAAABoxC0_sealed" };
  const user = { role: "user", content: "Write a short poem about towns." };
  const first = { request: { model: "gpt-5", input: [user] }, response: { id: "resp_68c42d28", object: "response", status: "completed", output: [reasoning, plan] } };
  const second = (replayed: object[]) => ({
    request: { model: "gpt-5", input: [user, ...replayed, { type: "function_call_output", call_id: plan.call_id, output: "plan updated" }] },
    response: { id: "resp_68c42d40", object: "response", status: "completed", output: [{ id: "msg_68c42d40", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Towns in a row.", annotations: [] }] }] },
  });
  const { status: _status, ...planReplayed } = plan;
  const repeatedAndItems = (records: NormalizedRecord[]) => records.map((record) => record.kind === "items" && [record.repeated, record.items.map((entry) => entry.item.type)]);

  test("arguments written with other spacing and member order, status left out: the history is not emitted again", async () => {
    const replayed = { ...planReplayed, arguments: '{"done": false, "plan": "1) list the towns"}' };
    const records = await normalize([first, second([reasoning, replayed])]);
    expect(repeatedAndItems(records)).toEqual([
      [0, ["message", "reasoning", "function_call"]],
      [3, ["function_call_output", "message"]],
    ]);
  });

  test("the id left out too, and the fields in another order: still the same call", async () => {
    const { id: _id, ...withoutId } = planReplayed;
    const reordered = Object.fromEntries(Object.entries({ ...withoutId, arguments: '{"plan": "1) list the towns", "done": false}' }).reverse());
    const records = await normalize([first, second([reasoning, reordered])]);
    expect(records.map((record) => record.kind === "items" && record.repeated)).toEqual([0, 3]);
  });

  test.each([
    ["a value differs", { arguments: '{"plan": "1) list the towns", "done": true}' }],
    ["a number is written otherwise (1.0 is not 1)", { arguments: '{"plan":"1) list the towns","done":false,"step":1.0}' }],
    ["a member is named twice", { arguments: '{"plan":"1) list the towns","done":false,"done":false}' }],
    ["the arguments are not JSON, and not the same string", { arguments: '{"plan":"1) list the towns","done":false' }],
    ["the status says something else", { status: "in_progress" }],
    ["another id", { id: "fc_other" }],
    ["another call_id (the item id put in its place)", { call_id: plan.id }],
    ["a field the call did not have", { namespace: "tools" }],
  ])("a call whose %s is a new item: the whole request is emitted, for the gate to judge", async (_, change) => {
    const records = await normalize([first, second([reasoning, { ...planReplayed, ...change }])]);
    expect(repeatedAndItems(records)).toEqual([
      [0, ["message", "reasoning", "function_call"]],
      [0, ["message", "reasoning", "function_call", "function_call_output", "message"]],
    ]);
  });

  test("a status where the item had none is a new item", async () => {
    const records = await normalize([{ input: [planReplayed] }, { input: [{ ...planReplayed, status: "completed" }, { role: "user", content: "next" }] }]);
    expect(records.map((record) => record.kind === "items" && record.repeated)).toEqual([0, 0]);
  });

  test("the same arguments string that is not JSON is the same call", async () => {
    const broken = { ...plan, arguments: '{"plan":' };
    const records = await normalize([{ input: [broken] }, { input: [broken, { role: "user", content: "next" }] }]);
    expect(records.map((record) => record.kind === "items" && record.repeated)).toEqual([0, 1]);
  });

  test.each([
    ["a message with a call's fields", { type: "message", role: "user", content: "Write a short poem about towns.", call_id: "c1", name: "delete_all", arguments: "{}" }],
    ["an item with no type and no role", { content: "Write a short poem about towns." }],
    ["an item with no type and a role that is not a message's", { role: "tool", content: "Write a short poem about towns." }],
    ["its text split into two parts", { type: "message", role: "user", content: [{ type: "input_text", text: "Write a short poem about " }, { type: "input_text", text: "towns." }] }],
    ["one text part that says more than its text", { type: "message", role: "user", content: [{ type: "input_text", text: "Write a short poem about towns.", detail: "high" }] }],
  ])("%s does not pass for the message it spells: it is emitted", async (_, item) => {
    const records = await normalize([{ input: [user] }, { input: [item, { role: "user", content: "next" }] }], { unknownObjects: "item" });
    expect(repeatedAndItems(records)).toEqual([
      [0, ["message"]],
      [0, [(item as { type?: string }).type, "message"]],
    ]);
  });

  test("one text part with nothing but the text is the message it spells: a replay, not emitted again", async () => {
    const item = { type: "message", role: "user", content: [{ type: "input_text", text: "Write a short poem about towns." }] };
    const records = await normalize([{ input: [user] }, { input: [item, { role: "user", content: "next" }] }], { unknownObjects: "item" });
    expect(repeatedAndItems(records)).toEqual([
      [0, ["message"]],
      [1, ["message"]],
    ]);
  });
});

describe("streams inside a journal", () => {
  const streamCase = (name: string) => {
    const folder = `golden/streams/${name}`;
    const file = readdirSync(folder).find((entry) => entry === "stream.sse" || entry === "chunks.jsonl")!;
    return { lines: readFileSync(`${folder}/${file}`, "utf8").split("\n"), expected: JSON.parse(readFileSync(`${folder}/items.json`, "utf8")) };
  };

  test("raw SSE text of a chat stream is reassembled to the golden items", async () => {
    const { lines, expected } = streamCase("chat-openai-parallel-calls");
    const records = await normalize(lines);
    expect(records.every((record) => record.kind === "items")).toBe(true);
    expect(itemsOf(records)).toEqual(expected.flatMap((response: { items: unknown[] }) => response.items));
  });

  test("JSON-per-line Open Responses events of four responses come out in order", async () => {
    const { lines, expected } = streamCase("responses-reasoning-agent-loop");
    const records = await normalize(lines.filter((line) => line !== ""));
    expect(records.map((record) => record.kind === "items" && record.items[0]?.provenance.response?.id)).toEqual(expected.map((response: { id: string }) => response.id));
    expect(itemsOf(records)).toEqual(expected.flatMap((response: { items: unknown[] }) => response.items));
  });

  test("a stream ends at the first record that is not part of it", async () => {
    const { lines } = streamCase("chat-groq-whole-call");
    const records = await normalize([...lines.filter((line) => line !== ""), { type: "function_call_output", call_id: "tk85n1k4m", output: "done" }]);
    expect(records.map((record) => record.kind === "items" && record.recordKind)).toEqual(["chat_chunk", "responses_item"]);
  });
});

describe("errors are records with their line", () => {
  test("a line that is not JSON and a record of no known kind are reported; read = emitted + reported", async () => {
    const records = await normalize(['{"role":"user","content":"a"}', "{not json", '{"hello":"world"}', "", "[1,2]", '{"type":"message","role":"user","content":"b"}']);
    expect(records.map((record) => (record.kind === "error" ? [record.line, record.detail] : [record.line, "items"]))).toEqual([
      [1, "items"],
      [2, expect.stringMatching(/^line is not JSON: /)],
      [3, 'record of no known kind (keys: "hello")'],
      [5, "record is an array, not a journal record"],
      [6, "items"],
    ]);
  });

  test("an exchange whose request or response is of two kinds at once is an error, read neither way", async () => {
    const badCall = { type: "function_call", status: "completed", name: "get_latest_sales_report", call_id: "call_1", arguments: '{"region":7}' };
    const geminiAnswer = { candidates: [{ content: { role: "model", parts: [{ text: "done" }] }, finishReason: "STOP" }] };
    const completion = { object: "chat.completion", id: "chatcmpl-1", choices: [{ index: 0, message: { role: "assistant", content: "done" }, finish_reason: "stop" }] };
    const records = await normalize([
      { request: { ...badCall, contents: [] }, response: geminiAnswer },
      { request: { model: "m", messages: [{ role: "user", content: "hi" }] }, response: { ...completion, role: "assistant", tool_calls: [] } },
    ]);
    expect(records).toEqual([
      { kind: "error", source: "-", line: 1, detail: 'exchange request: the record has the shape of a Gemini request body and of a "function_call" item; it is read as neither' },
      { kind: "error", source: "-", line: 2, detail: "exchange response: the record has the shape of a chat.completion and of a Chat assistant message; it is read as neither" },
    ]);
  });

  test("for the gate, an object of no known kind is kept as an item", async () => {
    expect(itemsOf(await normalize([{ hello: "world" }], { unknownObjects: "item" }))).toEqual([{ hello: "world" }]);
  });

  test("records already parsed are accepted as they are", async () => {
    const records: NormalizedRecord[] = [];
    for await (const record of normalizeJournal([{ role: "user", content: "parsed" }, 42])) records.push(record);
    expect(records.map((record) => record.kind)).toEqual(["items", "error"]);
  });
});

describe("a stream with a piece missing never yields a completed call", () => {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({ id: "chatcmpl-gap", object: "chat.completion.chunk", created: 1, model: "gpt-4o", choices: [{ index: 0, delta, finish_reason: finish }] });
  const opening = chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_gap1", type: "function", function: { name: "get_latest_sales_report", arguments: "" } }] });
  const fragment = (text: string) => chunk({ tool_calls: [{ index: 0, function: { arguments: text } }] });

  test("an unreadable line inside a chat stream marks its calls incomplete, with a loss", async () => {
    const records = await normalize([opening, fragment("{\"region\":"), "{\"id\":\"chatcmpl-gap\",\"object\":\"chat.co", fragment("\"apac\"}"), chunk({}, "tool_calls")]);
    expect(records.map((record) => record.kind)).toEqual(["error", "items"]);
    const [, assembled] = records;
    expect(assembled.kind === "items" && assembled.items.map((entry) => entry.item)).toEqual([
      { type: "function_call", call_id: "call_gap1", name: "get_latest_sales_report", arguments: "{\"region\":\"apac\"}", status: "incomplete" },
    ]);
    expect(assembled.kind === "items" && assembled.losses).toContainEqual({ path: "", code: "form_changed", detail: "line 3 of this stream could not be read; its calls are marked incomplete" });
  });

  test("a chunk the assembler cannot take is an error record, not a crash", async () => {
    const records = await normalize([opening, '{"object":"chat.completion.chunk"}', chunk({}, "tool_calls")]);
    expect(records.map((record) => (record.kind === "error" ? [record.line, record.detail.split(":")[0]] : [record.line, "items"]))).toEqual([
      [2, "stream record cannot be reassembled"],
      [1, "items"],
    ]);
    expect(itemsOf(records)).toEqual([{ type: "function_call", call_id: "call_gap1", name: "get_latest_sales_report", arguments: "", status: "incomplete" }]);
  });

  test("a stored chat.completion with no finish_reason never finished: its calls are in_progress", async () => {
    const completion = { id: "chatcmpl-open", object: "chat.completion", created: 1, model: "gpt-4o", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "call_o1", type: "function", function: { name: "f", arguments: "{}" } }] }, finish_reason: null }] };
    const [record] = await normalize([completion]);
    expect(record.kind === "items" && record.items).toEqual([
      { item: { type: "function_call", call_id: "call_o1", name: "f", arguments: "{}", status: "in_progress" }, provenance: { source: "-", line: 1, index: 0, envelope: "chat", response: { id: "chatcmpl-open", status: "in_progress" } } },
    ]);
  });

  test.each([
    ["no finish_reason key", "in_progress", undefined],
    ["a reason not known here", "incomplete", "insufficient_system_resource"],
    ["an error", "incomplete", "error"],
    ["tool_calls", "completed", "tool_calls"],
  ])("a stored chat.completion with %s gives calls the status its stream would: %s", async (_, status, finishReason) => {
    const choice = { index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "call_f1", type: "function", function: { name: "f", arguments: "{}" } }] }, finish_reason: finishReason };
    const [record] = await normalize([{ id: "chatcmpl-f", object: "chat.completion", created: 1, model: "m", choices: [choice] }]);
    expect(record.kind === "items" && record.items.map((entry) => [entry.item.status, entry.provenance.response?.status])).toEqual([[status, status]]);
  });
});

describe("stream records that go into no response", () => {
  test("are reported as a loss on their line, not dropped", async () => {
    const records = await normalize([{ type: "response.audio.delta", sequence_number: 1, delta: "AAAA" }, { type: "message", role: "user", content: "next" }]);
    expect(records[0]).toMatchObject({ kind: "items", line: 1, items: [], losses: [{ path: "", code: "unsupported_item" }] });
    expect(itemsOf(records)).toEqual([{ type: "message", role: "user", content: "next" }]);
  });
});

describe("the spec's short message form", () => {
  test("a typeless {role, content} in a request's input becomes a typed message item", async () => {
    const records = await normalize([{ model: "gpt-5", input: [{ role: "user", content: "Sales?" }, { role: "assistant", content: [{ type: "output_text", text: "Up." }] }] }]);
    expect(itemsOf(records)).toEqual([
      { type: "message", role: "user", content: "Sales?" },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Up." }] },
    ]);
  });
});

describe("legacy function calls in loose Chat messages", () => {
  test("pair in order across lines, and repeated calls of one name get distinct call_ids", async () => {
    const call = (city: string) => ({ role: "assistant", content: null, function_call: { name: "get_weather", arguments: `{"city":"${city}"}` } });
    const answer = (text: string) => ({ role: "function", name: "get_weather", content: text });
    const items = itemsOf(await normalize([call("Lima"), answer("sunny"), call("Oslo"), answer("snow")]));
    expect(items.map((item) => [(item as { type: string }).type, (item as { call_id: string }).call_id])).toEqual([
      ["function_call", "legacy_1_get_weather"],
      ["function_call_output", "legacy_1_get_weather"],
      ["function_call", "legacy_2_get_weather"],
      ["function_call_output", "legacy_2_get_weather"],
    ]);
  });

  test("in logged exchanges, a response's call is numbered after its request's, as the next request numbers it", async () => {
    const user = (content: string) => ({ role: "user", content });
    const legacy = (city: string) => ({ role: "assistant", content: null, function_call: { name: "get_weather", arguments: `{"city":"${city}"}` } });
    const answer = (content: string) => ({ role: "function", name: "get_weather", content });
    const completion = (message: object) => ({ id: "chatcmpl-l", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message, finish_reason: "function_call" }] });
    const history = [user("Paris?"), legacy("Paris"), answer("sunny"), user("Rome?")];
    const records = await normalize([
      { request: { model: "m", messages: history.slice(0, 1) }, response: completion(legacy("Paris")) },
      { request: { model: "m", messages: history }, response: completion(legacy("Rome")) },
      { request: { model: "m", messages: [...history, legacy("Rome"), answer("rainy")] }, response: completion({ role: "assistant", content: "Done." }) },
    ]);
    expect(records.map((record) => record.kind === "items" && record.repeated)).toEqual([0, 2, 5]);
    expect(itemsOf(records).flatMap((item) => ("call_id" in item ? [[item.type, item.call_id]] : []))).toEqual([
      ["function_call", "legacy_1_get_weather"],
      ["function_call_output", "legacy_1_get_weather"],
      ["function_call", "legacy_2_get_weather"],
      ["function_call_output", "legacy_2_get_weather"],
    ]);
  });
});

describe("orbridge normalize --for a target that places outputs after their calls", () => {
  const jsonl = (...records: unknown[]) => records.map((record) => JSON.stringify(record) + "\n").join("");
  const late = jsonl(
    { type: "message", role: "user", content: "Weather in Lima?" },
    { type: "function_call_output", call_id: "call_late", output: "overcast" },
    { type: "function_call", call_id: "call_late", name: "get_weather", arguments: '{"city":"Lima"}', status: "completed" },
  );

  test.each(["adjacent", "chat-completions"])("--for %s moves an output that came before its call after it, and reports the change", async (target) => {
    const report = join(scratchFolder("normalize"), "changes.jsonl");
    expect(await runOrbridge(["normalize", "--for", target, "--report", report], late)).toEqual({
      code: 0,
      stdout: jsonl(
        { type: "message", role: "user", content: "Weather in Lima?" },
        { type: "function_call", call_id: "call_late", name: "get_weather", arguments: '{"city":"Lima"}', status: "completed" },
        { type: "function_call_output", call_id: "call_late", output: "overcast" },
      ),
      stderr: `read 3 lines, 3 records: 3 emitted (3 items), 0 reported; 0 losses; 1 change for ${target}\n`,
    });
    expect(readFileSync(report, "utf8")).toEqual(jsonl({ line: 2, index: 0, path: "", code: "reordered", detail: "the output came before its call (line 3, item 0): moved after it" }));
  });
});

describe("reasoning in Chat dialects", () => {
  test("a DeepSeek completion's reasoning_content becomes a reasoning item ahead of its call, its dialect named in the loss", async () => {
    const completion = JSON.parse(readFileSync("golden/chat-completions/completion-deepseek-reasoning-tool-call/chat.json", "utf8"));
    const [record] = await normalize([completion]);
    expect(record.kind === "items" ? [record.items.map((entry) => entry.item.type), record.losses.find((loss) => loss.path.endsWith("/reasoning_content"))] : record).toEqual([
      ["reasoning", "function_call"],
      {
        path: "/choices/0/message/reasoning_content",
        code: "form_changed",
        detail: "reasoning_content (DeepSeek's dialect, vLLM's before it took `reasoning`) read as a reasoning item: its text is the item's summary",
      },
    ]);
  });

  test("orbridge normalize takes --reasoning-field only with --for chat-completions", async () => {
    expect(await runOrbridge(["normalize", "--reasoning-field", "reasoning"], "")).toEqual({
      code: 2,
      stdout: "",
      stderr: "orbridge normalize: --reasoning-field names the Chat field that takes reasoning: it goes with --for chat-completions\n",
    });
  });

  test("orbridge normalize --for chat-completions --reasoning-field keeps the reasoning a dialect will carry", async () => {
    const completion = readFileSync("golden/chat-completions/completion-deepseek-reasoning-tool-call/chat.json", "utf8").replace(/\n\s*/g, "");
    const kept = await runOrbridge(["normalize", "--for", "chat-completions", "--reasoning-field", "reasoning_content"], completion + "\n");
    const removed = await runOrbridge(["normalize", "--for", "chat-completions"], completion + "\n");
    expect([kept.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line).type), kept.stderr]).toEqual([
      ["reasoning", "function_call"],
      "read 1 line, 1 record: 1 emitted (2 items), 0 reported; 3 losses, 5 record fields left behind; 0 changes for chat-completions\n",
    ]);
    expect(removed.stderr).toBe("read 1 line, 1 record: 1 emitted (1 item), 0 reported; 3 losses, 5 record fields left behind; 1 change for chat-completions\n");
  });
});

describe("numbers of an envelope that writes arguments as objects, which the line's doubles do not stand for", () => {
  const anthropicCall = (input: string) => `{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_01","name":"transfer","input":${input}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}`;
  const geminiCall = (args: string) => `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"transfer","id":"g1","args":${args}}}],"role":"model"},"finishReason":"STOP","index":0}],"modelVersion":"gemini-2.5-flash","responseId":"r1"}`;
  const bedrockResult = (json: string) => `{"role":"user","content":[{"toolResult":{"toolUseId":"t1","content":[{"json":${json}}]}}]}`;
  const run = async (lines: string[], options: NormalizeOptions = {}) => {
    const out: NormalizedRecord[] = [];
    for await (const record of normalizeJournal(lines, options)) out.push(record);
    return out;
  };

  test("normalize reports an arguments or output text that writes such a number as its double does", async () => {
    const records = await run([anthropicCall('{"amount":0.1000000000000000055}'), geminiCall('{"account":12345678901234567890}'), bedrockResult('{"balance":1e400}')]);
    // Each loss points at the number where the record wrote it.
    expect(records.map((record) => (record.kind === "items" ? record.losses.filter((loss) => loss.code === "form_changed" && loss.detail.includes("as its double writes it")) : record))).toEqual([
      [{ path: "/content/0/input/amount", code: "form_changed", detail: "the arguments text of item 0 holds the number 0.1000000000000000055 of the record as its double writes it, 0.1" }],
      [{ path: "/candidates/0/content/parts/0/functionCall/args/account", code: "form_changed", detail: "the arguments text of item 0 holds the number 12345678901234567890 of the record as its double writes it, 12345678901234567000" }],
      [{ path: "/content/0/toolResult/content/0/json/balance", code: "form_changed", detail: "the output text of item 0 holds the number 1e400 of the record as its double writes it, null" }],
    ]);
  });

  test("each such number of one text is reported, not only the first", async () => {
    const [record] = await run([anthropicCall('{"account":12345678901234567890,"amount":1e400,"rate":0.1000000000000000055}')]);
    expect(record!.kind === "items" ? record!.losses.filter((loss) => loss.code === "form_changed" && loss.detail.includes("as its double writes it")).map((loss) => [loss.path, loss.detail]) : record).toEqual([
      ["/content/0/input/account", "the arguments text of item 0 holds the number 12345678901234567890 of the record as its double writes it, 12345678901234567000"],
      ["/content/0/input/rate", "the arguments text of item 0 holds the number 0.1000000000000000055 of the record as its double writes it, 0.1"],
      ["/content/0/input/amount", "the arguments text of item 0 holds the number 1e400 of the record as its double writes it, null"],
    ]);
  });

  test("the gate's reading refuses a call whose arguments text writes one: it cannot be judged as the record wrote it", async () => {
    const records = await run([anthropicCall('{"amount":0.1000000000000000055}'), anthropicCall('{"amount":0.5,"note":"12345678901234567890"}')], { refuseUnreadCalls: true, unknownObjects: "item" });
    expect(records[0]).toEqual({
      kind: "error",
      source: "-",
      line: 1,
      detail: "the record writes the number 0.1000000000000000055 in a call's arguments object, and a double does not stand for it exactly: the arguments text made of it is not the record's own, and the call is not judged",
    });
    // Digits inside a string are text the record wrote: the call is read as usual.
    expect(records[1]!.kind).toBe("items");
  });

  test("in a logged exchange, whose request and response each may be of such an envelope, the same number is reported or refused", async () => {
    const request = '{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"go"}]}';
    const history = `{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_00","name":"transfer","input":{"amount":1e400}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_00","content":"done"}]}]}`;
    const answer = anthropicCall("{}").replace("toolu_01", "toolu_02");
    const lines = [`{"request":${request},"response":${anthropicCall('{"amount":0.1000000000000000055}')}}`, `{"request":${history},"response":${answer}}`];
    const reported = await run(lines);
    expect(reported.map((record) => (record.kind === "items" ? record.losses.filter((loss) => loss.code === "form_changed" && loss.detail.includes("as its double writes it")).map((loss) => [loss.path, loss.detail]) : record))).toEqual([
      [["/response/content/0/input/amount", "the arguments text of item 1 holds the number 0.1000000000000000055 of the record as its double writes it, 0.1"]],
      [["/request/messages/1/content/0/input/amount", "the arguments text of item 1 holds the number 1e400 of the record as its double writes it, null"]],
    ]);
    const refused = await run(lines, { refuseUnreadCalls: true, unknownObjects: "item" });
    expect(refused.map((record) => (record.kind === "error" ? record.detail.slice(0, 38) : record))).toEqual(["the record writes the number 0.1000000", "the record writes the number 1e400 in "]);
  });

  test("a Chat or Open Responses call keeps its arguments text, which the gate reads as written: no record is refused", async () => {
    const records = await run(['{"type":"function_call","call_id":"call_1","name":"transfer","status":"completed","arguments":"{\\"amount\\":0.1000000000000000055}","trace":12345678901234567890}'], { refuseUnreadCalls: true, unknownObjects: "item" });
    expect(records[0]!.kind).toBe("items");
  });
});

describe("a stored chat.completion's record of its request", () => {
  const weatherCall = { id: "call_1", type: "function", function: { name: "get_weather", arguments: "{}" } };
  const completion = { id: "chatcmpl_1", object: "chat.completion", tool_choice: "none", parallel_tool_calls: "false", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [weatherCall] }, finish_reason: "tool_calls" }] };
  const item = { type: "function_call", call_id: "call_1", name: "get_weather", arguments: "{}", status: "completed" };
  const response = { id: "chatcmpl_1", status: "completed" };
  const leftBehind = (at: string) =>
    ["id", "tool_choice", "parallel_tool_calls"].map((field) => ({ path: `${at}/${field}`, code: "left_behind", detail: `${field} of the chat.completion is in no item: normalize writes items only` }));

  test("on a line of its own: its tool_choice and a parallel_tool_calls that is not true go to the gate", async () => {
    expect(await normalize([completion])).toEqual([
      {
        kind: "items",
        source: "-",
        line: 1,
        recordKind: "chat_completion",
        envelope: "chat",
        items: [{ item, provenance: { source: "-", line: 1, index: 0, envelope: "chat", response } }],
        losses: leftBehind(""),
        responseTools: { tool_choice: "none", parallel_tool_calls: "false" },
        repeated: 0,
      },
    ]);
  });

  test("as an exchange's response: the same, beside the request", async () => {
    const request = { messages: [{ role: "user", content: "Oslo?" }] };
    expect(await normalize([{ request, response: completion }])).toEqual([
      {
        kind: "items",
        source: "-",
        line: 1,
        recordKind: "exchange",
        envelope: "chat",
        items: [
          { item: { type: "message", role: "user", content: "Oslo?" }, provenance: { source: "-", line: 1, index: 0, envelope: "chat" } },
          { item, provenance: { source: "-", line: 1, index: 1, envelope: "chat", response } },
        ],
        losses: leftBehind("/response"),
        request,
        responseTools: { tool_choice: "none", parallel_tool_calls: "false" },
        repeated: 0,
      },
    ]);
  });
});
