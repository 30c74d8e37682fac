// Zod models of the Open Responses envelope (OpenAPI document version 2026-04-24).
// Every object is loose: fields a provider added survive parsing, so an adapter,
// not the model, decides what happens to them. Limits (maxLength, patterns) follow
// the official component schemas; test/models checks the two agree item by item.
import { z } from "zod";

const MAX_TEXT = 10_485_760;
const MAX_IMAGE_URL = 20_971_520;
const MAX_FILE_DATA = 33_554_432;

const nullableString = z.string().nullable().optional();
const text = z.string().max(MAX_TEXT);
/** Function names: the spec's `^[a-zA-Z0-9_-]+$`, 1 to 64 characters. */
export const functionNameSchema = z.string().min(1).max(64).regex(/^[a-zA-Z0-9_-]+$/);
export const callIdSchema = z.string().min(1).max(64);

export const itemStatusSchema = z.enum(["in_progress", "completed", "incomplete"]);
export const imageDetailSchema = z.enum(["low", "high", "auto"]);
export const messagePhaseSchema = z.enum(["commentary", "final_answer"]);

// ---------------------------------------------------------------- input content parts

export const inputTextPartSchema = z.looseObject({ type: z.literal("input_text"), text });
export const inputImagePartSchema = z.looseObject({
  type: z.literal("input_image"),
  image_url: z.string().max(MAX_IMAGE_URL).nullable().optional(),
  detail: imageDetailSchema.nullable().optional(),
});
export const inputFilePartSchema = z.looseObject({
  type: z.literal("input_file"),
  filename: nullableString,
  file_data: z.string().max(MAX_FILE_DATA).nullable().optional(),
  file_url: nullableString,
});
export const inputVideoPartSchema = z.looseObject({ type: z.literal("input_video"), video_url: z.string() });
export const urlCitationParamSchema = z.looseObject({
  type: z.literal("url_citation"),
  start_index: z.int().min(0),
  end_index: z.int().min(0),
  url: z.string(),
  title: z.string(),
});
export const outputTextPartParamSchema = z.looseObject({
  type: z.literal("output_text"),
  text,
  annotations: z.array(urlCitationParamSchema).optional(),
});
export const refusalPartParamSchema = z.looseObject({ type: z.literal("refusal"), refusal: text });
export const summaryTextParamSchema = z.looseObject({ type: z.literal("summary_text"), text });

export const userContentPartSchema = z.discriminatedUnion("type", [
  inputTextPartSchema,
  inputImagePartSchema,
  inputFilePartSchema,
]);
export const assistantContentPartParamSchema = z.discriminatedUnion("type", [
  outputTextPartParamSchema,
  refusalPartParamSchema,
]);
export const functionCallOutputPartSchema = z.discriminatedUnion("type", [
  inputTextPartSchema,
  inputImagePartSchema,
  inputFilePartSchema,
  inputVideoPartSchema,
]);

// ---------------------------------------------------------------- input items (ItemParam)

const itemId = z.string().nullable().optional();
const messageStatus = z.string().nullable().optional();

