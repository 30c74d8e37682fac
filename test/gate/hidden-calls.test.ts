// A tool call written in another envelope's form inside an item is never gated
// as a call, so the line that hides it is blocked, whatever reads the line; a
// tool result of another envelope inside an item blocks the item.
import { describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const verdicts = async (...records: object[]) => {
  const result = await runOrbridge(["gate", "--format", "json"], records.map((record) => JSON.stringify(record) + "\n").join(""));
  return { code: result.code, verdicts: result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>) };
};

/** The verdict of line 1 when it holds one call, at `path`, that no item stands for. */
const unreadCallVerdict = (path: string) => ({
  line: 1,
  index: 0,
  reason: "error",
  detail: `the record holds 1 tool call (at ${path}) and gave 0 to judge: a call written where its kind of record keeps none is never checked, though an SDK of its envelope would run it`,
  blocked: true,
  findings: [],
});

describe("a message item holding another envelope's tool call", { timeout: 30_000 }, () => {
  test.each([
    ["an Anthropic tool_use block", { type: "message", role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "delete_files", input: { path: "/" } }] }, "/content/0"],
    ["a Bedrock toolUse part", { type: "message", role: "assistant", content: [{ toolUse: { toolUseId: "t1", name: "delete_files", input: {} } }] }, "/content/0/toolUse"],
    ["a Gemini functionCall part", { type: "message", role: "model", parts: [{ functionCall: { name: "delete_files", args: {} } }] }, "/parts/0/functionCall"],
  ])("%s blocks its line, which names where the call is", async (_, record, path) => {
    const result = await verdicts(record);
    expect(result.code).toBe(1);
    expect(result.verdicts).toEqual([unreadCallVerdict(path)]);
  });

  test.each([["an Anthropic tool_result block", { type: "message", role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "done" }] }, "/content/0/type", '"tool_result" part']])(
    "%s is blocked by mixed_envelope, which names it",
    async (_, record, path, named) => {
    const { code, verdicts: [verdict] } = await verdicts(record);
    expect(code).toBe(1);
    expect([verdict!.reason, verdict!.blocked, verdict!.blocked_by]).toEqual(["not_function_call", true, "mixed_envelope"]);
    expect(verdict!.findings).toEqual([{ code: "mixed_envelope", detail: `a ${named} is a tool call or result of another envelope inside the item: it is never gated as a call`, path }]);
    },
  );

  test.each([
    ["a tool_use type spelled with an escape", String.raw`{"type":"message","role":"assistant","content":[{"type":"tool\u005fuse","id":"toolu_1","name":"delete_files","input":{"path":"/"}}]}`, "/content/0"],
    ["a toolUse member spelled with an escape", String.raw`{"type":"message","role":"assistant","content":[{"\u0074oolUse":{"toolUseId":"t1","name":"delete_files","input":{}}}]}`, "/content/0/toolUse"],
  ])("%s, which no text search for the name finds, blocks its line all the same", async (_, line, path) => {
    const result = await runOrbridge(["gate", "--format", "json"], line + "\n");
    expect([result.code, JSON.parse(result.stdout)]).toEqual([1, unreadCallVerdict(path)]);
  });

  test.each([
    ["Tool_use", { role: "assistant", content: [{ type: "text", text: "on it" }, { type: "Tool_use", id: "toolu_1", name: "delete_files", input: { path: "/" } }] }, "/content/1"],
    ["tool_use with a trailing space", { role: "assistant", content: [{ type: "tool_use ", id: "toolu_1", name: "delete_files", input: { path: "/" } }] }, "/content/0"],
    ["Function_Call in a message item", { type: "message", role: "assistant", content: [{ type: "Function_Call", call_id: "c1", name: "delete_files", arguments: "{}" }] }, "/content/0"],
  ])("a block typed %s, which a reader that folds the type runs as a call, blocks its line", async (_, record, path) => {
    const result = await verdicts(record);
    expect(result.code).toBe(1);
    expect(result.verdicts).toEqual([unreadCallVerdict(path)]);
  });

  test("an item whose own type folds to a call's is blocked as namespaced, as before", async () => {
    const result = await verdicts({ type: "Function_Call", id: "fc_1", call_id: "c1", name: "delete_files", status: "completed", arguments: "{}" });
    expect(result.code).toBe(1);
    expect([result.verdicts.length, result.verdicts[0]!.reason]).toEqual([1, "namespaced"]);
  });

  test("a message of text parts passes as before", async () => {
    const { code, verdicts: [verdict] } = await verdicts({ type: "message", role: "assistant", content: [{ type: "output_text", text: "Done.", annotations: [] }] });
    expect([code, verdict!.blocked, verdict!.findings]).toEqual([0, false, []]);
  });
});

