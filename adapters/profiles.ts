// The replay targets' profiles, one line per target, each kept beside its
// envelope's adapter. Open Responses is the canonical form and has no folder:
// its two targets are written here. The gate never imports this file; the
// command that runs it hands the profile over.
import type { TargetProfile } from "../src/models/target-profile.js";
import { anthropicProfile } from "./anthropic/profile.js";
import { bedrockProfile } from "./bedrock/profile.js";
import { chatCompletionsProfile, deepseekProfile, mistralProfile } from "./chat-completions/profile.js";
import { geminiProfile } from "./gemini/profile.js";

const RESPONSES_API = "Open Responses specification (openresponses.openapi.json): items";

const openResponsesProfile: TargetProfile = {
  name: "open-responses",
  envelope: "responses",
  reasoning: {
    text: "refused",
    foreign: { rule: "the portable core holds no provider's encrypted reasoning", source: RESPONSES_API },
    refused: { rule: "the portable core is message, function_call and function_call_output", source: RESPONSES_API },
  },
  content: {
    emptyText: { accepted: true, rule: "a text part may be empty", source: RESPONSES_API },
    toolResultParts: { accepted: true, rule: "a function_call_output may be a list of input parts: text, images, files, videos", source: RESPONSES_API },
  },
};

const openaiResponsesProfile: TargetProfile = {
  name: "openai-responses",
  envelope: "responses",
  slug: "openai",
  reasoning: {
    family: "openai",
    text: "read",
    foreign: { rule: "encrypted_content is OpenAI's own, and goes back only to OpenAI", source: "OpenAI Responses API reference: reasoning items" },
  },
  content: {
    emptyText: { accepted: true, rule: "a text part may be empty", source: RESPONSES_API },
    toolResultParts: { accepted: true, rule: "a function_call_output may be a list of input parts: text, images, files, videos", source: "OpenAI Responses API reference: function_call_output" },
  },
};

export const PROFILES: Readonly<Record<string, TargetProfile>> = {
  "open-responses": openResponsesProfile,
  "openai-responses": openaiResponsesProfile,
  "chat-completions": chatCompletionsProfile,
  anthropic: anthropicProfile,
  gemini: geminiProfile,
  bedrock: bedrockProfile,
  deepseek: deepseekProfile,
  mistral: mistralProfile,
};

/** The profile of a target, when it has one (`strict` and `adjacent` are shapes, not providers). */
export function profileOf(target: string): TargetProfile | undefined {
  return Object.hasOwn(PROFILES, target) ? PROFILES[target] : undefined;
}
