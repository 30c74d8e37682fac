// A Chat Completions request body as an Open Responses request body
// (`CreateResponseBody`). Keys are written in the order the request has them.
//
// | Chat request                       | Open Responses body                                  |
// |------------------------------------|------------------------------------------------------|
// | messages                           | input: always an item array (messagesToItems);       |
// |                                    |   system messages stay items, never `instructions`   |
// | tools, functions (legacy)          | tools (tools.ts)                                     |
// | tool_choice, function_call (legacy)| tool_choice (tools.ts)                               |
// | response_format                    | text.format (tools.ts)                               |
// | every other key                    | params.ts                                            |
import type { ChatRequestBody } from "../../src/models/chat-completions.js";
import type { Loss, Converted } from "../../src/models/loss.js";
import { prefixLosses } from "../../src/models/json-pointer.js";
import type { CreateResponseBody } from "../../src/models/open-responses.js";
import { messagesToItems } from "./messages-to-items.js";
import { assignEntry, chatParamToResponses, isRecord, omittedNull, type Entries } from "./params.js";
import {
  chatFunctionCallToResponses,
  chatFunctionsToResponses,
  chatToolChoiceToResponses,
  chatToolsToResponses,
  responseFormatToTextFormat,
  type ChatLegacyFunction,
} from "./tools.js";

export function chatRequestToResponsesBody(args: { request: ChatRequestBody }): Converted<CreateResponseBody> {
  const { request } = args;
  if (!isRecord(request) || !Array.isArray(request.messages)) {
    throw new TypeError("not a Chat Completions request body: it has no messages array");
  }
  const body: Record<string, unknown> = {};
  const losses: Loss[] = [];
  for (const key of Object.keys(request)) {
    const value = request[key];
    if (value === undefined) continue;
    // The OpenAI SDKs, and frameworks over them (Haystack), send null for a choice
    // left unset, which the API reads as absent: Open Responses is given it absent.
    if (value === null && (key === "tool_choice" || key === "response_format")) {
      losses.push(...omittedNull(key).losses);
      continue;
    }
    let entries: Entries;
    switch (key) {
      case "messages": {
        const converted = messagesToItems({ messages: request.messages });
        losses.push(...prefixLosses("/messages", converted.losses));
        entries = [["input", converted.value]];
        break;
      }
      case "tools": {
        const converted = chatToolsToResponses({ tools: request.tools ?? [] });
        losses.push(...prefixLosses("/tools", converted.losses));
        entries = [["tools", converted.value]];
        break;
      }
      case "functions": {
        const converted = chatFunctionsToResponses({ functions: (request.functions ?? []) as ChatLegacyFunction[] });
        losses.push(...prefixLosses("/functions", converted.losses));
        entries = [["tools", converted.value]];
        break;
      }
      case "tool_choice":
      case "function_call": {
        const converted =
          key === "tool_choice" ? chatToolChoiceToResponses({ toolChoice: request.tool_choice! }) : chatFunctionCallToResponses({ functionCall: value });
        losses.push(...prefixLosses("/" + key, converted.losses));
        entries = converted.value === undefined ? [] : [["tool_choice", converted.value]];
        break;
      }
      case "response_format": {
        const converted = responseFormatToTextFormat({ responseFormat: request.response_format! });
        losses.push(...prefixLosses("/response_format", converted.losses));
        entries = converted.value === undefined ? [] : [["text", { format: converted.value }]];
        break;
      }
      default: {
        const converted = chatParamToResponses({ key, request });
        losses.push(...converted.losses);
        entries = converted.entries;
      }
    }
    for (const entry of entries) assignEntry(body, entry);
  }
  return { value: body as CreateResponseBody, losses };
}
