// A call the gate refuses because its request did not allow it (tool_choice
// "none", allowed_tools, a named function, the tools listed, one call a turn)
// must stay refused once converted. Where the target cannot write the limit,
// the request keeps it as the tools it allows, and a response whose own record
// of its request carries it has the refused calls left out, each reported.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const lines = (...records: unknown[]) => records.map((record) => JSON.stringify(record) + "\n").join("");
const parse = (text: string) => text.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

const REPORT = "get_latest_sales_report";
const DELETE = "delete_file";
const schema = { type: "object", properties: { region: { type: "string" }, path: { type: "string" } } };
const tools = [REPORT, DELETE].map((name) => ({ type: "function", name, parameters: schema }));
const chatTools = [REPORT, DELETE].map((name) => ({ type: "function", function: { name, parameters: schema } }));
const call = (callId: string, name: string) => ({ type: "function_call", id: `fc_${callId}`, call_id: callId, name, arguments: name === REPORT ? '{"region":"apac"}' : '{"path":"/tmp/a"}', status: "completed" });
const response = (fields: Record<string, unknown>, ...output: unknown[]) => ({ id: "resp_1", object: "response", created_at: 1, status: "completed", model: "m", output, tool_choice: "auto", tools, parallel_tool_calls: true, ...fields });
const chatCompletion = (...calls: Array<[string, string]>) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: calls.map(([id, name]) => ({ id, type: "function", function: { name, arguments: call(id, name).arguments } })) }, finish_reason: "tool_calls" }],
});

/** `convert --to TARGET` of `journal`: the records written and the losses reported. */
async function convert(target: string, journal: string) {
  const report = join(scratchFolder("limits"), "report.jsonl");
  const converted = await runOrbridge(["convert", "--to", target, "--report", report], journal);
  expect(converted.code).toBe(0);
  return { journal: converted.stdout, losses: parse(readFileSync(report, "utf8")) };
}

/** Each call the gate passes in `journal`, by call_id, with both tools known. */
async function passing(journal: string): Promise<unknown[]> {
  const file = join(scratchFolder("limits-tools"), "tools.json");
  writeFileSync(file, JSON.stringify(tools));
  const gated = await runOrbridge(["gate", "--tools", file, "--format", "json"], journal);
  return parse(gated.stdout).filter((verdict) => verdict.type === "function_call" && verdict.blocked === false).map((verdict) => verdict.call_id);
}

describe.each(["anthropic", "bedrock"])("a request that allows some tools, convert --to %s", { timeout: 30_000 }, (target) => {
  test("an exchange: the request offers only the allowed tools, so the call to another stays refused", async () => {
    const journal = lines({
      request: { model: "m", input: [{ type: "message", role: "user", content: "hi" }], tools, tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: REPORT }] } },
      response: response({}, call("call_1", DELETE)),
    });
    expect(await passing(journal)).toEqual([]);
    const { journal: written, losses } = await convert(target, journal);
    expect(await passing(written)).toEqual([]);
    expect(losses).toContainEqual(expect.objectContaining({ line: 1, path: "/request/tools/1", code: "form_changed" }));
    expect(losses).toContainEqual(expect.objectContaining({ line: 1, path: "/request/tool_choice", code: "form_changed" }));
    // The tools it offers say the limit: no choice is written in place of one the target has no form of.
    expect(losses.filter((loss) => String(loss.detail).includes("has no form of it"))).toEqual([]);
  });

  test("a request body on its line that requires one function: that function is the choice written", async () => {
    const journal = lines({ model: "m", input: [{ type: "message", role: "user", content: "hi" }], tools, tool_choice: { type: "allowed_tools", mode: "required", tools: [{ type: "function", name: REPORT }] } }, response({}, call("call_1", DELETE)));
    expect(await passing(journal)).toEqual([]);
    expect(await passing((await convert(target, journal)).journal)).toEqual([]);
  });

  test("an allowed call still passes", async () => {
    const journal = lines({
      request: { model: "m", input: [{ type: "message", role: "user", content: "hi" }], tools, tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: REPORT }] } },
      response: response({}, call("call_1", REPORT)),
    });
    expect(await passing((await convert(target, journal)).journal)).toEqual(["call_1"]);
  });
});

