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
  /** What the verdict or one of its findings says. */
  detail: RegExp;
  why: string;
}

export const KNOWN_GATE_CASES: readonly KnownGateCase[] = [];

export function gateExcused(file: string, verdict: Record<string, unknown>): boolean {
  const said = [String(verdict.detail), ...((verdict.findings as Array<{ detail: string }> | undefined) ?? []).map((finding) => finding.detail)];
  return KNOWN_GATE_CASES.some((known) => said.some((detail) => known.detail.test(detail)));
}

interface KnownSchemaCase {
  files?: RegExp;
  error: RegExp;
  why: string;
}

export const KNOWN_SCHEMA_CASES: readonly KnownSchemaCase[] = [];

export function schemaExcused(file: string, error: string): boolean {
  return KNOWN_SCHEMA_CASES.some((known) => (known.files?.test(file) ?? true) && known.error.test(error));
}