describe("a Gemini call written beside a part's text, which the converter reads as text", { timeout: 30_000 }, () => {
  const chunk = (parts: unknown[], finish?: string) => ({ candidates: [{ content: { role: "model", parts }, ...(finish ? { finishReason: finish } : {}) }], responseId: "r1", modelVersion: "gemini-2.5-flash" });
  const hidden = { text: "on it", function_call: { name: "delete_files" } };

  test("in snake case with a name alone (its readers run it with {}): the response's line is blocked", async () => {
    const result = await verdicts(chunk([hidden], "STOP"));
    expect(result.verdicts).toEqual([unreadCallVerdict("/candidates/0/content/parts/0/function_call")]);
  });

  test.each([
    ["in snake case", hidden, "function_call"],
    ["in camel case", { text: "on it", functionCall: { name: "delete_files", args: { path: "/" } } }, "functionCall"],
  ])("%s, in a chunk of a stream: the stream is blocked at its last line", async (_, part, member) => {
    const result = await verdicts(chunk([part]), chunk([{ text: "." }], "STOP"));
    expect(result.code).toBe(1);
    expect(result.verdicts).toEqual([{ ...unreadCallVerdict(`/candidates/0/content/parts/0/${member}`), line: 2 }]);
  });

  test("a stream whose calls are each a part of their own is judged call by call, and a Chat request forcing a function by name holds no call", async () => {
    const call = { functionCall: { name: "get_weather", args: { city: "Paris" } } };
    expect((await verdicts(chunk([{ text: "Checking." }]), chunk([call], "STOP"))).verdicts.map((verdict) => verdict.reason)).toEqual(["not_function_call", "unknown_tool"]);
    const request = { model: "gpt-4o", messages: [{ role: "user", content: "weather?" }], functions: [{ name: "get_weather", parameters: { type: "object" } }], function_call: { name: "get_weather" } };
    expect((await verdicts(request)).verdicts.map((verdict) => verdict.reason)).toEqual(["not_function_call"]);
  });
});