export const itemReferenceSchema = z.looseObject({
  type: z.literal("item_reference").nullable().optional(),
  id: z.string(),
});
export const reasoningItemSchema = z.looseObject({
  type: z.literal("reasoning"),
  id: itemId,
  summary: z.array(summaryTextParamSchema),
  content: z.null().optional(),
  encrypted_content: nullableString,
});
export const compactionItemSchema = z.looseObject({
  type: z.literal("compaction"),
  id: itemId,
  encrypted_content: text,
});
export const userMessageItemSchema = z.looseObject({
  type: z.literal("message"),
  role: z.literal("user"),
  id: itemId,
  content: z.union([z.array(userContentPartSchema), text]),
  status: messageStatus,
});
export const systemMessageItemSchema = z.looseObject({
  type: z.literal("message"),
  role: z.literal("system"),
  id: itemId,
  content: z.union([z.array(inputTextPartSchema), text]),
  status: messageStatus,
});
export const developerMessageItemSchema = z.looseObject({
  type: z.literal("message"),
  role: z.literal("developer"),
  id: itemId,
  content: z.union([z.array(inputTextPartSchema), text]),
  status: messageStatus,
});
export const assistantMessageItemSchema = z.looseObject({
  type: z.literal("message"),
  role: z.literal("assistant"),
  id: itemId,
  content: z.union([z.array(assistantContentPartParamSchema), text]),
  phase: messagePhaseSchema.optional(),
  status: messageStatus,
});
export const messageItemSchema = z.discriminatedUnion("role", [
  userMessageItemSchema,
  systemMessageItemSchema,
  developerMessageItemSchema,
  assistantMessageItemSchema,
]);
export const functionCallItemSchema = z.looseObject({
  type: z.literal("function_call"),
  id: itemId,
  call_id: callIdSchema,
  name: functionNameSchema,
  arguments: z.string(),
  status: itemStatusSchema.nullable().optional(),
});
export const functionCallOutputItemSchema = z.looseObject({
  type: z.literal("function_call_output"),
  id: itemId,
  call_id: callIdSchema,
  output: z.union([text, z.array(functionCallOutputPartSchema)]),
  status: itemStatusSchema.nullable().optional(),
});

/**
 * One input item. `item_reference` may omit its `type`, so it cannot sit in a
 * discriminated union; it is tried last, once every typed member has failed.
 */
export const itemParamSchema = z.union([
  z.discriminatedUnion("type", [
    reasoningItemSchema,
    compactionItemSchema,
    messageItemSchema,
    functionCallItemSchema,
    functionCallOutputItemSchema,
  ]),
  itemReferenceSchema,
]);

/** An item whose `type` carries a provider slug (`openai:web_search_call`): opaque, every field kept. */
export const extensionItemSchema = z.looseObject({ type: z.string().regex(/^[^:]+:.+$/) });

/** The canonical form: a portable input item, or an extension item carried as it is. */
export const canonicalItemSchema = z.union([itemParamSchema, extensionItemSchema]);

// ---------------------------------------------------------------- output content parts and items (ItemField)

export const logProbSchema = z.looseObject({
  token: z.string(),
  logprob: z.number(),
  bytes: z.array(z.int()),
  top_logprobs: z.array(z.looseObject({ token: z.string(), logprob: z.number(), bytes: z.array(z.int()) })),
});
export const urlCitationSchema = z.looseObject({
  type: z.literal("url_citation"),
  url: z.string(),
  start_index: z.int(),
  end_index: z.int(),
  title: z.string(),
});
export const outputTextPartSchema = z.looseObject({
  type: z.literal("output_text"),
  text: z.string(),
  annotations: z.array(urlCitationSchema),
  logprobs: z.array(logProbSchema).optional(),
});
const plainTextPart = <T extends string>(type: T) => z.looseObject({ type: z.literal(type), text: z.string() });
export const textPartSchema = plainTextPart("text");
export const summaryTextPartSchema = plainTextPart("summary_text");
export const reasoningTextPartSchema = plainTextPart("reasoning_text");
export const refusalPartSchema = z.looseObject({ type: z.literal("refusal"), refusal: z.string() });
export const outputInputTextPartSchema = plainTextPart("input_text");
export const outputInputImagePartSchema = z.looseObject({
  type: z.literal("input_image"),
  image_url: z.string().nullable(),
  detail: imageDetailSchema,
});
export const outputInputFilePartSchema = z.looseObject({
  type: z.literal("input_file"),
  filename: z.string().optional(),
  file_url: z.string().optional(),
});

const reasoningPartSchema = z.discriminatedUnion("type", [
  outputInputTextPartSchema,
  outputTextPartSchema,
  textPartSchema,
  summaryTextPartSchema,
  reasoningTextPartSchema,
  refusalPartSchema,
  outputInputImagePartSchema,
  outputInputFilePartSchema,
]);
export const contentPartSchema = z.discriminatedUnion("type", [
  outputInputTextPartSchema,
  outputTextPartSchema,
  textPartSchema,
  summaryTextPartSchema,
  reasoningTextPartSchema,
  refusalPartSchema,
  outputInputImagePartSchema,
  outputInputFilePartSchema,
  inputVideoPartSchema,
]);

