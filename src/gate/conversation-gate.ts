// The gate, one conversation at a time: each conversation of an interleaved
// journal gets its own pipeline (JournalNormalizer, then the tools in force, then
// the verdicts and checks), the one `gate` runs on a whole journal, and the
// router (conversation-router.ts) merges their verdicts back in journal order.
// Every state that spans lines is therefore a conversation's own: streams being
// reassembled, the history a request replays, the tools and tool_choice in force,
// the calls waiting for their output, the call_ids and ids already seen.
//
// What each lane holds back, which the router must wait for before it writes a
// later line:
//
// | held back                    | from                        | until                                  |
// |------------------------------|-----------------------------|----------------------------------------|
// | a stream being reassembled   | its first chunk or event,   | a record outside the stream, the end   |
// |                              |   or the record that closed |   of the conversation (StreamRecords)  |
// |                              |   the stream's last response|                                        |
// | a reasoning item             | its line                    | the next item (JournalChecker)         |
//
// Both are told from what the lane sees go in and come out (the stream by
// ConversationStream), never guessed from timing.
import type { JournalLine } from "../journal/read.js";
import { ConversationStream } from "../journal/conversation-stream.js";
import { parsePointer, type JsonPointer } from "../journal/json-pointer.js";
import { JournalNormalizer, type NormalizedRecord, type NormalizeOptions } from "../journal/normalize.js";
import type { ConversationKey } from "../journal/conversation-key.js";
import { ConversationRouter, type ConversationLane, type LinePlace, type Reopened, type Routed } from "./conversation-router.js";
import { CallIdsAcrossConversations, type ConversationClaims } from "./calls-across-conversations.js";
import type { ItemCheck } from "./journal-checks.js";
import { PreparedGate, type GateRecord } from "./prepared-gate.js";
import { SchemaCache, type ToolSchema } from "./schema.js";
import { ToolRegistry, type EnvelopeToolsReader, type ToolRegistryData } from "./tool-registry.js";
import { changesTools, ToolsInForce } from "./tools-in-force.js";
import { GATE_READING } from "../journal/gate-reading.js";

export interface ConversationGateOptions {
  /**
   * Where each record holds its conversation's key: a JSON Pointer, as text or
   * read. Without it, only a stored log reader's lines name their conversation,
   * and the other lines are one conversation together.
   */
  conversation?: string | JsonPointer;
  /** Conversations open at once (DEFAULT_MAX_OPEN_CONVERSATIONS when absent). */
  maxOpenConversations?: number;
  /** One schema for every call; otherwise each call's tool schema from the registry. */
  schema?: ToolSchema;
  /** The tools given for the whole journal; each conversation starts from a copy, which its request bodies then change. */
  registry?: ToolRegistry;
  /** Reads the tools of a request body of another envelope; handed over by the caller, since the gate imports no adapter. */
  readTools?: EnvelopeToolsReader;
  /** The per-item checks of one conversation (a replay target's): made for each, as they keep state. */
  checks?: () => ItemCheck[];
  /** Leave `source` out of the records (a journal read from one source). */
  omitSource?: boolean;
  /** The compile cache; a new one by default. A cache brings its own `assertFormats`. */
  cache?: SchemaCache;
  /** Check `format` as an assertion rather than an annotation (the 2020-12 default). */
  assertFormats?: boolean;
  normalize?: Pick<NormalizeOptions, "origin">;
}

/** A verdict with the conversation it belongs to (absent on a line that names none). */
export type ConversationGateRecord = GateRecord & { conversation?: ConversationKey; note?: string };

/**
 * A router whose lanes gate: push the journal's lines (or records), then `finish`.
 * `present` makes what is kept of each verdict until its turn comes
 * (`withConversation` keeps the record).
 */
