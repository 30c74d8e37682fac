// Gates a normalized journal record by record: each item gets the single-item
// verdict (with the schema of its tool), then the journal-wide checks attach
// their findings. Any finding blocks, like a blocking verdict.
import type { JournalItem } from "../models/journal-item.js";
import type { Loss } from "../models/loss.js";
import { GateHalves } from "./gate-halves.js";
import { PreparedGate } from "./prepared-gate.js";
import type { SchemaCache, ToolSchema } from "./schema.js";
import { TargetChecker, type Target } from "./targets.js";
import type { ToolRegistry } from "./tool-registry.js";
import { ToolsInForce } from "./tools-in-force.js";

export { PreparedGate, type GateRecord, type PreparedItem, type PreparedRecord } from "./prepared-gate.js";
export { ToolsInForce } from "./tools-in-force.js";

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
  /** What the normalizer could not carry: a tool call it gave no item for blocks the line. */
  losses?: readonly Loss[];
}

/**
 * Gates a normalized journal record by record (both halves in one thread): the
 * library's gate. The `gate` command puts the same halves together itself
 * (GateHalves, in gate-jobs.ts), so that it loads the replay targets, and Zod
 * with them, only for `--for`.
 */
export class JournalGate extends GateHalves {
  constructor(options: JournalGateOptions = {}) {
    super(
      new ToolsInForce(options),
      new PreparedGate({ checks: options.target ? [new TargetChecker(options.target)] : [], omitSource: options.omitSource, cache: options.cache }),
    );
  }
}
