// Losses (what a conversion could not carry) and findings (what a journal-wide
// check found) share one shape, like Zod's issues: a literal code, a JSON Pointer
// and a sentence. They are returned as data; rendering is the CLI's business.
import { z } from "zod";

export const LOSS_CODES = [
  /** A field the target envelope has no place for (`name`, `n`, `logit_bias`…). */
  "unsupported_field",
  /** A whole item or message the target cannot express (reasoning, item_reference, extension items…). */
  "unsupported_item",
  /** A content part the target cannot express (`input_audio`, a file by `file_id`…). */
  "unsupported_part",
  /** A tool call kind the target cannot express (Chat `custom` tool calls…). */
  "unsupported_tool_call",
  /** A tool kind the target cannot express. */
  "unsupported_tool",
  /** A value changed its form to fit (parts joined into a string…). */
  "form_changed",
  /** A provider extension field carried by neither envelope (`reasoning_content`…). */
  "provider_extension",
  /** A value the target requires was synthesized (a legacy call's `call_id`, a field a response object requires…). */
  "synthesized",
  /** An item or message moved to where the target needs it (a tool message after its call, a turn's text before its calls). */
  "reordered",
  /** Written as the source holds it, though the target rejects it (`arguments` that are not a string…): never "fixed". */
  "target_rejects",
  /** A field of a record that no item holds, which `normalize` leaves behind (a request's `model`, a completion's `usage`…). */
  "left_behind",
  /** A value decoded on request (`--repair double-encoded`): arguments encoded twice, decoded once. */
  "repaired",
] as const;

export const lossSchema = z.object({
  /** JSON Pointer (RFC 6901) into the source record. */
  path: z.string(),
  code: z.enum(LOSS_CODES),
  detail: z.string(),
});
export type Loss = z.infer<typeof lossSchema>;
export type LossCode = Loss["code"];

/** What every adapter returns: the converted value and everything it could not carry. */
export interface Converted<T> {
  value: T;
  losses: Loss[];
}

// Kept apart from this file, which loads Zod, so that code that only builds paths
// does not load it.
export { pointer, pointerToken, prefixLosses } from "./json-pointer.js";