export const messageSchema = z.looseObject({
  type: z.literal("message"),
  id: z.string(),
  status: itemStatusSchema,
  role: z.enum(["user", "assistant", "system", "developer"]),
  content: z.array(contentPartSchema),
  phase: messagePhaseSchema.optional(),
});
export const functionCallSchema = z.looseObject({
  type: z.literal("function_call"),
  id: z.string(),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  status: itemStatusSchema,
});
export const functionCallOutputSchema = z.looseObject({
  type: z.literal("function_call_output"),
  id: z.string(),
  call_id: z.string(),
  output: z.union([
    z.string(),
    z.array(z.discriminatedUnion("type", [outputInputTextPartSchema, outputInputImagePartSchema, outputInputFilePartSchema])),
  ]),
  status: itemStatusSchema,
});
export const reasoningSchema = z.looseObject({
  type: z.literal("reasoning"),
  id: z.string(),
  content: z.array(reasoningPartSchema).optional(),
  summary: z.array(reasoningPartSchema),
  encrypted_content: z.string().optional(),
});
export const compactionSchema = z.looseObject({
  type: z.literal("compaction"),
  id: z.string(),
  encrypted_content: z.string(),
  created_by: z.string().optional(),
});
/** One output item of a response (`ItemField`). */
export const itemFieldSchema = z.discriminatedUnion("type", [
  messageSchema,
  functionCallSchema,
  functionCallOutputSchema,
  reasoningSchema,
  compactionSchema,
]);

// ---------------------------------------------------------------- tools and tool choice

export const functionToolParamSchema = z.looseObject({
  type: z.literal("function"),
  name: functionNameSchema,
  description: z.string().nullable().optional(),
  parameters: z.record(z.string(), z.unknown()).nullable().optional(),
  strict: z.boolean().optional(),
});
export const toolChoiceModeSchema = z.enum(["none", "auto", "required"]);
export const specificFunctionChoiceSchema = z.looseObject({ type: z.literal("function"), name: z.string() });
export const allowedToolsChoiceSchema = z.looseObject({
  type: z.literal("allowed_tools"),
  tools: z.array(specificFunctionChoiceSchema).min(1).max(128),
  mode: toolChoiceModeSchema.optional(),
});
export const toolChoiceParamSchema = z.union([toolChoiceModeSchema, specificFunctionChoiceSchema, allowedToolsChoiceSchema]);

export const functionToolSchema = z.looseObject({
  type: z.literal("function"),
  name: z.string(),
  description: z.string().nullable(),
  parameters: z.record(z.string(), z.unknown()).nullable(),
  strict: z.boolean().nullable(),
});

// ---------------------------------------------------------------- text format

export const textFormatParamSchema = z.union([
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({
    type: z.literal("json_schema").optional(),
    name: z.string().optional(),
    description: z.string().optional(),
    schema: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullable().optional(),
  }),
]);
export const verbositySchema = z.enum(["low", "medium", "high"]);
export const textParamSchema = z.looseObject({
  format: textFormatParamSchema.nullable().optional(),
  verbosity: verbositySchema.optional(),
});
export const textFieldSchema = z.looseObject({
  format: z.union([
    z.looseObject({ type: z.literal("text") }),
    z.looseObject({ type: z.literal("json_object") }),
    z.looseObject({
      type: z.literal("json_schema"),
      name: z.string(),
      description: z.string().nullable(),
      schema: z.null(),
      strict: z.boolean(),
    }),
  ]),
  verbosity: verbositySchema.optional(),
});

// ---------------------------------------------------------------- request body

const reasoningEffortSchema = z.enum(["none", "low", "medium", "high", "xhigh"]);
const reasoningSummarySchema = z.enum(["concise", "detailed", "auto"]);
export const reasoningParamSchema = z.looseObject({
  effort: reasoningEffortSchema.nullable().optional(),
  summary: reasoningSummarySchema.nullable().optional(),
});
export const metadataSchema = z.record(z.string(), z.string().max(512)).refine((m) => Object.keys(m).length <= 16, {
  message: "metadata holds at most 16 keys",
});
const nullableNumber = z.number().nullable().optional();

