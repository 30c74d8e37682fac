// A call the gate blocks for what its record says (a namespace, arguments that
// are no JSON text, a response stopped by its error or the content filter, a
// loose message's own stop reason) must stay blocked once converted: where the
// target has no place for the reason, the call is left out with its outputs, or
// the response is written incomplete in the target's words.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const lines = (...records: unknown[]) => records.map((record) => JSON.stringify(record) + "\n").join("");
const parse = (text: string) => text.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

const NAME = "get_latest_sales_report";
const ARGS = '{"region":"apac"}';
const user = { type: "message", role: "user", content: "go" };

/** `convert --to TARGET` of `journal`: what it wrote, and its report. */
async function convert(target: string, journal: string) {
  const report = join(scratchFolder("blocked"), "report.jsonl");
  const converted = await runOrbridge(["convert", "--to", target, "--report", report], journal);
  return { code: converted.code, records: parse(converted.stdout), report: parse(readFileSync(report, "utf8")) };
}

/** The gate's verdicts on `journal`, call_id and whether blocked, for each call. */
async function gateCalls(journal: string) {
  const schema = join(scratchFolder("blocked-schema"), "schema.json");
  writeFileSync(schema, JSON.stringify({ type: "object", required: ["region"], properties: { region: { type: "string" } } }));
  const gated = await runOrbridge(["gate", "--schema", schema, "--format", "json"], journal);
  return parse(gated.stdout).filter((verdict) => verdict.type === "function_call").map((verdict) => [verdict.call_id, verdict.blocked]);
}

const TITLES: Record<string, string> = { chat: "Chat", anthropic: "Anthropic", gemini: "Gemini", bedrock: "Bedrock" };
/** What writing the user's text says: Gemini has no string form of it. */
const USER_LOSSES: Record<string, unknown[]> = {
  chat: [],
  anthropic: [],
  gemini: [{ line: 1, path: "/content", code: "form_changed", detail: "the text is written as one text part, Gemini's only form of a message's content: it comes back as parts, not as a string" }],
  bedrock: [],
};
const USER_LINE: Record<string, unknown> = {
  chat: { role: "user", content: "go" },
  anthropic: { role: "user", content: "go" },
  gemini: { role: "user", parts: [{ text: "go" }] },
  bedrock: { role: "user", content: [{ text: "go" }] },
};

describe.each(["chat", "anthropic", "gemini", "bedrock"])("loose items, convert --to %s", { timeout: 30_000 }, (target) => {
  test("a call of a namespace is left out with its output, each reported on its line", async () => {
    const journal = lines(user, { type: "function_call", id: "fc_1", namespace: "billing", name: NAME, call_id: "call_ns", status: "completed", arguments: ARGS }, { type: "function_call_output", call_id: "call_ns", output: "x" });
    const { code, records, report } = await convert(target, journal);
    expect(code).toBe(0);
    expect(records).toEqual([USER_LINE[target]]);
    expect(report).toEqual([
      { line: 2, path: "", code: "unsupported_item", detail: `the call "call_ns" is of namespace "billing", a tool other than the function of its name: ${TITLES[target]} has no namespace for a call, and written there it would read as a call that may run, so it is left out` },
      { line: 3, path: "", code: "unsupported_item", detail: 'the output answers the call "call_ns", left out for its namespace: it is left out with it' },
      ...USER_LOSSES[target]!,
    ]);
  });
});

