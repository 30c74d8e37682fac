// An Open Responses request body (`CreateResponseBody`) as an Anthropic request
// body. Keys are written in the order the body has them; `system` and
// `messages` take the place of the first of `instructions` and `input`.
//
// | Open Responses body             | Anthropic request                                          |
// |---------------------------------|------------------------------------------------------------|
// | input (item array)              | messages and system (itemsToMessages), losses under /input |
// | input (string)                  | one user message with that string: loss form_changed       |
// | instructions                    | system; beside system messages of input, the first text block of system: loss form_changed |
// | one system message of text alone| system, that string: loss form_changed, it comes back as instructions |
// | tools                           | tools (tools.ts)                                           |
// | tool_choice, parallel_tool_calls| tool_choice (tools.ts); allowed_tools as the tools it allows |
// |                                 |   and "auto" or "any", the others left out (tools-limit.ts) |
// | max_output_tokens               | max_tokens                                                 |
// | model, temperature, top_p,      | the same (temperature above 1: loss target_rejects)        |
// |   metadata, stream              |                                                            |
// | `anthropic:<key>`               | <key>                                                      |
// | reasoning, text, include, store,| loss unsupported_field: Anthropic has no counterpart        |
// |   truncation, service_tier…     |                                                            |
// | any other key                   | loss provider_extension                                    |
// | model or max_output_tokens      | loss target_rejects at the root: Anthropic requires both,  |
// |   absent                        |   and no value is invented                                 |
// A null is omitted with a form_changed loss: absent means the same.
import type { Converted, Loss } from "../../src/models/loss.js";
import { pointer, prefixLosses } from "../../src/models/json-pointer.js";
import { instructionsFormDetail } from "../../src/models/instructions-form.js";
import type { CanonicalItem, CreateResponseBody, FunctionToolParam, ToolChoiceParam } from "../../src/models/open-responses.js";
import { isRecord, lossAt, PREFIX, TARGET, type Fields } from "./fields.js";
import type { CallIds } from "./call-ids.js";
import { itemsToMessages } from "./items-to-messages.js";
import type { AnthropicRequestBody } from "./models.js";
import { responsesToolChoiceToAnthropic, responsesToolsToAnthropic, type ExtensionTool } from "./tools.js";
import { toolsLimitOf } from "../tools-limit.js";

const SAME = new Set(["model", "temperature", "top_p", "metadata", "stream"]);
const NO_COUNTERPART = new Set([
  "previous_response_id",
  "include",
  "text",
  "reasoning",
  "presence_penalty",
  "frequency_penalty",
  "stream_options",
  "background",
  "max_tool_calls",
  "safety_identifier",
  "prompt_cache_key",
  "truncation",
  "store",
  "service_tier",
  "top_logprobs",
]);
const ANTHROPIC_MAX_TEMPERATURE = 1;

