// The bench's journal of the Anthropic, Gemini and Bedrock envelopes must measure
// what it claims to: every record read as the envelope it was written in, the
// same bytes on every run, and the gate giving each call the fate the generator
// chose for it.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { normalizeJournal } from "../../src/journal/normalize.js";
import { JournalGenerator, toolsFileContent, writeJournal, type JournalMix } from "./generate.js";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("bench-providers");
const LINES = 2_000;

/** The journal as lines, with the envelope and record kind each line was written as. */
function generate(): { lines: string[]; written: Array<{ line: number; envelope: string; recordKind: string }>; mix: JournalMix } {
  const generator = new JournalGenerator(undefined, "providers");
  const lines: string[] = [];
  const written: Array<{ line: number; envelope: string; recordKind: string }> = [];
  while (lines.length < LINES) {
    const before = { ...generator.mix.turns };
    const records = generator.nextTurn();
    const shape = Object.keys(before).find((turn) => generator.mix.turns[turn as keyof typeof before] !== before[turn as keyof typeof before])!;
    const [envelope, kind] = shape.split("_");
    records.forEach((record, index) => {
      lines.push(JSON.stringify(record));
      // A response is followed by the user message that carries its results.
      const recordKind = kind === "request" ? "envelope_request" : index === 0 ? "envelope_response" : "envelope_message";
      written.push({ line: lines.length, envelope, recordKind });
    });
  }
  return { lines, written, mix: generator.mix };
}

describe("the providers journal", () => {
  test("has only records of the three envelopes, each read as the envelope and kind it was written as, none an error", async () => {
    const { lines, written, mix } = generate();
    const read: Array<{ line: number; envelope: string; recordKind: string }> = [];
    const errors: unknown[] = [];
    for await (const record of normalizeJournal(lines, { refuseUnreadCalls: true })) {
      if (record.kind === "error") errors.push(record);
      else read.push({ line: record.line, envelope: record.envelope, recordKind: record.recordKind });
    }
    expect(errors).toEqual([]);
    expect(read).toEqual(written);
    expect(Object.entries(mix.turns).filter(([, count]) => count > 0).map(([turn]) => turn)).toEqual(["anthropic_request", "anthropic_response", "gemini_request", "gemini_response", "bedrock_request", "bedrock_response"]);
  });

  test("is the same bytes on every run, and another seed gives another journal", async () => {
    const paths = ["one", "two", "other"].map((name) => join(folder, `${name}.jsonl`));
    const mixes = [await writeJournal(paths[0], LINES, undefined, "providers"), await writeJournal(paths[1], LINES, undefined, "providers"), await writeJournal(paths[2], LINES, 7, "providers")];
    expect(readFileSync(paths[1]).equals(readFileSync(paths[0]))).toBe(true);
    expect(mixes[1]).toEqual(mixes[0]);
    expect(readFileSync(paths[2]).equals(readFileSync(paths[0]))).toBe(false);
    expect(readFileSync(paths[0], "utf8")).toBe(generate().lines.join("\n") + "\n");
  });

  test("gets from the gate, call by call, the reasons the generator chose, and its results are blocked with their blocked calls", async () => {
    const { lines, mix } = generate();
    const journal = join(folder, "gated.jsonl");
    const tools = join(folder, "tools.json");
    writeFileSync(journal, lines.join("\n") + "\n");
    writeFileSync(tools, toolsFileContent());
    const run = await runOrbridge(["gate", "--tools", tools, "--assert-formats", "--format", "json", journal]);
    expect(run.code).toBe(1);
    const verdicts = run.stdout
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text) as { line: number; type: string; call_id?: string; reason: string; blocked: boolean; blocked_by?: string });

    const reasons: Record<string, number> = {};
    for (const verdict of verdicts) if (verdict.type === "function_call") reasons[verdict.reason] = (reasons[verdict.reason] ?? 0) + 1;
    expect(reasons).toEqual({ ok: mix.fates.ok, arguments_schema: mix.fates.schema, unknown_tool: mix.fates.unknown_tool, status: mix.fates.status });
    expect(mix.calls).toBe(mix.fates.ok + mix.fates.schema + mix.fates.unknown_tool + mix.fates.status);
    expect((mix.calls - mix.fates.ok) / mix.calls).toBeGreaterThan(0.1);
    expect((mix.calls - mix.fates.ok) / mix.calls).toBeLessThan(0.2);

    // Where the record names its calls (Anthropic, Bedrock, and Gemini where the
    // model or the client gave ids), each finished call has one result, blocked
    // exactly when its call is. Gemini's calls without id are paired by name with
    // the earliest call waiting, across the turns of this journal, which holds
    // many conversations as one: their pairing is not what this test is about.
    // Read as one conversation, a response is also held to the tools of the
    // request body before it, another conversation's: a call its reason passes
    // may be blocked by that finding, and its result with it.
    const named = (verdict: { call_id?: string }) => verdict.call_id !== undefined && !verdict.call_id.startsWith("gemini_call_");
    const calls = new Map(verdicts.filter((verdict) => verdict.type === "function_call" && named(verdict)).map((verdict) => [verdict.call_id!, verdict]));
    const results = verdicts.filter((verdict) => verdict.type === "function_call_output" && named(verdict));
    const mismatched = results.filter((result) => (result.blocked_by === "output_for_blocked_call") !== calls.get(result.call_id!)?.blocked);
    expect(mismatched).toEqual([]);
    expect(results.map((result) => result.call_id).sort()).toEqual([...calls].filter(([, call]) => call.reason !== "status").map(([id]) => id).sort());
  }, 60_000);
});
