// Zod models of the Anthropic Messages envelope: request bodies, messages and
// their content blocks, responses and stream events. Every object is loose, as
// the Open Responses and Chat models are: fields Anthropic adds (`caller`,
// `stop_details`, `inference_geo`…) survive parsing, and the adapter decides
// what becomes of them. Server tool blocks are matched by the shape of their
// `type` (`server_tool_use`, `*_tool_result`), as new ones keep arriving.
import { z } from "zod";

export const cacheControlSchema = z.looseObject({ type: z.string(), ttl: z.string().optional() });
const cacheControl = cacheControlSchema.nullable().optional();

// ---------------------------------------------------------------- sources and citations

export const base64SourceSchema = z.looseObject({ type: z.literal("base64"), media_type: z.string(), data: z.string() });
export const urlSourceSchema = z.looseObject({ type: z.literal("url"), url: z.string() });
export const fileSourceSchema = z.looseObject({ type: z.literal("file"), file_id: z.string() });
export const plainTextSourceSchema = z.looseObject({ type: z.literal("text"), media_type: z.string(), data: z.string() });
export const contentSourceSchema = z.looseObject({ type: z.literal("content"), content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]) });

/** A citation of a text block: located in a document, a search result or a web page. */
export const citationSchema = z.looseObject({ type: z.string(), cited_text: z.string() });
export const webSearchCitationSchema = z.looseObject({
  type: z.literal("web_search_result_location"),
  cited_text: z.string(),
  encrypted_index: z.string(),
  title: z.string().nullable(),
  url: z.string(),
});

// ---------------------------------------------------------------- content blocks

export const textBlockSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  cache_control: cacheControl,
  citations: z.array(citationSchema).nullable().optional(),
});
export const imageBlockSchema = z.looseObject({
  type: z.literal("image"),
  source: z.discriminatedUnion("type", [base64SourceSchema, urlSourceSchema, fileSourceSchema]),
  cache_control: cacheControl,
});
export const documentBlockSchema = z.looseObject({
  type: z.literal("document"),
  source: z.discriminatedUnion("type", [base64SourceSchema, urlSourceSchema, fileSourceSchema, plainTextSourceSchema, contentSourceSchema]),
  cache_control: cacheControl,
  citations: z.looseObject({ enabled: z.boolean().optional() }).nullable().optional(),
  context: z.string().nullable().optional(),
  title: z.string().nullable().optional(),
});
export const thinkingBlockSchema = z.looseObject({ type: z.literal("thinking"), thinking: z.string(), signature: z.string() });
export const redactedThinkingBlockSchema = z.looseObject({ type: z.literal("redacted_thinking"), data: z.string() });
export const toolUseBlockSchema = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  cache_control: cacheControl,
  caller: z.looseObject({ type: z.string() }).optional(),
});
/** What a tool result may hold besides text: images, documents, search results, tool references. */
export const toolResultPartSchema = z.union([textBlockSchema, imageBlockSchema, documentBlockSchema, z.looseObject({ type: z.string() })]);
export const toolResultBlockSchema = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(toolResultPartSchema)]).optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControl,
});
export const serverToolUseBlockSchema = z.looseObject({ type: z.literal("server_tool_use"), id: z.string(), name: z.string(), input: z.unknown() });
/** `web_search_tool_result`, `code_execution_tool_result`, `bash_code_execution_tool_result`…: the server's own results. */
export const serverToolResultBlockSchema = z.looseObject({
  type: z.string().regex(/^(?!tool_result$)[a-z0-9_]+_tool_result$/),
  tool_use_id: z.string(),
  content: z.unknown(),
});

export const userBlockSchema = z.union([textBlockSchema, imageBlockSchema, documentBlockSchema, toolResultBlockSchema]);
export const assistantBlockSchema = z.union([
  textBlockSchema,
  thinkingBlockSchema,
  redactedThinkingBlockSchema,
  toolUseBlockSchema,
  serverToolUseBlockSchema,
  serverToolResultBlockSchema,
]);
/** Any block of a message; a block of a type not listed here is still read, as an object with a `type`. */
export const contentBlockSchema = z.union([userBlockSchema, assistantBlockSchema, z.looseObject({ type: z.string() })]);

// ---------------------------------------------------------------- messages

export const systemSchema = z.union([z.string(), z.array(textBlockSchema)]);
export const messageParamSchema = z.looseObject({
  role: z.enum(["user", "assistant", "system"]),
  content: z.union([z.string(), z.array(contentBlockSchema)]),
});
/** The conversation as a request holds it: `system` beside `messages`. */
export const conversationSchema = z.looseObject({ system: systemSchema.optional(), messages: z.array(messageParamSchema) });

// ---------------------------------------------------------------- tools

export const customToolSchema = z.looseObject({
  type: z.literal("custom").nullable().optional(),
  name: z.string(),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal("object") }),
  strict: z.boolean().optional(),
  cache_control: cacheControl,
});
/** A tool the server runs (`web_search_20250305`, `code_execution_20260120`, `bash_20250124`…): a dated type and a name. */
export const serverToolSchema = z.looseObject({ type: z.string().regex(/^(?!custom$)[a-z0-9_]+$/), name: z.string() });
export const toolSchema = z.union([customToolSchema, serverToolSchema]);

const parallel = { disable_parallel_tool_use: z.boolean().optional() };
export const toolChoiceSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("auto"), ...parallel }),
  z.looseObject({ type: z.literal("any"), ...parallel }),
  z.looseObject({ type: z.literal("tool"), name: z.string(), ...parallel }),
  z.looseObject({ type: z.literal("none") }),
]);

