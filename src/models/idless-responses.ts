// Bedrock Converse writes no response id, and Gemini often writes none: such a
// response is given one derived from its content, and its items ids derived
// from that. Two answers alike word for word ("Done.") would then share an id,
// and so would their items, which a replay sends as one item twice and the
// gate blocks as `duplicate_id`, for ids no one wrote. So the converters of one
// journal count its id-less responses, and each derives its id from its rank
// as well as its content.

/** The id-less responses of one journal, counted in input order. */
export class IdlessResponses {
  private count = 0;

  /** The rank of the next id-less response, from 1. */
  next(): number {
    this.count += 1;
    return this.count;
  }
}

/**
 * What the rank adds to the text a response id is derived from: nothing for the
 * first, so that a response converted alone and the first of a journal agree.
 */
export function rankSuffix(rank: number | undefined): string {
  return rank === undefined || rank <= 1 ? "" : `\u0000${rank}`;
}
