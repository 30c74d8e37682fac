// The tools of a request body, or of a tools file, written in an envelope the
// gate does not read itself, handed to the gate as a reader: the gate imports
// no adapter, and the registry's readers are the adapters' own.
//
// | what is read                                             | envelope                   |
// |----------------------------------------------------------|----------------------------|
// | a record detection calls a request body of an envelope   | that envelope              |
// | a tools array whose entries have `input_schema`, or a    | Anthropic                  |
// |   server tool type (`web_search_20250305`)               |                            |
// | a tools array of `{functionDeclarations}`, `{googleSearch}`, | Gemini                 |
// |   `{codeExecution}`… (no `type`), or one such object     |                            |
// | a tools array of `{toolSpec}`, `{systemTool}`, `{cachePoint}` | Bedrock               |
// | `{toolConfig: {tools}}`, `{tools: <one of the above>}`    | as its tools say           |
// | `{toolConfig: {functionCallingConfig}}` (or in `config`)  | Gemini                     |
// | anything else (Chat, Open Responses)                     | none: the gate reads it    |
//
// An array whose entries claim two envelopes is read by none, so the gate
// refuses the parts it cannot read rather than guess.
import { TOOL_READERS, type AdapterName } from "../../adapters/index.js";
import { detectEnvelopeRecord } from "../journal/detect.js";
import { ENVELOPE_TITLES } from "../journal/envelope-titles.js";
import { isPlainObject } from "../models/json-value.js";
import type { EnvelopeTools } from "../gate/tool-registry.js";
import { toolConfigOf } from "../gate/read-request-tools.js";


// Anthropic versions its server tools by date: `web_search_20250305`, `bash_20250124`.
const ANTHROPIC_SERVER_TOOL = /_\d{8}$/;
const GEMINI_TOOL_KEYS = new Set([
  "functionDeclarations",
  "function_declarations",
  "googleSearch",
  "google_search",
  "googleSearchRetrieval",
  "google_search_retrieval",
  "codeExecution",
  "code_execution",
  "urlContext",
  "url_context",
  "retrieval",
  "computerUse",
  "computer_use",
  "fileSearch",
  "file_search",
  "googleMaps",
  "google_maps",
  "enterpriseWebSearch",
  "enterprise_web_search",
]);
const BEDROCK_TOOL_KEYS = new Set(["toolSpec", "systemTool", "cachePoint"]);

export function readEnvelopeTools(value: unknown): EnvelopeTools | undefined {
  const found = toolsEnvelope(value);
  if (found === undefined) return undefined;
  return { envelope: ENVELOPE_TITLES[found.envelope], ...TOOL_READERS[found.envelope](found.body) };
}

function toolsEnvelope(value: unknown): { envelope: AdapterName; body: Record<string, unknown> } | undefined {
  if (Array.isArray(value)) {
    const envelope = arrayEnvelope(value);
    return envelope === undefined ? undefined : { envelope, body: envelope === "bedrock" ? { toolConfig: { tools: value } } : { tools: value } };
  }
  if (!isPlainObject(value)) return undefined;
  const detected = detectEnvelopeRecord(value);
  if (detected.kind === "envelope_request" && detected.envelope !== undefined) return { envelope: detected.envelope, body: value };
  if (detected.kind !== "unknown") return undefined;
  if (entryEnvelope(value) === "gemini") return { envelope: "gemini", body: { tools: value } };
  if (holdsGeminiToolConfig(value)) return { envelope: "gemini", body: value };
  if (isPlainObject(value.toolConfig) && Array.isArray(value.toolConfig.tools) && arrayEnvelope(value.toolConfig.tools) === "bedrock") return { envelope: "bedrock", body: value };
  if (Array.isArray(value.tools) || isPlainObject(value.tools)) {
    const envelope = Array.isArray(value.tools) ? arrayEnvelope(value.tools) : entryEnvelope(value.tools);
    if (envelope === "anthropic" || envelope === "gemini") return { envelope, body: value };
  }
  return undefined;
}

/**
 * A toolConfig that holds a functionCallingConfig, Gemini's alone, at the top
 * or in a google-genai SDK's `config`: a record that gives a choice and no tools.
 */
function holdsGeminiToolConfig(value: Record<string, unknown>): boolean {
  const config = toolConfigOf(value)?.value;
  return isPlainObject(config) && (config.functionCallingConfig !== undefined || config.function_calling_config !== undefined);
}

function arrayEnvelope(tools: readonly unknown[]): AdapterName | undefined {
  const claimed = new Set(tools.map(entryEnvelope).filter((envelope) => envelope !== undefined));
  return claimed.size === 1 ? [...claimed][0] : undefined;
}

function entryEnvelope(tool: unknown): AdapterName | undefined {
  if (!isPlainObject(tool)) return undefined;
  const keys = Object.keys(tool);
  if ("input_schema" in tool || (typeof tool.type === "string" && ANTHROPIC_SERVER_TOOL.test(tool.type))) return "anthropic";
  if (tool.type !== undefined || tool.name !== undefined) return undefined;
  if (keys.length === 1 && BEDROCK_TOOL_KEYS.has(keys[0]!)) return "bedrock";
  if (keys.length > 0 && keys.every((key) => GEMINI_TOOL_KEYS.has(key))) return "gemini";
  return undefined;
}
