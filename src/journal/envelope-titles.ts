// How a sentence (a loss, a finding) names each registered envelope.
import type { AdapterName } from "../../adapters/index.js";

export const ENVELOPE_TITLES: Readonly<Record<AdapterName, string>> = { anthropic: "Anthropic", gemini: "Gemini", bedrock: "Bedrock" };
