// The gate's verdicts on the calls and outputs of a journal written in a test,
// in the short form the replay tests compare whole.
import { runOrbridge } from "./run-cli.js";

export type Json = Record<string, unknown>;

/** Records as JSONL text, one a line. */
export function journalOf(records: unknown[]): string {
  return records.map((record) => JSON.stringify(record)).join("\n") + "\n";
}

/** The JSON values of a JSONL text. */
export function jsonLines(text: string): Json[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Json);
}

/** Each call and output the gate judged: line, type, call_id, reason, finding codes; and the exit status. */
export async function gatedCalls(text: string): Promise<{ code: number; verdicts: unknown[] }> {
  const run = await runOrbridge(["gate", "--format", "json"], text);
  const verdicts = jsonLines(run.stdout)
    .filter((verdict) => verdict.type === "function_call" || verdict.type === "function_call_output")
    .map((verdict) => [verdict.line, verdict.type, verdict.call_id, verdict.reason, (verdict.findings as Json[]).map((finding) => finding.code)]);
  return { code: run.code, verdicts };
}
