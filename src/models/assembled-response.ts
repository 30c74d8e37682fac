// One response rebuilt from a recorded stream (Chat chunks or Open Responses
// events). A stream spreads a response over many records, so every loss also
// names the journal line of the record its pointer goes into.
import type { Loss } from "./loss.js";
import type { CanonicalItem } from "./open-responses.js";

/** A loss inside one record of a stream: `path` points into the record on `line`. */
export interface StreamLoss extends Loss {
  line: number;
}

export interface AssembledResponse {
  /** The completion id (Chat) or response id (Open Responses), when the stream gave one. */
  id?: string;
  /**
   * The response status as the stream left it: `completed`, `incomplete`, `failed`,
   * or `in_progress` when the recording stops before the stream said it was done.
   */
  status?: string;
  /** Canonical items in output order, in the input-item shape. */
  items: CanonicalItem[];
  /** What the reassembly could not carry. */
  losses: StreamLoss[];
  /** Journal line of the first record of the response. */
  line: number;
  /** Journal line of the last record that belonged to the response. */
  lastLine: number;
}
