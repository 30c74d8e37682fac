// Zod models of the Chat Completions envelope. Loose objects throughout: real
// logs carry provider fields (`reasoning_content`, `x_groq`, `obfuscation`,
// `content_filter_results`…) that an adapter must see to report or carry them.
import { z } from "zod";

// ---------------------------------------------------------------- content parts

export const chatTextPartSchema = z.looseObject({ type: z.literal("text"), text: z.string() });
export const chatImagePartSchema = z.looseObject({
  type: z.literal("image_url"),
  image_url: z.looseObject({ url: z.string(), detail: z.enum(["auto", "low", "high"]).optional() }),
});
export const chatAudioPartSchema = z.looseObject({
  type: z.literal("input_audio"),
  input_audio: z.looseObject({ data: z.string(), format: z.string() }),
});
export const chatFilePartSchema = z.looseObject({
  type: z.literal("file"),
  file: z.looseObject({
    file_data: z.string().optional(),
    file_id: z.string().optional(),
    filename: z.string().optional(),
  }),
});
export const chatRefusalPartSchema = z.looseObject({ type: z.literal("refusal"), refusal: z.string() });

export const chatUserPartSchema = z.discriminatedUnion("type", [
  chatTextPartSchema,
  chatImagePartSchema,
  chatAudioPartSchema,
  chatFilePartSchema,
]);
export const chatAssistantPartSchema = z.discriminatedUnion("type", [chatTextPartSchema, chatRefusalPartSchema]);

// ---------------------------------------------------------------- tool calls

export const chatFunctionToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal("function"),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});
export const chatCustomToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal("custom"),
  custom: z.looseObject({ name: z.string(), input: z.string() }),
});
export const chatToolCallSchema = z.discriminatedUnion("type", [chatFunctionToolCallSchema, chatCustomToolCallSchema]);
/** The deprecated single call that predates `tool_calls`. */
export const chatLegacyFunctionCallSchema = z.looseObject({ name: z.string(), arguments: z.string() });

export const urlCitationAnnotationSchema = z.looseObject({
  type: z.literal("url_citation"),
  url_citation: z.looseObject({
    url: z.string(),
    title: z.string(),
    start_index: z.int(),
    end_index: z.int(),
  }),
});

// ---------------------------------------------------------------- messages

const participantName = z.string().optional();

export const chatSystemMessageSchema = z.looseObject({
  role: z.literal("system"),
  content: z.union([z.string(), z.array(chatTextPartSchema)]),
  name: participantName,
});
export const chatDeveloperMessageSchema = z.looseObject({
  role: z.literal("developer"),
  content: z.union([z.string(), z.array(chatTextPartSchema)]),
  name: participantName,
});
export const chatUserMessageSchema = z.looseObject({
  role: z.literal("user"),
  content: z.union([z.string(), z.array(chatUserPartSchema)]),
  name: participantName,
});
export const chatAssistantMessageSchema = z.looseObject({
  role: z.literal("assistant"),
  content: z.union([z.string(), z.array(chatAssistantPartSchema)]).nullable().optional(),
  refusal: z.string().nullable().optional(),
  name: participantName,
  tool_calls: z.array(chatToolCallSchema).optional(),
  function_call: chatLegacyFunctionCallSchema.nullable().optional(),
  audio: z.looseObject({ id: z.string() }).nullable().optional(),
  annotations: z.array(urlCitationAnnotationSchema).optional(),
});
export const chatToolMessageSchema = z.looseObject({
  role: z.literal("tool"),
  tool_call_id: z.string(),
  content: z.union([z.string(), z.array(chatTextPartSchema)]),
});
/** The deprecated `function` role: the answer to a legacy `function_call`. */
export const chatFunctionMessageSchema = z.looseObject({
  role: z.literal("function"),
  name: z.string(),
  content: z.string().nullable(),
});
export const chatMessageSchema = z.discriminatedUnion("role", [
  chatSystemMessageSchema,
  chatDeveloperMessageSchema,
  chatUserMessageSchema,
  chatAssistantMessageSchema,
  chatToolMessageSchema,
  chatFunctionMessageSchema,
]);

// ---------------------------------------------------------------- tools, tool_choice, response_format

export const chatFunctionToolSchema = z.looseObject({
  type: z.literal("function"),
  function: z.looseObject({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullable().optional(),
  }),
});
export const chatCustomToolSchema = z.looseObject({
  type: z.literal("custom"),
  custom: z.looseObject({ name: z.string(), description: z.string().optional(), format: z.unknown().optional() }),
});
export const chatToolSchema = z.discriminatedUnion("type", [chatFunctionToolSchema, chatCustomToolSchema]);