// The gate blocks a call whose item id no provider gives it (a placeholder, a
// call id in `id`); no envelope but Open Responses has item ids, so written
// there the call would read as one that may run.
describe.each(["chat", "anthropic", "gemini", "bedrock"])("a call whose id the gate refuses, convert --to %s", { timeout: 30_000 }, (target) => {
  test("a loose item's call is left out with its output, each reported on its line", async () => {
    const journal = lines(user, { type: "function_call", id: "__fake_id__", name: NAME, call_id: "call_fake", status: "completed", arguments: ARGS }, { type: "function_call_output", call_id: "call_fake", output: "x" });
    expect(await gateCalls(journal)).toEqual([["call_fake", true]]);
    const { code, records, report } = await convert(target, journal);
    expect(code).toBe(0);
    expect(records).toEqual([USER_LINE[target]]);
    expect(report).toEqual([
      { line: 2, path: "", code: "unsupported_item", detail: `the call "call_fake" has an id the gate refuses ("__fake_id__" is a placeholder id): ${TITLES[target]} has no item ids, so that id cannot go with it, and written there it would read as a call that may run, so it is left out` },
      { line: 3, path: "", code: "unsupported_item", detail: 'the output answers the call "call_fake", left out for its id: it is left out with it' },
      ...USER_LOSSES[target]!,
    ]);
  });

  test("a request body's call is left out with its output", async () => {
    const journal = lines({ model: "m", input: [user, { type: "function_call", id: "call_in", name: NAME, call_id: "call_in", status: "completed", arguments: ARGS }, { type: "function_call_output", call_id: "call_in", output: "x" }] });
    expect(await gateCalls(journal)).toEqual([["call_in", true]]);
    const { records, report } = await convert(target, journal);
    expect(report.filter((loss) => loss.code === "unsupported_item").map((loss) => loss.path)).toEqual(["/input/1", "/input/2"]);
    expect(await gateCalls(lines(...records))).toEqual([]);
  });

  test("a completed response holding such a call is written incomplete, and the call stays blocked", async () => {
    const journal = lines({ id: "resp_1", object: "response", created_at: 1, status: "completed", model: "m", output: [{ type: "function_call", id: "call_out", name: NAME, call_id: "call_out", status: "completed", arguments: ARGS }] });
    expect(await gateCalls(journal)).toEqual([["call_out", true]]);
    const { records } = await convert(target, journal);
    expect(await gateCalls(lines(...records))).toEqual([["call_out", true]]);
  });

  test("a call whose id a provider gives converts as before, and passes", async () => {
    const journal = lines(user, { type: "function_call", id: "fc_1", name: NAME, call_id: "call_1", status: "completed", arguments: ARGS });
    expect(await gateCalls(lines(...(await convert(target, journal)).records))).toEqual([["call_1", false]]);
  });
});

// The gate blocks the later of two items of one record that give one id; with
// the ids gone, nothing would tell the two calls apart from two that may run.
describe.each(["chat", "anthropic", "gemini", "bedrock"])("a call whose id an item before it gave, convert --to %s", { timeout: 30_000 }, (target) => {
  const call = (callId: string) => ({ type: "function_call", id: "fc_1", name: NAME, call_id: callId, status: "completed", arguments: ARGS });

  test("in loose items: the later call is left out with its output, each reported on its line", async () => {
    const journal = lines(user, call("call_a"), call("call_b"), { type: "function_call_output", call_id: "call_a", output: "x" }, { type: "function_call_output", call_id: "call_b", output: "y" });
    expect(await gateCalls(journal)).toEqual([["call_a", false], ["call_b", true]]);
    const { records, report } = await convert(target, journal);
    expect(report.filter((loss) => loss.code === "unsupported_item")).toEqual([
      { line: 3, path: "", code: "unsupported_item", detail: `the call "call_b" has the id "fc_1" of an item before it, which the gate refuses: ${TITLES[target]} has no item ids, so that id cannot go with it, and written there it would read as a call that may run, so it is left out` },
      { line: 5, path: "", code: "unsupported_item", detail: 'the output answers the call "call_b", left out for its id: it is left out with it' },
    ]);
    expect(await gateCalls(lines(...records))).toEqual([["call_a", false]]);
  });

  test("in a request body's input: the later call is left out", async () => {
    const journal = lines({ model: "m", input: [user, call("call_a"), call("call_b")] });
    expect(await gateCalls(journal)).toEqual([["call_a", false], ["call_b", true]]);
    const { records, report } = await convert(target, journal);
    expect(report.filter((loss) => loss.code === "unsupported_item").map((loss) => loss.path)).toEqual(["/input/2"]);
    expect(await gateCalls(lines(...records))).toEqual([["call_a", false]]);
  });

  test("in a completed response: written incomplete, and the later call stays blocked", async () => {
    const journal = lines({ id: "resp_1", object: "response", created_at: 1, status: "completed", model: "m", output: [call("call_a"), call("call_b")] });
    expect(await gateCalls(journal)).toEqual([["call_a", false], ["call_b", true]]);
    const { records } = await convert(target, journal);
    expect((await gateCalls(lines(...records))).find(([callId]) => callId === "call_b")).toEqual(["call_b", true]);
  });

  test("in a stream of events: the response is written incomplete, and the later call stays blocked", async () => {
    const response = { id: "resp_1", object: "response", created_at: 1, status: "in_progress", model: "m", output: [] };
    const journal = lines(
      { type: "response.created", sequence_number: 0, response },
      { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: call("call_a") },
      { type: "response.output_item.done", sequence_number: 2, output_index: 0, item: call("call_a") },
      { type: "response.output_item.added", sequence_number: 3, output_index: 1, item: call("call_b") },
      { type: "response.output_item.done", sequence_number: 4, output_index: 1, item: call("call_b") },
      { type: "response.completed", sequence_number: 5, response: { ...response, status: "completed", output: [call("call_a"), call("call_b")] } },
    );
    expect(await gateCalls(journal)).toEqual([["call_a", false], ["call_b", true]]);
    const { records } = await convert(target, journal);
    expect((await gateCalls(lines(...records))).find(([callId]) => callId === "call_b")).toEqual(["call_b", true]);
  });
});

