// The Gemini envelope (`generateContent`, `streamGenerateContent`; the Gemini API
// and Vertex AI share the shape), as one descriptor: how to recognise its
// records, and its converters to the canonical form and back, each returning
// `{ value, losses }`. What only Gemini has travels under the `gemini:` slug
// (extension items for code execution and server-side tool parts, extension
// tools, fields of items and parts such as `gemini:thoughtSignature`) or, for a
// thought part's signature, in a reasoning item whose `provenance.envelope` is
// "gemini". Calls without an id get a call_id derived from their rank, name and
// args, reported, and go back without one; the converters of one journal share
// one pairing (`journal`), so a result on a later line than its call answers it.
import { IdlessResponses } from "../../src/models/idless-responses.js";
import { bodyToRequest } from "./body-to-request.js";
import type { JournalOptions } from "../index.js";
import { CallPairing, isSynthesizedCallId } from "./call-ids.js";
import { contentsToItems } from "./contents-to-items.js";
import { generateContentToResponse, RESPONSE_FIELD_PATHS } from "./generate-content-to-response.js";
import { itemsToContents } from "./items-to-contents.js";
import { isGeminiContent, isGeminiRequestBody, isGeminiResponse, isGeminiStreamChunk } from "./recognise.js";
import { requestToBody } from "./request-to-body.js";
import { responseToGenerateContent } from "./response-to-generate-content.js";
import { GeminiStreamAssembler, type GeminiStreamOptions } from "./stream.js";
import { geminiToolConfigToResponses, geminiToolsToResponses, readGeminiRequestTools, responsesToolChoiceToGemini, responsesToolsToGemini } from "./tools.js";
export const gemini = {
  name: "gemini",
  /** The slug of its extension items, tools and fields (`gemini:executableCode`). */
  slug: "gemini",
  /** A functionCall holds its arguments as an object (`args`), not as their text. */
  argumentsAsObjects: true,
  /** A message's text is written as parts only: a string of the Open Responses form was its reader's choice. */
  textAsPartsOnly: true,
  recognise: {
    message: isGeminiContent,
    requestBody: isGeminiRequestBody,
    response: isGeminiResponse,
    streamEvent: isGeminiStreamChunk,
  },
  /** `{systemInstruction?, contents}` ⇄ items. */
  messages: { toItems: contentsToItems, fromItems: itemsToContents },
  /** Request body ⇄ Open Responses request body. */
  requestBodies: { toResponses: requestToBody, fromResponses: bodyToRequest },
  tools: { toResponses: geminiToolsToResponses, fromResponses: responsesToolsToGemini, readRequest: readGeminiRequestTools },
  toolChoice: { toResponses: geminiToolConfigToResponses, fromResponses: responsesToolChoiceToGemini },
  /** GenerateContentResponse ⇄ Open Responses response object. */
  responses: { toResponses: generateContentToResponse, fromResponses: responseToGenerateContent, fieldPaths: RESPONSE_FIELD_PATHS },
  /** Stream chunks -> the responses they carry, with `push(chunk, line)` and `finish()`. */
  stream: { assembler: (options?: GeminiStreamOptions) => new GeminiStreamAssembler(options) },
  /**
   * One journal's converters share one pairing, so a result on a later line than
   * its call answers it, and one count of responses without responseId, so two
   * alike get two ids.
   */
  journal: (options?: JournalOptions) => ({ pairing: new CallPairing("", options?.forGate === true), responses: new IdlessResponses() }),
  /** A call_id of the form read from a call without id goes back as none (call-ids.ts). */
  dropsCallId: isSynthesizedCallId,
} as const;

export {
  bodyToRequest,
  CallPairing,
  contentsToItems,
  GeminiStreamAssembler,
  geminiToolConfigToResponses,
  geminiToolsToResponses,
  generateContentToResponse,
  isGeminiContent,
  isGeminiRequestBody,
  isGeminiResponse,
  isGeminiStreamChunk,
  itemsToContents,
  requestToBody,
  responsesToolChoiceToGemini,
  responsesToolsToGemini,
  responseToGenerateContent,
};
export type { GeminiAssembledResponse, GeminiStreamOptions } from "./stream.js";
export type { Provenance } from "./contents-to-items.js";
export type { GeminiContent, GeminiConversation } from "./items-to-contents.js";
