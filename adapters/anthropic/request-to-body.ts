// An Anthropic request body as an Open Responses request body
// (`CreateResponseBody`). Keys are written in the order the request has them;
// `input` takes the place of the first of `system` and `messages`.
//
// | Anthropic request              | Open Responses body                                          |
// |--------------------------------|--------------------------------------------------------------|
// | system, a string               | instructions                                                 |
// | system, text blocks            | a leading system message item of input (blocks keep their cache_control) |
// | messages                       | input (messagesToItems); a reasoning item's provenance names no model: |
// |                                |   the request names the model asked, not the one that wrote the turn; |
// |                                |   a call's arguments, its input's JSON text, synthesized at `/input/k/arguments` |
// | tools                          | tools (tools.ts)                                             |
// | tool_choice                    | tool_choice, and parallel_tool_calls from disable_parallel_tool_use |
// | max_tokens                     | max_output_tokens (below the spec's 16: loss target_rejects) |
// | model, temperature, top_p,     | the same                                                     |
// |   metadata, stream             |                                                              |
// | thinking, stop_sequences,      | `anthropic:<key>`, for the way back: Open Responses has no   |
// |   top_k, service_tier,         |   place for them (thinking has a budget, reasoning an effort) |
// |   container, any other key, a  |                                                              |
// |   null                         |                                                              |
import type { Converted, Loss } from "../../src/models/loss.js";
import { prefixLosses } from "../../src/models/json-pointer.js";
import type { CanonicalItem, CreateResponseBody } from "../../src/models/open-responses.js";
import { isRecord, lossAt, PREFIX, typeOf, type Fields } from "./fields.js";
import { messagesToItems } from "./messages-to-items.js";
import type { AnthropicRequestBody, AnthropicTool, AnthropicToolChoice } from "./models.js";
import { anthropicToolChoiceToResponses, anthropicToolsToResponses } from "./tools.js";

const SPEC_MIN_OUTPUT_TOKENS = 16;

export function requestToBody(args: { request: AnthropicRequestBody }): Converted<CreateResponseBody> {
  const { request } = args;
  if (!isRecord(request) || !Array.isArray(request.messages) || "input" in request || "object" in request) {
    throw new TypeError("not an Anthropic request body: it has no messages array");
  }
  const body: Fields = {};
  const losses: Loss[] = [];
  let systemItem: CanonicalItem | undefined;
  let conversation: CanonicalItem[] = [];

  for (const key of Object.keys(request)) {
    const value = (request as Fields)[key];
    if (value === undefined) continue;
    if (value === null) {
      body[PREFIX + key] = value;
      continue;
    }
    switch (key) {
      case "system":
      case "messages": {
        if (!("input" in body)) body.input = [];
        const converted = key === "system" ? messagesToItems({ messages: [], system: value as AnthropicRequestBody["system"] }) : messagesToItems({ messages: value as AnthropicRequestBody["messages"] });
        losses.push(...converted.losses);
        if (key === "messages") conversation = converted.value;
        else if (typeof value === "string") body.instructions = value;
        else systemItem = converted.value[0];
        break;
      }
      case "tools": {
        if (!Array.isArray(value)) {
          body[PREFIX + key] = value;
          losses.push(lossAt([key], "unsupported_field", `tools is ${typeOf(value)}, not an array: kept as it is for Anthropic only`));
          break;
        }
        const converted = anthropicToolsToResponses({ tools: value as AnthropicTool[] });
        losses.push(...prefixLosses("/tools", converted.losses));
        body.tools = converted.value;
        break;
      }
      case "tool_choice": {
        const converted = anthropicToolChoiceToResponses({ toolChoice: value as AnthropicToolChoice });
        losses.push(...prefixLosses("/tool_choice", converted.losses));
        if (converted.value.toolChoice !== undefined) body.tool_choice = converted.value.toolChoice;
        if (converted.value.parallelToolCalls !== undefined) body.parallel_tool_calls = converted.value.parallelToolCalls;
        break;
      }
      case "max_tokens":
        body.max_output_tokens = value;
        if (typeof value === "number" && value < SPEC_MIN_OUTPUT_TOKENS) {
          losses.push(lossAt([key], "target_rejects", `max_tokens ${value} written as max_output_tokens, which the spec wants at least ${SPEC_MIN_OUTPUT_TOKENS}`));
        }
        break;
      case "metadata":
        body.metadata = value;
        if (!isRecord(value)) losses.push(lossAt([key], "target_rejects", `metadata is ${typeOf(value)}: written as it is, and the spec's metadata is an object of strings`));
        else {
          for (const [field, held] of Object.entries(value)) {
            if (typeof held !== "string") losses.push(lossAt([key, field], "target_rejects", `metadata.${field} is ${typeOf(held)}: written as it is, and the spec's metadata holds strings`));
          }
        }
        break;
      case "model":
      case "temperature":
      case "top_p":
      case "stream":
        body[key] = value;
        break;
      default:
        body[PREFIX + key] = value;
    }
  }
  if ("input" in body) body.input = systemItem ? [systemItem, ...conversation] : conversation;
  return { value: body as CreateResponseBody, losses: argumentsInInput(losses, request, Array.isArray(body.input) ? (body.input as Fields[]) : []) };
}

/**
 * A call's arguments written from an input object are a value of the body, not
 * of the request: the synthesized entry points at them in `input`, the call
 * found by its call_id (a tool_use id, copied exactly).
 */
function argumentsInInput(losses: readonly Loss[], request: AnthropicRequestBody, input: readonly Fields[]): Loss[] {
  const taken = new Set<number>();
  return losses.map((loss) => {
    const at = loss.code === "synthesized" ? /^\/messages\/(\d+)\/content\/(\d+)\/input$/.exec(loss.path) : null;
    if (!at) return loss;
    const message = (request.messages as unknown[])[Number(at[1])];
    const block = isRecord(message) && Array.isArray(message.content) ? (message.content as unknown[])[Number(at[2])] : undefined;
    const index = input.findIndex((item, k) => !taken.has(k) && item.type === "function_call" && isRecord(block) && item.call_id === block.id);
    if (index === -1) return loss;
    taken.add(index);
    return { ...loss, path: `/input/${index}/arguments` };
  });
}