// The gate blocks a call without a call_id (missing_field): no output can be
// paired with it. Every other envelope writes an id of its own in its place.
describe.each(["chat", "anthropic", "gemini", "bedrock"])("a call without a call_id, convert --to %s", { timeout: 30_000 }, (target) => {
  test("a loose item's call, with none, an empty one or a number, is left out, each reported on its line", async () => {
    const call = { type: "function_call", id: "fc_1", name: NAME, status: "completed", arguments: ARGS };
    const journal = lines(user, call, { ...call, id: "fc_2", call_id: "" }, { ...call, id: "fc_3", call_id: 7 });
    expect(await gateCalls(journal)).toEqual([[undefined, true], ["", true], [7, true]]);
    const { records, report } = await convert(target, journal);
    expect(records).toEqual([USER_LINE[target]]);
    const leftOut = (why: string) => `${why}, which the gate blocks: ${TITLES[target]} writes an id of its own in its place, and written there it would read as a call that may run, so it is left out`;
    expect(report).toEqual([
      { line: 2, path: "", code: "unsupported_item", detail: `the call without call_id ${leftOut("gives none")}` },
      { line: 3, path: "", code: "unsupported_item", detail: `the call "" ${leftOut("gives an empty call_id")}` },
      { line: 4, path: "", code: "unsupported_item", detail: `the call without call_id ${leftOut("gives a number in its place")}` },
      ...USER_LOSSES[target]!,
    ]);
  });

  test("a completed response holding such a call is written incomplete, and the call stays blocked", async () => {
    const journal = lines({ id: "resp_1", object: "response", created_at: 1, status: "completed", model: "m", output: [{ type: "function_call", id: "fc_1", name: NAME, status: "completed", arguments: ARGS }] });
    expect(await gateCalls(journal)).toEqual([[undefined, true]]);
    const { records } = await convert(target, journal);
    expect((await gateCalls(lines(...records))).map(([, blocked]) => blocked)).toEqual([true]);
  });
});

describe.each(["anthropic", "gemini", "bedrock"])("arguments that are an object, convert --to %s", { timeout: 30_000 }, (target) => {
  test("a loose Chat message's call is left out with its tool message", async () => {
    const journal = lines({ role: "user", content: "go" }, { role: "assistant", content: null, tool_calls: [{ id: "call_obj", type: "function", function: { name: NAME, arguments: { region: "apac" } } }] }, { role: "tool", tool_call_id: "call_obj", content: "x" });
    const { records, report } = await convert(target, journal);
    expect(records).toEqual([USER_LINE[target]]);
    expect(report.filter((loss) => loss.code === "unsupported_item")).toEqual([
      { line: 2, path: "", code: "unsupported_item", detail: `the call "call_obj" has arguments that are an object, not a JSON text: ${TITLES[target]} writes arguments as an object, where that reads as valid input, and written there it would read as a call that may run, so it is left out` },
      { line: 3, path: "", code: "unsupported_item", detail: 'the output answers the call "call_obj", left out for its arguments: it is left out with it' },
    ]);
    expect(await gateCalls(lines(...records))).toEqual([]);
  });
});

