// Tells a Gemini record by its shape, never by a model name or a file name.
// No other envelope writes `contents`, `parts` or `candidates`, so each sign
// below is Gemini's alone.
//
// | recogniser             | shape                                                                  |
// |------------------------|------------------------------------------------------------------------|
// | isGeminiContent        | `role` (user, model, or none) and `parts`, an array of objects; no      |
// |                        |   `type` or `content` (other keys a logger added are reported)          |
// | isGeminiRequestBody    | a `contents` array of contents, and no `messages`, `input` or `object`  |
// | isGeminiResponse       | a `candidates` array, or a `promptFeedback` object, and no `object` or  |
// |                        |   `type`; every candidate with its finishReason                        |
// |                        |   (prompt_feedback and finish_reason alike: the Python SDK's dumps,     |
// |                        |   which write a field it has none for as null)                          |
// | isGeminiStreamChunk    | the same shape, finished or not: a streamed chunk is a partial response.|
// |                        |   A finished one is a chunk where it sits in a stream (an SSE stream, a |
// |                        |   `?alt=sse` call, the next line of a stream kept one chunk per line)   |
import { isPresent, isRecord } from "./fields.js";

export function isGeminiContent(record: unknown): boolean {
  if (!isRecord(record) || !Array.isArray(record.parts) || (record.role !== undefined && record.role !== "user" && record.role !== "model")) return false;
  // Keys a logger adds beside role and parts do not make it another envelope's (they are reported), an item type does.
  if ("type" in record || "content" in record) return false;
  return record.parts.every(isRecord);
}

export function isGeminiRequestBody(record: unknown): boolean {
  if (!isRecord(record) || !Array.isArray(record.contents) || "messages" in record || "input" in record || "object" in record) return false;
  return record.contents.every((content: unknown) => isRecord(content) && Array.isArray(content.parts));
}

export function isGeminiResponse(record: unknown): boolean {
  return hasResponseShape(record) && !isUnfinished(record as Record<string, unknown>);
}

export function isGeminiStreamChunk(record: unknown): boolean {
  return hasResponseShape(record);
}

function hasResponseShape(record: unknown): boolean {
  if (!isRecord(record) || !(Array.isArray(record.candidates) || isRecord(record.promptFeedback) || isRecord(record.prompt_feedback))) return false;
  return !("object" in record) && !("type" in record);
}

/** generateContent answers every candidate with its finishReason; a candidate without one (or with null, as a dump writes none) is still streaming. */
function isUnfinished(record: Record<string, unknown>): boolean {
  const candidates: unknown[] = Array.isArray(record.candidates) ? record.candidates : [];
  return candidates.some((candidate) => isRecord(candidate) && !isPresent(candidate.finishReason) && !isPresent(candidate.finish_reason));
}
