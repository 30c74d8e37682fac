// Gates a normalized journal record by record: each item gets the single-item
// verdict (with the schema of its tool), then the journal-wide checks attach
// their findings. Any finding blocks, like a blocking verdict.
import type { JournalItem } from "../models/journal-item.js";
import { PreparedGate, type GateRecord, type PreparedItem, type PreparedRecord } from "./prepared-gate.js";
import type { SchemaCache, ToolSchema } from "./schema.js";
import { TargetChecker, type Target } from "./targets.js";
import { ToolRegistry } from "./tool-registry.js";

export { PreparedGate, type GateRecord, type PreparedItem, type PreparedRecord } from "./prepared-gate.js";

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

/** One record of a normalized journal: its items and, for a request body, the body. */
export interface GateInput {
  source?: string;
  line: number;
  items: readonly JournalItem[];
  request?: Record<string, unknown>;
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

/** Gates a normalized journal record by record (both halves in one thread). */
export class JournalGate {
  private readonly tools: ToolsInForce;
  private readonly gate: PreparedGate;

  constructor(options: JournalGateOptions = {}) {
    this.tools = new ToolsInForce(options);
    this.gate = new PreparedGate({ checks: options.target ? [new TargetChecker(options.target)] : [], omitSource: options.omitSource, cache: options.cache });
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