describe('tool_choice "none", convert --to bedrock, which has no "none"', () => {
  test("the request is written without tools, and the call of its response stays refused", async () => {
    const journal = lines({ request: { model: "m", messages: [{ role: "user", content: "hi" }], tools: chatTools, tool_choice: "none" }, response: chatCompletion(["call_1", REPORT]) });
    expect(await passing(journal)).toEqual([]);
    const { journal: written } = await convert("bedrock", journal);
    expect(parse(written)[0]!.request).toEqual({ messages: [{ role: "user", content: [{ text: "hi" }] }] });
    expect(await passing(written)).toEqual([]);
  });
});

describe.each(["chat", "anthropic", "gemini", "bedrock"])("a response object whose own record of its request refuses a call, convert --to %s", { timeout: 30_000 }, (target) => {
  const cases: Array<[string, Record<string, unknown>, unknown[], string[]]> = [
    ['tool_choice "none"', { tool_choice: "none" }, [call("call_1", REPORT)], []],
    ["allowed_tools of another tool", { tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: DELETE }] } }, [call("call_1", REPORT)], []],
    ["a named function, another", { tool_choice: { type: "function", name: DELETE } }, [call("call_1", REPORT), call("call_2", DELETE)], ["call_2"]],
    ["tools that list another", { tools: [tools[1]] }, [call("call_1", REPORT)], []],
    ["parallel_tool_calls false", { parallel_tool_calls: false }, [call("call_1", REPORT), call("call_2", REPORT)], ["call_1"]],
    ['allowed_tools of mode "none"', { tool_choice: { type: "allowed_tools", mode: "none", tools: [{ type: "function", name: REPORT }] } }, [call("call_1", REPORT)], []],
    ["a function of a namespace", { tool_choice: { type: "function", name: REPORT, namespace: "crm" } }, [call("call_1", REPORT)], []],
  ];
  test.each(cases)("%s: the refused call is left out and reported, the others pass as before", async (_name, fields, output, allowed) => {
    const journal = lines(response(fields, ...output));
    expect(await passing(journal)).toEqual(allowed);
    const { journal: written, losses } = await convert(target, journal);
    expect(await passing(written)).toEqual(allowed);
    const refused = (output as Array<{ call_id: string }>).map(({ call_id }, index) => [call_id, index] as const).filter(([callId]) => !allowed.includes(callId));
    expect(losses.filter((loss) => loss.code === "unsupported_item").map((loss) => loss.path)).toEqual(refused.map(([, index]) => `/output/${index}`));
  });

  test("a response whose own record limits nothing converts as before", async () => {
    const journal = lines(response({}, call("call_1", REPORT), call("call_2", DELETE)));
    const { journal: written, losses } = await convert(target, journal);
    expect(await passing(written)).toEqual(["call_1", "call_2"]);
    expect(losses.filter((loss) => loss.code === "unsupported_item")).toEqual([]);
  });
});

describe.each(["chat", "anthropic", "gemini", "bedrock"])("a stream of events whose response refuses its call, convert --to %s", { timeout: 30_000 }, (target) => {
  test("the call is left out of the response written", async () => {
    const done = call("call_1", REPORT);
    const journal = lines(
      { type: "response.created", sequence_number: 0, response: response({ status: "in_progress", tool_choice: "none" }) },
      { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { ...done, arguments: "", status: "in_progress" } },
      { type: "response.function_call_arguments.done", sequence_number: 2, output_index: 0, item_id: done.id, arguments: done.arguments },
      { type: "response.output_item.done", sequence_number: 3, output_index: 0, item: done },
      { type: "response.completed", sequence_number: 4, response: response({ tool_choice: "none" }, done) },
    );
    expect(await passing(journal)).toEqual([]);
    const { journal: written, losses } = await convert(target, journal);
    expect(parse(written)).toHaveLength(1);
    expect(await passing(written)).toEqual([]);
    expect(losses.filter((loss) => loss.code === "unsupported_item")).toHaveLength(1);
  });
});