// Empty arguments are no JSON text, and the gate blocks them; Anthropic, Gemini
// and Bedrock write them as the empty object, which a schema without required
// members accepts.
describe.each(["anthropic", "gemini", "bedrock"])("empty arguments, convert --to %s", { timeout: 30_000 }, (target) => {
  const noParameters = async (journal: string) => {
    const schema = join(scratchFolder("blocked-empty-schema"), "schema.json");
    writeFileSync(schema, JSON.stringify({ type: "object", properties: {} }));
    const gated = await runOrbridge(["gate", "--schema", schema, "--format", "json"], journal);
    return parse(gated.stdout).filter((verdict) => verdict.type === "function_call" && verdict.blocked === false).map((verdict) => verdict.call_id);
  };
  const emptyCall = { id: "call_empty", type: "function", function: { name: NAME, arguments: "" } };

  test("a loose Chat message's call is left out with its tool message", async () => {
    const journal = lines({ role: "user", content: "go" }, { role: "assistant", content: null, tool_calls: [emptyCall] }, { role: "tool", tool_call_id: "call_empty", content: "x" });
    expect(await noParameters(journal)).toEqual([]);
    const { records, report } = await convert(target, journal);
    expect(records).toEqual([USER_LINE[target]]);
    expect(report.filter((loss) => loss.code === "unsupported_item")).toEqual([
      { line: 2, path: "", code: "unsupported_item", detail: `the call "call_empty" has empty arguments, not a JSON text: ${TITLES[target]} writes them as the empty object, where that reads as valid input, and written there it would read as a call that may run, so it is left out` },
      { line: 3, path: "", code: "unsupported_item", detail: 'the output answers the call "call_empty", left out for its arguments: it is left out with it' },
    ]);
    expect(await noParameters(lines(...records))).toEqual([]);
  });

  test("each loss of a call left out names the message that made it and the line of its tool message, where a message makes several calls", async () => {
    const valid = { id: "call_valid", type: "function", function: { name: NAME, arguments: "{}" } };
    const journal = lines({ role: "assistant", content: null, tool_calls: [valid, emptyCall] }, { role: "tool", tool_call_id: "call_valid", content: "a" }, { role: "tool", tool_call_id: "call_empty", content: "b" });
    const { report } = await convert(target, journal);
    expect(report.filter((loss) => loss.code === "unsupported_item")).toEqual([
      { line: 1, path: "", code: "unsupported_item", detail: `the call "call_empty" has empty arguments, not a JSON text: ${TITLES[target]} writes them as the empty object, where that reads as valid input, and written there it would read as a call that may run, so it is left out` },
      { line: 3, path: "", code: "unsupported_item", detail: 'the output answers the call "call_empty", left out for its arguments: it is left out with it' },
    ]);
  });

  test("a Chat request body's call is left out with its tool message, each reported at the message that holds it", async () => {
    const journal = lines({ model: "m", messages: [{ role: "user", content: "go" }, { role: "assistant", content: "checking", tool_calls: [emptyCall] }, { role: "tool", tool_call_id: "call_empty", content: "x" }] });
    const { report } = await convert(target, journal);
    expect(report.filter((loss) => loss.code === "unsupported_item")).toEqual([
      { line: 1, path: "/messages/1/tool_calls/0", code: "unsupported_item", detail: `the call "call_empty" has empty arguments, not a JSON text: ${TITLES[target]} writes them as the empty object, where that reads as valid input, and written there it would read as a call that may run, so it is left out` },
      { line: 1, path: "/messages/2", code: "unsupported_item", detail: 'the output answers the call "call_empty", left out for its arguments: it is left out with it' },
    ]);
  });

  test("a chat.completion holding such a call is written cut, and the call stays blocked", async () => {
    const journal = lines({ id: "chatcmpl-1", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [emptyCall] }, finish_reason: "tool_calls" }] });
    expect(await noParameters(journal)).toEqual([]);
    const { records } = await convert(target, journal);
    expect(await noParameters(lines(...records))).toEqual([]);
  });

  test('arguments "{}" are written as the empty object, and the call passes as before', async () => {
    const journal = lines({ role: "user", content: "go" }, { role: "assistant", content: null, tool_calls: [{ ...emptyCall, function: { name: NAME, arguments: "{}" } }] });
    expect(await noParameters(journal)).toEqual(["call_empty"]);
    expect(await noParameters(lines(...(await convert(target, journal)).records))).toEqual(["call_empty"]);
  });
});

describe("arguments that are an object, convert --to chat", () => {
  test("a loose item's call is written as it is, where the gate still blocks it", async () => {
    const journal = lines(user, { type: "function_call", id: "fc_1", name: NAME, call_id: "call_obj", status: "completed", arguments: { region: "apac" } });
    const { records } = await convert("chat", journal);
    expect(records).toEqual([{ role: "user", content: "go" }, { role: "assistant", content: null, tool_calls: [{ id: "call_obj", type: "function", function: { name: NAME, arguments: { region: "apac" } } }] }]);
    expect(await gateCalls(lines(...records))).toEqual([["call_obj", true]]);
  });
});

const response = (extra: Record<string, unknown>, call: Record<string, unknown> = {}) => ({
  id: "resp_1",
  object: "response",
  created_at: 1,
  status: "completed",
  model: "gpt-4o",
  output: [{ type: "function_call", id: "fc_1", call_id: "call_1", name: NAME, arguments: ARGS, status: "completed", ...call }],
  ...extra,
});

