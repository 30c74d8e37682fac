// Zod models of the Bedrock Converse envelope: request bodies, messages and
// their content blocks, responses and stream events. A content block is an
// object with one member naming its kind (`{text}`, `{toolUse}`…), not a `type`
// field. Every object is loose: fields Bedrock adds (`type` on a toolUse,
// `serverToolUsage`, the stream's `p` padding) survive parsing, and the adapter
// decides what becomes of them.
import { z } from "zod";

const bytesSource = z.looseObject({ bytes: z.string().optional(), s3Location: z.looseObject({ uri: z.string() }).optional() });

export const textBlockSchema = z.looseObject({ text: z.string() });
export const imageBlockSchema = z.looseObject({ image: z.looseObject({ format: z.string(), source: bytesSource }) });
export const documentBlockSchema = z.looseObject({ document: z.looseObject({ format: z.string().optional(), name: z.string(), source: z.looseObject({}) }) });
export const cachePointBlockSchema = z.looseObject({ cachePoint: z.looseObject({ type: z.string() }) });
export const toolUseBlockSchema = z.looseObject({ toolUse: z.looseObject({ toolUseId: z.string(), name: z.string(), input: z.unknown(), type: z.string().optional() }) });
/** What a tool result may hold: text, JSON, images, documents (and video, read as another member). */
export const toolResultPartSchema = z.union([
  textBlockSchema,
  z.looseObject({ json: z.unknown() }),
  imageBlockSchema,
  documentBlockSchema,
  z.looseObject({}),
]);
export const toolResultBlockSchema = z.looseObject({
  toolResult: z.looseObject({ toolUseId: z.string(), content: z.array(toolResultPartSchema), status: z.enum(["success", "error"]).optional(), type: z.string().optional() }),
});
export const reasoningContentBlockSchema = z.looseObject({
  reasoningContent: z.union([
    z.looseObject({ reasoningText: z.looseObject({ text: z.string(), signature: z.string().optional() }) }),
    z.looseObject({ redactedContent: z.string() }),
  ]),
});
/** Any block of a message; a block of a kind not listed here is still read, as an object. */
export const contentBlockSchema = z.union([
  textBlockSchema,
  imageBlockSchema,
  documentBlockSchema,
  cachePointBlockSchema,
  toolUseBlockSchema,
  toolResultBlockSchema,
  reasoningContentBlockSchema,
  z.looseObject({}),
]);

export const systemBlockSchema = z.union([textBlockSchema, cachePointBlockSchema, z.looseObject({})]);
export const messageSchema = z.looseObject({ role: z.enum(["user", "assistant"]), content: z.array(contentBlockSchema) });
/** The conversation as a request holds it: `system` beside `messages`. */
export const conversationSchema = z.looseObject({ system: z.array(systemBlockSchema).optional(), messages: z.array(messageSchema) });

// ---------------------------------------------------------------- tools

export const toolSpecSchema = z.looseObject({ name: z.string(), description: z.string().optional(), inputSchema: z.looseObject({ json: z.unknown() }) });
export const toolSchema = z.union([z.looseObject({ toolSpec: toolSpecSchema }), z.looseObject({ systemTool: z.looseObject({ name: z.string() }) }), cachePointBlockSchema]);
export const toolChoiceSchema = z.union([
  z.looseObject({ auto: z.looseObject({}) }),
  z.looseObject({ any: z.looseObject({}) }),
  z.looseObject({ tool: z.looseObject({ name: z.string() }) }),
]);
export const toolConfigSchema = z.looseObject({ tools: z.array(toolSchema), toolChoice: toolChoiceSchema.optional() });

export const inferenceConfigSchema = z.looseObject({
  maxTokens: z.int().optional(),
  temperature: z.number().optional(),
  topP: z.number().optional(),
  stopSequences: z.array(z.string()).optional(),
});

// ---------------------------------------------------------------- request body

/** The Converse body as sent; the model id is in the request's path, not here. */
export const requestBodySchema = z.looseObject({
  messages: z.array(messageSchema),
  system: z.array(systemBlockSchema).optional(),
  inferenceConfig: inferenceConfigSchema.optional(),
  toolConfig: toolConfigSchema.optional(),
  additionalModelRequestFields: z.looseObject({}).optional(),
});

// ---------------------------------------------------------------- response

export const STOP_REASONS = [
  "end_turn",
  "tool_use",
  "max_tokens",
  "stop_sequence",
  "guardrail_intervened",
  "content_filtered",
  "malformed_model_output",
  "malformed_tool_use",
  "model_context_window_exceeded",
] as const;
export const usageSchema = z.looseObject({ inputTokens: z.int(), outputTokens: z.int(), totalTokens: z.int().optional() });
export const responseSchema = z.looseObject({
  output: z.looseObject({ message: messageSchema }),
  stopReason: z.string(),
  usage: usageSchema,
  metrics: z.looseObject({ latencyMs: z.number() }).optional(),
});

// ---------------------------------------------------------------- stream events

/** `{contentBlockDelta: {…}}`: the event's name is its only member, as in a JSON-lines journal. */
export const STREAM_EVENT_TYPES = ["messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"] as const;
export const blockDeltaSchema = z.union([
  z.looseObject({ text: z.string() }),
  z.looseObject({ toolUse: z.looseObject({ input: z.string() }) }),
  z.looseObject({ reasoningContent: z.looseObject({ text: z.string().optional(), signature: z.string().optional(), redactedContent: z.string().optional() }) }),
  z.looseObject({}),
]);
export const streamEventSchema = z.union([
  z.looseObject({ messageStart: z.looseObject({ role: z.string() }) }),
  z.looseObject({ contentBlockStart: z.looseObject({ contentBlockIndex: z.int(), start: z.looseObject({}) }) }),
  z.looseObject({ contentBlockDelta: z.looseObject({ contentBlockIndex: z.int(), delta: blockDeltaSchema }) }),
  z.looseObject({ contentBlockStop: z.looseObject({ contentBlockIndex: z.int() }) }),
  z.looseObject({ messageStop: z.looseObject({ stopReason: z.string() }) }),
  z.looseObject({ metadata: z.looseObject({ usage: usageSchema.optional() }) }),
]);

// ---------------------------------------------------------------- types

export type BedrockContentBlock = z.infer<typeof contentBlockSchema>;
export type BedrockSystemBlock = z.infer<typeof systemBlockSchema>;
export type BedrockMessage = z.infer<typeof messageSchema>;
export type BedrockConversation = z.infer<typeof conversationSchema>;
export type BedrockTool = z.infer<typeof toolSchema>;
export type BedrockToolChoice = z.infer<typeof toolChoiceSchema>;
export type BedrockToolConfig = z.infer<typeof toolConfigSchema>;
export type BedrockRequestBody = z.infer<typeof requestBodySchema>;
export type BedrockUsage = z.infer<typeof usageSchema>;
export type BedrockResponse = z.infer<typeof responseSchema>;
export type BedrockStreamEvent = z.infer<typeof streamEventSchema>;
