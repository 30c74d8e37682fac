// Origin versus replay: the journal's items lined up with the replay's by the
// differ `orbridge diff` uses, each side read as `diff` reads a journal (its own
// normalizer, beside the report's, whose items are the gate's), so the page's
// differences are the ones `diff` prints. With --conversation, each difference is
// told by the conversation of its origin line.
import { JournalDiffer, type ItemPlace } from "../../diff.js";
import { argumentsNotAsWritten, JournalNormalizer, type NormalizedRecord } from "../../journal/normalize.js";
import type { JournalLine } from "../../journal/read.js";
import type { ReplayDiff } from "./report-data.js";
import { Tally } from "./tally.js";

/** Differences shown side by side; all are counted. */
const MAX_DIFFERENCES_SHOWN = 200;
/** Items of each side kept for the side-by-side view, and origin lines whose conversation is kept. */
const MAX_SIDE_ITEMS = 5_000;

export function sideKey(place: ItemPlace): string {
  return `${place.source ?? "-"}:${place.line}-${place.index}`;
}

function lineKey(source: string | undefined, line: number): string {
  return `${source ?? "-"}:${line}`;
}

export class ReplayComparison {
  private readonly differ = new JournalDiffer();
  private readonly origin = new JournalNormalizer();
  private readonly originItems = new Map<string, { item: unknown; conversation?: string }>();
  private readonly replayItems = new Map<string, unknown>();
  private readonly lineConversations = new Map<string, string>();
  private replayErrors = 0;

  constructor(private readonly byConversation: boolean) {}

  /** A line of the journal, in order. */
  pushOriginLine(line: JournalLine): void {
    this.originRecords(this.origin.push(line));
  }

  /** The conversation of an origin line, as the report's gate read it. */
  conversationOf(source: string | undefined, line: number, conversation: string): void {
    if (this.lineConversations.size < MAX_SIDE_ITEMS) this.lineConversations.set(lineKey(source, line), conversation);
  }

  /** After the journal's last line: reads the replay and lines the two up. */
  async finish(source: string, replayLines: AsyncIterable<JournalLine>): Promise<ReplayDiff> {
    this.originRecords(this.origin.finish());
    const replay = new JournalNormalizer();
    for await (const line of replayLines) this.replayRecords(replay.push(line));
    this.replayRecords(replay.finish());
    const differences = this.differ.finish();
    const byCode = new Tally();
    const byConversation = new Tally();
    for (const difference of differences) {
      byCode.add(difference.code);
      if (this.byConversation) byConversation.add(difference.origin === undefined ? "(none)" : (this.lineConversations.get(lineKey(difference.origin.source, difference.origin.line)) ?? "(not kept)"));
    }
    for (const [key, entry] of this.originItems) {
      const [, place] = /^(.*)-\d+$/.exec(key) ?? [];
      const conversation = place === undefined ? undefined : this.lineConversations.get(place);
      if (conversation !== undefined) entry.conversation = conversation;
    }
    return {
      source,
      byCode: byCode.sorted(),
      ...(this.byConversation ? { byConversation: byConversation.sorted() } : {}),
      total: differences.length,
      shown: differences.slice(0, MAX_DIFFERENCES_SHOWN),
      notes: this.differ.notes,
      replayErrors: this.replayErrors,
      originItems: this.originItems,
      replayItems: this.replayItems,
    };
  }

  private originRecords(records: readonly NormalizedRecord[]): void {
    for (const record of records) {
      if (record.kind === "error") continue;
      for (const [index, entry] of record.items.entries()) {
        this.differ.pushOrigin(entry, argumentsNotAsWritten(record, index));
        if (this.originItems.size < MAX_SIDE_ITEMS) this.originItems.set(sideKey(entry.provenance), { item: entry.item });
      }
    }
  }

  private replayRecords(records: readonly NormalizedRecord[]): void {
    for (const record of records) {
      if (record.kind === "error") {
        this.replayErrors += 1;
        continue;
      }
      for (const [index, entry] of record.items.entries()) {
        this.differ.pushReplay(entry, argumentsNotAsWritten(record, index));
        if (this.replayItems.size < MAX_SIDE_ITEMS) this.replayItems.set(sideKey(entry.provenance), entry.item);
      }
    }
  }
}
