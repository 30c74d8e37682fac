// Reads a journal once, line by line, through the readers `normalize` and `gate`
// use, and gathers what the report shows: lines by kind, the gate's verdicts,
// reading losses and, with a target envelope, what writing in it would lose.
// Memory stays flat: counts are kept by key (tally.ts) and the conversation view
// keeps a window of items, the rest counted.
import { chat, ENVELOPES, isAdapterName } from "../../../adapters/index.js";
import type { Routed } from "../../gate/conversation-router.js";
import type { ConversationRouter } from "../../gate/conversation-router.js";
import { JournalGate } from "../../gate/gate-journal.js";
import type { ItemCheck } from "../../gate/journal-checks.js";
import type { GateRecord } from "../../gate/prepared-gate.js";
import type { ToolSchema } from "../../gate/schema.js";
import type { Target } from "../../gate/target-names.js";
import type { TargetProfile } from "../../models/target-profile.js";
import type { ToolRegistry } from "../../gate/tool-registry.js";
import { readEnvelopeTools } from "../envelope-tools.js";
import { keyText, type ConversationKey } from "../../journal/conversation-key.js";
import type { JsonPointer } from "../../journal/json-pointer.js";
import { JournalNormalizer, type NormalizedRecord } from "../../journal/normalize.js";
import type { JournalLine } from "../../journal/read.js";
import type { JournalItem } from "../../models/journal-item.js";
import type { Loss } from "../../models/loss.js";
import type { CanonicalItem } from "../../models/open-responses.js";
import { blockedBy } from "../gate-output.js";
import { classifyLine, lineClassKey } from "./classify-line.js";
import { reportRouter } from "./conversation-lanes.js";
import { placeKey, type LineError, type LossTable, type ReportData, type ShownItem } from "./report-data.js";
import { Tally, type Place } from "./tally.js";
import { GATE_READING } from "../../journal/gate-reading.js";

export interface CollectOptions {
  sources: readonly string[];
  schema?: ToolSchema;
  registry?: ToolRegistry;
  target?: Target;
  /** The profile of a provider's target, which judges it. */
  profile?: TargetProfile;
  /** The envelope whose writing losses are counted: "responses" writes the canonical form and loses nothing. */
  to?: string;
  origin?: string;
  /** The first item (1-based) the conversation view shows, and how many it shows. */
  itemsFrom: number;
  maxItems: number;
  /** Called with each item, in journal order: the replay diff's origin side. */
  onItem?: (item: JournalItem, conversation?: string) => void;
  settingsShown: { schema?: string; tools?: string };
  /** Gate each conversation apart, as `gate --conversation` does: the pointer to each record's key, and the checks of a target, made per conversation. */
  conversation?: { pointer: JsonPointer; maxOpen?: number; checks?: () => ItemCheck[] };
  /** With `conversation`: the one conversation the view shows, by its key as written (`c-17`, or as JSON: `"c-17"`, `17`). */
  show?: string;
}

/** Distinct loss paths kept per table; more are counted as one overflow. */
const MAX_LOSS_PATHS = 2_000;
/** Conversations counted one by one; more are counted together. */
const MAX_CONVERSATIONS_KEPT = 10_000;
/** Lines kept behind each conversation's counts: enough to open it, at a few bytes per conversation. */
const PLACES_PER_CONVERSATION = 5;
/** Line errors listed by line; more are counted. */
const MAX_ERRORS_SHOWN = 500;

class LossTally {
  readonly byCode = new Tally();
  readonly byPath = new Tally(MAX_LOSS_PATHS);

  constructor(private readonly label: string) {}

  add(losses: readonly Loss[], place: Place): void {
    for (const loss of losses) {
      this.byCode.add(loss.code, place);
      // A path may hold any character (a member name is journal text): the pair is kept as JSON.
      this.byPath.add(JSON.stringify([generalPath(loss.path), loss.code]), place);
    }
  }

  table(): LossTable {
    return { label: this.label, byCode: this.byCode.sorted(), byPath: this.byPath.sorted(), pathOverflow: this.byPath.overflow, total: this.byCode.total() };
  }
}

/**
 * The key `--show` names, as keyText writes keys: the text itself when it is
 * how keyText writes a key (`17`, `"c-17"`), else a string key written as it is
 * (`c-17`). Read both ways at once, `--show 17` named the number 17 and the
 * string "17", two conversations, and the page said it showed one.
 */
