// The gate judges a conversation, not the envelope it was written in. Each
// conversation below is written in Chat Completions, converted by the CLI to
// every envelope (`convert --to`) and back to Chat, and gated in each form: the
// verdicts and findings must be those of the Chat original, call for call. Then
// each goes once round all five envelopes (chat → responses → anthropic → gemini
// → bedrock → chat) and must come back with its texts, tool names, call ids (or
// the rewrites the report names) and argument values.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

type Json = Record<string, unknown>;

const weather = { type: "object", additionalProperties: false, required: ["city"], properties: { city: { type: "string" } } };
const tools = [{ type: "function", function: { name: "get_weather", description: "Weather for a city", parameters: weather } }];
const request = (messages: unknown[]) => ({ model: "gpt-4.1", messages, tools });
const completion = (id: string, message: Json, finishReason = "tool_calls") => ({ id, object: "chat.completion", created: 1, model: "gpt-4.1", choices: [{ index: 0, message, finish_reason: finishReason }] });
const call = (id: string, name: string, args: string) => ({ id, type: "function", function: { name, arguments: args } });
const chunk = (id: string, delta: Json, finishReason: string | null = null) => ({ id, object: "chat.completion.chunk", created: 1, model: "gpt-4.1", choices: [{ index: 0, delta, finish_reason: finishReason }] });
const user = (content: string) => ({ role: "user", content });
const tool = (callId: string, content: string) => ({ role: "tool", tool_call_id: callId, content });

const CONVERSATIONS: Record<string, Json[]> = {
  "parallel calls that may run, with text beside them": [
    request([{ role: "system", content: "You answer with the weather." }, user("Weather in Paris and Lyon?")]),
    completion("c1", { role: "assistant", content: "Checking both.", tool_calls: [call("call_01", "get_weather", '{"city":"Paris"}'), call("call_02", "get_weather", '{"city":"Lyon"}')] }),
    tool("call_01", "Sunny"),
    tool("call_02", "Rain"),
    completion("c2", { role: "assistant", content: "Paris is sunny, Lyon rainy." }, "stop"),
  ],
  "arguments outside the schema, arguments cut, an unknown tool and an output for a blocked call": [
    request([user("Weather in Paris, Lyon and Nice?")]),
    completion("c1", { role: "assistant", content: null, tool_calls: [call("call_11", "get_weather", '{"town":"Paris"}'), call("call_12", "get_weather", '{"city":"Lyon"'), call("call_13", "get_forecast", '{"city":"Nice"}')] }),
    tool("call_11", "Sunny"),
  ],
  "an output that answers no call": [request([user("Weather in Bern?")]), completion("c1", { role: "assistant", content: null, tool_calls: [call("call_41", "get_weather", '{"city":"Bern"}')] }), tool("call_41", "Snow"), tool("call_99", "Nobody asked")],
  "a call passed by without its output": [
    request([user("Weather in Turin, then Milan?")]),
    completion("c1", { role: "assistant", content: null, tool_calls: [call("call_51", "get_weather", '{"city":"Turin"}')] }),
    user("Never mind Turin: Milan?"),
    completion("c2", { role: "assistant", content: null, tool_calls: [call("call_52", "get_weather", '{"city":"Milan"}')] }),
    tool("call_52", "Fog"),
  ],
  "a stream cut inside a call": [
    request([user("Weather in Oslo?")]),
    chunk("s1", { role: "assistant", tool_calls: [{ index: 0, id: "call_21", type: "function", function: { name: "get_weather", arguments: '{"ci' } }] }),
    chunk("s1", { tool_calls: [{ index: 0, function: { arguments: 'ty":"Oslo"}' } }] }),
  ],
  "a call cut by max tokens": [request([user("Weather in Rome?")]), completion("c3", { role: "assistant", content: null, tool_calls: [call("call_31", "get_weather", '{"city":"Ro')] }, "length")],
  "call ids another provider refuses, rewritten for the call and its output": [
    request([user("Weather in Kyoto?")]),
    completion("c1", { role: "assistant", content: "One moment.", tool_calls: [call("functions.get_weather:0", "get_weather", '{"city":"Kyoto"}')] }),
    tool("functions.get_weather:0", "Clear"),
  ],
};

