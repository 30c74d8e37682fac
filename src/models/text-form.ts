// A message's text is a string or a list of parts in Open Responses, Chat and
// Anthropic; Gemini and Bedrock write it as parts only, and their readers give
// it back in one form (Gemini: parts; Bedrock: one text block alone of a system
// or user message as the string it holds). A writer that cannot keep the form
// says so. Where the body converted came from Gemini or Bedrock, the string or
// the parts of the Open Responses form were their reader's choice: the source
// wrote parts, and parts are what the target writes.

export type TextFormBack = "parts" | "string";

/** The detail of a loss that is only about the form of a message's text: what was written, and the form the target's reader gives back. */
export function textFormDetail(written: string, back: TextFormBack): string {
  return `${written}: it comes back as ${back === "parts" ? "parts, not as a string" : "the string it holds, not as parts"}`;
}

/** Whether a loss is one textFormDetail wrote. */
export function isTextFormLoss(loss: { code: string; detail: string }): boolean {
  return loss.code === "form_changed" && /: it comes back as (parts, not as a string|the string it holds, not as parts)$/.test(loss.detail);
}