/** Where each target writes how a response ended, and the word it writes for a cut one and a filtered one. */
const ENDED: Record<string, { read: (record: Record<string, unknown>) => unknown; cut: string; filtered: string }> = {
  chat: { read: (record) => (record.choices as Array<Record<string, unknown>>)[0]!.finish_reason, cut: "length", filtered: "content_filter" },
  anthropic: { read: (record) => record.stop_reason, cut: "max_tokens", filtered: "refusal" },
  gemini: { read: (record) => (record.candidates as Array<Record<string, unknown>>)[0]!.finishReason, cut: "MAX_TOKENS", filtered: "SAFETY" },
  bedrock: { read: (record) => record.stopReason, cut: "max_tokens", filtered: "content_filtered" },
};

describe.each(["chat", "anthropic", "gemini", "bedrock"])("a completed response object, convert --to %s", { timeout: 30_000 }, (target) => {
  test("stopped by the content filter in its incomplete_details: written as filtered, and its call stays blocked", async () => {
    const { records, report } = await convert(target, lines(response({ incomplete_details: { reason: "content_filter" } })));
    expect(ENDED[target]!.read(records[0]!)).toBe(ENDED[target]!.filtered);
    expect(report.filter((loss) => loss.path === "/incomplete_details")).toEqual([
      { line: 1, path: "/incomplete_details", code: "form_changed", detail: `the content filter stopped the response: ${TITLES[target]} has no place for it beside a finished response, so the response is written as incomplete, and its calls read back incomplete` },
    ]);
    expect(await gateCalls(lines(...records))).toEqual([["call_1", true]]);
  });

  test("completed with incomplete_details of max_output_tokens: written as cut, and its call stays blocked", async () => {
    const { records, report } = await convert(target, lines(response({ incomplete_details: { reason: "max_output_tokens" } })));
    expect(ENDED[target]!.read(records[0]!)).toBe(ENDED[target]!.cut);
    expect(report.filter((loss) => loss.path === "/incomplete_details" && loss.code === "form_changed")).toEqual([
      { line: 1, path: "/incomplete_details", code: "form_changed", detail: `the response gives incomplete_details {"reason":"max_output_tokens"} beside the status "completed", so a reader that goes by its details takes its calls for cut: ${TITLES[target]} has no place for it beside a finished response, so the response is written as incomplete, and its calls read back incomplete` },
    ]);
    expect(await gateCalls(lines(...records))).toEqual([["call_1", true]]);
  });

  test("carrying an error: written as cut, and its call stays blocked", async () => {
    const { records, report } = await convert(target, lines(response({ error: { code: "server_error", message: "failed" } })));
    expect(ENDED[target]!.read(records[0]!)).toBe(ENDED[target]!.cut);
    expect(report.filter((loss) => loss.path === "/error" && loss.code === "form_changed")).toEqual([
      { line: 1, path: "/error", code: "form_changed", detail: `the response carries an error: ${TITLES[target]} has no place for it beside a finished response, so the response is written as incomplete, and its calls read back incomplete` },
    ]);
    expect(await gateCalls(lines(...records))).toEqual([["call_1", true]]);
  });

  test("holding a call of a namespace: written as cut, and the call stays blocked", async () => {
    const { records, report } = await convert(target, lines(response({}, { namespace: "ns" })));
    expect(ENDED[target]!.read(records[0]!)).toBe(ENDED[target]!.cut);
    expect(report.filter((loss) => loss.code === "form_changed")).toEqual([
      { line: 1, path: "/output/0/namespace", code: "form_changed", detail: `the call "call_1" is of namespace "ns", a tool other than the function of its name: ${TITLES[target]} marks only a whole response unfinished, so the response is written as incomplete, and its calls read back incomplete` },
    ]);
    expect(await gateCalls(lines(...records))).toEqual([["call_1", true]]);
  });

  test("a response that passes is written as it was: finished, its call passing", async () => {
    const { records } = await convert(target, lines(response({})));
    expect(ENDED[target]!.read(records[0]!)).toBe(target === "chat" ? "tool_calls" : target === "gemini" ? "STOP" : "tool_use");
    expect(await gateCalls(lines(...records))).toEqual([["call_1", false]]);
  });
});

/** One loose assistant message of each envelope, cut by its own stop reason, with the call it holds. */
const CUT_MESSAGES: Record<string, unknown> = {
  chat: { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: NAME, arguments: ARGS } }], finish_reason: "length" },
  anthropic: { role: "assistant", content: [{ type: "tool_use", id: "call_1", name: NAME, input: { region: "apac" } }], stop_reason: "max_tokens" },
  gemini: { role: "model", parts: [{ functionCall: { id: "call_1", name: NAME, args: { region: "apac" } } }], finishReason: "MAX_TOKENS" },
  bedrock: { role: "assistant", content: [{ toolUse: { toolUseId: "call_1", name: NAME, input: { region: "apac" } } }], stopReason: "guardrail_intervened" },
};

