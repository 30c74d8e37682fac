// The Chat Completions envelope, as one descriptor of the same shape as every
// other envelope's: how to recognise its records, and its converters to the
// canonical form and back, each returning `{ value, losses }`. The converters
// are the folder's own functions, unchanged; what only Chat has (synthesized
// call ids across a journal, the reasoning fields of OpenAI-compatible
// dialects) is named here too, so that nothing outside the folder reaches in.
//
// Its request-body and tool converters read tools through Zod models, which the
// gate must not load as it starts (test/cli/start-up.test.ts): they are loaded
// on demand (`await chat.requests()`), and everything a reader of a journal
// needs is here at once.
//
// The recognisers say what a Chat record looks like on its own; detection keeps
// its own ordered rules for Chat (src/journal/detect.ts), which also settle the
// records another envelope shares.
import { chatCompletionToResponse, completionToItems, RESPONSE_FIELD_PATHS as CHAT_RESPONSE_FIELD_PATHS } from "./completion-to-response.js";
import { itemsToMessages } from "./items-to-messages.js";
import { callCounts, callStatusOf, messagesToItems } from "./messages-to-items.js";
import { REASONING_FIELDS } from "./reasoning-fields.js";
import { responseToChatCompletion } from "./response-to-completion.js";
import { ChatStreamAssembler, type ChatStreamOptions } from "./stream.js";

type Fields = Record<string, unknown>;

const CHAT_ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

function isFields(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isChatMessage(record: unknown): boolean {
  return isFields(record) && record.type === undefined && typeof record.role === "string" && CHAT_ROLES.has(record.role);
}

function isChatRequestBody(record: unknown): boolean {
  return isFields(record) && Array.isArray(record.messages) && !("input" in record);
}

function isChatCompletion(record: unknown): boolean {
  return isFields(record) && record.object === "chat.completion";
}

function isChatChunk(record: unknown): boolean {
  // Azure's filter chunk (`object: ""`) and Perplexity's last chunk (`object: "chat.completion.done"`) are chunks too.
  return (
    isFields(record) &&
    (record.object === "chat.completion.chunk" ||
      (record.object === "" && Array.isArray(record.choices) && "prompt_filter_results" in record) ||
      (record.object === "chat.completion.done" && Array.isArray(record.choices)))
  );
}

async function loadRequests() {
  const [toBody, fromBody, tools] = await Promise.all([import("./request-to-body.js"), import("./body-to-request.js"), import("./tools.js")]);
  return {
    requestBodies: { toResponses: toBody.chatRequestToResponsesBody, fromResponses: fromBody.responsesBodyToChatRequest },
    tools: { toResponses: tools.chatToolsToResponses, fromResponses: tools.responsesToolsToChat },
    toolChoice: { toResponses: tools.chatToolChoiceToResponses, fromResponses: tools.responsesToolChoiceToChat },
  };
}

export type ChatRequests = Awaited<ReturnType<typeof loadRequests>>;

export const chat = {
  name: "chat",
  recognise: {
    message: isChatMessage,
    requestBody: isChatRequestBody,
    response: isChatCompletion,
    streamEvent: isChatChunk,
  },
  /** Chat messages ⇄ items. */
  messages: { toItems: messagesToItems, fromItems: itemsToMessages },
  /** Request bodies (Chat ⇄ Open Responses), tools and tool_choice, loaded with their models. */
  requests: loadRequests,
  /** chat.completion ⇄ Open Responses response object. */
  responses: { toResponses: chatCompletionToResponse, fromResponses: responseToChatCompletion, fieldPaths: CHAT_RESPONSE_FIELD_PATHS },
  /** chat.completion.chunk records -> the responses they carry, with `push(chunk, line)`, `finish()` and `unplaced()`. */
  stream: { assembler: (options?: ChatStreamOptions) => new ChatStreamAssembler(options) },
  /** Calls a Chat journal gives no id are numbered across the journal: one counter shared by its converters. */
  callCounts,
  /** The status a finish_reason gives a choice's calls. */
  callStatusOf,
  /** A chat.completion as a journal's items, choice by choice, as its stream gives them. */
  completionToItems,
  /** The fields OpenAI-compatible dialects write reasoning in. */
  reasoningFields: REASONING_FIELDS,
} as const;

export type { CallCounts, ItemOrigin } from "./messages-to-items.js";
export type { ReasoningField } from "./reasoning-fields.js";
export type { ChatStreamAssembler, ChatStreamOptions } from "./stream.js";
