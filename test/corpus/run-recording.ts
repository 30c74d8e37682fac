// One recording through the commands a user would run on it, from the command
// line (in-process): normalize, convert to the other envelope and back, gate,
// and diff of the journal against each conversion. Each run keeps its stdout,
// its summary line and its --report entries.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runOrbridge } from "../support/run-cli.js";
import type { ReportEntry } from "./account-leaves.js";
import type { Recording } from "./read-recordings.js";

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  report: ReportEntry[];
}

export interface RecordingRuns {
  /** The envelope the recording is written in, and the one it is converted to. */
  source: "chat" | "responses" | "anthropic" | "gemini";
  target: "chat" | "responses";
  normalize: Run;
  forward: Run;
  /** The forward conversion converted back to the source envelope. */
  back: Run;
  /** The way back, normalized: the items to compare with the journal's own. */
  backItems: Run;
  gate: Run;
  /** diff of the journal against its forward conversion, and against the way back. */
  diffForward: Run;
  diffBack: Run;
}

/** Chat recordings hold messages or choices; Open Responses ones hold input, output or response events. */
export function sourceEnvelope(recording: Recording): RecordingRuns["source"] {
  if (recording.family !== "openai") return recording.family;
  return /"(messages|choices)":/.test(recording.journal) ? "chat" : "responses";
}

async function run(folder: string, name: string, argv: string[], stdin = ""): Promise<Run> {
  const reportPath = join(folder, `${name}.report.jsonl`);
  const result = await runOrbridge([...argv, "--report", reportPath], stdin);
  let text = "";
  try {
    text = readFileSync(reportPath, "utf8");
  } catch {
    // A run that failed before its end writes no report: its exit code says so.
  }
  const report = text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as ReportEntry);
  return { ...result, report };
}

async function diff(folder: string, origin: string, replay: string): Promise<Run> {
  const result = await runOrbridge(["diff", "--format", "json", origin, replay]);
  return { ...result, report: [] };
}

export async function runRecording(recording: Recording, folder: string): Promise<RecordingRuns> {
  const source = sourceEnvelope(recording);
  const target = source === "responses" ? "chat" : "responses";
  const journalPath = join(folder, "journal.jsonl");
  writeFileSync(journalPath, recording.journal);
  const normalize = await run(folder, "normalize", ["normalize"], recording.journal);
  const forward = await run(folder, "forward", ["convert", "--to", target], recording.journal);
  const forwardPath = join(folder, "forward.jsonl");
  writeFileSync(forwardPath, forward.stdout);
  // Reasoning read from a Chat dialect's field goes back to that field when asked to.
  const dialect = source === "chat" ? /"(reasoning_content|reasoning_details|reasoning)":/.exec(recording.journal)?.[1] : undefined;
  const back = await run(folder, "back", ["convert", "--to", source, ...(dialect ? ["--reasoning-field", dialect] : [])], forward.stdout);
  const backPath = join(folder, "back.jsonl");
  writeFileSync(backPath, back.stdout);
  const backItems = await run(folder, "back-items", ["normalize"], back.stdout);
  const gateResult = await runOrbridge(["gate", "--format", "json", journalPath]);
  return {
    source,
    target,
    normalize,
    forward,
    back,
    backItems,
    gate: { ...gateResult, report: [] },
    diffForward: await diff(folder, journalPath, forwardPath),
    diffBack: await diff(folder, journalPath, backPath),
  };
}
