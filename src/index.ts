// The public API of orbridge: every command is also a function, typed from the
// models, working on iterables or async iterables of records, so an agent runtime
// can gate items in-process before it replays them.

import { gateJournal as gateJournalWithReaders } from "./gate/gate-journal.js";
import { readEnvelopeTools as readEnvelopeToolsOfRegistry } from "./cli/envelope-tools.js";

export * from "./models/open-responses.js";
export * from "./models/chat-completions.js";
export * from "./models/loss.js";
export type { Envelope, JournalItem, Provenance } from "./models/journal-item.js";
export type { AssembledResponse, StreamLoss } from "./models/assembled-response.js";

export { messagesToItems, messagesToItems as chatToItems } from "../adapters/chat-completions/messages-to-items.js";
export { itemsToMessages, itemsToMessages as itemsToChat } from "../adapters/chat-completions/items-to-messages.js";
export { chatRequestToResponsesBody } from "../adapters/chat-completions/request-to-body.js";
export { responsesBodyToChatRequest } from "../adapters/chat-completions/body-to-request.js";
export { chatCompletionToResponse } from "../adapters/chat-completions/completion-to-response.js";
export { responseToChatCompletion } from "../adapters/chat-completions/response-to-completion.js";
export {
  chatToolsToResponses,
  responsesToolsToChat,
  chatToolChoiceToResponses,
  responsesToolChoiceToChat,
  responseFormatToTextFormat,
  textFormatToResponseFormat,
} from "../adapters/chat-completions/tools.js";
export { ChatStreamAssembler } from "../adapters/chat-completions/stream.js";

export { isBlocked, GATE_REASONS, type GateReason, type Verdict, type GateOptions } from "./gate/replay-gate.js";
export { gateItem as replayGate } from "./gate/gate-item.js";
export { SchemaCache, type ToolSchema, type CompiledSchema } from "./gate/schema.js";
export { ToolRegistry } from "./gate/tool-registry.js";
export { JournalChecker, FINDING_CODES, type Finding, type FindingCode, type GatedItem, type CheckedItem } from "./gate/journal-checks.js";
export { TARGETS, TargetChecker, checkTarget, type Target, type TargetChange } from "./gate/targets.js";
export { TargetRewriter, rewriteForTarget } from "./gate/target-rewriter.js";
export { JournalGate, type GateRecord, type GateInput, type JournalGateOptions, type ConversationOptions } from "./gate/gate-journal.js";
export { readEnvelopeTools } from "./cli/envelope-tools.js";
export { conversationGate, withConversation, GateLane, type ConversationGateOptions, type ConversationGateRecord } from "./gate/conversation-gate.js";
export { ConversationRouter, DEFAULT_MAX_OPEN_CONVERSATIONS, type ConversationLane, type ConversationRouterOptions, type LinePlace, type Routed, type RouterCounts } from "./gate/conversation-router.js";
export { conversationKeyOf, type ConversationKey, type KeyReading } from "./journal/conversation-key.js";
export { parsePointer, resolvePointer, type JsonPointer, type PointerResolution } from "./journal/json-pointer.js";
export { diffJournals, diffJournalsAsync, JournalDiffer, DIFFERENCE_CODES, type Difference, type DifferenceCode } from "./diff.js";

export { detectRecord, type RecordKind } from "./journal/detect.js";
export { JournalNormalizer, normalizeJournal, type NormalizedRecord, type NormalizeOptions, type JournalInput } from "./journal/normalize.js";
export { ResponsesStreamAssembler } from "./journal/responses-stream.js";
export { SseParser, isSseFraming, type SseEvent } from "./journal/sse.js";
export { StreamRecords, type JournalRecord, type StreamRecordsOptions } from "./journal/stream-records.js";
export { readLines, type JournalLine, type ReadOptions } from "./journal/read.js";

/**
 * Gates a journal, reading the tools of Anthropic, Gemini and Bedrock request
 * bodies through the registry's readers unless `readTools` says otherwise: the
 * gate itself imports no adapter, and without a reader those bodies are
 * refused, fail closed.
 */
export function gateJournal(input: Parameters<typeof gateJournalWithReaders>[0], options: Parameters<typeof gateJournalWithReaders>[1] = {}): ReturnType<typeof gateJournalWithReaders> {
  return gateJournalWithReaders(input, { readTools: readEnvelopeToolsOfRegistry, ...options });
}
