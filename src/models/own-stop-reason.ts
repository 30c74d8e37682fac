// A message record may carry its response's stop reason beside its content (a
// response written without its type, a message stored with the reason beside
// it), in one spelling or another. The reason it gives is read in every
// spelling, and with the reason of the response it sits in, if any: two that
// disagree leave the message's calls as a reason no adapter knows leaves them,
// incomplete, since a reader of either would end the turn otherwise.

/** The reason written where two spellings, or the message and its response, disagree. */
export const DISAGREEING_STOP_REASONS = "two stop reasons that disagree";

/**
 * The stop reason that holds for a message's calls: `given` (its response's,
 * undefined when it has none) when the record writes none under `names`, else
 * the one it writes (null for null, a reason no adapter knows for any other
 * value that is not text), or DISAGREEING_STOP_REASONS.
 */
export function ownStopReason(record: Record<string, unknown>, names: readonly string[], given: string | null | undefined): string | null | undefined {
  const written = names.filter((name) => record[name] !== undefined).map((name) => record[name]);
  if (written.length === 0) return given;
  if (written.some((value) => value !== written[0])) return DISAGREEING_STOP_REASONS;
  const own = typeof written[0] === "string" || written[0] === null ? written[0] : DISAGREEING_STOP_REASONS;
  if (given !== undefined && given !== own) return DISAGREEING_STOP_REASONS;
  return own;
}