export function conversationGate<Presented>(options: ConversationGateOptions, present: (routed: Routed<GateRecord>) => Presented): ConversationRouter<GateRecord, Presented> {
  const pointer = typeof options.conversation === "string" ? parsePointer(options.conversation) : options.conversation;
  if (pointer !== undefined && pointer.tokens.length === 0) throw new RangeError("the conversation key must be a member of the record (as in /conversation_id), not the whole record");
  const cache = options.cache ?? new SchemaCache(undefined, { assertFormats: options.assertFormats });
  // Read once: a lane that meets a request body copies it into a registry of its own.
  const registry = options.registry?.data();
  // The tools in force change only at a request body: until its first, every lane reads the same.
  const tools = new ToolsInForce({ schema: options.schema, registry: registry === undefined ? undefined : ToolRegistry.fromData(registry), readTools: options.readTools });
  const lines = new PreparedGate({ omitSource: options.omitSource, cache });
  // A stored log's conversations are judged apart, but share their call_ids (calls-across-conversations.ts); without a pointer, every line is of a stored log's run.
  const callIds = new CallIdsAcrossConversations();
  const storedOnly = pointer !== undefined;
  return new ConversationRouter<GateRecord, Presented>({
    pointer,
    maxOpen: options.maxOpenConversations,
    openLane: (key, reopened, restricted) => new GateLane({ ...options, cache, registry, tools, reopened, restricted, claims: callIds.of(keyId(key)), storedOnly }),
    keyless: (place, detail) => lines.error(place.source, place.line, detail),
    placeOf: (record) => record,
    present,
  });
}

/** A routed verdict as one record: the conversation first, the note last. */
export function withConversation(routed: Routed<GateRecord>): ConversationGateRecord {
  const { output, conversation, note } = routed;
  const record: ConversationGateRecord = conversation === undefined ? { ...output } : { conversation, ...output };
  if (note !== undefined) record.note = note;
  return record;
}

type LaneOptions = Omit<ConversationGateOptions, "registry" | "conversation" | "maxOpenConversations"> & {
  cache: SchemaCache;
  /** The tools given for the whole journal, which each conversation starts from. */
  registry?: ToolRegistryData;
  /** The tools in force of a conversation with no request body yet, shared by all such: no request body, nor any record that carries tools, ever reaches them. */
  tools?: ToolsInForce;
  /**
   * Set when the conversation was closed early and is open again: what it
   * called and what its request bodies allowed are gone, so no function may run
   * in it (a call_id it uses again, a tool it defines again could not be checked).
   */
  reopened?: Reopened;
  /** Set when a line that named no conversation may have narrowed this one's tools: why no function may run until its first request body. */
  restricted?: string;
  /** The conversation's side of the call_ids shared with the other conversations of a stored log. */
  claims?: ConversationClaims;
  /** Whether only the lines a stored log's reader gave share their call_ids (with --conversation); otherwise every line does. */
  storedOnly?: boolean;
};

/** One conversation's gate: the halves of JournalGate, with the tools in force its own from its first request body. */
export class GateLane implements ConversationLane<GateRecord> {
  private readonly normalizer: JournalNormalizer;
  private readonly gate: PreparedGate;
  private tools: ToolsInForce;
  private ownTools: boolean;
  private readonly schema: ToolSchema | undefined;
  private readonly registry: ToolRegistryData | undefined;
  private readonly readTools: EnvelopeToolsReader | undefined;
  /** The stream the normalizer may still be reassembling. */
  private readonly stream = new ConversationStream();
  /**
   * The lines of the items pushed to the checks and not yet given back, oldest
   * first, with how many of each: a run of reasoning waits for the item after it,
   * and may have begun lines before the last.
   */
  private readonly held: { place: LinePlace; items: number }[] = [];
  private readonly claims: ConversationClaims | undefined;
  private readonly storedOnly: boolean;
  /** Whether the last line pushed that was not blank gave back no item of its own: the next line may end a stream it began. */
  private quiet = false;

  constructor(options: LaneOptions) {
    this.normalizer = new JournalNormalizer({ ...options.normalize, ...GATE_READING });
    this.claims = options.claims;
    this.storedOnly = options.storedOnly === true;
    this.gate = new PreparedGate({ checks: options.checks?.() ?? [], omitSource: options.omitSource, cache: options.cache, otherConversations: options.claims });
    this.schema = options.schema;
    this.readTools = options.readTools;
    this.registry = options.registry;
    this.ownTools = options.tools === undefined || options.reopened !== undefined || options.restricted !== undefined;
    this.tools =
      options.reopened !== undefined
        ? this.toolsOfItsOwn(options.restricted, reopenedReason(options.reopened))
        : options.restricted !== undefined
          ? this.toolsOfItsOwn(options.restricted)
          : (options.tools ?? this.toolsOfItsOwn());
  }

  damage(line: number, detail?: string): void {
    this.normalizer.damageOpenStream(line, detail);
  }

