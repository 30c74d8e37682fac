// Tells a Gemini record by its shape, never by a model name or a file name.
// No other envelope writes `contents`, `parts` or `candidates`, so each sign
// below is Gemini's alone.
//
// | recogniser             | shape                                                                  |
// |------------------------|------------------------------------------------------------------------|
// | isGeminiContent        | only `role` (user, model, or none) and `parts`, an array of objects     |
// | isGeminiRequestBody    | a `contents` array of contents, and no `messages`, `input` or `object`  |
// | isGeminiResponse       | a `candidates` array, or a `promptFeedback` object, and no `object` or  |
// |                        |   `type`                                                               |
// | isGeminiStreamChunk    | the same shape: a streamed chunk is a partial response. Which one a     |
// |                        |   record is depends on where it sits (an SSE stream, a `?alt=sse` call) |
import { isRecord } from "./fields.js";

export function isGeminiContent(record: unknown): boolean {
  if (!isRecord(record) || !Object.keys(record).every((key) => key === "role" || key === "parts")) return false;
  if (record.role !== undefined && record.role !== "user" && record.role !== "model") return false;
  return Array.isArray(record.parts) && record.parts.every(isRecord);
}

export function isGeminiRequestBody(record: unknown): boolean {
  if (!isRecord(record) || "messages" in record || "input" in record || "object" in record) return false;
  return Array.isArray(record.contents) && record.contents.every((content: unknown) => isRecord(content) && Array.isArray(content.parts));
}

export function isGeminiResponse(record: unknown): boolean {
  if (!isRecord(record) || "object" in record || "type" in record) return false;
  return Array.isArray(record.candidates) || isRecord(record.promptFeedback);
}

export function isGeminiStreamChunk(record: unknown): boolean {
  return isGeminiResponse(record);
}
