// Compiled, not run: openai-types.test.ts has tsc check this file against the
// `openai` package's own types. The Chat values the adapters emit must be
// assignable to the SDK's request types. Where the SDK's Responses types are
// stricter than the Open Responses spec, the spec wins: each such place is
// pinned by a @ts-expect-error next to a control that compiles, so that a change
// on either side (the SDK loosening, or our output changing) fails the check.
import type { ChatCompletionMessageParam, ChatCompletionTool, ChatCompletionToolChoiceOption } from "openai/resources/chat/completions";
import type { ResponseInputImage, ResponseInputItem } from "openai/resources/responses/responses";
import { responsesBodyToChatRequest } from "../../adapters/chat-completions/body-to-request.js";
import { itemsToMessages } from "../../adapters/chat-completions/items-to-messages.js";
import { responsesToolChoiceToChat, responsesToolsToChat } from "../../adapters/chat-completions/tools.js";
import type { ChatMessage, ChatUserMessage, ChatUserPart } from "../../src/models/chat-completions.js";
import type { AssistantMessageItem, CanonicalItem, CreateResponseBody, FunctionToolParam, InputImagePart, ToolChoiceParam } from "../../src/models/open-responses.js";

// ---------------------------------------------------------------- the Chat side: assignable

// The models type an input_audio format as any string (logs are parsed loosely),
// where the SDK knows only "wav" and "mp3". Items never become input_audio parts
// (Open Responses takes no audio input), so the messages emitted are the
// models' messages without that part, and those the SDK accepts.
type EmittedUserMessage = ChatUserMessage & { content: string | Array<Exclude<ChatUserPart, { type: "input_audio" }>> };
type EmittedMessage = Exclude<ChatMessage, ChatUserMessage> | EmittedUserMessage;

/** Never called: its body is what tsc checks. */
export function chatSide(items: CanonicalItem[], body: CreateResponseBody, tools: FunctionToolParam[], toolChoice: ToolChoiceParam) {
  const chatTools: ChatCompletionTool[] = responsesToolsToChat({ tools }).value;
  const chatToolChoice: ChatCompletionToolChoiceOption | undefined = responsesToolChoiceToChat({ toolChoice }).value;
  // @ts-expect-error the models' input_audio.format is a string, the SDK's "wav" | "mp3"
  const modelMessages: ChatCompletionMessageParam[] = itemsToMessages({ items }).value;
  const chatMessages: ChatCompletionMessageParam[] = itemsToMessages({ items }).value as EmittedMessage[];
  const requestMessages: ChatCompletionMessageParam[] = responsesBodyToChatRequest({ body }).value.messages as EmittedMessage[];
  return { chatTools, chatToolChoice, modelMessages, chatMessages, requestMessages };
}

// ---------------------------------------------------------------- the Responses side: the SDK is stricter

/** An image part as the adapters emit it from a Chat image_url without detail: valid for the spec. */
export const specImage = { type: "input_image", image_url: "https://example.com/files/7c21e0-pear.jpg" } satisfies InputImagePart;
// @ts-expect-error the SDK requires input_image.detail; the spec makes it optional and the adapters add none
export const sdkImage: ResponseInputImage = specImage;
export const sdkImageWithDetail: ResponseInputImage = { ...specImage, detail: "auto" };

/** An assistant message item with output_text parts, as the adapters emit it: valid for the spec without id or status. */
export const specAssistant = {
  type: "message",
  role: "assistant",
  content: [{ type: "output_text", text: "The picture shows a pear.", annotations: [] }],
} satisfies AssistantMessageItem;
// @ts-expect-error the SDK takes output_text parts only in a ResponseOutputMessage, which requires id and status
export const sdkAssistant: ResponseInputItem = specAssistant;
export const sdkAssistantWithIdAndStatus: ResponseInputItem = { ...specAssistant, id: "msg_1a639b04", status: "completed" };
