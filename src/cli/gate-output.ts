// The lines `gate` writes, and the counts it ends with, gathered batch by batch:
// in the thread that gates, whichever that is (`--jobs`).
import type { GateRecord } from "../gate/prepared-gate.js";
import { counted } from "./plural.js";
import { styleOf } from "./style.js";
import { quoteVisible, visibleInLine } from "../models/quote-visible.js";

export type GateFormat = "text" | "json";

/** Which verdicts are written: every one, the blocked ones (`--only-blocked`), or none (`--quiet`). All are counted. */
export type GateShown = "all" | "blocked" | "none";

export interface GateCounts {
  items: number;
  errors: number;
  blocked: number;
  /** Blocked records by what blocked them: a reason, or the finding that blocked an item whose own reason does not block. */
  blockedBy: Record<string, number>;
  /** Findings by code, on every record. */
  findings: Record<string, number>;
}

const noCounts = (): GateCounts => ({ items: 0, errors: 0, blocked: 0, blockedBy: {}, findings: {} });

/** Adds `from` into `into`: the counts of two batches, or of a batch into a run's. */
export function addCounts(into: GateCounts, from: GateCounts): void {
  into.items += from.items;
  into.errors += from.errors;
  into.blocked += from.blocked;
  for (const [key, count] of Object.entries(from.blockedBy)) into.blockedBy[key] = (into.blockedBy[key] ?? 0) + count;
  for (const [key, count] of Object.entries(from.findings)) into.findings[key] = (into.findings[key] ?? 0) + count;
}

/** A gate run's counts, as its closing summary says them. */
export interface GateSummary extends GateCounts {
  lines: number;
  /** With --conversation: the conversations met, and those opened again after --max-open-conversations closed them. */
  conversations?: { count: number; reopened: number };
}

/**
 * The closing summary on stderr, the same for gate and report: the counts
 * (then `more`), and beneath them blocked records by what blocked them and
 * findings by code, most frequent first.
 */
export function summaryText(summary: GateSummary, more = ""): string {
  const { conversations } = summary;
  const byConversation =
    conversations === undefined
      ? ""
      : `; ${counted(conversations.count, "conversation")}${conversations.reopened > 0 ? ` (${conversations.reopened} reopened after --max-open-conversations closed them)` : ""}`;
  return (
    `read ${counted(summary.lines, "line")}: ${counted(summary.items, "item")}, ${counted(summary.errors, "error")}; ${summary.blocked} blocked${byConversation}${more}\n` +
    tallyLine("blocked by", summary.blockedBy) +
    tallyLine("findings", summary.findings)
  );
}

function tallyLine(label: string, tally: Record<string, number>): string {
  const entries = Object.entries(tally).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? "" : `  ${label}: ${entries.map(([key, count]) => `${key} ${count}`).join(", ")}\n`;
}

/**
 * What blocked a record: its reason, unless the reason does not block (an `ok`
 * call, an item that is not a call) and a finding did.
 */
export function blockedBy(record: GateRecord): string | undefined {
  if (!record.blocked) return undefined;
  if ((record.reason === "ok" || record.reason === "not_function_call") && record.findings.length > 0) return record.findings[0]!.code;
  return record.reason;
}

/** The lines of a batch of records, newline-terminated, and what they counted. */
export interface GateLines extends GateCounts {
  text: string;
}

/** A line of the journal that gave no record: not read, or not JSON. */
export interface LineError {
  kind: "error";
  source?: string;
  line: number;
  detail: string;
}

/** What gives a record its lines: the whole gate, or its second half in a worker. */
export interface RecordGate<Items> {
  push(record: Items): GateRecord[];
  error(source: string | undefined, line: number, detail: string): GateRecord[];
}

export class GateOutput {
  private text = "";
  private counts: GateCounts = noCounts();
  private readonly style;

  constructor(
    private readonly format: GateFormat,
    colour: boolean,
    private readonly shown: GateShown = "all",
  ) {
    this.style = styleOf(colour);
  }

  /** Gates each record with `gate`, a line that gave no record as an error, and adds what it answers. */
  addGated<Items>(records: Iterable<({ kind: "items" } & Items) | LineError>, gate: RecordGate<Items>): void {
    for (const record of records) this.add(record.kind === "error" ? gate.error(record.source, record.line, record.detail) : gate.push(record));
  }

