// An Open Responses request body as a Gemini request body.
//
// | Open Responses body                | Gemini request                                              |
// |------------------------------------|-------------------------------------------------------------|
// | instructions                       | systemInstruction {parts: [{text}]}, before any leading system message: |
// |                                    |   form_changed, it comes back as a system message of parts       |
// | input                              | systemInstruction and contents (itemsToContents); a string is one user content |
// | tools                              | tools (tools.ts); `gemini:toolsForm` "object" writes the one object |
// | tool_choice, `gemini:mode`,        | toolConfig (tools.ts)                                       |
// |   `gemini:toolConfig`              |                                                             |
// | temperature, top_p,                | generationConfig temperature, topP, maxOutputTokens, beside |
// |   max_output_tokens                |   `gemini:generationConfig`                                 |
// | model                              | model: Vertex bodies name it; the Gemini API takes it from the URL |
// | `gemini:<key>`                     | <key>                                                       |
// | stream, parallel_tool_calls,       | losses: the URL says whether to stream; Gemini has no switch |
// |   reasoning, text, store…          |   for parallel calls                                        |
import type { Converted, Loss } from "../../src/models/loss.js";
import { prefixLosses } from "../../src/models/json-pointer.js";
import { isTextFormLoss, textFormDetail } from "../../src/models/text-form.js";
import type { CanonicalItem, CreateResponseBody } from "../../src/models/open-responses.js";
import { isPresent, isRecord, lossAt, PREFIX, spelled, TARGET, type Fields } from "./fields.js";
import { itemsToContents } from "./items-to-contents.js";
import { responsesToolChoiceToGemini, responsesToolsToGemini } from "./tools.js";

const GENERATION: Record<string, string> = { temperature: "temperature", top_p: "topP", max_output_tokens: "maxOutputTokens" };
const TOOL_CONFIG_KEYS = [`${PREFIX}mode`, `${PREFIX}toolConfig`, `${PREFIX}toolConfigSpelling`, `${PREFIX}toolConfigKey`];

export function bodyToRequest(args: { body: CreateResponseBody }): Converted<Fields> {
  const body = args.body as Fields;
  if (!isRecord(body) || !("input" in body || "instructions" in body)) throw new TypeError("not an Open Responses request body: it has no input");
  const request: Fields = {};
  const losses: Loss[] = [];
  const generationKey = `${PREFIX}generation_config` in body ? "generation_config" : "generationConfig";
  const generation: Fields = isRecord(body[`${PREFIX}${generationKey}`]) ? { ...(body[`${PREFIX}${generationKey}`] as Fields) } : {};
  const snakeGeneration = generationKey === "generation_config";

  for (const key of Object.keys(body)) {
    const value = body[key];
    if (value === undefined || TOOL_CONFIG_KEYS.includes(key) || key === `${PREFIX}toolsForm` || key === `${PREFIX}systemInstructionSpelling`) continue;
    switch (key) {
      case "input":
      case "instructions": {
        if ("contents" in request) break;
        const items: CanonicalItem[] = typeof body.input === "string" ? [{ type: "message", role: "user", content: body.input }] : Array.isArray(body.input) ? (body.input as CanonicalItem[]) : [];
        const converted = itemsToContents({ items });
        if (typeof body.input === "string") losses.push(lossAt(["input"], "form_changed", "a string input written as one user content of one text part: it comes back as a user message of input"));
        // The message a string input stands for is no item of the body: the loss above says how its text was written.
        losses.push(...prefixLosses("/input", typeof body.input === "string" ? converted.losses.filter((loss) => !isTextFormLoss(loss)) : converted.losses));
        const system = converted.value.systemInstruction;
        const systemKey = body[`${PREFIX}systemInstructionSpelling`] === "snake" ? "system_instruction" : "systemInstruction";
        if (typeof body.instructions === "string") {
          // systemInstruction is read back as a system message of input, its text as parts: Gemini has no other place for it.
          losses.push(lossAt(["instructions"], "form_changed", textFormDetail("instructions written as the first text part of systemInstruction, a system message of input when read", "parts")));
          const parts = [{ text: body.instructions }, ...((system?.parts as Fields[] | undefined) ?? [])];
          request[systemKey] = system ? { ...system, parts } : { parts };
        } else if (system) request[systemKey] = system;
        request.contents = converted.value.contents;
        break;
      }
      case "tools": {
        const converted = responsesToolsToGemini({ tools: Array.isArray(value) ? value : [] });
        losses.push(...prefixLosses("/tools", converted.losses));
        request.tools = body[`${PREFIX}toolsForm`] === "object" && converted.value.length === 1 ? converted.value[0] : converted.value;
        break;
      }
      case "tool_choice":
        break;
      case "temperature":
      case "top_p":
      case "max_output_tokens":
        if (value !== null) generation[snakeGeneration ? key : GENERATION[key]!] = value;
        break;
      case "model":
        request.model = value;
        break;
      default:
        if (key.startsWith(PREFIX)) {
          if (key !== `${PREFIX}${generationKey}`) request[key.slice(PREFIX.length)] = value;
        } else if (isPresent(value)) losses.push(lossAt([key], key === "stream" ? "unsupported_field" : "unsupported_field", key === "stream" ? "a Gemini request streams by its URL (streamGenerateContent), not by a field" : `"${key}" has no place in a ${TARGET} request`));
    }
  }
  const keptToolConfig: Fields = {};
  for (const key of TOOL_CONFIG_KEYS) if (body[key] !== undefined) keptToolConfig[key] = body[key];
  const toolConfig = responsesToolChoiceToGemini({ toolChoice: body.tool_choice, kept: keptToolConfig });
  losses.push(...prefixLosses("/tool_choice", toolConfig.losses));
  if (toolConfig.value !== undefined) request[body[`${PREFIX}toolConfigKey`] === "tool_config" ? "tool_config" : "toolConfig"] = toolConfig.value;
  if (Object.keys(generation).length > 0 || `${PREFIX}${generationKey}` in body) request[spelled(generationKey, "camel")] = generation;
  return { value: request, losses };
}