describe.each(Object.keys(CUT_MESSAGES).filter((source) => source !== "chat"))("a loose %s message cut by its stop reason", { timeout: 30_000 }, (source) => {
  test.each(Object.keys(TITLES).filter((target) => target !== source))("convert --to %s leaves its call out, reported at the message", async (target) => {
    const { records, report } = await convert(target, lines(USER_LINE[source], CUT_MESSAGES[source]));
    // The user line is written as it is on its own: the cut message adds nothing.
    expect(records).toEqual((await convert(target, lines(USER_LINE[source]))).records);
    expect(report.filter((loss) => loss.code === "unsupported_item")).toEqual([
      { line: 2, path: "", code: "unsupported_item", detail: `the call "call_1" is "incomplete": ${TITLES[target]} cannot mark one call unfinished, and written there it would read as a call that may run, so it is left out` },
    ]);
    expect(report.filter((loss) => loss.path.startsWith("/0"))).toEqual([]);
  });
});

describe.each(["anthropic", "gemini", "bedrock"])("a loose Chat message cut by finish_reason, convert --to %s", { timeout: 30_000 }, (target) => {
  test("the call is left out, and nothing written passes", async () => {
    const { records } = await convert(target, lines({ role: "user", content: "go" }, CUT_MESSAGES.chat));
    expect(records).toEqual([USER_LINE[target]]);
  });
});

/** The gate's verdicts on `journal` against the tools named in the sales examples, which names no namespace. */
async function gateCallsByTools(journal: string) {
  const gated = await runOrbridge(["gate", "--tools", "golden/examples/sales-tools.json", "--format", "json"], journal);
  return parse(gated.stdout).filter((verdict) => verdict.type === "function_call").map((verdict) => [verdict.call_id, verdict.blocked]);
}

describe("a stream of Open Responses events, converted whole", () => {
  const call = (id: string, extra: Record<string, unknown> = {}) => ({ id: `fc_${id}`, type: "function_call", status: "completed", arguments: ARGS, call_id: `call_${id}`, name: NAME, ...extra });
  const events = (first: Record<string, unknown>, second: Record<string, unknown>, cut = false) => {
    const list: unknown[] = [
      { type: "response.created", response: { id: "resp_1", object: "response", status: "in_progress", output: [] } },
      { type: "response.output_item.added", output_index: 0, item: { ...first, status: "in_progress", arguments: "" } },
      { type: "response.output_item.done", output_index: 0, item: first },
      { type: "response.output_item.added", output_index: 1, item: { ...second, status: "in_progress", arguments: "" } },
      { type: "response.output_item.done", output_index: 1, item: second },
      { type: "response.completed", response: { id: "resp_1", object: "response", status: "completed", output: [first, second] } },
    ];
    return cut ? lines(...list.slice(0, 3)) + "{cut\n" + lines(...list.slice(3)) : lines(...list);
  };

  test.each(["chat", "anthropic", "gemini", "bedrock"])("a call of a namespace before another call: no call passes in %s", async (target) => {
    const journal = events(call("a", { namespace: "billing" }), call("b"));
    expect(await gateCallsByTools(journal)).toEqual([["call_a", true], ["call_b", false]]);
    const converted = await convert(target, journal);
    expect((await gateCallsByTools(converted.records.map((record) => JSON.stringify(record)).join("\n") + "\n")).filter(([, blocked]) => !blocked)).toEqual([]);
    if (target !== "chat") expect(converted.report).toContainEqual(expect.objectContaining({ code: "unsupported_item", line: 6, path: "/response/output/1", detail: expect.stringContaining(`${TITLES[target]} reads only the last block of an unfinished response as cut`) }));
  });

  test.each(["anthropic", "gemini", "bedrock"])("a stream damaged before its second call: %s keeps only the first call, the last block, which reads cut", async (target) => {
    const journal = events(call("a"), call("b"), true);
    expect((await gateCallsByTools(journal)).every(([, blocked]) => blocked)).toBe(true);
    const converted = await convert(target, journal);
    const gated = await gateCallsByTools(converted.records.map((record) => JSON.stringify(record)).join("\n") + "\n");
    expect(gated).toEqual([["call_a", true]]);
  });

  test("a stream neither damaged nor blocked converts as before: both calls pass in every target", async () => {
    for (const target of ["chat", "anthropic", "gemini", "bedrock"]) {
      const converted = await convert(target, events(call("a"), call("b")));
      expect(await gateCallsByTools(converted.records.map((record) => JSON.stringify(record)).join("\n") + "\n")).toEqual([["call_a", false], ["call_b", false]]);
    }
  });
});

