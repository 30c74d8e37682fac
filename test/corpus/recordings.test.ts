// Every recording of ../shared/corpus through the commands, from the command
// line: normalize, convert to the other envelope and back, gate, and diff. What
// must hold on traffic nobody here wrote:
//   - every line is accounted for: read, then converted, emitted or reported;
//   - nothing is dropped or changed without a report: each leaf of each input
//     record is in the output as it was (a number with its very text) or a
//     report entry names its path or a prefix of it (known-cases.ts lists what
//     does not hold yet, each with its reason);
//   - texts, refusals, tool names, call ids, argument strings and tool outputs
//     survive the way there and back;
//   - what is written in Open Responses validates against the official schema;
//   - gate gives every item a verdict, and diff finds no difference that a
//     report does not explain;
//   - a streamed recording and its non-streamed twin give the same items and
//     losses.
// The corpus is not part of a clone: without it these tests are skipped, and say so.
import { describe, expect, test, vi } from "vitest";
import { specErrors } from "../support/spec-validator.js";
import { scratchFolder } from "../support/scratch.js";
import { inputRecords, outputLeaves, unaccountedLeaves, type ReportEntry, type Unaccounted } from "./account-leaves.js";
import { excused, gateExcused, roundTripExcused, schemaExcused, synthesizedExcused, type Command } from "./known-cases.js";
import { corpusPresent, CORPUS, readRecordings, type Recording } from "./read-recordings.js";
import { runRecording, type RecordingRuns } from "./run-recording.js";

// The first test of a recording runs its seven commands; a machine shared with other runs may take a while.
vi.setConfig({ testTimeout: 120_000 });

if (!corpusPresent) console.warn(`corpus check: ${CORPUS} is absent; the recordings are not run`);

type Fields = Record<string, unknown>;

const recordings = readRecordings();
const runs = new Map<string, Promise<RecordingRuns>>();
/** Each recording runs once, whichever test asks first. */
function runsOf(recording: Recording): Promise<RecordingRuns> {
  let found = runs.get(recording.file);
  if (!found) {
    found = runRecording(recording, scratchFolder("corpus"));
    runs.set(recording.file, found);
  }
  return found;
}

const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
const jsonLines = (text: string): Fields[] =>
  text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Fields);

/** Unaccounted leaves less the known cases, each as a line a reader can follow. */
function unexplained(recording: Recording, command: Command, missing: Unaccounted[]): string[] {
  return missing.filter((leaf) => !excused(command, recording.file, leaf)).map((leaf) => `line ${leaf.line} ${leaf.path} = ${JSON.stringify(leaf.value).slice(0, 120)}`);
}

const labelled = recordings.map((recording) => [recording.file, recording] as const);