describe.each(["gemini", "bedrock"])("an exchange whose request allows one call, convert --to %s, which cannot say so", { timeout: 30_000 }, (target) => {
  test.each([
    ["Chat parallel_tool_calls false", { model: "m", messages: [{ role: "user", content: "hi" }], tools: chatTools, parallel_tool_calls: false }],
    ["Anthropic disable_parallel_tool_use", { model: "m", max_tokens: 64, messages: [{ role: "user", content: "hi" }], tools: [{ name: REPORT, input_schema: schema }], tool_choice: { type: "auto", disable_parallel_tool_use: true } }],
  ])("%s: the calls after the first are left out", async (_name, request) => {
    const journal = lines({ request, response: chatCompletion(["call_1", REPORT], ["call_2", REPORT]) });
    expect(await passing(journal)).toEqual(["call_1"]);
    const { journal: written, losses } = await convert(target, journal);
    expect(await passing(written)).toEqual(["call_1"]);
    expect(losses.filter((loss) => loss.code === "unsupported_item").map((loss) => loss.detail)).toEqual([expect.stringContaining('the call "call_2" is refused by the request of line 1')]);
  });
});

describe.each(["responses", "chat", "anthropic", "gemini", "bedrock"])("a stored chat.completion whose own record of its request refuses a call, convert --to %s", { timeout: 30_000 }, (target) => {
  test("tool_choice none and parallel_tool_calls false keep refusing", async () => {
    const journal = lines({ ...chatCompletion(["call_1", REPORT]), tool_choice: "none" }, { ...chatCompletion(["call_2", REPORT], ["call_3", REPORT]), id: "chatcmpl-2", parallel_tool_calls: false });
    expect(await passing(journal)).toEqual(["call_2"]);
    expect(await passing((await convert(target, journal)).journal)).toEqual(["call_2"]);
  });
});

describe("a request body on a line of its own, whose limit the target cannot write, and the responses after it", { timeout: 30_000 }, () => {
  const body = (fields: Record<string, unknown>) => ({ model: "m", input: [{ type: "message", role: "user", content: "hi" }], tools, ...fields });
  test.each([
    ["allowed_tools, for anthropic", "anthropic", { tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: REPORT }] } }, [call("call_1", DELETE)], []],
    ["allowed_tools, for bedrock", "bedrock", { tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: REPORT }] } }, [call("call_1", DELETE), call("call_2", REPORT)], ["call_2"]],
    ['"none", for bedrock', "bedrock", { tool_choice: "none" }, [call("call_1", REPORT)], []],
    ['allowed_tools of mode "none", for anthropic', "anthropic", { tool_choice: { type: "allowed_tools", mode: "none", tools: [{ type: "function", name: REPORT }] } }, [call("call_1", REPORT)], []],
    ['allowed_tools of mode "none", for bedrock', "bedrock", { tool_choice: { type: "allowed_tools", mode: "none", tools: [{ type: "function", name: REPORT }] } }, [call("call_1", REPORT)], []],
    ["parallel_tool_calls false, for gemini", "gemini", { parallel_tool_calls: false }, [call("call_1", REPORT), call("call_2", REPORT)], ["call_1"]],
    ["parallel_tool_calls false, for bedrock", "bedrock", { parallel_tool_calls: false }, [call("call_1", REPORT), call("call_2", REPORT)], ["call_1"]],
  ])("%s: the refused calls of a later response are left out, until the next request body", async (_name, target, fields, output, allowed) => {
    const later = response({}, ...output);
    const journal = lines(body(fields), later, body({}), { ...later, id: "resp_2", output: (output as Array<Record<string, unknown>>).map((item) => ({ ...item, call_id: `${String(item.call_id)}b`, id: `${String(item.id)}b` })) });
    const before = await passing(journal);
    expect(before).toEqual([...allowed, ...(output as Array<{ call_id: string }>).map(({ call_id }) => `${call_id}b`)]);
    const { journal: written, losses } = await convert(target, journal);
    expect(await passing(written)).toEqual(before);
    expect(losses.filter((loss) => loss.code === "unsupported_item").map((loss) => loss.line)).toEqual(output.filter((item) => !allowed.includes((item as { call_id: string }).call_id)).map(() => 2));
  });

  test("a stream of events after such a request has its refused call left out too", async () => {
    const done = call("call_1", DELETE);
    const journal = lines(
      body({ tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: REPORT }] } }),
      { type: "response.created", sequence_number: 0, response: response({ status: "in_progress" }) },
      { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { ...done, arguments: "", status: "in_progress" } },
      { type: "response.output_item.done", sequence_number: 2, output_index: 0, item: done },
      { type: "response.completed", sequence_number: 3, response: response({}, done) },
    );
    expect(await passing(journal)).toEqual([]);
    expect(await passing((await convert("bedrock", journal)).journal)).toEqual([]);
  });
});

