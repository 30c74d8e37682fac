// Open Responses alone tells a request's instructions from a system message of
// its input; Anthropic, Gemini and Bedrock each read their system prompt back as
// one of the two. A writer that takes one for the other says so, but the change
// is of the Open Responses form only: where the body converted came from another
// envelope, the first step chose that form itself, and the system prompt the
// target writes comes back to the source as it was.

/** The detail of a loss that is only about instructions read back as a system message, or the reverse. */
export function instructionsFormDetail(what: string, comesBackAs: "instructions" | "a system message of input"): string {
  return `${what}, which comes back as ${comesBackAs}, not as ${comesBackAs === "instructions" ? "a message of input" : "instructions"}`;
}

/** Whether a loss is one instructionsFormDetail wrote. */
export function isInstructionsFormLoss(loss: { code: string; detail: string }): boolean {
  return loss.code === "form_changed" && /, which comes back as (instructions, not as a message of input|a system message of input, not as instructions)$/.test(loss.detail);
}
