// Stored-log documents of one LLM call, as the trace readers take them, and what
// a reading of one gives: its records and its losses of a code.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { READERS } from "../../adapters/index.js";
import type { ReaderLossCode } from "../../adapters/stored-log/reading.js";
import { runOrbridge } from "./run-cli.js";
import { scratchFolder } from "./scratch.js";

/** An SDK span dict of one chat span, with these attributes beside its operation name, and these fields of its own. */
/** OTLP attributes of string values, in the order `written` gives them. */
export function stringAttributes(written: Record<string, string>): Array<{ key: string; value: { stringValue: string } }> {
  return Object.entries(written).map(([key, value]) => ({ key, value: { stringValue: value } }));
}

export function chatSpan(attributes: Record<string, unknown>, fields: Record<string, unknown> = {}): { spans: unknown[] } {
  return { spans: [{ name: "chat", context: { trace_id: "t1", span_id: "s1" }, parent: null, start_time: 1, attributes: { "gen_ai.operation.name": "chat", ...attributes }, ...fields }] };
}

/** A Langfuse trace download of one GENERATION with this input and output. */
export function generation(input: unknown, output: unknown, observations: unknown[] = []): unknown {
  return { trace: { id: "tr1" }, observations: [{ id: "o1", traceId: "tr1", type: "GENERATION", startTime: "2026-01-01T00:00:00.000Z", input, output }, ...observations] };
}

export function records(reader: "otlp" | "langfuse", document: unknown): Record<string, unknown>[] {
  return READERS[reader].read(document).records.map(({ record }) => record as Record<string, unknown>);
}

export function lossesOf(reader: "otlp" | "langfuse", document: unknown, ...codes: ReaderLossCode[]): Array<{ path: string; code: string; detail: string; span?: string }> {
  return READERS[reader].read(document).losses.filter((loss) => codes.includes(loss.code));
}

/** The gate's verdicts on the document, as [reason, blocked] per line, with the exit code. */
export async function gateVerdicts(document: unknown, tools: unknown[]): Promise<{ code: number; verdicts: Array<[string, boolean]> }> {
  const folder = scratchFolder("span-documents");
  writeFileSync(join(folder, "export.json"), JSON.stringify(document));
  writeFileSync(join(folder, "tools.json"), JSON.stringify(tools));
  const result = await runOrbridge(["gate", "--format", "json", "--tools", join(folder, "tools.json"), join(folder, "export.json")]);
  const verdicts = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { reason: string; blocked: boolean });
  return { code: result.code, verdicts: verdicts.map(({ reason, blocked }) => [reason, blocked]) };
}

export const DELETE_FILE = { type: "function", function: { name: "delete_file", parameters: { type: "object", additionalProperties: false, required: ["path"], properties: { path: { type: "string" } } } } };
export const LIST_FILES = { type: "function", function: { name: "list_files", parameters: { type: "object", additionalProperties: false, properties: { dir: { type: "string" } } } } };
export const GET_WEATHER = { type: "function", function: { name: "get_weather", parameters: { type: "object", additionalProperties: false, required: ["city"], properties: { city: { type: "string", enum: ["Paris", "Rome"] } } } } };
