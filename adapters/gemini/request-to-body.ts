// A Gemini request body (`generateContent`, `streamGenerateContent`) as an Open
// Responses request body. Keys are written in the order the request has them;
// `input` takes the place of the first of `systemInstruction` and `contents`.
//
// | Gemini request                   | Open Responses body                                          |
// |----------------------------------|--------------------------------------------------------------|
// | systemInstruction, contents      | input (contentsToItems): a leading system message, then the conversation; |
// |                                  |   the whole conversation, so the journal's pairing starts again |
// | tools (an array, or one object   | tools (tools.ts); the single object form kept as `gemini:toolsForm` "object" |
// |   as older clients sent)         |                                                              |
// | toolConfig                       | tool_choice (tools.ts), the rest under `gemini:`             |
// | generationConfig temperature,    | temperature, top_p, max_output_tokens                        |
// |   topP, maxOutputTokens          |                                                              |
// |   any other field (topK,         | `gemini:generationConfig`, for the way back                  |
// |   thinkingConfig, stopSequences…)|                                                              |
// | model (Vertex bodies name it)    | model                                                        |
// | safetySettings, cachedContent,   | `gemini:<key>`                                               |
// |   labels, any other key          |                                                              |
import type { Converted, Loss } from "../../src/models/loss.js";
import { prefixLosses } from "../../src/models/json-pointer.js";
import type { CanonicalItem, CreateResponseBody } from "../../src/models/open-responses.js";
import type { CallPairing } from "./call-ids.js";
import { contentsToItems } from "./contents-to-items.js";
import { givenTwice, isRecord, PREFIX, read, type Fields } from "./fields.js";
import { geminiToolConfigToResponses, geminiToolsToResponses } from "./tools.js";

const GENERATION_FIELDS: Record<string, string> = { temperature: "temperature", topP: "top_p", top_p: "top_p", maxOutputTokens: "max_output_tokens", max_output_tokens: "max_output_tokens" };

export function requestToBody(args: { request: unknown; pairing?: CallPairing }): Converted<CreateResponseBody> {
  const { request } = args;
  if (!isRecord(request) || !Array.isArray(request.contents)) throw new TypeError("not a Gemini request body: it has no contents array");
  const body: Fields = {};
  const losses: Loss[] = [];
  const system = read(request, "systemInstruction");
  const converted = contentsToItems({ contents: request.contents, systemInstruction: system.value, pairing: args.pairing, whole: true, itemsAt: { path: "/input", offset: 0 } });
  losses.push(...converted.losses);
  const input: CanonicalItem[] = converted.value;
  if (system.spelling === "snake") body[`${PREFIX}systemInstructionSpelling`] = "snake";

  for (const key of Object.keys(request)) {
    const value = request[key];
    if (value === undefined) continue;
    switch (key) {
      case "contents":
      case "systemInstruction":
      case "system_instruction":
        if (!("input" in body)) body.input = input;
        break;
      case "tools": {
        const list = Array.isArray(value) ? value : [value];
        if (!Array.isArray(value)) body[`${PREFIX}toolsForm`] = "object";
        const tools = geminiToolsToResponses({ tools: list });
        losses.push(...prefixLosses(Array.isArray(value) ? "/tools" : "/tools/-", tools.losses).map((loss) => (Array.isArray(value) ? loss : { ...loss, path: loss.path.replace(/^\/tools\/-\/0/, "/tools") })));
        body.tools = tools.value;
        break;
      }
      case "toolConfig":
      case "tool_config": {
        if (givenTwice(request, "toolConfig")) {
          // Given in both spellings, the choice is read two ways: none allows no call.
          if (key === "tool_config") break;
          body.tool_choice = "none";
          losses.push({ path: "/tool_config", code: "unsupported_field", detail: 'toolConfig is given in both spellings, which a reader of either reads its own way: tool_choice "none" written in place of both' });
          break;
        }
        const choice = geminiToolConfigToResponses({ toolConfig: value });
        losses.push(...prefixLosses(`/${key}`, choice.losses));
        if (choice.value.toolChoice !== undefined) body.tool_choice = choice.value.toolChoice;
        Object.assign(body, choice.value.kept);
        if (key === "tool_config") body[`${PREFIX}toolConfigKey`] = key;
        break;
      }
      case "generationConfig":
      case "generation_config": {
        if (!isRecord(value)) {
          body[PREFIX + key] = value;
          break;
        }
        const rest: Fields = {};
        for (const [field, held] of Object.entries(value)) {
          const mapped = GENERATION_FIELDS[field];
          if (mapped !== undefined && !(mapped in body)) body[mapped] = held;
          else rest[field] = held;
        }
        // The key is kept even when empty: the same provider gets the body it sent.
        body[PREFIX + key] = rest;
        break;
      }
      case "model":
        body.model = value;
        break;
      default:
        body[PREFIX + key] = value;
    }
  }
  return { value: body as CreateResponseBody, losses };
}
