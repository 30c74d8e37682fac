// Gemini generateContent as a replay target: what `gate --for gemini` checks and
// `normalize --for gemini` rewrites toward. Data only; the gate is handed it.
import type { TargetProfile } from "../../src/models/target-profile.js";

const GEMINI_API = "Gemini API reference: Content, Part, FunctionCall, FunctionResponse; thought signatures";

export const geminiProfile: TargetProfile = {
  name: "gemini",
  envelope: "gemini",
  slug: "gemini",
  // A functionCall id is any string Gemini echoes: no grammar.
  toolNames: {
    // 64, where a newer reference says 128: the Gemini API and Vertex AI have each stated both, and 64 holds for either.
    pattern: "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$",
    rule: "a function's name starts with a letter or _, then letters, digits, _, ., : and -, 64 characters at most",
    error: "Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.",
    source: GEMINI_API,
  },
  toolResultNames: { field: "gemini:name", rule: "a functionResponse names the function whose call it answers", source: GEMINI_API },
  turns: {
    laterSystem: { rule: "the system prompt is the request's systemInstruction; its contents are user and model turns only", error: "Please use a valid role: user, model.", source: GEMINI_API },
    callAfterUser: {
      rule: "a model turn that calls functions comes right after a user turn or a function response turn",
      error: "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
      source: GEMINI_API,
    },
  },
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
