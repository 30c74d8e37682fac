// A Bedrock Converse request body as an Open Responses request body
// (`CreateResponseBody`). Keys are written in the order the request has them;
// `input` takes the place of the first of `system` and `messages`.
//
// | Bedrock request                | Open Responses body                                          |
// |--------------------------------|--------------------------------------------------------------|
// | system, messages               | input: a leading system message item, then messagesToItems; an empty system `bedrock:system` |
// | toolConfig.tools               | tools (tools.ts)                                             |
// | toolConfig.toolChoice          | tool_choice                                                  |
// | inferenceConfig.maxTokens      | max_output_tokens (below the spec's 16: loss target_rejects) |
// |   temperature, topP            | temperature, top_p                                           |
// |   stopSequences, other keys    | `bedrock:inferenceConfig` holds them (and says an inferenceConfig was sent) |
// | additionalModelRequestFields,  | `bedrock:<key>`, for the way back: Open Responses has no     |
// |   guardrailConfig, any other   |   place for them (a thinking budget is not a reasoning effort) |
// | (the model, in the URL)        | model, when the caller gives it                              |
import type { Converted, Loss } from "../../src/models/loss.js";
import type { CreateResponseBody } from "../../src/models/open-responses.js";
import { isRecord, lossAt, PREFIX, typeOf, type Fields } from "./fields.js";
import { messagesToItems } from "./messages-to-items.js";
import type { BedrockRequestBody, BedrockTool, BedrockToolChoice } from "./models.js";
import { bedrockToolChoiceToResponses, bedrockToolsToResponses } from "./tools.js";
import { prefixLosses } from "../../src/models/json-pointer.js";

const SPEC_MIN_OUTPUT_TOKENS = 16;
const INFERENCE_KEYS: Record<string, string> = { maxTokens: "max_output_tokens", temperature: "temperature", topP: "top_p" };

export function requestToBody(args: { request: BedrockRequestBody; model?: string }): Converted<CreateResponseBody> {
  const { request, model } = args;
  if (!isRecord(request) || !Array.isArray(request.messages) || "input" in request || "model" in request) {
    throw new TypeError("not a Bedrock Converse request body: it has no messages array");
  }
  const body: Fields = {};
  if (model !== undefined) body.model = model;
  const losses: Loss[] = [];
  for (const key of Object.keys(request)) {
    const value = (request as Fields)[key];
    if (value === undefined) continue;
    switch (key) {
      case "system":
      case "messages":
        body.input = [];
        // An empty system gives no item; it is kept so that Bedrock gets back the body it sent.
        if (key === "system" && Array.isArray(value) && value.length === 0) body[PREFIX + key] = value;
        break;
      case "toolConfig": {
        if (!isRecord(value)) {
          body[PREFIX + key] = value;
          losses.push(lossAt([key], "unsupported_field", `toolConfig is ${typeOf(value)}: kept as it is for Bedrock only`));
          break;
        }
        for (const field of Object.keys(value)) {
          if (field === "tools" && Array.isArray(value.tools)) {
            const converted = bedrockToolsToResponses({ tools: value.tools as BedrockTool[] });
            losses.push(...prefixLosses("/toolConfig/tools", converted.losses));
            body.tools = converted.value;
          } else if (field === "toolChoice") {
            const converted = bedrockToolChoiceToResponses({ toolChoice: value.toolChoice as BedrockToolChoice });
            losses.push(...prefixLosses("/toolConfig/toolChoice", converted.losses));
            if (converted.value !== undefined) body.tool_choice = converted.value;
          } else {
            losses.push(lossAt([key, field], "unsupported_field", `toolConfig.${field} has no Open Responses place`));
          }
        }
        break;
      }
      case "inferenceConfig": {
        if (!isRecord(value)) {
          body[PREFIX + key] = value;
          break;
        }
        const rest: Fields = {};
        for (const [field, held] of Object.entries(value)) {
          const target = INFERENCE_KEYS[field];
          if (target === undefined) rest[field] = held;
          else body[target] = held;
        }
        if (typeof value.maxTokens === "number" && value.maxTokens < SPEC_MIN_OUTPUT_TOKENS) {
          losses.push(lossAt([key, "maxTokens"], "target_rejects", `maxTokens ${value.maxTokens} written as max_output_tokens, which the spec wants at least ${SPEC_MIN_OUTPUT_TOKENS}`));
        }
        body[PREFIX + key] = rest;
        break;
      }
      default:
        body[PREFIX + key] = value;
    }
  }
  const converted = messagesToItems({ messages: request.messages, system: request.system });
  losses.push(...converted.losses);
  body.input = converted.value;
  return { value: body as CreateResponseBody, losses };
}
