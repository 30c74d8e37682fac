// Gates a normalized journal record by record: each item gets the single-item
// verdict (with the schema of its tool), then the journal-wide checks attach
// their findings. Any finding blocks, like a blocking verdict.
import type { JournalItem } from "../models/journal-item.js";
import { JournalChecker, type CheckedItem, type Finding, type GatedItem } from "./journal-checks.js";
import { isBlocked, replayGate, type GateReason } from "./replay-gate.js";
import { SchemaCache, type ToolSchema } from "./schema.js";
import { TargetChecker, type Target } from "./targets.js";
import { ToolRegistry } from "./tool-registry.js";

export interface JournalGateOptions {
  /** One schema for every call (`gate --schema`); otherwise each call's tool schema from the registry. */
  schema?: ToolSchema;
  /** The tools in force; request bodies met in the journal are added to it. */
  registry?: ToolRegistry;
  /** Also check that the target would accept each item (`gate --for`). */
  target?: Target;
  /** Leave `source` out of the records (a journal read from one source). */
  omitSource?: boolean;
  cache?: SchemaCache;
}

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

/** One record of a normalized journal: its items and, for a request body, the body. */
export interface GateInput {
  source?: string;
  line: number;
  items: readonly JournalItem[];
  request?: Record<string, unknown>;
}

/**
 * A record whose items know what the tools in force say of them: the schema of
 * each call's tool, and whether its name may run. `requestError` when the
 * record's request body had tools that cannot be read (the tools in force then
 * stay as they were).
 */
export interface PreparedRecord {
  source?: string;
  line: number;
  requestError?: string;
  items: PreparedItem[];
}

export interface PreparedItem extends JournalItem {
  /** The schema of the call's tool; absent when none is known, or when the item is no call. */
  schema?: ToolSchema;
  /** On a call with a name: why the tools in force refuse it, `null` when they allow it. */
  notAllowed?: string | null;
}

/**
 * The first half of the journal gate: keeps the tools in force (the registry,
 * updated by each request body in journal order) and tells each call what they
 * say of it. It must see every record in order, as the journal-wide checks of
 * the second half must; `gate --jobs` runs the halves in two threads.
 */
export class ToolsInForce {
  private readonly schema: ToolSchema | undefined;
  private readonly registry: ToolRegistry;

  constructor(options: Pick<JournalGateOptions, "schema" | "registry"> = {}) {
    this.schema = options.schema;
    this.registry = options.registry ?? new ToolRegistry();
  }

  prepare(input: GateInput): PreparedRecord {
    let requestError: string | undefined;
    if (input.request) {
      try {
        this.registry.addRequestBody(input.request, `line ${input.line}`);
      } catch (error) {
        // A request whose tools cannot be read leaves the registry as it was; its
        // calls then meet the tools in force, and the line is reported.
        requestError = (error as Error).message;
      }
    }
    const prepared: PreparedRecord = { line: input.line, items: input.items.map((journalItem) => this.prepareItem(journalItem)) };
    if (input.source !== undefined) prepared.source = input.source;
    if (requestError !== undefined) prepared.requestError = requestError;
    return prepared;
  }

  private prepareItem(journalItem: JournalItem): PreparedItem {
    const prepared: PreparedItem = { item: journalItem.item, provenance: journalItem.provenance };
    const item = journalItem.item as unknown;
    // Only a function_call gets as far as its schema (replayGate) or its name (the checks).
    if (item === null || typeof item !== "object" || (item as { type?: unknown }).type !== "function_call") return prepared;
    const name = (item as { name?: unknown }).name;
    const schema = this.schema ?? (typeof name === "string" ? this.registry.schemaFor(name) : undefined);
    if (schema !== undefined) prepared.schema = schema;
    if (typeof name === "string" && name !== "") prepared.notAllowed = this.registry.notAllowedReason(name) ?? null;
    return prepared;
  }
}

/**
 * The second half of the journal gate: the verdict of each prepared item, the
 * journal-wide checks, and the records the gate writes.
 */
export class PreparedGate {
  private readonly checker: JournalChecker;
  private readonly gateOptions: { cache: SchemaCache };
  private readonly toRecord: (checked: CheckedItem) => GateRecord;
  private readonly omitSource: boolean;

  constructor(options: Pick<JournalGateOptions, "target" | "omitSource" | "cache"> = {}) {
    this.gateOptions = { cache: options.cache ?? new SchemaCache() };
    this.omitSource = options.omitSource === true;
    this.toRecord = (checked) => toRecord(checked, this.omitSource);
    this.checker = new JournalChecker({ checks: options.target ? [new TargetChecker(options.target)] : [] });
  }

  /** The items of one record; returns the records whose findings are final. */
  push(prepared: PreparedRecord): GateRecord[] {
    const records = prepared.requestError !== undefined ? this.error(prepared.source, prepared.line, prepared.requestError) : [];
    if (prepared.items.length === 0) return records;
    // Built field by field: a spread per item is a measurable share of the gate's time.
    const gated = prepared.items.map((item): GatedItem => ({ item: item.item, provenance: item.provenance, verdict: replayGate(item.item, item.schema, this.gateOptions), notAllowed: item.notAllowed }));
    const checked = this.checker.push(gated).map(this.toRecord);
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

/** Gates a normalized journal record by record (both halves in one thread). */
export class JournalGate {
  private readonly tools: ToolsInForce;
  private readonly gate: PreparedGate;

  constructor(options: JournalGateOptions = {}) {
    this.tools = new ToolsInForce(options);
    this.gate = new PreparedGate(options);
  }

  /** The items of one record; returns the records whose findings are final. */
  push(input: GateInput): GateRecord[] {
    return this.gate.push(this.tools.prepare(input));
  }

  /** A line that gave no item (not JSON, unreadable): blocked, since nothing on it was checked. */
  error(source: string | undefined, line: number, detail: string): GateRecord[] {
    return this.gate.error(source, line, detail);
  }

  finish(): GateRecord[] {
    return this.gate.finish();
  }
}

function toRecord(checked: CheckedItem, omitSource: boolean): GateRecord {
  const fields = checked.item !== null && typeof checked.item === "object" && !Array.isArray(checked.item) ? (checked.item as Record<string, unknown>) : {};
  const verdict = checked.verdict ?? { reason: "namespaced" as const, detail: "no verdict was given" };
  const record: GateRecord = {
    line: checked.provenance.line,
    index: checked.provenance.index,
    type: fields.type,
    call_id: fields.call_id,
    name: fields.name,
    reason: verdict.reason,
    detail: verdict.detail,
    ...(verdict.path !== undefined ? { path: verdict.path } : {}),
    blocked: isBlocked(verdict) || checked.findings.length > 0,
    findings: checked.findings,
  };
  return checked.provenance.source !== undefined && !omitSource ? { source: checked.provenance.source, ...record } : record;
}
