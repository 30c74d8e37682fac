// `convert --for TARGET`: the canonical items of each record rewritten toward the
// target as `normalize --for` rewrites a journal, one record at a time (a record
// is written whole, so nothing is held back past it), the call-id rewrites and
// the calls' names and the call ids met shared by the whole journal so that a
// call and its output, on two lines, still match.
import type { StreamLoss } from "../models/assembled-response.js";
import type { Envelope } from "../models/journal-item.js";
import type { CanonicalItem } from "../models/open-responses.js";
import type { TargetProfile } from "../models/target-profile.js";
import { ConversationCalls } from "../journal/conversation-calls.js";
import { TargetIdRewrites, type IdRewrite } from "../gate/target-ids.js";
import { callIdGrammar, TargetRewriter } from "../gate/target-rewriter.js";
import type { Target } from "../gate/targets.js";

export class RecordRewrite {
  private readonly ids: TargetIdRewrites | undefined;
  private readonly calls = new ConversationCalls();
  private readonly seenCalls = new Set<string>();

  constructor(
    readonly target: Target,
    private readonly profile: TargetProfile | undefined,
    /** The Chat field a dialect takes reasoning in, when asked for (`--reasoning-field`): its reasoning is kept for it. */
    private readonly reasoningField?: string,
  ) {
    const grammar = callIdGrammar(target, profile);
    this.ids = grammar === undefined ? undefined : new TargetIdRewrites(grammar);
  }

  /**
   * The items of one record rewritten for the target, and each change as a loss
   * of `lineOf(index)`, its path `pathOf(index)` followed by the change's own.
   */
  items(items: readonly CanonicalItem[], envelope: Envelope, lineOf: (index: number) => number, pathOf: (index: number) => string): { items: CanonicalItem[]; losses: StreamLoss[] } {
    const rewriter = new TargetRewriter(this.target, { profile: this.profile, ids: this.ids, calls: this.calls, seenCalls: this.seenCalls, ...(this.reasoningField === undefined ? {} : { reasoningField: this.reasoningField }) });
    const journalItems = items.map((item, index) => ({ item, provenance: { line: lineOf(index), index, envelope } }));
    const pushed = rewriter.push(journalItems);
    const finished = rewriter.finish();
    const changes = [...pushed.changes, ...finished.changes];
    return {
      items: [...pushed.items, ...finished.items].map((entry) => entry.item as CanonicalItem),
      losses: changes.map((change) => ({ line: change.line, path: `${pathOf(change.index)}${change.path}`, code: change.code === "id_rewritten" || change.code === "foreign_id_removed" || change.code === "reordered" || change.code === "orphan_output" ? "form_changed" : change.code, detail: change.detail })),
    };
  }

  /** Whether the rewrite gives each result the name of its call (a target whose results name their call). */
  get namesResults(): boolean {
    return this.profile?.toolResultNames !== undefined;
  }

  /** Every call id rewritten so far in the journal. */
  idMap(): IdRewrite[] {
    return this.ids?.map() ?? [];
  }
}