// Go's encoding/json matches a member to a field regardless of case, and keeps
// the last value: `Tool_calls` holds calls a Go replayer runs, and `arguments`
// beside `Arguments` is one field to it, two to JSON.parse.
describe("member names a reader that folds case or width takes for the ones the gate reads", { timeout: 30_000 }, () => {
  const chatCall = (id: string) => ({ id, type: "function", function: { name: "delete_files", arguments: "{}" } });
  test.each([
    ["Tool_calls on a Chat message", { role: "assistant", content: "hi", Tool_calls: [chatCall("c1")] }, "/Tool_calls/0"],
    ["TOOL_CALLS on a Chat message", { role: "assistant", content: "hi", TOOL_CALLS: [chatCall("c1")] }, "/TOOL_CALLS/0"],
    ["a Gemini part's functioncall on an item", { type: "message", role: "model", parts: [{ functioncall: { name: "delete_files", args: {} } }] }, "/parts/0/functioncall"],
    ["a full-width Type beside no type, inside a message's content", { type: "message", role: "assistant", content: [{ "\uff34ype": "function_call", name: "delete_files", arguments: "{}", call_id: "c1" }] }, "/content/0"],
  ])("%s is a call the record writes, unread: the line is blocked", async (_, record, path) => {
    const result = await verdicts(record);
    expect(result.code).toBe(1);
    expect(result.verdicts).toEqual([unreadCallVerdict(path)]);
  });

  test.each([
    ["tool_calls and Tool_calls", { role: "assistant", content: null, tool_calls: [chatCall("c1")], Tool_calls: [chatCall("c2")] }, '"tool_calls" and "Tool_calls"', "the top level"],
    ["type and Type", { type: "message", role: "assistant", content: "x", Type: "function_call" }, '"type" and "Type"', "the top level"],
    ["arguments and an arguments with a zero-width space", { type: "function_call", call_id: "c1", name: "f", arguments: "{}", "arguments\u200b": '{"a":1}', status: "completed" }, '"arguments" and "arguments\\u200b"', "the top level"],
    ["name and Name in a Chat call", { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read", Name: "delete_files", arguments: "{}" } }] }, '"name" and "Name"', '"/tool_calls/0/function"'],
    ["custom and Custom in a Chat custom call", { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "custom", custom: { name: "read", input: "a" }, Custom: { name: "delete_files", input: "/" } }] }, '"custom" and "Custom"', '"/tool_calls/0"'],
    ["sequence_number and Sequence_number in an Open Responses event", { type: "response.output_text.delta", sequence_number: 1, Sequence_number: 2, item_id: "msg_1", output_index: 0, content_index: 0, delta: "x" }, '"sequence_number" and "Sequence_number"', "the top level"],
    ["will_continue and Will_continue in a Gemini call, which its readers read as willContinue", { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "delete_files", args: {}, will_continue: false, Will_continue: true } }] }, finishReason: "STOP" }] }, '"will_continue" and "Will_continue"', '"/candidates/0/content/parts/0/functionCall"'],
    ["stringValue and StringValue in a Gemini call's piece", { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "delete_files", partialArgs: [{ jsonPath: "$.path", stringValue: "a", StringValue: "/" }], willContinue: true } }] } }] }, '"stringValue" and "StringValue"', '"/candidates/0/content/parts/0/functionCall/partialArgs/0"'],
    ["contentBlockIndex and ContentBlockIndex in a Bedrock stream's delta", { contentBlockDelta: { contentBlockIndex: 0, ContentBlockIndex: 1, delta: { toolUse: { input: '{"path":"a"}' } } } }, '"contentBlockIndex" and "ContentBlockIndex"', '"/contentBlockDelta"'],
  ])("%s in one object block the line, which names both", async (_, record, names, at) => {
    const result = await verdicts(record);
    expect(result.code).toBe(1);
    expect(result.verdicts).toEqual([{ line: 1, index: 0, reason: "error", detail: `line has the names ${names} in one object, at ${at}: a reader that matches names regardless of case or width (Go's encoding/json does) takes them for one name and keeps the last value`, blocked: true, findings: [] }]);
  });

  test("arguments naming a parameter the schema declares twice once folded are arguments_parse; a map's keys and camelCase parameters pass", async () => {
    const call = (callId: string, args: string) => ({ type: "function_call", id: `fc_${callId}`, call_id: callId, name: "f", arguments: args, status: "completed" });
    const parameters = { type: "object", properties: { region: { enum: ["apac"] }, maxResults: { type: "integer" }, filter: { type: "object", properties: { tag: { const: "a" } } }, counts: { type: "object", additionalProperties: { type: "integer" } } } };
    const file = join(scratchFolder("folded-args"), "tools.json");
    writeFileSync(file, JSON.stringify([{ type: "function", name: "f", parameters }]));
    const calls = [call("c1", '{"region":"apac","Region":"global"}'), call("c2", '{"region":"apac","maxResults":3}'), call("c3", '{"filter":{"tag":"a","TAG":"b"}}'), call("c4", '{"counts":{"The":1,"the":2}}')];
    const result = await runOrbridge(["gate", "--tools", file, "--format", "json"], calls.map((record) => JSON.stringify(record) + "\n").join(""));
    const out = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(out.map((verdict) => [verdict.call_id, verdict.reason, verdict.detail])).toEqual([
      ["c1", "arguments_parse", `arguments has the names "region" and "Region" in one object, at the top level: a reader that matches names regardless of case or width (Go's encoding/json does) takes them for one name and keeps the last value`],
      ["c2", "ok", "completed call with arguments valid for its schema"],
      ["c3", "arguments_parse", `arguments has the names "tag" and "TAG" in one object, at "/filter": a reader that matches names regardless of case or width (Go's encoding/json does) takes them for one name and keeps the last value`],
      ["c4", "ok", "completed call with arguments valid for its schema"],
    ]);
  });

  test.each([
    ["a Gemini tool result's word count", { contents: [{ role: "user", parts: [{ functionResponse: { name: "count", response: { The: 1, the: 1 } } }] }] }],
    ["a Bedrock tool result's headers", { role: "user", content: [{ toolResult: { toolUseId: "t1", content: [{ json: { "Set-Cookie": "a", "set-cookie": "b" } }] } }] }],
    ["an exchange's headers", { request: { model: "m", input: "hi", headers: { "X-Request-Id": "1", "x-request-id": "1" } }, response: { id: "resp_1", object: "response", status: "completed", output: [] } }],
    ["a tool schema's properties", { model: "m", input: "hi", tools: [{ type: "function", name: "f", parameters: { type: "object", properties: { X: {}, x: {} } } }] }],
  ])("%s, names that fold to one of no name a call is read by, are read as written", async (_, record) => {
    const result = await verdicts(record);
    expect(result.verdicts.filter((verdict) => verdict.reason === "error")).toEqual([]);
  });

  // A loose reader decodes these as maps, or as a value of any shape: it keeps
  // `Any` and `any` apart, as JSON.parse does.
  test.each([
    ["a Gemini tool result's word count", { contents: [{ role: "user", parts: [{ functionResponse: { name: "count", response: { counts: { Any: 2, any: 5, Text: 1, text: 4 } } } }] }] }],
    ["a Bedrock tool result's JSON", { role: "user", content: [{ toolResult: { toolUseId: "t1", content: [{ json: { Status: "Active", status: 200 } }] } }] }],
    ["a tool schema's properties", { model: "m", input: "hi", tools: [{ type: "function", name: "f", parameters: { type: "object", properties: { Name: {}, name: {} } } }] }],
    ["an Anthropic tool schema's properties", { model: "claude", max_tokens: 10, messages: [{ role: "user", content: "hi" }], tools: [{ name: "f", input_schema: { type: "object", properties: { ID: {}, id: {} } } }] }],
    ["a Bedrock tool schema's properties", { messages: [{ role: "user", content: [{ text: "hi" }] }], toolConfig: { tools: [{ toolSpec: { name: "f", inputSchema: { json: { type: "object", properties: { Type: {}, type: {} } } } } }] } }],
  ])("%s, names that fold to one a call is read by, are read as written", async (_, record) => {
    const result = await verdicts(record);
    expect(result.verdicts.filter((verdict) => verdict.reason === "error")).toEqual([]);
  });

  test("a call's arguments as an object are judged by the names its schema declares, not by the names calls are read by", async () => {
    const file = join(scratchFolder("folded-input"), "tools.json");
    writeFileSync(file, JSON.stringify([{ type: "function", name: "f", parameters: { type: "object", properties: { path: { type: "string" } } } }]));
    const records = [
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "f", input: { path: "a", Text: "A", text: "b" } }] },
      { candidates: [{ content: { role: "model", parts: [{ functionCall: { id: "g1", name: "f", args: { path: "a", Text: "A", text: "b" } } }] }, finishReason: "STOP" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_2", name: "f", input: { path: "a", Path: "/" } }] },
    ];
    const result = await runOrbridge(["gate", "--tools", file, "--format", "json"], records.map((record) => JSON.stringify(record) + "\n").join(""));
    const out = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(out.filter((verdict) => verdict.type === "function_call").map((verdict) => [verdict.call_id, verdict.reason])).toEqual([
      ["toolu_1", "ok"],
      ["g1", "ok"],
      ["toolu_2", "arguments_parse"],
    ]);
  });
});