  restrict(where: string): void {
    // The tools shared by the conversations with no request body yet are never changed here.
    if (!this.ownTools) {
      this.tools = this.toolsOfItsOwn(where);
      this.ownTools = true;
      return;
    }
    this.tools.allowNone(where);
  }

  pushLine(line: JournalLine, record: unknown): GateRecord[] {
    this.claims?.read({ source: line.source, line: line.line, text: line.text, record, stored: !this.storedOnly || line.conversation !== undefined, mayEndStream: this.quiet });
    this.stream.line(line.source);
    const normalized = this.normalizer.push(line);
    this.stream.follow({ source: line.source, line: line.line }, normalized);
    // A blank line holds no record: it neither begins a stream nor ends one.
    if (line.error !== undefined || !/^[ \t\r\n]*$/.test(line.text)) this.quiet = !givesItemsAt(normalized, line);
    return this.gated(normalized);
  }

  pushRecord(record: unknown, place: LinePlace): GateRecord[] {
    this.claims?.read({ source: place.source, line: place.line, text: "", record, stored: !this.storedOnly, mayEndStream: this.quiet });
    const normalized = this.normalizer.pushRecord(record, place.line);
    this.stream.follow(place, normalized);
    this.quiet = !givesItemsAt(normalized, place);
    return this.gated(normalized);
  }

  finish(): GateRecord[] {
    const out = this.gated(this.normalizer.finish());
    out.push(...this.gate.finish());
    this.stream.finish();
    this.held.length = 0;
    return out;
  }

  pending(): readonly LinePlace[] {
    const stream = this.stream.from;
    const oldest = this.held[0]?.place;
    if (oldest) return stream ? [stream, oldest] : [oldest];
    return stream ? [stream] : [];
  }

  private gated(records: readonly NormalizedRecord[]): GateRecord[] {
    const out: GateRecord[] = [];
    for (const record of records) {
      // The tools shared by the conversations with no request body yet are never changed by one of them.
      if (record.kind === "items" && !this.ownTools && changesTools(record)) {
        this.tools = this.toolsOfItsOwn();
        this.ownTools = true;
      }
      const gated = record.kind === "error" ? this.gate.error(record.source, record.line, record.detail) : this.gate.push(this.tools.prepare(record));
      if (record.kind === "items" && record.items.length > 0) this.held.push({ place: { source: record.source, line: record.line }, items: record.items.length });
      for (const verdict of gated) {
        // An item's verdict, not a line's error: one item fewer held, given back in the order pushed.
        if (verdict.reason !== "error" && this.held.length > 0) {
          this.held[0].items -= 1;
          if (this.held[0].items === 0) this.held.shift();
        }
        out.push(verdict);
      }
    }
    return out;
  }

  /** `allowNone`: the tools start allowing no function, for the reason it gives; `allowNoneForGood`: they never allow one. */
  private toolsOfItsOwn(allowNone?: string, allowNoneForGood?: string): ToolsInForce {
    const registry = this.registry === undefined ? new ToolRegistry() : ToolRegistry.fromData(this.registry);
    if (allowNone !== undefined) registry.allowNone(allowNone);
    if (allowNoneForGood !== undefined) registry.allowNoneForGood(allowNoneForGood);
    const own = this.registry !== undefined || allowNone !== undefined || allowNoneForGood !== undefined;
    return new ToolsInForce({ schema: this.schema, registry: own ? registry : undefined, readTools: this.readTools });
  }
}

/** Whether the normalizer gave back items of the line at `place` itself (not only an error, nor only a stream's earlier lines). */
function givesItemsAt(normalized: readonly NormalizedRecord[], place: LinePlace): boolean {
  return normalized.some((entry) => entry.kind === "items" && entry.line === place.line && entry.source === place.source);
}

/** A conversation's key as one text, its type told: 7 and "7" are two conversations. */
function keyId(key: ConversationKey | undefined): string {
  return key === undefined ? "" : `${typeof key === "string" ? "s" : "n"}${key}`;
}

/** Why no function may run in a conversation opened again, as a sentence's subject. */
function reopenedReason(reopened: Reopened): string {
  const closed = reopened.closedAfter === undefined ? "this conversation may have been closed early before, too long ago to be remembered," : `this conversation was closed after its line ${reopened.closedAfter}`;
  return `${closed} and opened again, so what it called and allowed before is not known; for the rest of the journal, it`;
}
