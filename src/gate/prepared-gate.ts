// The second half of the journal gate: the verdict of each prepared item, the
// journal-wide checks, and the records the gate writes. It loads neither Zod nor
// the replay targets (a caller passes a target's checks in), so a thread that
// runs only this half (`gate --jobs`) stays small.
import type { Finding } from "../models/finding.js";
import type { AnswerStarts, JournalItem } from "../models/journal-item.js";
import type { OtherConversations } from "./calls-across-conversations.js";
import { JournalChecker, type CheckedItem, type GatedItem, type ItemCheck } from "./journal-checks.js";
import { isBlocked, replayGate, type GateReason } from "./replay-gate.js";
import { SchemaCache, type ToolSchema } from "./schema.js";

/** The gate's answer for one item, or for a line that gave no item. */
export interface GateRecord {
  source?: string;
  line: number;
  index: number;
  type?: unknown;
  call_id?: unknown;
  name?: unknown;
  reason: GateReason | "error";
  detail: string;
  path?: string;
  blocked: boolean;
  findings: Finding[];
}

/**
 * A record whose items know what the tools in force say of them: the schema of
 * each call's tool, and whether its name may run. `recordError` when the line
 * holds something that was not checked: a request body's tools that cannot be
 * read (the tools in force then stay as they were), or a tool call that gave no
 * item. It makes a blocked line of its own, before the record's items.
 */
export interface PreparedRecord {
  source?: string;
  line: number;
  recordError?: string;
  items: PreparedItem[];
  /** The calls of the choices a request's replay did not continue: the conversation goes on without them, and they wait for no output. */
  callsOfOtherAnswers?: readonly string[];
  /** Where the record's answers that are alternatives to one another begin: one's items pass no call of another by. */
  answers?: AnswerStarts;
}

export interface PreparedItem extends JournalItem {
  /** The schema of the call's tool; absent when none is known, or when the item is no call. */
  schema?: ToolSchema;
  /** On a call with a name: why the tools in force refuse it, `null` when they allow it. */
  notAllowed?: string | null;
}

export interface PreparedGateOptions {
  /** Per-item checks run with the journal-wide ones (a replay target's: `TargetChecker`). */
  checks?: readonly ItemCheck[];
  /** Leave `source` out of the records (a journal read from one source). */
  omitSource?: boolean;
  /** The compile cache; a new one by default. A cache brings its own `assertFormats`. */
  cache?: SchemaCache;
  /** Without a cache: check `format` as an assertion rather than an annotation (the 2020-12 default). */
  assertFormats?: boolean;
  /** The call_ids of a stored log's other conversations (JournalCheckOptions). */
  otherConversations?: OtherConversations;
}

export class PreparedGate {
  private readonly checker: JournalChecker;
  private readonly gateOptions: { cache: SchemaCache };
  private readonly toRecord: (checked: CheckedItem) => GateRecord;
  private readonly omitSource: boolean;

  constructor(options: PreparedGateOptions = {}) {
    this.gateOptions = { cache: options.cache ?? new SchemaCache(undefined, { assertFormats: options.assertFormats }) };
    this.omitSource = options.omitSource === true;
    this.toRecord = (checked) => toRecord(checked, this.omitSource);
    this.checker = new JournalChecker({ checks: options.checks ?? [], otherConversations: options.otherConversations });
  }

  /** The items of one record; returns the records whose findings are final. */
  push(prepared: PreparedRecord): GateRecord[] {
    const records = prepared.recordError !== undefined ? this.error(prepared.source, prepared.line, prepared.recordError) : [];
    if (prepared.callsOfOtherAnswers !== undefined) this.checker.answerTaken(prepared.callsOfOtherAnswers);
    if (prepared.items.length === 0) return records;
    // Built field by field: a spread per item is a measurable share of the gate's time.
    const gated = prepared.items.map((item): GatedItem => ({ item: item.item, provenance: item.provenance, verdict: replayGate(item.item, item.schema, this.gateOptions), notAllowed: item.notAllowed }));
    const checked = this.checker.push(gated, prepared.answers).map(this.toRecord);
    if (records.length === 0) return checked;
    records.push(...checked);
    return records;
  }

  /** A line that gave no item (not JSON, unreadable): blocked, since nothing on it was checked. */
  error(source: string | undefined, line: number, detail: string): GateRecord[] {
    const record: GateRecord = { line, index: 0, reason: "error", detail, blocked: true, findings: [] };
    return [source !== undefined && !this.omitSource ? { source, ...record } : record];
  }

  finish(): GateRecord[] {
    return this.checker.finish().map(this.toRecord);
  }
}

function toRecord(checked: CheckedItem, omitSource: boolean): GateRecord {
  const fields = checked.item !== null && typeof checked.item === "object" && !Array.isArray(checked.item) ? (checked.item as Record<string, unknown>) : {};
  const verdict = checked.verdict ?? { reason: "namespaced" as const, detail: "no verdict was given" };
  const { line, index, source } = checked.provenance;
  const blocked = isBlocked(verdict) || checked.findings.length > 0;
  // Each shape written out, in the order the output gives the fields: a spread
  // per item is a measurable share of the gate's time.
  if (source !== undefined && !omitSource) {
    return verdict.path !== undefined
      ? { source, line, index, type: fields.type, call_id: fields.call_id, name: fields.name, reason: verdict.reason, detail: verdict.detail, path: verdict.path, blocked, findings: checked.findings }
      : { source, line, index, type: fields.type, call_id: fields.call_id, name: fields.name, reason: verdict.reason, detail: verdict.detail, blocked, findings: checked.findings };
  }
  return verdict.path !== undefined
    ? { line, index, type: fields.type, call_id: fields.call_id, name: fields.name, reason: verdict.reason, detail: verdict.detail, path: verdict.path, blocked, findings: checked.findings }
    : { line, index, type: fields.type, call_id: fields.call_id, name: fields.name, reason: verdict.reason, detail: verdict.detail, blocked, findings: checked.findings };
}
