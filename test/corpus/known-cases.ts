// What the corpus check finds that does not hold yet, each case named by what
// is wrong in the project's terms. A case excuses input leaves by their path
// (and value, where that is the point), never a whole recording: a new value
// dropped in the same file still fails the check.
import type { Unaccounted } from "./account-leaves.js";

export type Command = "normalize" | "convert";

interface KnownCase {
  commands: readonly Command[];
  /** The recordings it is seen in, by a part of their corpus path; any when absent. */
  files?: RegExp;
  path: RegExp;
  value?: RegExp;
  why: string;
}

export const KNOWN_CASES: readonly KnownCase[] = [];

export function excused(command: Command, file: string, leaf: Unaccounted): boolean {
  return KNOWN_CASES.some((known) => known.commands.includes(command) && (known.files?.test(file) ?? true) && known.path.test(leaf.path) && (known.value?.test(leaf.value) ?? true));
}

interface KnownGateCase {
  /** The recordings it is seen in, by a part of their corpus path; any when absent. */
  files?: RegExp;
  /** The tool the call names, when the case is one call's. */
  name?: string;
  /** What the verdict or one of its findings says. */
  detail: RegExp;
  why: string;
}

export const KNOWN_GATE_CASES: readonly KnownGateCase[] = [
  {
    detail: /^the call has no status; only a completed call may run$/,
    why:
      "pydantic-ai's Responses cassette replays its call with the item id (`fc_…`) as call_id and no status: the request is not recognised as " +
      "the conversation so far (its call_id differs from the one the response gave), so the replayed call is a new call without status. " +
      "Blocking it is right, and stays: a call whose status is not said may have been cut, and taking the item id for the call_id to match " +
      "it with the earlier call would be a guess the gate must not make (an item id is never a call_id)",
  },
  {
    files: /^providers\/anthropic\/pydantic-ai-tool-result-error\//,
    name: "stock_lookup",
    detail: /^arguments must have required property 'symbol'$/,
    why:
      "The model called stock_lookup with `{\"ticker\": \"AAPL\"}` where its input_schema requires `symbol` and allows nothing else (the cassette records the " +
      "tool's error answer): the call is invalid as recorded, and blocking it is right",
  },
  {
    files: /^providers\/gemini\/pydantic-ai-vertex-snake-case-tool-errors\//,
    name: "get_file",
    detail: /^arguments must NOT have additional properties$/,
    why:
      "The model called get_file with `{\"type\": \"IMAGE\"}` where its parametersJsonSchema has no property and additionalProperties false: " +
      "the call is invalid as recorded, and blocking it is right",
  },
];

export function gateExcused(file: string, verdict: Record<string, unknown>): boolean {
  const said = [String(verdict.detail), ...((verdict.findings as Array<{ detail: string }> | undefined) ?? []).map((finding) => finding.detail)];
  return KNOWN_GATE_CASES.some(
    (known) => (known.files?.test(file) ?? true) && (known.name === undefined || known.name === verdict.name) && said.some((detail) => known.detail.test(detail)),
  );
}

interface KnownSchemaCase {
  files?: RegExp;
  error: RegExp;
  why: string;
}

export const KNOWN_SCHEMA_CASES: readonly KnownSchemaCase[] = [
];

interface KnownRoundTripCase {
  files: RegExp;
  streamed: boolean;
  why: string;
}

/** Recordings whose way back is known not to give their items back: only the way there is diffed. */
export const KNOWN_ROUND_TRIP_CASES: readonly KnownRoundTripCase[] = [
  {
    files: /^providers\/anthropic\/(mirascope-parallel-tools-stream-cache|vercel-ai-tool-use-chunks)\//,
    streamed: true,
    why:
      "A streamed tool input is the argument string as streamed (`{\"password\": \"mellon\"}`, with its spaces); the way back is an Anthropic " +
      "message, whose tool_use input is an object, which normalize writes as its compact JSON text (`{\"password\":\"mellon\"}`): the same " +
      "arguments as JSON values (diff finds no difference), not the same bytes; the way there reports it (form_changed at the call's arguments)",
  },
];

export function roundTripExcused(file: string, streamed: boolean): boolean {
  return KNOWN_ROUND_TRIP_CASES.some((known) => known.files.test(file) && known.streamed === streamed);
}

/**
 * Synthesized entries that point into the source, where the value is missing,
 * rather than into the output: call ids made for a provider that writes none.
 */
export const KNOWN_SYNTHESIZED_CASES: ReadonlyArray<{ files: RegExp; detail: RegExp; why: string }> = [
];

export function synthesizedExcused(file: string, detail: string): boolean {
  return KNOWN_SYNTHESIZED_CASES.some((known) => known.files.test(file) && known.detail.test(detail));
}

export function schemaExcused(file: string, error: string): boolean {
  return KNOWN_SCHEMA_CASES.some((known) => (known.files?.test(file) ?? true) && known.error.test(error));
}
