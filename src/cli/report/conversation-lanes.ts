// The report's pipeline with `--conversation POINTER`: the router and the gate's
// lanes `gate --conversation` runs, so the verdicts are its own, and beside each
// lane a normalizer of the report's, which sees the same lines of the same
// conversation and gives the items and losses the page shows. The gate's lane
// keeps its normalized records to itself; reading the lines a second time is the
// price of showing them, paid only in this mode.
import { ConversationRouter, type ConversationLane, type LinePlace, type Routed } from "../../gate/conversation-router.js";
import { GateLane } from "../../gate/conversation-gate.js";
import type { ItemCheck } from "../../gate/journal-checks.js";
import { PreparedGate, type GateRecord } from "../../gate/prepared-gate.js";
import { SchemaCache, type ToolSchema } from "../../gate/schema.js";
import { ToolRegistry } from "../../gate/tool-registry.js";
import { ToolsInForce } from "../../gate/tools-in-force.js";
import { readEnvelopeTools } from "../envelope-tools.js";
import type { ConversationKey } from "../../journal/conversation-key.js";
import type { JsonPointer } from "../../journal/json-pointer.js";
import { JournalNormalizer, type NormalizedRecord } from "../../journal/normalize.js";
import type { JournalLine } from "../../journal/read.js";
import { GATE_READING } from "../../journal/gate-reading.js";

export interface ReportRouterOptions {
  pointer: JsonPointer;
  maxOpen?: number;
  schema?: ToolSchema;
  registry?: ToolRegistry;
  checks?: () => ItemCheck[];
  origin?: string;
  /** Each conversation's normalized records, as its lines come. */
  onRecords(conversation: ConversationKey, records: readonly NormalizedRecord[]): void;
}

export function reportRouter(options: ReportRouterOptions): ConversationRouter<GateRecord, Routed<GateRecord>> {
  const cache = new SchemaCache();
  const registry = options.registry?.data();
  // As conversationGate sets its lanes up: one tools-in-force shared until a conversation's first request body.
  const tools = new ToolsInForce({ schema: options.schema, registry: registry === undefined ? undefined : ToolRegistry.fromData(registry), readTools: readEnvelopeTools });
  const lines = new PreparedGate({ cache });
  const normalize = { origin: options.origin };
  return new ConversationRouter<GateRecord, Routed<GateRecord>>({
    pointer: options.pointer,
    maxOpen: options.maxOpen,
    // The report's router reads a key at its pointer: every conversation has one.
    openLane: (key, reopened, restricted) => new ReportLane(key!, new GateLane({ schema: options.schema, checks: options.checks, normalize, cache, registry, tools, readTools: readEnvelopeTools, reopened, restricted }), new JournalNormalizer({ ...normalize, ...GATE_READING, leftBehind: true }), options.onRecords),
    keyless: (place, detail) => lines.error(place.source, place.line, detail),
    placeOf: (record) => record,
    present: (routed) => routed,
  });
}

class ReportLane implements ConversationLane<GateRecord> {
  constructor(
    private readonly key: ConversationKey,
    private readonly gate: GateLane,
    private readonly normalizer: JournalNormalizer,
    private readonly onRecords: ReportRouterOptions["onRecords"],
  ) {}

  pushLine(line: JournalLine, record: unknown): GateRecord[] {
    this.onRecords(this.key, this.normalizer.push(line));
    return this.gate.pushLine(line, record);
  }

  pushRecord(record: unknown, place: LinePlace): GateRecord[] {
    this.onRecords(this.key, this.normalizer.pushRecord(record, place.line));
    return this.gate.pushRecord(record, place);
  }

  finish(): GateRecord[] {
    this.onRecords(this.key, this.normalizer.finish());
    return this.gate.finish();
  }

  pending(): readonly LinePlace[] {
    return this.gate.pending();
  }

  damage(line: number, detail?: string): void {
    this.normalizer.damageOpenStream(line, detail);
    this.gate.damage(line, detail);
  }

  restrict(where: string): void {
    this.gate.restrict(where);
  }
}