const chatNamedTool = z.union([
  z.looseObject({ type: z.literal("function"), function: z.looseObject({ name: z.string() }) }),
  z.looseObject({ type: z.literal("custom"), custom: z.looseObject({ name: z.string() }) }),
]);
export const chatToolChoiceSchema = z.union([
  z.enum(["none", "auto", "required"]),
  chatNamedTool,
  z.looseObject({
    type: z.literal("allowed_tools"),
    allowed_tools: z.looseObject({ mode: z.enum(["auto", "required"]), tools: z.array(chatNamedTool) }),
  }),
]);

export const chatResponseFormatSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({ type: z.literal("json_object") }),
  z.looseObject({
    type: z.literal("json_schema"),
    json_schema: z.looseObject({
      name: z.string(),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);

// ---------------------------------------------------------------- request body

export const chatRequestBodySchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(chatMessageSchema),
  tools: z.array(chatToolSchema).optional(),
  tool_choice: chatToolChoiceSchema.nullable().optional(),
  response_format: chatResponseFormatSchema.nullable().optional(),
  temperature: z.number().nullable().optional(),
  top_p: z.number().nullable().optional(),
  max_completion_tokens: z.int().nullable().optional(),
  max_tokens: z.int().nullable().optional(),
  parallel_tool_calls: z.boolean().optional(),
  store: z.boolean().nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  stream: z.boolean().nullable().optional(),
  n: z.int().nullable().optional(),
  logit_bias: z.record(z.string(), z.number()).nullable().optional(),
  logprobs: z.boolean().nullable().optional(),
  top_logprobs: z.int().nullable().optional(),
  functions: z.array(z.looseObject({ name: z.string() })).optional(),
  function_call: z.unknown().optional(),
});

// ---------------------------------------------------------------- chat.completion

export const chatFinishReasonSchema = z.enum(["stop", "length", "tool_calls", "content_filter", "function_call"]);
export const chatCompletionSchema = z.looseObject({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.int(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.int(),
      message: chatAssistantMessageSchema,
      finish_reason: chatFinishReasonSchema.nullable(),
      logprobs: z.unknown().optional(),
    }),
  ),
  usage: z.looseObject({ prompt_tokens: z.int(), completion_tokens: z.int(), total_tokens: z.int() }).optional(),
});

// ---------------------------------------------------------------- chat.completion.chunk

export const chatToolCallDeltaSchema = z.looseObject({
  index: z.int(),
  id: z.string().optional(),
  type: z.enum(["function", "custom"]).optional(),
  function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }).optional(),
});
export const chatCompletionChunkSchema = z.looseObject({
  id: z.string(),
  object: z.literal("chat.completion.chunk"),
  created: z.int(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.int(),
      delta: z.looseObject({
        role: z.string().optional(),
        content: z.string().nullable().optional(),
        refusal: z.string().nullable().optional(),
        tool_calls: z.array(chatToolCallDeltaSchema).optional(),
        function_call: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }).optional(),
      }),
      finish_reason: chatFinishReasonSchema.nullable().optional(),
      logprobs: z.unknown().optional(),
    }),
  ),
  usage: z.unknown().optional(),
});

// ---------------------------------------------------------------- types

export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type ChatSystemMessage = z.infer<typeof chatSystemMessageSchema>;
export type ChatDeveloperMessage = z.infer<typeof chatDeveloperMessageSchema>;
export type ChatUserMessage = z.infer<typeof chatUserMessageSchema>;
export type ChatAssistantMessage = z.infer<typeof chatAssistantMessageSchema>;
export type ChatToolMessage = z.infer<typeof chatToolMessageSchema>;
export type ChatFunctionMessage = z.infer<typeof chatFunctionMessageSchema>;
export type ChatUserPart = z.infer<typeof chatUserPartSchema>;
export type ChatAssistantPart = z.infer<typeof chatAssistantPartSchema>;
export type ChatTextPart = z.infer<typeof chatTextPartSchema>;
export type ChatToolCall = z.infer<typeof chatToolCallSchema>;
export type ChatFunctionToolCall = z.infer<typeof chatFunctionToolCallSchema>;
export type ChatTool = z.infer<typeof chatToolSchema>;
export type ChatToolChoice = z.infer<typeof chatToolChoiceSchema>;
export type ChatResponseFormat = z.infer<typeof chatResponseFormatSchema>;
export type ChatRequestBody = z.infer<typeof chatRequestBodySchema>;
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;
export type ChatFinishReason = z.infer<typeof chatFinishReasonSchema>;
