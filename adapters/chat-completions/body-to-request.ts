// An Open Responses request body (`CreateResponseBody`) as a Chat Completions
// request body. Keys are written in the order the body has them; `messages`
// takes the place of the first of `instructions` and `input`.
//
// | Open Responses body           | Chat request                                             |
// |-------------------------------|----------------------------------------------------------|
// | instructions (non-empty)      | a leading system message: loss form_changed              |
// | instructions ""               | omitted: loss form_changed                               |
// | input (item array)            | messages (itemsToMessages), after that system message;   |
// |                               |   reasoning into `reasoningField` when one is given      |
// | input (string)                | one user message with that string: loss form_changed     |
// | tools                         | tools (tools.ts)                                         |
// | tool_choice                   | tool_choice (tools.ts)                                   |
// | text.format                   | response_format (tools.ts)                               |
// | text.verbosity                | verbosity                                                |
// | every other key               | params.ts                                                |
// A null where Chat accepts none is omitted with a form_changed loss.
import type { ChatMessage, ChatRequestBody } from "../../src/models/chat-completions.js";
import type { Converted, Loss } from "../../src/models/loss.js";
import { pointer, prefixLosses } from "../../src/models/json-pointer.js";
import type { CanonicalItem, CreateResponseBody, FunctionToolParam, ToolChoiceParam } from "../../src/models/open-responses.js";
import { itemsToMessages } from "./items-to-messages.js";
import type { ReasoningField } from "./reasoning-fields.js";
import { assignEntry, extraKeyLosses, isRecord, responsesParamToChat, type Entries } from "./params.js";
import { responsesToolChoiceToChat, responsesToolsToChat, textFormatToResponseFormat, type TextFormat } from "./tools.js";

export function responsesBodyToChatRequest(args: { body: CreateResponseBody; reasoningField?: ReasoningField }): Converted<ChatRequestBody> {
  const { body, reasoningField } = args;
  if (!isRecord(body) || body.object === "response" || (body.input !== undefined && body.input !== null && typeof body.input !== "string" && !Array.isArray(body.input))) {
    throw new TypeError("not an Open Responses request body");
  }
  const request: Record<string, unknown> = {};
  const losses: Loss[] = [];
  const leading: ChatMessage[] = [];
  let conversation: ChatMessage[] = [];
  const nullOmitted = (key: string) =>
    losses.push({ path: pointer(key), code: "form_changed", detail: `${key}: null omitted (Chat does not accept null here; absent means the same)` });

  for (const key of Object.keys(body)) {
    const value = body[key];
    if (value === undefined) continue;
    let entries: Entries = [];
    switch (key) {
      case "instructions":
      case "input":
        // Reserves the key's place; the messages are set once both are known.
        if (!("messages" in request)) request.messages = [];
        if (value === null) nullOmitted(key);
        else if (key === "instructions") {
          if (value === "") {
            losses.push({ path: "/instructions", code: "form_changed", detail: "empty instructions omitted" });
          } else {
            leading.push({ role: "system", content: value as string });
            losses.push({ path: "/instructions", code: "form_changed", detail: "instructions written as a leading system message" });
          }
        } else if (typeof value === "string") {
          conversation = [{ role: "user", content: value }];
          losses.push({ path: "/input", code: "form_changed", detail: "a string input written as one user message" });
        } else {
          const converted = itemsToMessages({ items: value as CanonicalItem[], reasoningField });
          conversation = converted.value;
          losses.push(...prefixLosses("/input", converted.losses));
        }
        break;
      case "tools": {
        if (value === null) {
          nullOmitted(key);
          break;
        }
        const converted = responsesToolsToChat({ tools: value as FunctionToolParam[] });
        losses.push(...prefixLosses("/tools", converted.losses));
        entries = [["tools", converted.value]];
        break;
      }
      case "tool_choice": {
        if (value === null) {
          nullOmitted(key);
          break;
        }
        const converted = responsesToolChoiceToChat({ toolChoice: value as ToolChoiceParam });
        losses.push(...prefixLosses("/tool_choice", converted.losses));
        if (converted.value !== undefined) entries = [["tool_choice", converted.value]];
        break;
      }
      case "text":
        if (value === null) nullOmitted(key);
        else entries = textToChat(value as Record<string, unknown>, losses);
        break;
      default: {
        const converted = responsesParamToChat({ key, body });
        losses.push(...converted.losses);
        entries = converted.entries;
      }
    }
    for (const entry of entries) assignEntry(request, entry);
  }
  const messages = [...leading, ...conversation];
  const value = "messages" in request ? { ...request, messages } : { messages, ...request };
  return { value: value as ChatRequestBody, losses };
}

function textToChat(text: Record<string, unknown>, losses: Loss[]): Entries {
  const entries: Entries = [];
  for (const [field, value] of Object.entries(text)) {
    if (field === "format") {
      if (value === null) {
        losses.push({ path: "/text/format", code: "form_changed", detail: "format: null omitted (absent means the same)" });
        continue;
      }
      const converted = textFormatToResponseFormat({ format: value as TextFormat });
      losses.push(...prefixLosses("/text/format", converted.losses));
      if (converted.value !== undefined) entries.push(["response_format", converted.value]);
    } else if (field === "verbosity") {
      entries.push(["verbosity", value]);
    }
  }
  losses.push(...extraKeyLosses(text, new Set(["format", "verbosity"]), "/text", "Chat Completions"));
  return entries;
}
