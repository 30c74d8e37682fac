// What the report shows, gathered in one pass and handed to the renderer: plain
// data, every list bounded, so that rendering is apart from reading.
import type { Difference, DiffNote } from "../../diff.js";
import type { GateRecord } from "../../gate/prepared-gate.js";
import type { Place, Tallied } from "./tally.js";

/** An item shown in the conversation view, with its verdict once the gate gives it. */
export interface ShownItem {
  /** 1-based position among every item of the journal. */
  ordinal: number;
  place: Place;
  envelope: string;
  item: unknown;
  verdict?: GateRecord;
  /** The conversation's key as JSON text, when each conversation is gated apart. */
  conversation?: string;
}

/** A line that gave no item, as the gate reports it. */
export interface LineError {
  place: Place;
  detail: string;
}

export interface LossTable {
  /** The envelope the losses come from ("the canonical form" when reading). */
  label: string;
  byCode: Tallied[];
  /** By `JSON.stringify([path, code])`, the path a JSON Pointer with array positions written `*`, so that one field in every record is one row. */
  byPath: Tallied[];
  /** Losses whose path came after the kept paths were full. */
  pathOverflow: number;
  total: number;
}

export interface ReplayDiff {
  source: string;
  byCode: Tallied[];
  /** With --conversation: differences by the conversation of their origin item ("(none)" for an item only the replay has, "(not kept)" past the kept items). */
  byConversation?: Tallied[];
  total: number;
  /** The first differences, in the order `orbridge diff` gives them. */
  shown: Difference[];
  notes: DiffNote[];
  /** Lines of the replay that could not be read. */
  replayErrors: number;
  /** Items of each side, by place key, for the side-by-side view (the first ones only); an origin item with its conversation's key, with --conversation. */
  originItems: Map<string, { item: unknown; conversation?: string }>;
  replayItems: Map<string, unknown>;
}

export interface ReportData {
  sources: readonly string[];
  settings: {
    schema?: string;
    tools?: string;
    target?: string;
    to?: string;
    itemsFrom: number;
    maxItems: number;
  };
  linesRead: number;
  /** Every line read, in one row each: blank, not JSON, or a record by kind and envelope. */
  lineKinds: Tallied[];
  verdicts: { items: number; errors: number; passed: number; blocked: number };
  /** Verdicts by reason; a line that gave no item is the reason "error". */
  passedByReason: Tallied[];
  blockedByReason: Tallied[];
  /** Blocked records by what blocked them, as gate's summary counts them: the reason, or the finding that blocked an item whose reason does not block. */
  blockedBy: Tallied[];
  findings: Tallied[];
  /** Blocked function calls by the name they call. */
  blockedByTool: Tallied[];
  errors: { shown: LineError[]; total: number };
  reading: LossTable;
  writing?: LossTable;
  /**
   * Without a pointer the whole input is one conversation, as `gate` reads it
   * without --conversation; with one, the conversations by key (JSON text), their
   * verdicts and blocked items, and the one the view shows when asked.
   */
  conversations: {
    count: number;
    reopened: number;
    pointer?: string;
    verdicts: Tallied[];
    blocked: Tallied[];
    /** Verdicts of conversations past the ones counted one by one. */
    overflow: number;
    show?: string;
  };
  /** Every item of the journal; those of the conversation --show names (all without it); the ones embedded. */
  items: { total: number; inView: number; shown: ShownItem[] };
  replay?: ReplayDiff;
}

/** The key of a place, for the maps and the page's anchors. */
export function placeKey(place: Place): string {
  return `${place.source}-${place.line}-${place.index}`;
}
