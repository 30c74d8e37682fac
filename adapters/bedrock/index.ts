// The Bedrock Converse envelope, as one descriptor: how to recognise its
// records, and its converters to the canonical form and back, each returning
// `{ value, losses }`. What only Bedrock has travels under the `bedrock:` slug
// (extension items and tools such as server tool blocks and system tools,
// fields of items and parts such as a tool result's status) or, for reasoning
// signatures and redacted content, in a reasoning item whose
// `provenance.envelope` is "bedrock".
import { IdlessResponses } from "../../src/models/idless-responses.js";
import { bodyToRequest } from "./body-to-request.js";
import { converseToResponse, RESPONSE_FIELD_PATHS } from "./converse-to-response.js";
import { decodeEventStream, eventOfFrame, eventStreamRecords, opensEventStream } from "./event-stream.js";
import { CallIds } from "./call-ids.js";
import { itemsToMessages } from "./items-to-messages.js";
import { messagesToItems } from "./messages-to-items.js";
import { isBedrockMessage, isBedrockRequestBody, isBedrockResponse, isBedrockStreamEvent, isUnknownBedrockEvent } from "./recognise.js";
import { requestToBody } from "./request-to-body.js";
import { responseToConverse } from "./response-to-converse.js";
import { BedrockStreamAssembler, type BedrockStreamOptions } from "./stream.js";
import { bedrockToolChoiceToResponses, bedrockToolsToResponses, readBedrockRequestTools, responsesToolChoiceToBedrock, responsesToolsToBedrock } from "./tools.js";
export const bedrock = {
  name: "bedrock",
  /** The slug of its extension items, tools and fields (`bedrock:toolResult`). */
  slug: "bedrock",
  /** A toolUse block holds its arguments as an object (`input`), not as their text. */
  argumentsAsObjects: true,
  /** A message's text is written as parts only: a string of the Open Responses form was its reader's choice. */
  textAsPartsOnly: true,
  recognise: {
    message: isBedrockMessage,
    requestBody: isBedrockRequestBody,
    response: isBedrockResponse,
    streamEvent: isBedrockStreamEvent,
    unknownStreamEvent: isUnknownBedrockEvent,
  },
  /** `{system?, messages}` ⇄ items. */
  messages: { toItems: messagesToItems, fromItems: itemsToMessages },
  /** Converse request body ⇄ Open Responses request body. */
  requestBodies: { toResponses: requestToBody, fromResponses: bodyToRequest },
  tools: { toResponses: bedrockToolsToResponses, fromResponses: responsesToolsToBedrock, readRequest: readBedrockRequestTools },
  toolChoice: { toResponses: bedrockToolChoiceToResponses, fromResponses: responsesToolChoiceToBedrock },
  /** Converse response (`{output.message, stopReason}`) ⇄ Open Responses response object. */
  responses: { toResponses: converseToResponse, fromResponses: responseToConverse, fieldPaths: RESPONSE_FIELD_PATHS },
  /** Stream events (`{contentBlockDelta: {…}}`) -> the responses they carry, with `push(event, line)` and `finish()`. */
  stream: { assembler: (options?: BedrockStreamOptions) => new BedrockStreamAssembler(options) },
  /** One journal's loose records, written run after run, share their call id rewrites: no two calls get one id. */
  writer: () => ({ callIds: new CallIds() }),
  /** AWS event-stream bytes (`application/vnd.amazon.eventstream`) -> frames, and a frame -> its stream event. */
  eventStream: { title: "AWS event-stream bytes", decode: decodeEventStream, eventOfFrame, opens: opensEventStream, records: eventStreamRecords },
  /** One journal's responses, which carry no id, are counted, so that two alike get two ids. */
  journal: () => ({ responses: new IdlessResponses() }),
} as const;

export {
  bedrockToolChoiceToResponses,
  bedrockToolsToResponses,
  BedrockStreamAssembler,
  bodyToRequest,
  converseToResponse,
  decodeEventStream,
  eventOfFrame,
  isBedrockMessage,
  isBedrockRequestBody,
  isBedrockResponse,
  isBedrockStreamEvent,
  itemsToMessages,
  messagesToItems,
  requestToBody,
  responsesToolChoiceToBedrock,
  responsesToolsToBedrock,
  responseToConverse,
};
export type { BedrockAssembledResponse, BedrockStreamOptions } from "./stream.js";
export type { DecodedEvents, EventStreamFrame } from "./event-stream.js";
export type { Provenance } from "./messages-to-items.js";