// A request body's own input is held to what the body allows: where the target
// cannot write that limit, a call of the input it refuses is left out, with its output.
const history = (callId: string, name: string) => [
  { role: "user", content: "go" },
  { role: "assistant", content: null, tool_calls: [{ id: callId, type: "function", function: { name, arguments: call(callId, name).arguments } }] },
  { role: "tool", tool_call_id: callId, content: "done" },
];

describe.each([
  ['tool_choice "none"', "none", ["bedrock"]],
  ["an allowed_tools choice", { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name: DELETE } }] } }, ["anthropic", "bedrock"]],
  ["a tool_choice that cannot be read", {}, ["responses", "anthropic", "gemini", "bedrock"]],
])("a Chat request body whose %s refuses a call of its own input", { timeout: 30_000 }, (_, choice, targets) => {
  const journal = lines({ model: "m", messages: history("call_1", REPORT), tools: chatTools, tool_choice: choice });

  test.each(targets as string[])("convert --to %s leaves the call out with its output, each reported", async (target) => {
    expect(await passing(journal)).toEqual([]);
    const { journal: written, losses } = await convert(target, journal);
    expect(await passing(written)).toEqual([]);
    expect(written).not.toContain("call_1");
    expect(losses.filter((loss) => loss.code === "unsupported_item").map((loss) => (loss.detail as string).replace(/: .* has no choice/, ": … has no choice"))).toEqual([
      'the call "call_1" is refused by the request it is in: … has no choice that refuses it, and written there the call would read as one that may run, so it is left out',
      'the output answers the call "call_1", left out as its request refuses it: it is left out with it',
    ]);
  });

  test("a call of the input the body allows is written", async () => {
    const allowed = lines({ model: "m", messages: history("call_2", DELETE), tools: chatTools, tool_choice: choice === "none" || isEmpty(choice) ? "auto" : choice });
    for (const target of targets as string[]) {
      const { journal: written, losses } = await convert(target, allowed);
      expect(await passing(written)).toEqual(["call_2"]);
      expect(losses.filter((loss) => loss.code === "unsupported_item")).toEqual([]);
    }
  });
});

function isEmpty(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.keys(value).length === 0;
}

describe("a Gemini request body whose mode cannot be read", () => {
  test.each(["responses", "chat", "anthropic", "bedrock"])("convert --to %s leaves its own call out", { timeout: 30_000 }, async (target) => {
    const journal = lines({ contents: [{ role: "model", parts: [{ functionCall: { id: "call_1", name: REPORT, args: { region: "apac" } } }] }], toolConfig: { functionCallingConfig: { mode: 3 } } });
    expect(await passing(journal)).toEqual([]);
    const { journal: written, losses } = await convert(target, journal);
    expect(await passing(written)).toEqual([]);
    expect(losses.filter((loss) => loss.code === "unsupported_item")).toEqual([
      { line: 1, path: "", code: "unsupported_item", detail: expect.stringMatching(/^the call "call_1" is refused by the request it is in: toolConfig\.functionCallingConfig\.mode of the request cannot all be read, so it allows no function; .* so it is left out$/) },
    ]);
  });
});