describe.skipIf(!corpusPresent)(`every recording of ../shared/corpus${corpusPresent ? "" : " (skipped: the corpus is absent)"}`, () => {
  test("the corpus holds Chat and Open Responses recordings, streamed and not", () => {
    const kinds = new Set(recordings.filter((recording) => recording.family === "openai").map((recording) => `${/"(messages|choices)":/.test(recording.journal) ? "chat" : "responses"} ${recording.streamed ? "streamed" : "stored"}`));
    expect([...kinds].sort()).toEqual(["chat stored", "chat streamed", "responses stored", "responses streamed"]);
  });

  describe.each(labelled)("%s", (_file, recording) => {
    test("the reader makes a journal line of every recorded body", () => {
      expect(recording.unread).toEqual([]);
    });

    test("every line is accounted for: normalize emits each record, convert converts each, gate reads each item", async () => {
      const { normalize, forward, gate } = await runsOf(recording);
      const lines = lineCount(recording.journal);
      const records = inputRecords(recording.journal).length;
      const normalized = /^read (\d+) lines?, (\d+) records?: (\d+) emitted \((\d+) items?[^)]*\), (\d+) reported;/.exec(normalize.stderr);
      const converted = /^read (\d+) lines?: (\d+) records?, (\d+) errors?;/.exec(forward.stderr);
      const gated = /^read (\d+) lines?: (\d+) items?, (\d+) errors?;/m.exec(gate.stderr);
      // Error lines a known case explains (known-cases.ts): counted, not missing.
      const knownErrors = jsonLines(gate.stdout).filter((verdict) => verdict.reason === "error" && gateExcused(recording.file, verdict)).length;
      expect({
        normalize: normalized && { lines: Number(normalized[1]), emitted: Number(normalized[3]) === Number(normalized[2]), items: Number(normalized[4]), reported: Number(normalized[5]), code: normalize.code },
        convert: converted && { lines: Number(converted[1]), records: Number(converted[2]), errors: Number(converted[3]), code: forward.code },
        gate: gated && { lines: Number(gated[1]), items: Number(gated[2]), errors: Number(gated[3]), verdicts: lineCount(gate.stdout) },
      }).toEqual({
        normalize: { lines, emitted: true, items: lineCount(normalize.stdout), reported: 0, code: 0 },
        convert: { lines, records, errors: 0, code: 0 },
        gate: { lines, items: lineCount(normalize.stdout), errors: knownErrors, verdicts: lineCount(normalize.stdout) + knownErrors },
      });
    });

    test("normalize: every input value is in an item or named in the report", async () => {
      const { normalize } = await runsOf(recording);
      expect(unexplained(recording, "normalize", unaccountedLeaves(recording.journal, outputLeaves(normalize.stdout), normalize.report))).toEqual([]);
    });

    test("convert: every input value is in the conversion (or comes back from it) or named in the report", async () => {
      const { forward, back } = await runsOf(recording);
      const kept = [...outputLeaves(forward.stdout, forward.report), ...outputLeaves(back.stdout, back.report)];
      expect(unexplained(recording, "convert", unaccountedLeaves(recording.journal, kept, forward.report))).toEqual([]);
    });

    test("convert: a synthesized value is reported at a path the output has", async () => {
      const { forward } = await runsOf(recording);
      const paths = new Set(outputLeaves(forward.stdout).map((leaf) => leaf.path));
      const synthesized = forward.report.filter((entry) => entry.code === "synthesized" && !synthesizedExcused(recording.file, entry.detail));
      expect(synthesized.filter((entry) => ![...paths].some((path) => path === entry.path || path.startsWith(entry.path + "/")))).toEqual([]);
    });

    test.skipIf(roundTripExcused(recording.file, recording.streamed))("texts, refusals, tool names, call ids, argument strings and tool outputs survive the way there and back", async () => {
      const { normalize, backItems, forward } = await runsOf(recording);
      const before = essentials(jsonLines(normalize.stdout));
      const after = essentials(jsonLines(backItems.stdout));
      // Reasoning the way there reported it could not carry is not expected back.
      expect(after).toEqual({ ...before, texts: mergedAsReported(before.texts, after.texts, forward.report), reasoning: reasoningLost(forward.report) ? after.reasoning : before.reasoning });
    });

    test("what is written in Open Responses validates against the official schema", async () => {
      const { normalize, forward, back, target } = await runsOf(recording);
      const written = target === "responses" ? forward.stdout : back.stdout;
      const errors = [
        ...jsonLines(normalize.stdout).flatMap((item, index) => itemErrors(item).map((error) => `normalize item ${index + 1}: ${error}`)),
        ...jsonLines(written).flatMap((record, index) => recordErrors(record).map((error) => `convert line ${index + 1}: ${error}`)),
      ];
      expect(errors.filter((error) => !schemaExcused(recording.file, error))).toEqual([]);
    });

    test("gate: a call to a tool the journal defines, as the provider made it, runs; nothing else is an error", async () => {
      const { gate } = await runsOf(recording);
      // Tools a request body defines; a response object's echo of its request's tools defines none.
      const defined = new Set(
        inputRecords(recording.journal)
          .filter((record) => !record.leaves.some((leaf) => leaf.path === "/object"))
          .flatMap((record) => record.leaves.filter((leaf) => /^(\/request)?\/tools\/\d+(\/function|\/functionDeclarations\/\d+)?\/name$/.test(leaf.path)).map((leaf) => leaf.value)),
      );
      const verdicts = jsonLines(gate.stdout);
      const judged = verdicts.filter((verdict) => verdict.reason === "error" || (verdict.type === "function_call" && defined.has(String(verdict.name))));
      const unexpected = judged.filter((verdict) => verdict.reason !== "ok" && !gateExcused(recording.file, verdict));
      expect(unexpected.map((verdict) => `line ${String(verdict.line)} ${String(verdict.name ?? "")}: ${String(verdict.reason)} ${String(verdict.detail)} ${JSON.stringify(verdict.findings)}`)).toEqual([]);
    });

    test("diff finds the conversion and the way back the same as the journal", async () => {
      const { diffForward, diffBack, forward } = await runsOf(recording);
      const unexplainedDifferences = (run: { stdout: string }) => jsonLines(run.stdout).filter((difference) => !explainedByReport(difference, forward.report));
      const back = roundTripExcused(recording.file, recording.streamed) ? [] : unexplainedDifferences(diffBack);
      expect({ forward: unexplainedDifferences(diffForward), back }).toEqual({ forward: [], back: [] });
    });
  });
});