// The gate keeps every id of the journal: a call whose call_id or item id an
// item of an earlier record gave is blocked (duplicate_call_id, duplicate_id).
// Where the target never sees the first (left out, dropped, written without
// id) or has no item ids, the later call is left out, or its response written
// incomplete, as a call blocked for what its own record says.
describe.each(["chat", "anthropic", "gemini", "bedrock"])("a call that repeats an id of an earlier record, convert --to %s", { timeout: 30_000 }, (target) => {
  const call = (id: string, callId: string, status = "completed") => ({ type: "function_call", id, name: NAME, call_id: callId, status, arguments: ARGS });
  const completed = (id: string, output: unknown[]) => ({ id, object: "response", created_at: 1, status: "completed", model: "m", output });

  test("a call_id whose first call was left out unfinished: the later call is left out too", async () => {
    const journal = lines(call("fc_1", "call_1", "in_progress"), user, call("fc_2", "call_1"));
    expect(await gateCalls(journal)).toEqual([["call_1", true], ["call_1", true]]);
    const { records, report } = await convert(target, journal);
    expect(records).toEqual([USER_LINE[target]]);
    expect(report.filter((loss) => loss.line === 3)).toEqual([
      { line: 3, path: "", code: "unsupported_item", detail: `the call "call_1" gives the call_id an item of line 1 gave, which the gate refuses (duplicate_call_id): ${TITLES[target]} is written that item without its call_id, or not at all, so this call would read there as the first to give it, and written there it would read as a call that may run, so it is left out` },
    ]);
  });

  test("a call_id an extension call gave first, which the target drops: the later call is left out", async () => {
    const journal = lines(user, { type: "openai:custom_tool_call", id: "ctc_1", call_id: "call_1", name: "code", input: "x" }, user, call("fc_2", "call_1"));
    expect(await gateCalls(journal)).toEqual([["call_1", true]]);
    const { records } = await convert(target, journal);
    expect(await gateCalls(lines(...records))).toEqual([]);
  });

  test("an item id a call of an earlier response gave: the later response is written incomplete, and its call stays blocked", async () => {
    const journal = lines(completed("resp_1", [call("fc_1", "call_a")]), completed("resp_2", [call("fc_1", "call_b")]));
    expect(await gateCalls(journal)).toEqual([["call_a", false], ["call_b", true]]);
    const { records, report } = await convert(target, journal);
    expect(report.filter((loss) => loss.code === "form_changed" && loss.line === 2)).toEqual([
      { line: 2, path: "/output/0/id", code: "form_changed", detail: `the call "call_b" has the id "fc_1" an item of line 1 gave, which the gate refuses (duplicate_id): ${TITLES[target]} marks only a whole response unfinished, so the response is written as incomplete, and its calls read back incomplete` },
    ]);
    expect(await gateCalls(lines(...records))).toEqual([["call_a", false], ["call_b", true]]);
  });

  test("a call_id whose first call was written: the later call is written, and the target's gate blocks it", async () => {
    const journal = lines(call("fc_1", "call_1"), user, call("fc_2", "call_1"));
    const { records, report } = await convert(target, journal);
    expect(report.filter((loss) => loss.code === "unsupported_item")).toEqual([]);
    expect(await gateCalls(lines(...records))).toEqual([["call_1", false], ["call_1", true]]);
  });

  test("a request that replays the conversation so far repeats no id: its calls are written, and pass", async () => {
    const output = { type: "function_call_output", call_id: "call_1", output: "x" };
    // The request offers the tool its response calls, as a response after a request body answers it.
    const tools = [{ type: "function", name: NAME, parameters: { type: "object" } }];
    const journal = lines({ model: "m", input: [user], tools }, completed("resp_1", [call("fc_1", "call_1")]), { model: "m", input: [user, call("fc_1", "call_1"), output], tools });
    expect(await gateCalls(journal)).toEqual([["call_1", false]]);
    const { report } = await convert(target, journal);
    expect(report.filter((loss) => loss.code === "unsupported_item" || (loss.code === "form_changed" && /refuses/.test(String(loss.detail))))).toEqual([]);
  });
});