// What a request body allows holds at the gate for the loose messages and items
// on the lines after it, until the next request body: where the target writes
// that limit as the tools it offers, a later call it refuses is left out there too.
describe("loose messages and items after a request body whose limit the target cannot write", { timeout: 30_000 }, () => {
  const allowsReport = { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: REPORT }] };
  const body = (fields: Record<string, unknown>) => ({ model: "m", input: [{ type: "message", role: "user", content: "hi" }], tools, ...fields });
  const output = (callId: string) => ({ type: "function_call_output", call_id: callId, output: "done" });
  const chatCall = (id: string, name: string) => ({ id, type: "function", function: { name, arguments: call(id, name).arguments } });
  const anthropicCall = (id: string, name: string) => ({ role: "assistant", content: [{ type: "tool_use", id, name, input: JSON.parse(call(id, name).arguments) }] });
  const cases: Array<[string, string, unknown[]]> = [
    ["Open Responses items", "anthropic", [body({ tool_choice: allowsReport }), call("call_1", DELETE), call("call_2", REPORT), output("call_1"), output("call_2")]],
    ["Open Responses items", "bedrock", [body({ tool_choice: allowsReport }), call("call_1", DELETE), call("call_2", REPORT), output("call_1"), output("call_2")]],
    ['Open Responses items after "none"', "bedrock", [body({ tool_choice: "none" }), call("call_1", DELETE), output("call_1")]],
    [
      "Chat messages",
      "bedrock",
      [
        { model: "m", messages: [{ role: "user", content: "hi" }], tools: chatTools, tool_choice: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name: REPORT } }] } } },
        { role: "assistant", content: null, tool_calls: [chatCall("call_1", DELETE), chatCall("call_2", REPORT)] },
        { role: "tool", tool_call_id: "call_1", content: "done" },
        { role: "tool", tool_call_id: "call_2", content: "done" },
      ],
    ],
    ["an Anthropic message", "bedrock", [body({ tool_choice: allowsReport }), anthropicCall("call_1", DELETE), anthropicCall("call_2", REPORT)]],
    ["an Anthropic message already in the target's envelope", "anthropic", [body({ tool_choice: allowsReport }), anthropicCall("call_1", DELETE), anthropicCall("call_2", REPORT)]],
  ];
  test.each(cases)("%s, convert --to %s: the refused call is left out and reported", async (_name, target, records) => {
    const journal = lines(...records);
    const before = await passing(journal);
    expect(before).not.toContain("call_1");
    const { journal: written, losses } = await convert(target, journal);
    expect(await passing(written)).toEqual(before);
    expect(losses.filter((loss) => loss.code === "unsupported_item" && /"call_1"/.test(String(loss.detail))).length).toBeGreaterThan(0);
  });

  const anthropicResponse = (id: string, callId: string, name: string) => ({ id, type: "message", role: "assistant", model: "m", content: [{ type: "tool_use", id: callId, name, input: {} }], stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } });
  const anthropicStream = (callId: string, name: string) => [
    { type: "message_start", message: { ...anthropicResponse("msg_s", callId, name), content: [], stop_reason: null } },
    { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: callId, name, input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "{}" } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: "message_stop" },
  ];
  test.each([
    ["a response", [anthropicResponse("msg_1", "call_1", DELETE), anthropicResponse("msg_2", "call_2", REPORT)], 2],
    ["a stream, rebuilt whole", [...anthropicStream("call_1", DELETE)], 2],
  ])("%s already in the target's envelope has the refused call left out", async (_name, after, lineOfLoss) => {
    const journal = lines(body({ tool_choice: allowsReport }), ...(after as unknown[]));
    const before = await passing(journal);
    expect(before).not.toContain("call_1");
    const { journal: written, losses } = await convert("anthropic", journal);
    expect(await passing(written)).toEqual(before);
    expect(losses).toContainEqual(expect.objectContaining({ line: lineOfLoss, code: "unsupported_item", detail: expect.stringContaining('"call_1" is refused by the request of line 1') }));
  });

  test("a stream in the target's envelope after the next request body, which ends the limit, is written through as it came", async () => {
    const stream = anthropicStream("call_1", DELETE);
    const journal = lines(body({ tool_choice: allowsReport }), body({}), ...stream);
    const { journal: written, losses } = await convert("anthropic", journal);
    expect(parse(written).slice(2)).toEqual(stream);
    expect(losses.filter((loss) => loss.line >= 3)).toEqual([]);
  });

  test("an exchange whose response is already in the target's envelope has its second call left out where the request allows one", async () => {
    const geminiResponse = { candidates: [{ content: { role: "model", parts: [REPORT, DELETE].map((name, index) => ({ functionCall: { id: `call_${index + 1}`, name, args: {} } })) }, finishReason: "STOP" }] };
    const journal = lines({ request: body({ parallel_tool_calls: false }), response: geminiResponse });
    expect(await passing(journal)).toEqual(["call_1"]);
    expect(await passing((await convert("gemini", journal)).journal)).toEqual(["call_1"]);
  });

  test("a response already in the target's envelope whose calls the limit allows is written as it is", async () => {
    const allowed = anthropicResponse("msg_2", "call_2", REPORT);
    const { journal: written } = await convert("anthropic", lines(body({ tool_choice: allowsReport }), allowed));
    expect(parse(written)[1]).toEqual(allowed);
  });

  test("the next request body ends the limit: a later call to the other tool is written as before", async () => {
    const journal = lines(body({ tool_choice: allowsReport }), body({}), call("call_1", DELETE));
    expect(await passing(journal)).toEqual(["call_1"]);
    const { journal: written, losses } = await convert("anthropic", journal);
    expect(await passing(written)).toEqual(["call_1"]);
    expect(losses.filter((loss) => loss.code === "unsupported_item")).toEqual([]);
  });
});