// ---------------------------------------------------------------- twins

/**
 * A recording kept both streamed and stored under one stem, answered by the same
 * model: two answers to one request (the call ids and the reasoning's words differ
 * between them, nothing else may).
 */
const modelOf = (recording: Recording) => /"model":\s*"([^"]+)"/.exec(recording.journal)?.[1];
const twins = recordings.flatMap((streamed) => {
  if (!streamed.streamed) return [];
  const stored = recordings.find((other) => !other.streamed && other.stem === streamed.stem && modelOf(other) === modelOf(streamed));
  return stored ? [[streamed.stem, streamed, stored] as const] : [];
});

describe.skipIf(!corpusPresent || twins.length === 0)("a streamed recording and its stored twin", () => {
  const comparable = (response: Fields) =>
    (response.output as Fields[]).map((item) => {
      const { id: _id, call_id: callId, ...rest } = item;
      if (item.type === "reasoning") return { ...rest, summary: "<its words differ between the two answers>", encrypted_content: undefined };
      return { ...rest, ...(callId !== undefined ? { call_id: "<differs between the two answers>" } : {}) };
    });
  // A field of the stored message is a field of a chunk's delta; the stream spends the tool calls' index on putting them together.
  const lossesOf = (report: readonly ReportEntry[]) =>
    report
      .filter((entry) => entry.code !== "left_behind" && entry.code !== "synthesized")
      .map(({ path, code, detail }) => ({ path: path.replace(/^\/choices\/(\d+)\/(delta|message)\//, "/choices/$1/message/"), code, detail }))
      .filter(({ path }) => !/^\/choices\/\d+\/message\/tool_calls\/\d+\/index$/.test(path))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  test.each(twins)("%s: the same items, statuses and losses", async (_stem, streamed, stored) => {
    const [streamedRuns, storedRuns] = [await runsOf(streamed), await runsOf(stored)];
    const responses = (run: RecordingRuns) => jsonLines(run.target === "responses" ? run.forward.stdout : run.back.stdout).filter((record) => record.object === "response");
    expect({
      responses: responses(streamedRuns).map((response) => ({ status: response.status, output: comparable(response) })),
      losses: lossesOf(streamedRuns.normalize.report),
    }).toEqual({
      responses: responses(storedRuns).map((response) => ({ status: response.status, output: comparable(response) })),
      losses: lossesOf(storedRuns.normalize.report),
    });
  });
});

// ---------------------------------------------------------------- what must survive

interface Essentials {
  calls: string[];
  outputs: string[];
  texts: string[];
  refusals: string[];
  reasoning: string[];
}

function essentials(items: Fields[]): Essentials {
  const found: Essentials = { calls: [], outputs: [], texts: [], refusals: [], reasoning: [] };
  for (const item of items) {
    if (item.type === "function_call") found.calls.push(`${String(item.call_id)} ${String(item.name)} ${String(item.arguments)}`);
    if (item.type === "function_call_output") found.outputs.push(`${String(item.call_id)} ${JSON.stringify(item.output)}`);
    if (item.type === "reasoning") found.reasoning.push(JSON.stringify(item.summary ?? null));
    if (item.type !== "message") continue;
    // An empty text says nothing, and a converter may leave it out (empty instructions, with a loss).
    if (typeof item.content === "string" && item.content !== "") found.texts.push(`${String(item.role)}: ${item.content}`);
    for (const part of Array.isArray(item.content) ? (item.content as Fields[]) : []) {
      if (typeof part.text === "string" && part.text !== "") found.texts.push(`${String(item.role)}: ${part.text}`);
      if (typeof part.refusal === "string") found.refusals.push(part.refusal);
    }
  }
  return found;
}

function reasoningLost(report: readonly ReportEntry[]): boolean {
  return report.some((entry) => entry.code === "unsupported_item" && /reasoning/.test(entry.detail));
}

/**
 * The texts expected back. When the way there reported assistant messages merged
 * into one (a completion holds one message), the texts back may be joined ones,
 * each holding two or more of the texts before; otherwise the texts before.
 */
function mergedAsReported(before: string[], after: string[], report: readonly ReportEntry[]): string[] {
  if (!report.some((entry) => entry.code === "form_changed" && /merged into/.test(entry.detail))) return before;
  const joined = after.filter((text) => !before.includes(text));
  const joinsSeveral = (text: string) => before.filter((original) => text.includes(original.replace(/^assistant: /, ""))).length > 1;
  return joined.every(joinsSeveral) ? after : before;
}

function explainedByReport(difference: Fields, report: readonly ReportEntry[]): boolean {
  // An item the way there could not carry, or merged into another, as its line's report says, is missing from what came of it.
  const line = (difference.origin as Fields | undefined)?.line;
  const type = /^(\S+) has no counterpart/.exec(String(difference.detail))?.[1];
  return (
    difference.code === "missing_in_replay" &&
    report.some((entry) => (entry.line === line && (entry.code === "unsupported_item" || entry.code === "form_changed")) || (entry.code === "unsupported_item" && type !== undefined && entry.detail.includes(type)))
  );
}

// ---------------------------------------------------------------- the official schema

/**
 * The record without the extension items and tools in its arrays: they are
 * opaque, and the spec gives them no shape beyond their slug (`anthropic:…`).
 */
function withoutExtensions(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((element) => !(typeof (element as Fields)?.type === "string" && ((element as Fields).type as string).includes(":"))).map(withoutExtensions);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, withoutExtensions(field)]));
}

function itemErrors(item: Fields): string[] {
  // Extension items are opaque: the spec gives them no shape beyond their slug.
  if (typeof item.type === "string" && item.type.includes(":")) return [];
  return specErrors("ItemParam", item);
}

function recordErrors(record: Fields): string[] {
  if (record.request !== undefined || record.response !== undefined) {
    return [...recordErrors(record.request as Fields).map((error) => `/request${error}`), ...recordErrors(record.response as Fields).map((error) => `/response${error}`)];
  }
  if (record.object === "response") return specErrors("ResponseResource", withoutExtensions(record));
  if (Array.isArray(record.input) || typeof record.input === "string" || record.model !== undefined) return specErrors("CreateResponseBody", withoutExtensions(record));
  // A streaming event or a loose item, written as it was.
  return [];
}