// A call_id of the form Gemini's reader makes for a call without id goes back
// to Gemini without one, and its reader makes it again from the call's rank,
// name and arguments: two calls that give it differ there, where the gate
// blocked the second.
describe("a gemini_call_… call_id two records give, convert --to gemini", { timeout: 30_000 }, () => {
  const completion = (id: string, args: string) => ({
    id,
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "gemini_call_0123456789abcdef", type: "function", function: { name: NAME, arguments: args } }] }, finish_reason: "tool_calls" }],
  });

  test("the later response is written incomplete, and its call stays blocked", async () => {
    const journal = lines(completion("chatcmpl-1", ARGS), completion("chatcmpl-2", '{"region":"emea"}'));
    expect((await gateCalls(journal)).map(([, blocked]) => blocked)).toEqual([false, true]);
    const { records } = await convert("gemini", journal);
    expect(records.map((record) => ENDED.gemini!.read(record))).toEqual(["STOP", "MAX_TOKENS"]);
    expect((await gateCalls(lines(...records))).map(([, blocked]) => blocked)).toEqual([false, true]);
  });

  test("a request that replays such a call under other instructions keeps it: Gemini's reader makes its id again alike", async () => {
    const geminiCall = { type: "function_call", name: NAME, call_id: "gemini_call_0123456789abcdef", status: "completed", arguments: ARGS };
    const output = { type: "function_call_output", call_id: "gemini_call_0123456789abcdef", output: "x" };
    const tools = [{ type: "function", name: NAME, parameters: { type: "object", properties: { region: { type: "string" } } } }];
    const journal = lines(
      { request: { model: "m", instructions: "one", tools, input: [user] }, response: { id: "resp_1", object: "response", created_at: 1, status: "completed", model: "m", output: [geminiCall] } },
      { request: { model: "m", instructions: "two", tools, input: [user, geminiCall, output] }, response: { id: "resp_2", object: "response", created_at: 2, status: "completed", model: "m", output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }] }] } },
    );
    // Other instructions over the same history replay it (an agent's handoff): the call is judged once, on its own line.
    expect((await gateCalls(journal)).map(([, blocked]) => blocked)).toEqual([false]);
    const { records, report } = await convert("gemini", journal);
    expect(report.filter((loss) => loss.code === "unsupported_item")).toEqual([]);
    expect((await gateCalls(lines(...records))).map(([, blocked]) => blocked)).toEqual([false]);
  });
});

// Anthropic, Gemini and Bedrock give a call's results in the next message, a
// record of its own: a call left out takes them with it there too, else they
// answer no call, which the gate blocks and the providers reject.
describe.each([
  ["anthropic", "gemini"],
  ["anthropic", "bedrock"],
  ["bedrock", "anthropic"],
])("a call left out and its results in the next message, %s to %s", { timeout: 30_000 }, (source, target) => {
  const SOURCE: Record<string, unknown[]> = {
    anthropic: [
      { role: "assistant", content: [{ type: "tool_use", id: "call_valid", name: NAME, input: { region: "apac" } }, { type: "tool_use", id: "call_empty", name: NAME, input: "" }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_valid", content: "a" }, { type: "tool_result", tool_use_id: "call_empty", content: "b" }] },
    ],
    bedrock: [
      { role: "assistant", content: [{ toolUse: { toolUseId: "call_valid", name: NAME, input: { region: "apac" } } }, { toolUse: { toolUseId: "call_empty", name: NAME, input: "" } }] },
      { role: "user", content: [{ toolResult: { toolUseId: "call_valid", content: [{ text: "a" }] } }, { toolResult: { toolUseId: "call_empty", content: [{ text: "b" }] } }] },
    ],
  };

  test("the result of the call left out is left out with it, reported on its line, and the other call and its result are written", async () => {
    const journal = lines(...SOURCE[source]!);
    const { code, records, report } = await convert(target, journal);
    expect(code).toBe(0);
    expect(report.filter((loss) => loss.code === "unsupported_item")).toEqual([
      { line: 1, path: "", code: "unsupported_item", detail: `the call "call_empty" has empty arguments, not a JSON text: ${TITLES[target]} writes them as the empty object, where that reads as valid input, and written there it would read as a call that may run, so it is left out` },
      { line: 2, path: "", code: "unsupported_item", detail: 'the output answers the call "call_empty", left out on line 1: it is left out with it' },
    ]);
    const schema = join(scratchFolder("left-results"), "schema.json");
    writeFileSync(schema, JSON.stringify({ type: "object", required: ["region"], properties: { region: { type: "string" } } }));
    const verdicts = parse((await runOrbridge(["gate", "--schema", schema, "--format", "json"], lines(...records))).stdout);
    expect(verdicts.map((verdict) => [verdict.type, verdict.call_id, verdict.blocked])).toEqual([
      ["function_call", "call_valid", false],
      ["function_call_output", "call_valid", false],
    ]);
  });
});