export const thinkingConfigSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("enabled"), budget_tokens: z.int() }),
  z.looseObject({ type: z.literal("disabled") }),
  z.looseObject({ type: z.literal("adaptive") }),
]);

// ---------------------------------------------------------------- request body

export const requestBodySchema = z.looseObject({
  model: z.string(),
  max_tokens: z.int(),
  messages: z.array(messageParamSchema),
  system: systemSchema.optional(),
  tools: z.array(toolSchema).optional(),
  tool_choice: toolChoiceSchema.optional(),
  thinking: thinkingConfigSchema.optional(),
  stop_sequences: z.array(z.string()).optional(),
  metadata: z.looseObject({ user_id: z.string().nullable().optional() }).optional(),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  top_k: z.int().optional(),
  stream: z.boolean().optional(),
});

// ---------------------------------------------------------------- response

export const STOP_REASONS = ["end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal", "model_context_window_exceeded"] as const;
export const stopReasonSchema = z.enum(STOP_REASONS);

export const usageSchema = z.looseObject({
  input_tokens: z.int().nullable(),
  output_tokens: z.int(),
  cache_creation_input_tokens: z.int().nullable().optional(),
  cache_read_input_tokens: z.int().nullable().optional(),
});
export const messageSchema = z.looseObject({
  id: z.string(),
  type: z.literal("message"),
  role: z.literal("assistant"),
  model: z.string(),
  content: z.array(contentBlockSchema),
  stop_reason: stopReasonSchema.nullable(),
  stop_sequence: z.string().nullable(),
  usage: usageSchema,
});

// ---------------------------------------------------------------- stream events

export const messageStartEventSchema = z.looseObject({ type: z.literal("message_start"), message: messageSchema });
export const contentBlockStartEventSchema = z.looseObject({ type: z.literal("content_block_start"), index: z.int(), content_block: contentBlockSchema });
export const blockDeltaSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text_delta"), text: z.string() }),
  z.looseObject({ type: z.literal("input_json_delta"), partial_json: z.string() }),
  z.looseObject({ type: z.literal("thinking_delta"), thinking: z.string() }),
  z.looseObject({ type: z.literal("signature_delta"), signature: z.string() }),
  z.looseObject({ type: z.literal("citations_delta"), citation: citationSchema }),
]);
export const contentBlockDeltaEventSchema = z.looseObject({ type: z.literal("content_block_delta"), index: z.int(), delta: blockDeltaSchema });
export const contentBlockStopEventSchema = z.looseObject({ type: z.literal("content_block_stop"), index: z.int() });
export const messageDeltaEventSchema = z.looseObject({
  type: z.literal("message_delta"),
  delta: z.looseObject({ stop_reason: stopReasonSchema.nullable().optional(), stop_sequence: z.string().nullable().optional() }),
  usage: z.looseObject({ output_tokens: z.int() }).optional(),
});
export const messageStopEventSchema = z.looseObject({ type: z.literal("message_stop") });
export const pingEventSchema = z.looseObject({ type: z.literal("ping") });
export const errorEventSchema = z.looseObject({ type: z.literal("error"), error: z.looseObject({ type: z.string(), message: z.string() }) });
export const streamEventSchema = z.discriminatedUnion("type", [
  messageStartEventSchema,
  contentBlockStartEventSchema,
  contentBlockDeltaEventSchema,
  contentBlockStopEventSchema,
  messageDeltaEventSchema,
  messageStopEventSchema,
  pingEventSchema,
  errorEventSchema,
]);

// ---------------------------------------------------------------- types

export type CacheControl = z.infer<typeof cacheControlSchema>;
export type TextBlock = z.infer<typeof textBlockSchema>;
export type ImageBlock = z.infer<typeof imageBlockSchema>;
export type DocumentBlock = z.infer<typeof documentBlockSchema>;
export type ThinkingBlock = z.infer<typeof thinkingBlockSchema>;
export type RedactedThinkingBlock = z.infer<typeof redactedThinkingBlockSchema>;
export type ToolUseBlock = z.infer<typeof toolUseBlockSchema>;
export type ToolResultBlock = z.infer<typeof toolResultBlockSchema>;
export type ToolResultPart = z.infer<typeof toolResultPartSchema>;
export type ServerToolUseBlock = z.infer<typeof serverToolUseBlockSchema>;
export type ServerToolResultBlock = z.infer<typeof serverToolResultBlockSchema>;
export type ContentBlock = z.infer<typeof contentBlockSchema>;
export type AnthropicSystem = z.infer<typeof systemSchema>;
export type AnthropicMessage = z.infer<typeof messageParamSchema>;
export type AnthropicConversation = z.infer<typeof conversationSchema>;
export type CustomTool = z.infer<typeof customToolSchema>;
export type ServerTool = z.infer<typeof serverToolSchema>;
export type AnthropicTool = z.infer<typeof toolSchema>;
export type AnthropicToolChoice = z.infer<typeof toolChoiceSchema>;
export type AnthropicRequestBody = z.infer<typeof requestBodySchema>;
export type StopReason = z.infer<typeof stopReasonSchema>;
export type AnthropicUsage = z.infer<typeof usageSchema>;
export type AnthropicResponse = z.infer<typeof messageSchema>;
export type AnthropicStreamEvent = z.infer<typeof streamEventSchema>;
export type BlockDelta = z.infer<typeof blockDeltaSchema>;
