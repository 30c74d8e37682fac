// The Anthropic Messages envelope, as one descriptor: how to recognise its
// records, and its converters to the canonical form and back, each returning
// `{ value, losses }`. What only Anthropic has travels under the `anthropic:`
// slug (extension items, extension tools, fields of items and parts) or, for
// thinking signatures and redacted thinking, in a reasoning item whose
// `provenance.envelope` is "anthropic".
import { IdlessResponses } from "../../src/models/idless-responses.js";
import { bodyToRequest } from "./body-to-request.js";
import { CallIds } from "./call-ids.js";
import { itemsToMessages } from "./items-to-messages.js";
import { messageToResponse, RESPONSE_FIELD_PATHS } from "./message-to-response.js";
import { messagesToItems } from "./messages-to-items.js";
import { bodyReadAsChatOtherwise, isAnthropicMessage, isAnthropicRequestBody, isAnthropicResponse, isAnthropicStreamEvent, isUnknownAnthropicEvent } from "./recognise.js";
import { requestToBody } from "./request-to-body.js";
import { responseToMessage } from "./response-to-message.js";
import { AnthropicStreamAssembler, type AnthropicStreamOptions } from "./stream.js";
import { anthropicToolChoiceToResponses, anthropicToolsToResponses, readAnthropicRequestTools, responsesToolChoiceToAnthropic, responsesToolsToAnthropic } from "./tools.js";
export const anthropic = {
  name: "anthropic",
  /** The slug of its extension items, tools and fields (`anthropic:server_tool_use`). */
  slug: "anthropic",
  /** A tool_use block holds its arguments as an object (`input`), not as their text. */
  argumentsAsObjects: true,
  /** A message's text is a string or blocks, each kept. */
  textAsPartsOnly: false,
  recognise: {
    message: isAnthropicMessage,
    requestBody: isAnthropicRequestBody,
    response: isAnthropicResponse,
    streamEvent: isAnthropicStreamEvent,
    unknownStreamEvent: isUnknownAnthropicEvent,
    chatBodyReadOtherwise: bodyReadAsChatOtherwise,
  },
  /** `{system?, messages}` ⇄ items. */
  messages: { toItems: messagesToItems, fromItems: itemsToMessages },
  /** Request body ⇄ Open Responses request body. */
  requestBodies: { toResponses: requestToBody, fromResponses: bodyToRequest },
  tools: { toResponses: anthropicToolsToResponses, fromResponses: responsesToolsToAnthropic, readRequest: readAnthropicRequestTools },
  toolChoice: { toResponses: anthropicToolChoiceToResponses, fromResponses: responsesToolChoiceToAnthropic },
  /** Response (`type: "message"`) ⇄ Open Responses response object. */
  responses: { toResponses: messageToResponse, fromResponses: responseToMessage, fieldPaths: RESPONSE_FIELD_PATHS },
  /** Stream events -> the responses they carry, with `push(event, line)` and `finish()`. */
  stream: { assembler: (options?: AnthropicStreamOptions) => new AnthropicStreamAssembler(options) },
  /** One journal's loose records, written run after run, share their call id rewrites: no two calls get one id. */
  writer: () => ({ callIds: new CallIds() }),
  /** One journal's messages without id are counted, so that two alike get two ids. */
  journal: () => ({ responses: new IdlessResponses() }),
} as const;

export {
  anthropicToolChoiceToResponses,
  anthropicToolsToResponses,
  AnthropicStreamAssembler,
  bodyToRequest,
  isAnthropicMessage,
  isAnthropicRequestBody,
  isAnthropicResponse,
  isAnthropicStreamEvent,
  itemsToMessages,
  messagesToItems,
  messageToResponse,
  requestToBody,
  responsesToolChoiceToAnthropic,
  responsesToolsToAnthropic,
  responseToMessage,
};
export type { AnthropicAssembledResponse, AnthropicStreamOptions } from "./stream.js";
export type { Provenance } from "./messages-to-items.js";
