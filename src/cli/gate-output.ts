// The lines `gate` writes, and the counts it ends with, gathered batch by batch:
// in the thread that gates, whichever that is (`--jobs`).
import type { GateRecord } from "../gate/prepared-gate.js";
import { styleOf } from "./style.js";

export type GateFormat = "text" | "json";

export interface GateCounts {
  items: number;
  errors: number;
  blocked: number;
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
  private counts: GateCounts = { items: 0, errors: 0, blocked: 0 };
  private readonly style;

  constructor(
    private readonly format: GateFormat,
    colour: boolean,
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
      if (record.blocked) this.counts.blocked += 1;
      this.text += (this.format === "json" ? jsonLine(record) : this.textLine(record)) + "\n";
    }
  }

  /** What was added since the last call. */
  take(): GateLines {
    const lines = { text: this.text, ...this.counts };
    this.text = "";
    this.counts = { items: 0, errors: 0, blocked: 0 };
    return lines;
  }

  private textLine(record: GateRecord): string {
    const where = record.source ? `${record.source}:${record.line}` : `line ${record.line}`;
    const at = record.index > 0 ? `${where}.${record.index}` : where;
    const what = [typeof record.type === "string" ? record.type : "-", typeof record.call_id === "string" ? record.call_id : "-"].join(" ");
    const mark = record.blocked ? this.style.blocked("BLOCKED") : this.style.passed("pass");
    const findings = record.findings.map((finding) => `\n    ${finding.code}: ${finding.detail}`).join("");
    return `${at}  ${what}  ${mark} ${record.reason}: ${record.detail}${findings}`;
  }
}

/**
 * `JSON.stringify(record)`, written field by field: a record's shape is known, and
 * serializing a whole object costs several times more than its strings alone.
 * The keys come in the order the gate builds them, and a field that is
 * `undefined` is left out, as JSON.stringify leaves it out.
 */
export function jsonLine(record: GateRecord): string {
  let line = record.source !== undefined ? `{"source":${JSON.stringify(record.source)},"line":` : `{"line":`;
  line += `${number(record.line)},"index":${number(record.index)}`;
  if (record.type !== undefined) line += `,"type":${JSON.stringify(record.type)}`;
  if (record.call_id !== undefined) line += `,"call_id":${JSON.stringify(record.call_id)}`;
  if (record.name !== undefined) line += `,"name":${JSON.stringify(record.name)}`;
  line += `,"reason":${JSON.stringify(record.reason)},"detail":${JSON.stringify(record.detail)}`;
  if (record.path !== undefined) line += `,"path":${JSON.stringify(record.path)}`;
  return `${line},"blocked":${record.blocked},"findings":${record.findings.length === 0 ? "[]" : JSON.stringify(record.findings)}}`;
}

function number(value: number): string {
  return Number.isFinite(value) ? String(value) : JSON.stringify(value);
}
