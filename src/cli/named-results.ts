// The results of a journal's calls named for a target whose results name their
// call (`TargetProfile.toolResultNames`): a result takes the name of the call
// it answers, on its own line or an earlier one, and each is reported.
import { type ItemOrigin } from "../../adapters/index.js";
import { isPlainObject } from "../journal/detect.js";
import { ConversationCalls } from "../journal/conversation-calls.js";
import { nameResults } from "../journal/name-results.js";
import { RecordRewrite } from "./record-rewrite.js";
import { type StreamLoss } from "../models/assembled-response.js";
import type { Envelope } from "../models/journal-item.js";
import { type CanonicalItem } from "../models/open-responses.js";

/** The journal's calls by call_id, for a target whose results name their call (`TargetProfile.toolResultNames`). */
export interface ResultNames {
  calls: ConversationCalls;
  field: string;
  rule: string;
}

/**
 * Items whose results, answering a call on an earlier line, take its name;
 * each such result a loss (`synthesized`) of its line, at the field that names
 * its call. `origins`, when given, follows each item given a name.
 */
export function namedResults(items: readonly CanonicalItem[], names: ResultNames, lineOf: (index: number) => number, pathOf: (index: number) => string, origins?: Map<CanonicalItem, ItemOrigin>): { items: CanonicalItem[]; losses: StreamLoss[] } {
  const named = nameResults({ items, calls: names.calls, field: names.field, lineOf });
  const losses = named.named.map(({ index, name, callLine }): StreamLoss => {
    const origin = origins?.get(items[index]!);
    if (origin) origins!.set(named.items[index]!, origin);
    return { line: lineOf(index), path: pathOf(index), code: "synthesized", detail: `${names.rule}: the result gets the name of its call on line ${callLine}, ${JSON.stringify(name)}` };
  });
  return { items: named.items, losses };
}

/**
 * Items rewritten for the `--for` target, then their results named for a target
 * envelope whose results name their call, when the rewrite did not name them:
 * `--to gemini --for anthropic` needs both.
 */
export function rewrittenAndNamed(items: readonly CanonicalItem[], envelope: Envelope, rewrite: RecordRewrite | undefined, names: ResultNames | undefined, lineOf: (index: number) => number, pathOf: (index: number) => string): { items: CanonicalItem[]; losses: StreamLoss[] } {
  const rewritten = rewrite ? rewrite.items(items, envelope, lineOf, pathOf) : { items: [...items], losses: [] };
  if (!names) return rewritten;
  const named = namedResults(rewritten.items, names, lineOf, pathOf);
  return { items: named.items, losses: [...rewritten.losses, ...named.losses] };
}

/** The calls of a whole record, in its Open Responses form, kept for the results of later lines. */
export function recordCalls(canonical: unknown, names: ResultNames, line: number): void {
  if (!isPlainObject(canonical)) return;
  const items = Array.isArray(canonical.output) ? canonical.output : Array.isArray(canonical.input) ? canonical.input : [];
  nameResults({ items: items as CanonicalItem[], calls: names.calls, field: names.field, lineOf: () => line });
}