export function shownKeyText(show: string): string {
  try {
    const key: unknown = JSON.parse(show);
    if ((typeof key === "string" || typeof key === "number") && keyText(key) === show) return show;
  } catch {
    // Not JSON: a string key written as it is.
  }
  return keyText(show);
}

/** A JSON Pointer with each array position written `*`: `/messages/3/content` and `/messages/7/content` are one field. */
export function generalPath(path: string): string {
  return path.replace(/\/(0|[1-9][0-9]*)(?=\/|$)/g, "/*");
}

export class ReportCollector {
  /** The whole input as one conversation: the normalizer and gate `gate` runs without --conversation. */
  private readonly whole: { normalizer: JournalNormalizer; gate: JournalGate } | undefined;
  /** One pipeline per conversation, as `gate --conversation` runs them. */
  private readonly router: ConversationRouter<GateRecord, Routed<GateRecord>> | undefined;
  private readonly verdictsByConversation = new Tally(MAX_CONVERSATIONS_KEPT, PLACES_PER_CONVERSATION);
  private readonly blockedByConversation = new Tally(MAX_CONVERSATIONS_KEPT, PLACES_PER_CONVERSATION);
  private readonly sourceIndex = new Map<string, number>();
  private linesRead = 0;
  private readonly lineKinds = new Tally();
  private readonly verdicts = { items: 0, errors: 0, passed: 0, blocked: 0 };
  private readonly passedByReason = new Tally();
  private readonly blockedByReason = new Tally();
  private readonly blockedBy = new Tally();
  private readonly findings = new Tally();
  private readonly blockedByTool = new Tally();
  private readonly errors: LineError[] = [];
  private errorTotal = 0;
  private readonly reading = new LossTally("reading into the canonical form");
  private readonly writing: LossTally | undefined;
  private itemTotal = 0;
  /** Items of the conversation --show names (every item without it). */
  private itemsInView = 0;
  private readonly shown: ShownItem[] = [];
  /** Shown items still waiting for their verdict, by place key. */
  private readonly waiting = new Map<string, ShownItem>();

  /** The key `--show` names, as keyText writes it. */
  private readonly shownKey: string | undefined;

  constructor(private readonly options: CollectOptions) {
    this.shownKey = options.show === undefined ? undefined : shownKeyText(options.show);
    options.sources.forEach((source, index) => {
      if (!this.sourceIndex.has(source)) this.sourceIndex.set(source, index);
    });
    if (options.conversation === undefined) {
      this.whole = { normalizer: new JournalNormalizer({ origin: options.origin, ...GATE_READING, leftBehind: true }), gate: new JournalGate({ schema: options.schema, registry: options.registry, readTools: readEnvelopeTools, target: options.target, targetOptions: { profile: options.profile } }) };
    } else {
      const { pointer, maxOpen, checks } = options.conversation;
      this.router = reportRouter({ pointer, maxOpen, checks, schema: options.schema, registry: options.registry, origin: options.origin, onRecords: (key, records) => this.itemsOf(records, key) });
    }
    this.writing = options.to === undefined || options.to === "responses" ? undefined : new LossTally(`writing ${options.to}`);
  }

  pushLine(line: JournalLine): void {
    this.linesRead += 1;
    this.lineKinds.add(lineClassKey(classifyLine(line)), { source: this.indexOf(line.source), line: line.line, index: 0 });
    if (this.router) this.routed(this.router.pushLine(line));
    else this.records(this.whole!.normalizer.push(line));
  }

  finish(): ReportData {
    if (this.router) this.routed(this.router.finish());
    else {
      this.records(this.whole!.normalizer.finish());
      this.verdictsOf(this.whole!.gate.finish());
    }
    return {
      sources: this.options.sources,
      settings: { ...this.options.settingsShown, target: this.options.target, to: this.options.to, itemsFrom: this.options.itemsFrom, maxItems: this.options.maxItems },
      linesRead: this.linesRead,
      lineKinds: this.lineKinds.sorted(),
      verdicts: { ...this.verdicts },
      passedByReason: this.passedByReason.sorted(),
      blockedByReason: this.blockedByReason.sorted(),
      blockedBy: this.blockedBy.sorted(),
      findings: this.findings.sorted(),
      blockedByTool: this.blockedByTool.sorted(),
      errors: { shown: this.errors, total: this.errorTotal },
      reading: this.reading.table(),
      ...(this.writing ? { writing: this.writing.table() } : {}),
      conversations: this.router
        ? {
            count: this.router.counts.conversations,
            reopened: this.router.counts.reopened,
            pointer: this.options.conversation!.pointer.text,
            verdicts: this.verdictsByConversation.sorted(),
            blocked: this.blockedByConversation.sorted(),
            overflow: this.verdictsByConversation.overflow,
            show: this.options.show,
          }
        : { count: this.linesRead > 0 ? 1 : 0, reopened: 0, verdicts: [], blocked: [], overflow: 0 },
      items: { total: this.itemTotal, inView: this.itemsInView, shown: this.shown },
    };
  }

