// A journal-wide finding of the gate: `{ code, detail, path?, related_line? }`,
// the same shape as a loss.
import { z } from "zod";
import { FINDING_CODES } from "./finding-codes.js";

export const findingSchema = z.object({
  code: z.enum(FINDING_CODES),
  detail: z.string(),
  /** JSON Pointer into the item, to the field concerned. */
  path: z.string().optional(),
  /** The line of the other item the finding is about (the call of a missing output, the first of a duplicate). */
  related_line: z.int().optional(),
});
export type Finding = z.infer<typeof findingSchema>;
export type FindingCode = Finding["code"];
