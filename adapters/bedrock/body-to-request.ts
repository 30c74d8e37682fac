// An Open Responses request body as a Bedrock Converse request body.
//
// | Open Responses body                 | Bedrock request                                              |
// |-------------------------------------|--------------------------------------------------------------|
// | input (a string: one user message)  | system and messages (itemsToMessages)                        |
// | instructions                        | the first system text block: form_changed, it comes back as  |
// |                                     |   a system message of input                                  |
// | tools, tool_choice                  | toolConfig {tools, toolChoice} (tools.ts); tool_choice without tools: loss |
// | tool_choice allowed_tools, "none"   | toolConfig with the tools they allow, or none (tools-limit.ts) |
// | max_output_tokens, temperature,     | inferenceConfig {maxTokens, temperature, topP}, with what    |
// |   top_p, `bedrock:inferenceConfig`  |   `bedrock:inferenceConfig` kept                             |
// | `bedrock:<key>`                     | <key> (additionalModelRequestFields…)                        |
// | model                               | not in the body (Bedrock takes it in the URL): loss          |
// | any other key                       | loss unsupported_field, unless it holds nothing              |
import type { Converted, Loss } from "../../src/models/loss.js";
import { prefixLosses } from "../../src/models/json-pointer.js";
import { instructionsFormDetail } from "../../src/models/instructions-form.js";
import type { CanonicalItem, CreateResponseBody, ToolChoiceParam } from "../../src/models/open-responses.js";
import { isPresent, isRecord, lossAt, PREFIX, TARGET, type Fields } from "./fields.js";
import type { CallIds } from "./call-ids.js";
import { itemsToMessages } from "./items-to-messages.js";
import type { BedrockRequestBody } from "./models.js";
import { responsesToolChoiceToBedrock, responsesToolsToBedrock, type ExtensionTool } from "./tools.js";
import { toolsLimitOf } from "../tools-limit.js";

const INFERENCE_KEYS: Record<string, string> = { max_output_tokens: "maxTokens", temperature: "temperature", top_p: "topP" };

/** `callIds`: the call id rewrites of the journal the body is written in, shared with its other records. */
export function bodyToRequest(args: { body: CreateResponseBody; callIds?: CallIds }): Converted<BedrockRequestBody> {
  const { body } = args;
  if (!isRecord(body) || !("input" in body)) throw new TypeError("not an Open Responses request body: it has no input");
  const fields = body as Fields;
  const losses: Loss[] = [];
  const request: Fields = {};
  const input: unknown = fields.input;
  const items = (typeof input === "string" ? [{ type: "message", role: "user", content: input }] : Array.isArray(input) ? input : []) as CanonicalItem[];
  const converted = itemsToMessages({ items, ...(args.callIds ? { callIds: args.callIds } : {}) });
  if (typeof input === "string") losses.push(lossAt(["input"], "form_changed", "a string input written as one user message: it comes back as a user message of input"));
  losses.push(...prefixLosses("/input", converted.losses));
  const system = converted.value.system ?? [];
  if (typeof fields.instructions === "string") {
    system.unshift({ text: fields.instructions });
    // Bedrock's system is read back as a system message of input: there is no other place for it.
    losses.push(lossAt(["instructions"], "form_changed", instructionsFormDetail("instructions written as the first text block of system", "a system message of input")));
  }
  request.messages = converted.value.messages;
  if (system.length > 0) request.system = system;

  const inference: Fields = {};
  let hasInference = false;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (key === "input" || key === "instructions" || key === "tool_choice" || value === undefined) continue;
    if (key in INFERENCE_KEYS) {
      if (value !== null) inference[INFERENCE_KEYS[key]] = value;
      hasInference = true;
    } else if (key === PREFIX + "inferenceConfig") {
      if (isRecord(value)) Object.assign(inference, value);
      hasInference = true;
    } else if (key === "tools") {
      if (!Array.isArray(value) || value.length === 0) continue;
      // An allowed_tools choice, or "none", is kept as the tools it allows (tools-limit.ts).
      const limit = toolsLimitOf(fields.tool_choice, TARGET, false);
      const tools = responsesToolsToBedrock({ tools: value as Array<ExtensionTool>, leftOut: limit?.leftOut });
      losses.push(...prefixLosses("/tools", tools.losses));
      if (limit !== undefined) losses.push(lossAt(["tool_choice"], "form_changed", limit.detail));
      // Bedrock requires at least one tool in a toolConfig: with none left by the limit, none is written.
      if (limit !== undefined && tools.value.length === 0) {
        if (items.some(holdsToolBlock)) losses.push(lossAt(["tools"], "target_rejects", `no tool is left, and ${TARGET} requires a toolConfig beside toolUse and toolResult blocks`));
        continue;
      }
      const toolConfig: Fields = { tools: tools.value };
      const toolChoice = limit !== undefined ? limit.choice : fields.tool_choice;
      if (toolChoice !== undefined) {
        const choice = responsesToolChoiceToBedrock({ toolChoice: toolChoice as ToolChoiceParam });
        losses.push(...prefixLosses("/tool_choice", choice.losses));
        if (choice.value !== undefined) toolConfig.toolChoice = choice.value;
      }
      request.toolConfig = toolConfig;
    } else if (key.startsWith(PREFIX)) {
      if (!(key.slice(PREFIX.length) in request)) request[key.slice(PREFIX.length)] = value;
    } else if (key === "model") {
      losses.push(lossAt([key], "unsupported_field", `${TARGET} takes the model in the request URL, not in the body`));
    } else if (isPresent(value)) {
      losses.push(lossAt([key], "unsupported_field", `${TARGET} has no place for ${key}`));
    }
  }
  if (fields.tool_choice !== undefined && !Array.isArray(fields.tools)) losses.push(lossAt(["tool_choice"], "unsupported_field", `${TARGET} takes a toolChoice only beside tools`));
  if (hasInference) request.inferenceConfig = inference;
  return { value: request as BedrockRequestBody, losses };
}

/** Whether an input item is written as a toolUse or toolResult block. */
function holdsToolBlock(item: CanonicalItem): boolean {
  const type = (item as { type?: unknown }).type;
  return type === "function_call" || type === "function_call_output";
}
