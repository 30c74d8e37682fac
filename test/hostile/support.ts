// Journals and schemas written to a temporary folder, and the gate and normalize
// commands run on them in-process.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { runOrbridge, type CliResult } from "../support/run-cli.js";

/** A temporary folder removed after the file's tests. */
export function scratchFolder(): (name: string, content: string | Buffer) => string {
  const folder = mkdtempSync(join(tmpdir(), "orbridge-hostile-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  return (name, content) => {
    const path = join(folder, name);
    writeFileSync(path, content);
    return path;
  };
}

export interface GateRun extends CliResult {
  verdicts: Array<Record<string, unknown>>;
}

/** `orbridge gate --schema FILE --format json JOURNAL`, with the verdict lines parsed. */
export async function gateJournal(file: (name: string, content: string | Buffer) => string, schema: unknown, journal: string | Buffer): Promise<GateRun> {
  const schemaPath = file("schema.json", typeof schema === "string" ? schema : JSON.stringify(schema));
  const journalPath = file("journal.jsonl", journal);
  const result = await runOrbridge(["gate", "--schema", schemaPath, "--format", "json", journalPath]);
  const verdicts = result.stdout === "" ? [] : result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
  return { ...result, verdicts };
}

/** A completed call to `name` with the given arguments string. */
export function call(callId: string, args: string, name = "get_latest_sales_report"): Record<string, unknown> {
  return { type: "function_call", id: `fc_${callId}`, call_id: callId, name, status: "completed", arguments: args };
}

export const jsonl = (...records: unknown[]): string => records.map((record) => (typeof record === "string" ? record : JSON.stringify(record)) + "\n").join("");

export const salesSchema = {
  type: "object",
  additionalProperties: false,
  required: ["region"],
  properties: { region: { type: "string", enum: ["apac", "emea", "amer"] } },
};

export const OK_DETAIL = "completed call with arguments valid for its schema";

/** The JSON verdict line of the gate command for a call that passed. */
export function passed(line: number, callId: string, name = "get_latest_sales_report"): Record<string, unknown> {
  return { line, index: 0, type: "function_call", call_id: callId, name, reason: "ok", detail: OK_DETAIL, blocked: false, findings: [] };
}
