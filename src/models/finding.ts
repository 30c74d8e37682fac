// A journal-wide finding of the gate: `{ code, detail, path?, related_line?,
// related_source? }`, the same shape as a loss.
import { z } from "zod";
import { FINDING_CODES } from "./finding-codes.js";

export const findingSchema = z.object({
  code: z.enum(FINDING_CODES),
  detail: z.string(),
  /** JSON Pointer into the item, to the field concerned. */
  path: z.string().optional(),
  /** The line of the other item the finding is about (the call of a missing output, the first of a duplicate). */
  related_line: z.int().optional(),
  /** The input file of that line, when it is another than the item's own (`gate a.jsonl b.jsonl`). */
  related_source: z.string().optional(),
});
export type Finding = z.infer<typeof findingSchema>;
export type FindingCode = Finding["code"];
