// What a provider answers a request with when it gives no response, as a logger
// that writes whatever came back puts it on a journal line. Such a line has no
// type and is blocked as any typeless record is; saying what it is tells the
// reader the request failed, where "no type" sends them looking for a broken item.
//
// | body                                          | written by                                      |
// |-----------------------------------------------|-------------------------------------------------|
// | `{"error":{"message","type","code",…}}`       | OpenAI, Azure OpenAI, DeepSeek, Mistral; Gemini |
// |                                               |   (`{"error":{"code":429,"message","status"}}`)  |
// | `{"Error":{"Code","Message"},…}`              | boto3's ClientError response (Bedrock)          |
// | `{"__type":"ThrottlingException","message"}`  | the AWS JSON protocol's error body (Bedrock)    |
// | `{"message":"…"}` and nothing else            | Bedrock's HTTP error body, its type in a header |
//
// Anthropic's `{"type":"error","error":{…}}` has a type, and is read as the
// error event its streams end with (journal/stream-records.ts).
import { isPlainObject } from "./json-value.js";
import { quoteVisible } from "./quote-visible.js";

/** What the record says of the error when it is a provider's error body, as `rate_limit_exceeded: "Rate limit"`; undefined when it is not one. */
export function apiErrorOf(record: Record<string, unknown>): string | undefined {
  const own = (fields: Record<string, unknown>, name: string): unknown => (Object.hasOwn(fields, name) ? fields[name] : undefined);
  const openAiStyle = own(record, "error");
  if (isPlainObject(openAiStyle) && typeof own(openAiStyle, "message") === "string") {
    return said(own(openAiStyle, "code") ?? own(openAiStyle, "status") ?? own(openAiStyle, "type"), own(openAiStyle, "message"));
  }
  const botoStyle = own(record, "Error");
  if (isPlainObject(botoStyle) && (typeof own(botoStyle, "Code") === "string" || typeof own(botoStyle, "Message") === "string")) {
    return said(own(botoStyle, "Code"), own(botoStyle, "Message"));
  }
  const awsType = own(record, "__type");
  if (typeof awsType === "string") return said(awsType, own(record, "message") ?? own(record, "Message"));
  const names = Object.keys(record);
  if (names.length === 1 && typeof own(record, "message") === "string") return said(undefined, own(record, "message"));
  return undefined;
}

function said(kind: unknown, message: unknown): string {
  // A code as APIs write them (rate_limit_exceeded, RESOURCE_EXHAUSTED, 429) is shown bare; anything else quoted.
  const shownKind = typeof kind === "number" || (typeof kind === "string" && /^[\w.-]{1,60}$/.test(kind)) ? String(kind) : typeof kind === "string" ? quoteVisible(kind) : undefined;
  const shownMessage = typeof message === "string" ? quoteVisible(message, 120) : undefined;
  if (shownKind !== undefined && shownMessage !== undefined) return `${shownKind}: ${shownMessage}`;
  return shownKind ?? shownMessage ?? "no message";
}