/** `callIds`: the call id rewrites of the journal the body is written in, shared with its other records. */
export function bodyToRequest(args: { body: CreateResponseBody; callIds?: CallIds }): Converted<AnthropicRequestBody> {
  const { body } = args;
  if (!isRecord(body) || body.object === "response" || "messages" in body || (body.input !== undefined && body.input !== null && typeof body.input !== "string" && !Array.isArray(body.input))) {
    throw new TypeError("not an Open Responses request body");
  }
  const request: Fields = {};
  const losses: Loss[] = [];
  let messages: AnthropicRequestBody["messages"] = [];
  let itemsSystem: AnthropicRequestBody["system"];
  let instructions: string | undefined;
  let choiceWritten = false;
  // An allowed_tools choice is kept as the tools it allows (tools-limit.ts).
  const limit = toolsLimitOf(body.tool_choice, TARGET, true);

  for (const key of Object.keys(body)) {
    const value = (body as Fields)[key];
    if (value === undefined) continue;
    if (key.startsWith(PREFIX)) {
      request[key.slice(PREFIX.length)] = value;
      continue;
    }
    if (value === null) {
      losses.push(lossAt([key], "form_changed", `${key}: null omitted (absent means the same)`));
      continue;
    }
    switch (key) {
      case "instructions":
      case "input":
        // Reserves the places of system and messages; both are set once known.
        if (!("messages" in request)) {
          request.system = undefined;
          request.messages = [];
        }
        if (key === "instructions") instructions = value as string;
        else if (typeof value === "string") {
          messages = [{ role: "user", content: value }];
          losses.push(lossAt([key], "form_changed", "a string input written as one user message"));
        } else {
          const converted = itemsToMessages({ items: value as CanonicalItem[], ...(args.callIds ? { callIds: args.callIds } : {}) });
          losses.push(...prefixLosses("/input", converted.losses));
          messages = converted.value.messages;
          itemsSystem = converted.value.system;
        }
        break;
      case "tools": {
        const converted = responsesToolsToAnthropic({ tools: value as Array<FunctionToolParam | ExtensionTool>, leftOut: limit?.leftOut });
        losses.push(...prefixLosses("/tools", converted.losses));
        request.tools = converted.value;
        break;
      }
      case "tool_choice":
      case "parallel_tool_calls": {
        if (choiceWritten) break;
        choiceWritten = true;
        const fields = body as Fields;
        if (limit !== undefined) losses.push(lossAt(["tool_choice"], "form_changed", limit.detail));
        const toolChoice = limit !== undefined ? limit.choice : fields.tool_choice === null ? undefined : (fields.tool_choice as ToolChoiceParam | undefined);
        const converted = responsesToolChoiceToAnthropic({
          toolChoice,
          parallelToolCalls: typeof fields.parallel_tool_calls === "boolean" ? fields.parallel_tool_calls : undefined,
        });
        losses.push(...converted.losses);
        if (converted.value !== undefined) request.tool_choice = converted.value;
        break;
      }
      case "max_output_tokens":
        request.max_tokens = value;
        break;
      default:
        if (SAME.has(key)) {
          request[key] = value;
          if (key === "temperature" && typeof value === "number" && value > ANTHROPIC_MAX_TEMPERATURE) {
            losses.push(lossAt([key], "target_rejects", `temperature ${value} written as it is; Anthropic takes 0 to ${ANTHROPIC_MAX_TEMPERATURE}`));
          }
        } else if (NO_COUNTERPART.has(key)) {
          losses.push(lossAt([key], "unsupported_field", `${key} has no ${TARGET} counterpart`));
        } else {
          losses.push(lossAt([key], "provider_extension", `"${key}" is not a field of the portable shape; ${TARGET} has no place for it`));
        }
    }
  }

  const system = systemOf(instructions, itemsSystem, losses);
  if (instructions === undefined && typeof system === "string") {
    // A string system is what instructions are written as, and is read back as them.
    const at = Array.isArray(body.input) ? body.input.findIndex((item) => isRecord(item) && (item.role === "system" || item.role === "developer")) : -1;
    losses.push(lossAt(at === -1 ? ["input"] : ["input", at, "content"], "form_changed", instructionsFormDetail("the system message's text is written as system, a string", "instructions")));
  }
  if ("messages" in request) {
    request.messages = messages;
    if (system === undefined) delete request.system;
    else request.system = system;
  }
  if (!("model" in request)) losses.push(lossAt([], "target_rejects", "no model: Anthropic requires one, and none is written"));
  if (!("max_tokens" in request)) losses.push(lossAt([], "target_rejects", "no max_output_tokens: Anthropic requires max_tokens, and none is written"));
  if (!("messages" in request)) request.messages = [];
  return { value: request as AnthropicRequestBody, losses: inBodyOrder(losses, body) };
}

function systemOf(instructions: string | undefined, itemsSystem: AnthropicRequestBody["system"], losses: Loss[]): AnthropicRequestBody["system"] {
  if (instructions === undefined) return itemsSystem;
  if (itemsSystem === undefined) return instructions;
  losses.push(lossAt(["instructions"], "form_changed", "instructions written as the first text block of system, before the system messages of input"));
  const blocks = typeof itemsSystem === "string" ? [{ type: "text" as const, text: itemsSystem }] : itemsSystem;
  return [{ type: "text", text: instructions }, ...blocks];
}

/** Losses sorted by the top-level key of the body they point into, in the body's key order. */
function inBodyOrder(losses: readonly Loss[], body: Fields): Loss[] {
  const keys = Object.keys(body).map((key) => pointer(key));
  const rank = (loss: Loss) => {
    const index = keys.findIndex((key) => loss.path === key || loss.path.startsWith(key + "/"));
    return index === -1 ? keys.length : index;
  };
  return losses.map((loss, order) => ({ loss, order })).sort((a, b) => rank(a.loss) - rank(b.loss) || a.order - b.order).map(({ loss }) => loss);
}