  add(records: readonly GateRecord[]): void {
    for (const record of records) {
      if (record.reason === "error") this.counts.errors += 1;
      else this.counts.items += 1;
      const by = blockedBy(record);
      if (by !== undefined) {
        this.counts.blocked += 1;
        this.counts.blockedBy[by] = (this.counts.blockedBy[by] ?? 0) + 1;
      }
      for (const finding of record.findings) this.counts.findings[finding.code] = (this.counts.findings[finding.code] ?? 0) + 1;
      if (this.shown === "none" || (this.shown === "blocked" && !record.blocked)) continue;
      this.text += (this.format === "json" ? jsonLine(record) : this.textLine(record, by)) + "\n";
    }
  }

  /** What was added since the last call. */
  take(): GateLines {
    const lines = { text: this.text, ...this.counts };
    this.text = "";
    this.counts = noCounts();
    return lines;
  }

  /**
   * The headline names what blocked the record; when a finding blocked an item
   * whose own verdict does not block, the verdict follows below the findings.
   */
  private textLine(record: GateRecord, by: string | undefined): string {
    // What the journal wrote is shown with no character that could start a line or reorder one.
    const where = record.source ? `${visibleInLine(record.source)}:${record.line}` : `line ${record.line}`;
    const at = record.index > 0 ? `${where}.${record.index}` : where;
    const what = [typeof record.type === "string" ? fieldText(record.type) : "-", typeof record.call_id === "string" ? fieldText(record.call_id) : "-"].join(" ");
    const mark = record.blocked ? this.style.blocked("BLOCKED") : this.style.passed("pass");
    const findingLine = (finding: GateRecord["findings"][number]) => `\n    ${finding.code}: ${visibleInLine(finding.detail)}`;
    if (by !== undefined && by !== record.reason) {
      const [first] = record.findings;
      const rest = record.findings.slice(1).map(findingLine).join("");
      return `${at}  ${what}  ${mark} ${by}: ${visibleInLine(first!.detail)}${rest}\n    verdict ${record.reason}: ${visibleInLine(record.detail)}`;
    }
    return `${at}  ${what}  ${mark} ${record.reason}: ${visibleInLine(record.detail)}${record.findings.map(findingLine).join("")}`;
  }
}

/**
 * A type or call_id as a field of the text line: as it is when it is one word,
 * else quoted, its characters past printable ASCII escaped and cut after 200.
 * The fields are split by spaces and the verdict comes after them: a call_id
 * `call_1  pass ok: completed call…` padded with spaces printed its own "pass
 * ok" where the verdict stands and pushed the real one out of sight. Quoted,
 * an empty id, `-` and an id that starts with a quote read apart from no id
 * and from a quoted one.
 */
function fieldText(text: string): string {
  return text === "" || text === "-" || text.startsWith('"') || /\s/u.test(text) ? quoteVisible(text, 200) : visibleInLine(text);
}

/**
 * `JSON.stringify(record)`, written field by field: a record's shape is known, and
 * serializing a whole object costs several times more than its strings alone.
 * The keys come in the order the gate builds them, and a field that is
 * `undefined` is left out, as JSON.stringify leaves it out.
 */
export function jsonLine(record: GateRecord): string {
  let line = record.source !== undefined ? `{"source":${quoted(record.source)},"line":` : `{"line":`;
  line += `${number(record.line)},"index":${number(record.index)}`;
  if (record.type !== undefined) line += `,"type":${quoted(record.type)}`;
  if (record.call_id !== undefined) line += `,"call_id":${JSON.stringify(record.call_id)}`;
  if (record.name !== undefined) line += `,"name":${quoted(record.name)}`;
  line += `,"reason":${quoted(record.reason)},"detail":${quoted(record.detail)}`;
  if (record.path !== undefined) line += `,"path":${quoted(record.path)}`;
  const by = blockedBy(record);
  if (by !== undefined && by !== record.reason) line += `,"blocked_by":${quoted(by)}`;
  return `${line},"blocked":${record.blocked},"findings":${record.findings.length === 0 ? "[]" : JSON.stringify(record.findings)}}`;
}

/**
 * The JSON text of the short strings that come back verdict after verdict (types,
 * reasons, paths, tool names, the details of `ok` and `not_function_call`), kept
 * as first written: looking one up costs half what writing it again does. The
 * table stops growing at its size, so a journal of ever new strings only misses.
 */
const QUOTED_LIMIT = 4_096;
const QUOTED_LENGTH = 64;
const quotedStrings = new Map<string, string>();

function quoted(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > QUOTED_LENGTH) return JSON.stringify(value);
  let text = quotedStrings.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    if (quotedStrings.size < QUOTED_LIMIT) quotedStrings.set(value, text);
  }
  return text;
}

function number(value: number): string {
  return Number.isFinite(value) ? String(value) : JSON.stringify(value);
}