export const createResponseBodySchema = z.looseObject({
  model: nullableString,
  input: z.union([text, z.array(itemParamSchema)]).nullable().optional(),
  previous_response_id: nullableString,
  include: z.array(z.enum(["reasoning.encrypted_content", "message.output_text.logprobs"])).optional(),
  tools: z.array(functionToolParamSchema).nullable().optional(),
  tool_choice: toolChoiceParamSchema.nullable().optional(),
  metadata: metadataSchema.nullable().optional(),
  text: textParamSchema.nullable().optional(),
  temperature: nullableNumber,
  top_p: nullableNumber,
  presence_penalty: nullableNumber,
  frequency_penalty: nullableNumber,
  parallel_tool_calls: z.boolean().nullable().optional(),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_obfuscation: z.boolean().optional() }).nullable().optional(),
  background: z.boolean().optional(),
  max_output_tokens: z.int().min(16).nullable().optional(),
  max_tool_calls: z.int().min(1).nullable().optional(),
  reasoning: reasoningParamSchema.nullable().optional(),
  safety_identifier: z.string().max(64).nullable().optional(),
  prompt_cache_key: z.string().max(64).nullable().optional(),
  truncation: z.enum(["auto", "disabled"]).optional(),
  instructions: nullableString,
  store: z.boolean().optional(),
  service_tier: z.enum(["auto", "default", "flex", "priority"]).optional(),
  top_logprobs: z.int().min(0).max(20).nullable().optional(),
});

// ---------------------------------------------------------------- response object

export const usageSchema = z.looseObject({
  input_tokens: z.int(),
  output_tokens: z.int(),
  total_tokens: z.int(),
  input_tokens_details: z.looseObject({ cached_tokens: z.int() }),
  output_tokens_details: z.looseObject({ reasoning_tokens: z.int() }),
});

export const responseResourceSchema = z.looseObject({
  id: z.string(),
  object: z.literal("response"),
  created_at: z.int(),
  completed_at: z.int().nullable(),
  status: z.string(),
  incomplete_details: z.looseObject({ reason: z.string() }).nullable(),
  model: z.string(),
  previous_response_id: z.string().nullable(),
  instructions: z.string().nullable(),
  output: z.array(itemFieldSchema),
  error: z.looseObject({ code: z.string(), message: z.string() }).nullable(),
  tools: z.array(functionToolSchema),
  tool_choice: z.union([
    toolChoiceModeSchema,
    z.looseObject({ type: z.literal("function"), name: z.string().optional() }),
    z.looseObject({
      type: z.literal("allowed_tools"),
      tools: z.array(z.looseObject({ type: z.literal("function"), name: z.string().optional() })),
      mode: toolChoiceModeSchema,
    }),
  ]),
  truncation: z.enum(["auto", "disabled"]),
  parallel_tool_calls: z.boolean(),
  text: textFieldSchema,
  top_p: z.number(),
  presence_penalty: z.number(),
  frequency_penalty: z.number(),
  top_logprobs: z.int(),
  temperature: z.number(),
  reasoning: z.looseObject({ effort: reasoningEffortSchema.nullable(), summary: reasoningSummarySchema.nullable() }).nullable(),
  usage: usageSchema.nullable(),
  max_output_tokens: z.int().nullable(),
  max_tool_calls: z.int().nullable(),
  store: z.boolean(),
  background: z.boolean(),
  service_tier: z.string(),
  metadata: z.unknown(),
  safety_identifier: z.string().nullable(),
  prompt_cache_key: z.string().nullable(),
});

// ---------------------------------------------------------------- streaming events a journal can hold

const eventBase = { sequence_number: z.int() };
const responseEvent = <T extends string>(type: T) =>
  z.looseObject({ type: z.literal(type), ...eventBase, response: responseResourceSchema });
const outputItemEvent = <T extends string>(type: T) =>
  z.looseObject({ type: z.literal(type), ...eventBase, output_index: z.int(), item: itemFieldSchema.nullable() });

