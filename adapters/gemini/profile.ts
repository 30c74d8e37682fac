// Gemini generateContent as a replay target: what `gate --for gemini` checks and
// `normalize --for gemini` rewrites toward. Data only; the gate is handed it.
import type { TargetProfile } from "../../src/models/target-profile.js";

const GEMINI_API = "Gemini API reference: Content, Part, FunctionCall, FunctionResponse; thought signatures";

export const geminiProfile: TargetProfile = {
  name: "gemini",
  envelope: "gemini",
  slug: "gemini",
  // A functionCall id is any string Gemini echoes: no grammar.
  toolResultNames: { field: "gemini:name", rule: "a functionResponse names the function whose call it answers", source: GEMINI_API },
  reasoning: {
    family: "gemini",
    text: "read",
    foreign: { rule: "a thoughtSignature goes back only to the Gemini model that wrote it, byte for byte", source: GEMINI_API },
  },
  content: {
    emptyText: {
      accepted: false,
      rule: "a text part is not empty",
      error: "Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again.",
      source: GEMINI_API,
    },
    toolResultParts: { accepted: true, rule: "a functionResponse may carry parts (inline or file data) beside its response", source: GEMINI_API },
  },
};