/** The Chat original's verdicts: call_id, reason, findings, for each call, each output and each item with a finding. */
const EXPECTED: Record<string, unknown[]> = {
  "parallel calls that may run, with text beside them": [
    ["call_01", "ok", []],
    ["call_02", "ok", []],
    ["call_01", "not_function_call", []],
    ["call_02", "not_function_call", []],
  ],
  "arguments outside the schema, arguments cut, an unknown tool and an output for a blocked call": [
    ["call_11", "arguments_schema", []],
    ["call_12", "arguments_parse", []],
    ["call_13", "unknown_tool", ["tool_not_allowed"]],
    ["call_11", "not_function_call", ["output_for_blocked_call"]],
  ],
  "an output that answers no call": [
    ["call_41", "ok", []],
    ["call_41", "not_function_call", []],
    ["call_99", "not_function_call", ["orphan_output"]],
  ],
  "a call passed by without its output": [
    ["call_51", "ok", []],
    [undefined, "not_function_call", ["missing_output"]],
    ["call_52", "ok", []],
    ["call_52", "not_function_call", []],
  ],
  "a stream cut inside a call": [["call_21", "status", []]],
  "a call cut by max tokens": [["call_31", "status", []]],
  "call ids another provider refuses, rewritten for the call and its output": [
    ["functions.get_weather:0", "ok", []],
    ["functions.get_weather:0", "not_function_call", []],
  ],
};

const ENVELOPES = ["chat", "responses", "anthropic", "gemini", "bedrock"] as const;
const folder = scratchFolder("cross-envelope");
const journal = (records: readonly unknown[]) => records.map((record) => JSON.stringify(record)).join("\n") + "\n";
const linesOf = (text: string): Json[] => text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Json);

/** Converts a journal file, and gives the new file and the call-id rewrites its report names. */
async function convert(file: string, to: string): Promise<{ file: string; rewrites: Map<string, string> }> {
  const out = `${file}.${to}.jsonl`;
  const report = `${file}.${to}.report.jsonl`;
  const run = await runOrbridge(["convert", "--to", to, "--out", out, "--report", report, file]);
  expect(run.code).toBe(0);
  const rewrites = new Map<string, string>();
  for (const loss of linesOf(readFileSync(report, "utf8"))) {
    const match = /^call_id (".*") is not of .*: written as (".*"), for the call and its result alike$/.exec(String(loss.detail));
    if (match) rewrites.set(JSON.parse(match[1]!) as string, JSON.parse(match[2]!) as string);
  }
  return { file: out, rewrites };
}

/** What the gate says of each call and output, and every finding, in journal order; ids through `ids`. */
async function verdicts(file: string, ids: (id: unknown) => unknown = (id) => id): Promise<unknown[]> {
  const run = await runOrbridge(["gate", "--format", "json", file]);
  expect(run.code === 0 || run.code === 1).toBe(true);
  return linesOf(run.stdout)
    .filter((verdict) => verdict.type === "function_call" || verdict.type === "function_call_output" || (verdict.findings as unknown[]).length > 0)
    .map((verdict) => ({ type: verdict.type, call_id: ids(verdict.call_id), name: verdict.name, reason: verdict.reason, blocked: verdict.blocked, findings: (verdict.findings as Json[]).map((finding) => finding.code) }));
}

const undo = (rewrites: Map<string, string>) => {
  const back = new Map([...rewrites].map(([original, rewritten]) => [rewritten, original]));
  return (id: unknown) => (typeof id === "string" ? (back.get(id) ?? id) : id);
};