describe("an assistant message with two calls after a request body that allows one call a turn, which Gemini and Bedrock cannot write", { timeout: 30_000 }, () => {
  const chatCall = (id: string) => ({ id, type: "function", function: { name: REPORT, arguments: call(id, REPORT).arguments } });
  const chatBody = { model: "m", messages: [{ role: "user", content: "hi" }], tools: chatTools, parallel_tool_calls: false };
  const anthropicBody = { model: "m", max_tokens: 1024, messages: [{ role: "user", content: "hi" }], tools: [{ name: REPORT, input_schema: schema }], tool_choice: { type: "auto", disable_parallel_tool_use: true } };
  const cases: Array<[string, string, unknown[]]> = ["gemini", "bedrock"].flatMap((target): Array<[string, string, unknown[]]> => [
    ["a Chat message", target, [chatBody, { role: "assistant", content: null, tool_calls: [chatCall("call_1"), chatCall("call_2")] }]],
    ["an Anthropic message", target, [anthropicBody, { role: "assistant", content: [1, 2].map((n) => ({ type: "tool_use", id: `call_${n}`, name: REPORT, input: { region: "apac" } })) }]],
  ]);
  test.each(cases)("%s, convert --to %s: its second call is left out and reported, as the gate refuses it", async (_name, target, records) => {
    const journal = lines(...records);
    expect(await passing(journal)).toEqual(["call_1"]);
    const { journal: written, losses } = await convert(target, journal);
    expect(await passing(written)).toEqual(["call_1"]);
    expect(losses.filter((loss) => loss.code === "unsupported_item")).toEqual([
      { line: 2, path: "", code: "unsupported_item", detail: expect.stringMatching(/^the call "call_2" is refused by the request of line 1 \(\/parallel_tool_calls\): false lets the response make one call, and this is call 2 of it; .* has no place for that limit, and written there the call would read as one that may run, so it is left out$/) },
    ]);
  });

  test("two assistant messages of one call each are two answers: both are written", async () => {
    const journal = lines(chatBody, { role: "assistant", content: null, tool_calls: [chatCall("call_1")] }, { role: "tool", tool_call_id: "call_1", content: "done" }, { role: "assistant", content: null, tool_calls: [chatCall("call_2")] });
    const { journal: written, losses } = await convert("gemini", journal);
    expect(await passing(written)).toEqual(["call_1", "call_2"]);
    expect(losses.filter((loss) => loss.code === "unsupported_item")).toEqual([]);
  });
});