  private indexOf(source: string | undefined): number {
    return source === undefined ? 0 : (this.sourceIndex.get(source) ?? 0);
  }

  /** The whole-input pipeline: each record's items and losses, then its verdicts. */
  private records(records: readonly NormalizedRecord[]): void {
    const gate = this.whole!.gate;
    for (const record of records) {
      if (record.kind === "error") {
        this.verdictsOf(gate.error(record.source, record.line, record.detail));
        continue;
      }
      this.itemsOf([record]);
      this.verdictsOf(gate.pushNormalized({ source: record.source, line: record.line, items: record.items, request: record.request, requestNumbers: record.requestNumbers, losses: record.losses, responseTools: record.responseTools, callsOfOtherAnswers: record.callsOfOtherAnswers, answers: record.answers }));
    }
  }

  /** Verdicts of the conversations' pipelines, each with its conversation. */
  private routed(outputs: readonly Routed<GateRecord>[]): void {
    for (const { output, conversation } of outputs) {
      this.verdictsOf([output]);
      if (conversation === undefined) continue;
      const place = { source: this.indexOf(output.source), line: output.line, index: output.index };
      this.verdictsByConversation.add(keyText(conversation), place);
      if (output.blocked) this.blockedByConversation.add(keyText(conversation), place);
    }
  }

  /** The items and losses of records (their verdicts come apart); `conversation` when each is gated apart. */
  private itemsOf(records: readonly NormalizedRecord[], conversation?: ConversationKey): void {
    const shows = conversation === undefined || this.shownKey === undefined || this.shownKey === keyText(conversation);
    for (const record of records) {
      if (record.kind === "error") continue;
      const source = this.indexOf(record.source);
      const place = { source, line: record.line, index: 0 };
      this.reading.add(record.losses, place);
      if (this.writing && record.items.length > 0) this.writing.add(this.writingLosses(record.items.map((entry) => entry.item as CanonicalItem)), place);
      for (const entry of record.items) {
        this.itemTotal += 1;
        if (shows) this.itemsInView += 1;
        const itemPlace = { source, line: entry.provenance.line, index: entry.provenance.index };
        this.options.onItem?.(entry, conversation === undefined ? undefined : keyText(conversation));
        if (shows && this.itemTotal >= this.options.itemsFrom && this.shown.length < this.options.maxItems) {
          const shown: ShownItem = { ordinal: this.itemTotal, place: itemPlace, envelope: entry.provenance.envelope, item: entry.item, ...(conversation === undefined ? {} : { conversation: keyText(conversation) }) };
          this.shown.push(shown);
          this.waiting.set(placeKey(itemPlace), shown);
        }
      }
    }
  }

  /** What writing the record's items in the target envelope loses, paths into those items. */
  private writingLosses(items: CanonicalItem[]): readonly Loss[] {
    const to = this.options.to!;
    if (to === "chat") return chat.messages.fromItems({ items }).losses;
    if (isAdapterName(to)) return ENVELOPES[to].itemsToMessages(items).losses;
    return [];
  }

  private verdictsOf(records: readonly GateRecord[]): void {
    for (const record of records) {
      const place = { source: this.indexOf(record.source), line: record.line, index: record.index };
      if (record.reason === "error") {
        this.verdicts.errors += 1;
        this.errorTotal += 1;
        if (this.errors.length < MAX_ERRORS_SHOWN) this.errors.push({ place, detail: record.detail });
      } else {
        this.verdicts.items += 1;
        const shown = this.waiting.get(placeKey(place));
        if (shown !== undefined) {
          shown.verdict = record;
          this.waiting.delete(placeKey(place));
        }
      }
      if (record.blocked) {
        this.verdicts.blocked += 1;
        this.blockedByReason.add(record.reason, place);
        this.blockedBy.add(blockedBy(record)!, place);
        if (record.type === "function_call") this.blockedByTool.add(typeof record.name === "string" ? record.name : "(no name)", place);
      } else {
        this.verdicts.passed += 1;
        this.passedByReason.add(record.reason, place);
      }
      for (const finding of record.findings) this.findings.add(finding.code, place);
    }
  }
}