/** Texts, calls (id, name, argument values) and outputs of a Chat journal, in order. */
function conversationOf(records: readonly Json[]): unknown[] {
  const said: unknown[] = [];
  const text = (content: unknown): string => (typeof content === "string" ? content : Array.isArray(content) ? content.map((part) => String((part as Json).text ?? "")).join("") : "");
  const message = (entry: Json) => {
    if (entry.role === "tool") said.push({ output: entry.tool_call_id, text: text(entry.content) });
    else if (text(entry.content) !== "") said.push({ role: entry.role, text: text(entry.content) });
    for (const toolCall of (entry.tool_calls as Json[] | undefined) ?? []) {
      const fn = toolCall.function as Json;
      let args: unknown = fn.arguments;
      try {
        args = JSON.parse(String(fn.arguments));
      } catch {
        // Arguments that are not JSON are compared as the text they are.
      }
      said.push({ call: toolCall.id, name: fn.name, args });
    }
  };
  // A chunk stream is read as the message its deltas add up to.
  let streamed: { content: string; calls: Json[] } | undefined;
  const endStream = () => {
    if (streamed) message({ role: "assistant", content: streamed.content, tool_calls: streamed.calls.map((entry) => ({ id: entry.id, function: { name: entry.name, arguments: entry.arguments } })) });
    streamed = undefined;
  };
  for (const record of records) {
    if (record.object === "chat.completion.chunk") {
      const delta = ((record.choices as Json[])[0] as Json).delta as Json;
      streamed ??= { content: "", calls: [] };
      streamed.content += typeof delta.content === "string" ? delta.content : "";
      for (const piece of (delta.tool_calls as Json[] | undefined) ?? []) {
        const entry = (streamed.calls[piece.index as number] ??= { id: undefined, name: "", arguments: "" });
        const fn = (piece.function as Json | undefined) ?? {};
        if (piece.id !== undefined) entry.id = piece.id;
        entry.name = String(entry.name) + String(fn.name ?? "");
        entry.arguments = String(entry.arguments) + String(fn.arguments ?? "");
      }
      continue;
    }
    endStream();
    if (Array.isArray(record.messages)) (record.messages as Json[]).forEach(message);
    else if (Array.isArray(record.choices)) message(((record.choices as Json[])[0] as Json).message as Json);
    else if (typeof record.role === "string") message(record);
  }
  endStream();
  return said;
}

describe.each(Object.entries(CONVERSATIONS))("%s", (name, records) => {
  const file = join(folder, `${name.replace(/[^a-z]+/g, "-")}.chat.jsonl`);
  writeFileSync(file, journal(records));

  test("the Chat original gets the verdicts it must", async () => {
    expect((await verdicts(file)).map((verdict) => [(verdict as Json).call_id, (verdict as Json).reason, (verdict as Json).findings])).toEqual(EXPECTED[name]);
  });

  test.each(ENVELOPES.filter((envelope) => envelope !== "chat"))("written in %s, and back in Chat, it gets the same verdicts and findings", async (envelope) => {
    const expected = await verdicts(file);
    const there = await convert(file, envelope);
    expect(await verdicts(there.file, undo(there.rewrites))).toEqual(expected);
    const back = await convert(there.file, "chat");
    expect(await verdicts(back.file, undo(there.rewrites))).toEqual(expected);
  });

  test("round all five envelopes, it keeps its texts, tool names, call ids (or their reported rewrites) and argument values", async () => {
    let current = file;
    const rewrites = new Map<string, string>();
    for (const envelope of ["responses", "anthropic", "gemini", "bedrock", "chat"]) {
      const step = await convert(current, envelope);
      for (const [original, rewritten] of step.rewrites) rewrites.set(undo(rewrites)(original) as string, rewritten);
      current = step.file;
    }
    const ids = undo(rewrites);
    const back = conversationOf(linesOf(readFileSync(current, "utf8"))).map((entry) => {
      const said = entry as Json;
      return "call" in said ? { ...said, call: ids(said.call) } : "output" in said ? { ...said, output: ids(said.output) } : said;
    });
    expect(back).toEqual(conversationOf(records));
  });
});