describe("one call a turn passed through to the model (extra_body, Bedrock's additionalModelRequestFields), which no other envelope's body holds", { timeout: 60_000 }, () => {
  const chatExchange = { request: { model: "m", messages: [{ role: "user", content: "hi" }], tools: chatTools, extra_body: { parallel_tool_calls: false } }, response: chatCompletion(["call_1", REPORT], ["call_2", REPORT]) };
  const converseExchange = {
    request: { modelId: "anthropic.claude-sonnet-4-5", messages: [{ role: "user", content: [{ text: "hi" }] }], toolConfig: { tools: [{ toolSpec: { name: REPORT, inputSchema: { json: schema } } }] }, additionalModelRequestFields: { tool_choice: { type: "auto", disable_parallel_tool_use: true } } },
    response: { output: { message: { role: "assistant", content: [1, 2].map((n) => ({ toolUse: { toolUseId: `call_${n}`, name: REPORT, input: { region: "apac" } } })) } }, stopReason: "tool_use", usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
  };
  const cases: Array<[string, string, unknown, string]> = [
    ...["responses", "anthropic", "gemini", "bedrock"].map((target): [string, string, unknown, string] => ["a Chat exchange's extra_body", target, chatExchange, "/request/extra_body/parallel_tool_calls"]),
    ...["chat", "responses", "anthropic", "gemini"].map((target): [string, string, unknown, string] => ["a Converse exchange's additionalModelRequestFields", target, converseExchange, "/request/additionalModelRequestFields/tool_choice/disable_parallel_tool_use"]),
  ];
  test.each(cases)("%s, convert --to %s: the limit is said where the target says it, or the second call left out, and reported", async (_name, target, exchange, path) => {
    const journal = lines(exchange);
    expect(await passing(journal)).toEqual(["call_1"]);
    const { journal: written, losses } = await convert(target, journal);
    expect(await passing(written)).toEqual(["call_1"]);
    expect(losses.filter((loss) => loss.path === path)).toEqual([
      { line: 1, path, code: "form_changed", detail: expect.stringMatching(/ reaches the model as the request's own, and lets its response make one call: written as parallel_tool_calls false at the top of the body, where the request says it$/) },
    ]);
  });
});

// A choice the gate reads as a limit and a target has no form of (one that
// cannot be read, one that forces a tool no function_call runs, allowed_tools
// naming no function) is written as what it allows, so the calls after it
// that it refuses stay refused.
describe("a request body whose tool_choice the target has no form of, and a call after it", { timeout: 60_000 }, () => {
  const later = call("call_1", REPORT);
  const cases: Array<[string, string, Record<string, unknown>]> = [
    ["an Open Responses choice of a type no envelope has", "responses", { model: "m", input: [{ type: "message", role: "user", content: "hi" }], tools, tool_choice: { type: "whatever" } }],
    ["Open Responses allowed_tools naming no function", "responses", { model: "m", input: [{ type: "message", role: "user", content: "hi" }], tools, tool_choice: { type: "allowed_tools", mode: "auto", tools: [] } }],
    ["a Chat choice without a type", "chat", { model: "m", messages: [{ role: "user", content: "hi" }], tools: chatTools, tool_choice: {} }],
    ["a Gemini mode no version has", "gemini", { contents: [{ role: "user", parts: [{ text: "hi" }] }], tools: [{ functionDeclarations: [{ name: REPORT, parameters: schema }] }], toolConfig: { functionCallingConfig: { mode: "SOMETIMES" } } }],
    ["a Bedrock toolChoice of no known kind", "bedrock", { messages: [{ role: "user", content: [{ text: "hi" }] }], toolConfig: { tools: [{ toolSpec: { name: REPORT, inputSchema: { json: schema } } }], toolChoice: { sometimes: {} } } }],
  ];
  const targets = ["responses", "chat", "anthropic", "gemini", "bedrock"];
  test.each(cases.flatMap(([name, source, body]) => targets.filter((target) => target !== source).map((target) => [name, target, body] as const)))("%s, convert --to %s: the call stays refused", async (_name, target, body) => {
    const journal = lines(body, later);
    expect(await passing(journal)).toEqual([]);
    const { journal: written } = await convert(target, journal);
    expect(await passing(written)).toEqual([]);
  });

  test("the choice written says it, reported at the body", async () => {
    const journal = lines({ model: "m", input: [{ type: "message", role: "user", content: "hi" }], tools, tool_choice: { type: "whatever" } }, later);
    const { journal: written, losses } = await convert("chat", journal);
    expect(parse(written)[0]!.tool_choice).toBe("none");
    expect(losses).toContainEqual({ line: 1, path: "", code: "form_changed", detail: expect.stringMatching(/^the request's tool_choice allows no function as the gate reads it, and Chat has no form of it: .* written as tool_choice "none"$/) });
  });

  test("a choice the target writes is written as before", async () => {
    const journal = lines({ model: "m", input: [{ type: "message", role: "user", content: "hi" }], tools, tool_choice: { type: "function", name: REPORT } }, later);
    const { journal: written, losses } = await convert("chat", journal);
    expect(parse(written)[0]!.tool_choice).toEqual({ type: "function", function: { name: REPORT } });
    expect(losses.filter((loss) => loss.code === "form_changed")).toEqual([]);
    expect(await passing(written)).toEqual(["call_1"]);
  });
});