export const responseCreatedEventSchema = responseEvent("response.created");
export const responseCompletedEventSchema = responseEvent("response.completed");
export const responseIncompleteEventSchema = responseEvent("response.incomplete");
export const responseFailedEventSchema = responseEvent("response.failed");
export const outputItemAddedEventSchema = outputItemEvent("response.output_item.added");
export const outputItemDoneEventSchema = outputItemEvent("response.output_item.done");
export const functionCallArgumentsDeltaEventSchema = z.looseObject({
  type: z.literal("response.function_call_arguments.delta"),
  ...eventBase,
  item_id: z.string(),
  output_index: z.int(),
  delta: z.string(),
  obfuscation: z.string().optional(),
});
export const functionCallArgumentsDoneEventSchema = z.looseObject({
  type: z.literal("response.function_call_arguments.done"),
  ...eventBase,
  item_id: z.string(),
  output_index: z.int(),
  arguments: z.string(),
});
export const outputTextDeltaEventSchema = z.looseObject({
  type: z.literal("response.output_text.delta"),
  ...eventBase,
  item_id: z.string(),
  output_index: z.int(),
  content_index: z.int(),
  delta: z.string(),
  logprobs: z.array(logProbSchema).optional(),
  obfuscation: z.string().optional(),
});
export const outputTextDoneEventSchema = z.looseObject({
  type: z.literal("response.output_text.done"),
  ...eventBase,
  item_id: z.string(),
  output_index: z.int(),
  content_index: z.int(),
  text: z.string(),
  logprobs: z.array(logProbSchema).optional(),
});
export const streamingEventSchema = z.discriminatedUnion("type", [
  responseCreatedEventSchema,
  responseCompletedEventSchema,
  responseIncompleteEventSchema,
  responseFailedEventSchema,
  outputItemAddedEventSchema,
  outputItemDoneEventSchema,
  functionCallArgumentsDeltaEventSchema,
  functionCallArgumentsDoneEventSchema,
  outputTextDeltaEventSchema,
  outputTextDoneEventSchema,
]);

// ---------------------------------------------------------------- types

export type ItemParam = z.infer<typeof itemParamSchema>;
export type ExtensionItem = z.infer<typeof extensionItemSchema>;
export type CanonicalItem = z.infer<typeof canonicalItemSchema>;
export type ItemReference = z.infer<typeof itemReferenceSchema>;
export type ReasoningItem = z.infer<typeof reasoningItemSchema>;
export type CompactionItem = z.infer<typeof compactionItemSchema>;
export type MessageItem = z.infer<typeof messageItemSchema>;
export type UserMessageItem = z.infer<typeof userMessageItemSchema>;
export type SystemMessageItem = z.infer<typeof systemMessageItemSchema>;
export type DeveloperMessageItem = z.infer<typeof developerMessageItemSchema>;
export type AssistantMessageItem = z.infer<typeof assistantMessageItemSchema>;
export type FunctionCallItem = z.infer<typeof functionCallItemSchema>;
export type FunctionCallOutputItem = z.infer<typeof functionCallOutputItemSchema>;
export type FunctionCallOutputPart = z.infer<typeof functionCallOutputPartSchema>;
export type UserContentPart = z.infer<typeof userContentPartSchema>;
export type AssistantContentPartParam = z.infer<typeof assistantContentPartParamSchema>;
export type InputTextPart = z.infer<typeof inputTextPartSchema>;
export type InputImagePart = z.infer<typeof inputImagePartSchema>;
export type InputFilePart = z.infer<typeof inputFilePartSchema>;
export type OutputTextPartParam = z.infer<typeof outputTextPartParamSchema>;
export type UrlCitationParam = z.infer<typeof urlCitationParamSchema>;
export type ItemField = z.infer<typeof itemFieldSchema>;
export type FunctionToolParam = z.infer<typeof functionToolParamSchema>;
export type ToolChoiceParam = z.infer<typeof toolChoiceParamSchema>;
export type TextParam = z.infer<typeof textParamSchema>;
export type CreateResponseBody = z.infer<typeof createResponseBodySchema>;
export type ResponseResource = z.infer<typeof responseResourceSchema>;
export type StreamingEvent = z.infer<typeof streamingEventSchema>;
export type ItemStatus = z.infer<typeof itemStatusSchema>;
