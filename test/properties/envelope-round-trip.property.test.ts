// Generated journals of every envelope, converted to every other envelope and
// back: each call's arguments come back as they were (byte for byte in the
// envelopes that keep them as text, the same JSON value in those that keep an
// object), or a loss names the call; an object that reaches another envelope
// that holds objects as the value it was is not said to change; and no call is
// dropped, duplicated or paired with another call's output without a loss or an
// error.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { decimalValue } from "../../src/models/decimal-value.js";
import { leavesOf } from "../corpus/exact-json.js";
import { runOrbridge } from "../support/run-cli.js";

const folder = mkdtempSync(join(tmpdir(), "orbridge-envelope-round-trip-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const ENVELOPES = ["chat", "responses", "anthropic", "gemini", "bedrock"] as const;
type EnvelopeName = (typeof ENVELOPES)[number];
/** Each envelope, with each other one it goes through and back from. */
const ROUTES = ENVELOPES.flatMap((source) => ENVELOPES.filter((through) => through !== source).map((through) => [source, through] as const));
/** The envelopes that keep a call's arguments as the text the model wrote. */
const TEXT_ENVELOPES: ReadonlySet<EnvelopeName> = new Set(["chat", "responses"]);

interface ReportEntry {
  line: number;
  path: string;
  code: string;
  detail: string;
}

// Numbers as they are spelled, past what a double holds or spelled otherwise than
// JSON.stringify would; strings a UTF-8 or line-based reader may mangle; names
// that differ by case or normalization only, or that JavaScript objects treat apart.
const numberText = fc.constantFrom("1.0", "12345678901234567890", "9007199254740993", "-0", "1e400", "0.1000000000000000055511151231257827", "2.50", "1E3", "0", "-1");
const stringText = fc.constantFrom("\"\\ud800\"", "\"\\udc00x\"", "\"\u2028\"", "\"\\u0000\"", "\"\"", "\"\u00e9\"", "\"e\u0301\"", "\"apac\"");
const leafText = fc.oneof(numberText, stringText, fc.constantFrom("null", "true", "[]", "{}"));
const nameText = fc.constantFrom("__proto__", "constructor", "K", "k", "\u00e9", "e\u0301", "", "region", "\u2028", "output");
const objectText = (value: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.uniqueArray(fc.tuple(nameText, value), { maxLength: 4, selector: ([name]) => name }).map((members) => `{${members.map(([name, text]) => `${JSON.stringify(name)}:${text}`).join(",")}}`);
const valueText = fc.oneof(leafText, objectText(leafText), leafText.map((text) => `[${text}]`));
// Besides objects: what a provider returns for a call without parameters, text
// that is no JSON, JSON that is no object, an object's text encoded twice.
const argumentsText = fc.oneof({ arbitrary: objectText(valueText), weight: 4 }, fc.constantFrom("", "{\"region\":", "[1]", "null", " {} ", "\"{}\""));
// Ids a target's grammar refuses, an empty one, and one that two calls share.
const callId = fc.constantFrom("", "call 1", "call.\u00e9", "toolu_01A", "shared", "x".repeat(70));
// A result's text may be the text of a JSON object, which Gemini writes as the object.
const outputText = fc.oneof(fc.constantFrom("ok", "", "\ud800", "line\u2028two", "nul\u0000", "{\"a\":1.0}", "{\"output\":\"ok\"}"), argumentsText);
// A result is text, or text parts (none, one, several).
const output = fc.oneof({ arbitrary: outputText, weight: 3 }, fc.array(outputText.map((text) => ({ type: "text", text })), { maxLength: 2 }));
// What an assistant message with calls says beside them: nothing, in each way a journal writes it, or text.
const besideCalls = fc.constantFrom<Record<string, unknown>>({ content: null }, {}, { content: "" }, { content: [] }, { content: "let me look" }, { content: null, refusal: null, name: null }, { content: "\ud800\u2028" });
const toolName = fc.constantFrom("get_latest_sales_report", "lookup_weather");

/** Chat messages: a question, then turns of one or more calls and their results. */
const chatMessages = fc
  .array(fc.tuple(besideCalls, fc.array(fc.tuple(toolName, argumentsText, output, fc.option(callId, { nil: undefined })), { minLength: 1, maxLength: 2 })), { minLength: 1, maxLength: 2 })
  .map((turns) => {
    const messages: Record<string, unknown>[] = [{ role: "user", content: "what were the sales?" }];
    turns.forEach(([beside, calls], turn) => {
      const ids = calls.map(([, , , id], i) => id ?? `call_${turn}_${i}`);
      messages.push({ role: "assistant", ...beside, tool_calls: calls.map(([name, args], i) => ({ id: ids[i], type: "function", function: { name, arguments: args } })) });
      calls.forEach(([, , output], i) => messages.push({ role: "tool", tool_call_id: ids[i], content: output }));
    });
    return messages;
  });

const tools = ["get_latest_sales_report", "lookup_weather"].map((name) => ({ type: "function", function: { name, parameters: { type: "object" } } }));
/**
 * A Chat journal of one kind of record: the messages one a line; one request
 * body that holds them; or a request body of the question and a completion that
 * answers it with the first turn's calls.
 */
const chatJournal = fc.tuple(chatMessages, fc.constantFrom("messages", "body", "completion")).map(([messages, kind]): unknown[] => {
  if (kind === "messages") return messages;
  if (kind === "body") return [{ model: "gpt-4o", messages, tools }];
  return [
    { model: "gpt-4o", messages: messages.slice(0, 1), tools },
    { id: "chatcmpl-1", object: "chat.completion", created: 1767225600, model: "gpt-4o", choices: [{ index: 0, message: { ...messages[1], refusal: null }, logprobs: null, finish_reason: "tool_calls" }] },
  ];
});

/**
 * The Chat messages written as the envelope writes them, each call's arguments
 * the object their text spells, number literals as written (`1.0`, a 20-digit
 * integer), which a converter's output never holds: undefined for Chat and Open
 * Responses, for another kind of record, or where an arguments text is no object.
 */
function nativeLines(records: unknown[], envelope: EnvelopeName): { lines: string[] } | undefined {
  if (TEXT_ENVELOPES.has(envelope)) return undefined;
  const lines: string[] = [];
  const names = new Map<unknown, unknown>();
  for (const record of records as Array<Record<string, unknown>>) {
    if (typeof record.role !== "string") return undefined;
    if (record.role === "user") {
      lines.push(JSON.stringify(envelope === "gemini" ? { role: "user", parts: [{ text: record.content }] } : envelope === "bedrock" ? { role: "user", content: [{ text: record.content }] } : record));
      continue;
    }
    if (record.role === "tool") {
      if (typeof record.content !== "string") return undefined;
      const id = JSON.stringify(record.tool_call_id);
      const output = JSON.stringify(record.content);
      if (envelope === "anthropic") lines.push(`{"role":"user","content":[{"type":"tool_result","tool_use_id":${id},"content":${output}}]}`);
      if (envelope === "gemini") lines.push(`{"role":"user","parts":[{"functionResponse":{"name":${JSON.stringify(names.get(record.tool_call_id))},"response":{"output":${output}},"id":${id}}}]}`);
      if (envelope === "bedrock") lines.push(`{"role":"user","content":[{"toolResult":{"toolUseId":${id},"content":[{"text":${output}}]}}]}`);
      continue;
    }
    const calls = record.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }>;
    if (calls.some((call) => !isObjectText(call.function.arguments) || call.id === "")) return undefined;
    for (const call of calls) names.set(call.id, call.function.name);
    const blocks = calls.map(({ id, function: { name, arguments: args } }) =>
      envelope === "anthropic"
        ? `{"type":"tool_use","id":${JSON.stringify(id)},"name":${JSON.stringify(name)},"input":${args}}`
        : envelope === "gemini"
          ? `{"functionCall":{"name":${JSON.stringify(name)},"args":${args},"id":${JSON.stringify(id)}}}`
          : `{"toolUse":{"toolUseId":${JSON.stringify(id)},"name":${JSON.stringify(name)},"input":${args}}}`,
    );
    lines.push(envelope === "gemini" ? `{"role":"model","parts":[${blocks.join(",")}]}` : `{"role":"assistant","content":[${blocks.join(",")}]}`);
  }
  return { lines };
}

function isObject(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isObjectText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** A call as a journal writes it: where its arguments are, its id, and its arguments as written. */
interface WrittenCall {
  line: number;
  /** Where the call is, and where its arguments are. */
  at: string;
  path: string;
  id: unknown;
  name: unknown;
  args: unknown;
  /** What the arguments mean, read from the line as written: numbers by their decimal value, not their double. */
  meaning: string;
}
interface WrittenOutput {
  line: number;
  path: string;
  id: unknown;
  output: unknown;
}

/** What the JSON value at `path` of a JSON text means: its leaves, each number by its decimal value. */
function meaningAt(text: string, path: string): string {
  let leaves;
  try {
    leaves = leavesOf(text);
  } catch {
    return `not JSON: ${text}`;
  }
  const inside = leaves.filter((leaf) => leaf.path === path || leaf.path.startsWith(`${path}/`));
  return JSON.stringify(inside.map((leaf) => [leaf.path.slice(path.length), leaf.kind, leaf.kind === "number" ? decimalValue(leaf.value) : leaf.value]).sort());
}

/** What a call's arguments mean: the JSON their text holds, or the JSON value the envelope writes. */
function argumentsMeaning(call: Omit<WrittenCall, "meaning">, lineText: string): string {
  return typeof call.args === "string" && /\/(arguments)$/.test(call.path) ? meaningAt(call.args, "") : meaningAt(lineText, call.path);
}

/** Every call and result of a journal of any envelope, in order, found by their shape. */
function callsOf(lines: string[]): { calls: WrittenCall[]; outputs: WrittenOutput[] } {
  const records = lines.map((line) => JSON.parse(line) as unknown);
  const calls: Array<Omit<WrittenCall, "meaning">> = [];
  const outputs: WrittenOutput[] = [];
  const visit = (value: unknown, line: number, path: string): void => {
    if (Array.isArray(value)) return value.forEach((member, i) => visit(member, line, `${path}/${i}`));
    if (value === null || typeof value !== "object") return;
    const fields = value as Record<string, unknown>;
    if (fields.type === "function" && typeof fields.function === "object" && fields.function !== null) {
      const fn = fields.function as Record<string, unknown>;
      calls.push({ line, at: path, path: `${path}/function/arguments`, id: fields.id, name: fn.name, args: fn.arguments });
      return;
    }
    if (fields.type === "function_call") return void calls.push({ line, at: path, path: `${path}/arguments`, id: fields.call_id, name: fields.name, args: fields.arguments });
    if (fields.type === "tool_use") return void calls.push({ line, at: path, path: `${path}/input`, id: fields.id, name: fields.name, args: fields.input });
    if (fields.functionCall !== undefined) {
      const call = fields.functionCall as Record<string, unknown>;
      return void calls.push({ line, at: `${path}/functionCall`, path: `${path}/functionCall/args`, id: call.id, name: call.name, args: call.args });
    }
    if (fields.toolUse !== undefined) {
      const call = fields.toolUse as Record<string, unknown>;
      return void calls.push({ line, at: `${path}/toolUse`, path: `${path}/toolUse/input`, id: call.toolUseId, name: call.name, args: call.input });
    }
    if (fields.role === "tool") return void outputs.push({ line, path: `${path}/content`, id: fields.tool_call_id, output: fields.content });
    if (fields.type === "function_call_output") return void outputs.push({ line, path: `${path}/output`, id: fields.call_id, output: fields.output });
    if (fields.type === "tool_result") return void outputs.push({ line, path: `${path}/content`, id: fields.tool_use_id, output: fields.content });
    if (fields.functionResponse !== undefined) {
      const result = fields.functionResponse as Record<string, unknown>;
      return void outputs.push({ line, path: `${path}/functionResponse/response`, id: result.id, output: result.response });
    }
    if (fields.toolResult !== undefined) {
      const result = fields.toolResult as Record<string, unknown>;
      return void outputs.push({ line, path: `${path}/toolResult/content`, id: result.toolUseId, output: result.content });
    }
    // The tools a body declares are no calls.
    for (const [name, member] of Object.entries(fields)) if (name !== "tools" && name !== "toolConfig") visit(member, line, `${path}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  };
  records.forEach((record, i) => visit(record, i + 1, ""));
  return { calls: calls.map((call) => ({ ...call, meaning: argumentsMeaning(call, lines[call.line - 1]!) })), outputs };
}

/** Converts (or normalizes) a journal with the CLI: the records written, and every entry of its report. */
async function convert(lines: string[], to: EnvelopeName | "canonical", name: string): Promise<{ lines: string[]; report: ReportEntry[] }> {
  const input = join(folder, `${name}.jsonl`);
  const report = join(folder, `${name}.report.jsonl`);
  writeFileSync(input, lines.join("\n") + "\n");
  const result = await runOrbridge(to === "canonical" ? ["normalize", "--report", report, input] : ["convert", "--to", to, "--report", report, input]);
  const written = result.stdout.split("\n").filter((line) => line !== "");
  const entries = readFileSync(report, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as ReportEntry);
  return { lines: written, report: entries };
}

/**
 * Whether a report entry of the line names the place, or a place inside it or
 * around it. For a value, the text JSON.stringify writes for an object is
 * reported `synthesized` whatever the object holds: that says nothing of a value
 * changed. An id synthesized for a call without one is said that way.
 */
function names(report: ReportEntry[], line: number, path: string, what: "value" | "id" = "value"): boolean {
  return report.some((entry) => entry.line === line && (what === "id" || entry.code !== "synthesized") && (entry.path.startsWith(path) || path.startsWith(entry.path)));
}

/** The arguments as the envelope means them: the text itself, or the JSON value its object stands for. */
function sameArguments(envelope: EnvelopeName, before: WrittenCall, after: WrittenCall): boolean {
  if (TEXT_ENVELOPES.has(envelope)) return before.args === after.args;
  return typeof before.args === typeof after.args && before.meaning === after.meaning;
}

describe("journals of every envelope through every other envelope and back", () => {
  test("keep each call's arguments, id and result, or report where they changed", async () => {
    await fc.assert(
      fc.asyncProperty(chatJournal, fc.constantFrom(...ROUTES), async (chatRecords, [source, through]) => {
        const chatLines = chatRecords.map((record) => JSON.stringify(record));
        const start = nativeLines(chatRecords, source) ?? (source === "chat" ? { lines: chatLines } : await convert(chatLines, source, "start"));
        const there = await convert(start.lines, through, "there");
        const back = await convert(there.lines, source, "back");
        const before = callsOf(start.lines);
        // normalize keeps each call, with its arguments as their text.
        const canonical = await convert(start.lines, "canonical", "canonical");
        const items = callsOf(canonical.lines);
        expect(items.calls.length, JSON.stringify({ source, before, canonical })).toBe(before.calls.length);
        before.calls.forEach((call, i) => {
          const item = items.calls[i]!;
          const detail = JSON.stringify({ source, call, item, report: canonical.report });
          const kept = TEXT_ENVELOPES.has(source) ? item.args === call.args : item.meaning === call.meaning;
          if (!kept) expect(names(canonical.report, call.line, call.path), `normalize changed arguments without a loss: ${detail}`).toBe(true);
          if (item.id !== call.id) expect(names(canonical.report, call.line, call.at, "id"), `normalize changed a call id without a loss: ${detail}`).toBe(true);
        });
        const middle = callsOf(there.lines);
        const after = callsOf(back.lines);
        // A call or a result dropped or added is an error or a loss of the journal, not a value made up.
        const reported = [...there.report, ...back.report].some((entry) => entry.code !== "synthesized");
        if (after.calls.length !== before.calls.length || after.outputs.length !== before.outputs.length || middle.calls.length !== before.calls.length) {
          expect(reported, JSON.stringify({ before, after, there: there.report, back: back.report })).toBe(true);
          return;
        }
        before.calls.forEach((call, i) => {
          const came = after.calls[i]!;
          const via = middle.calls[i]!;
          const named = names(there.report, call.line, call.path) || names(back.report, via.line, via.path);
          const detail = JSON.stringify({ source, through, before: call, middle: via, after: came, there: there.report, back: back.report });
          if (!sameArguments(source, call, came)) expect(named, `arguments changed without a loss: ${detail}`).toBe(true);
          // Between envelopes that both hold an object, an object that arrives as it was is the same value: nothing is said of it.
          else if (!TEXT_ENVELOPES.has(source) && !TEXT_ENVELOPES.has(through) && isObject(call.args) && isObject(via.args) && call.id === via.id && via.meaning === call.meaning) {
            expect(there.report.filter((entry) => entry.line === call.line && (entry.path === call.path || entry.path === call.at)), `arguments kept, said changed: ${detail}`).toEqual([]);
          }
          // A value made up is said where it was written, in the record written.
          const idNamed = names(there.report, call.line, call.at, "id") || names(there.report, via.line, via.at, "id") || names(back.report, via.line, via.at, "id") || names(back.report, came.line, came.at, "id");
          if (call.id !== came.id || call.name !== came.name) expect(idNamed, `call changed without a loss: ${detail}`).toBe(true);
        });
        before.outputs.forEach((output, i) => {
          const came = after.outputs[i]!;
          const via = middle.outputs[i];
          const named = names(there.report, output.line, output.path) || (via !== undefined && names(back.report, via.line, via.path));
          const detail = JSON.stringify({ source, through, before: output, middle: via, after: came, there: there.report, back: back.report });
          if (JSON.stringify(output.output) !== JSON.stringify(came.output)) expect(named, `result changed without a loss: ${detail}`).toBe(true);
        });
        // The results follow their calls in order: each that answered its call by an
        // id no other call has still answers it (ids rewritten or not).
        before.outputs.forEach((output, i) => {
          const call = before.calls[i];
          if (call === undefined || output.id !== call.id || before.calls.filter((other) => other.id === call.id).length > 1) return;
          expect(after.outputs[i]!.id, JSON.stringify({ source, through, before, after })).toBe(after.calls[i]!.id);
          expect(after.calls.filter((other) => other.id === after.calls[i]!.id).length, JSON.stringify({ source, through, before, after })).toBe(1);
        });
      }),
      { numRuns: 25, seed: 20261207 },
    );
  }, 60_000);
});
