// Zod models of the Gemini envelope (`generateContent`, `streamGenerateContent`,
// Gemini API and Vertex AI): contents and parts, request bodies, responses and
// stream chunks. Every object is loose: fields Google adds (`partMetadata`,
// `trafficType`, `createTime`…) survive parsing, and the adapter decides what
// becomes of them. Both spellings are accepted (`functionCall` and
// `function_call`), as clients write either; which one a part holds is for the
// converters to read.
import { z } from "zod";

export const blobSchema = z.looseObject({ mimeType: z.string().optional(), mime_type: z.string().optional(), data: z.string() });
export const fileDataSchema = z.looseObject({ mimeType: z.string().optional(), mime_type: z.string().optional(), fileUri: z.string().optional(), file_uri: z.string().optional() });
export const functionCallSchema = z.looseObject({
  name: z.string().optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  id: z.string().optional(),
  /** Vertex streams a call's args in pieces: each sets the value at a JSON path. */
  partialArgs: z.array(z.looseObject({ jsonPath: z.string(), willContinue: z.boolean().optional() })).optional(),
  willContinue: z.boolean().optional(),
});
export const functionResponseSchema = z.looseObject({
  name: z.string(),
  response: z.record(z.string(), z.unknown()).optional(),
  id: z.string().optional(),
  /** A multimodal result: files beside the response. */
  parts: z.array(z.looseObject({})).optional(),
});

export const partSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  thought_signature: z.string().optional(),
  inlineData: blobSchema.optional(),
  inline_data: blobSchema.optional(),
  fileData: fileDataSchema.optional(),
  file_data: fileDataSchema.optional(),
  functionCall: functionCallSchema.optional(),
  function_call: functionCallSchema.optional(),
  functionResponse: functionResponseSchema.optional(),
  function_response: functionResponseSchema.optional(),
});
export type GeminiPart = z.infer<typeof partSchema>;

export const contentSchema = z.looseObject({ role: z.enum(["user", "model"]).optional(), parts: z.array(partSchema) });
export type GeminiContentRecord = z.infer<typeof contentSchema>;

/** Gemini's OpenAPI subset: upper-case types in older requests, lower-case in newer. */
export const geminiSchemaSchema: z.ZodType = z.lazy(() =>
  z.looseObject({
    type: z.string().optional(),
    nullable: z.boolean().optional(),
    properties: z.record(z.string(), geminiSchemaSchema).optional(),
    items: geminiSchemaSchema.optional(),
    anyOf: z.array(geminiSchemaSchema).optional(),
  }),
);

export const functionDeclarationSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  parameters: geminiSchemaSchema.optional(),
  parametersJsonSchema: z.unknown().optional(),
  parameters_json_schema: z.unknown().optional(),
});
export const toolSchema = z.looseObject({
  functionDeclarations: z.array(functionDeclarationSchema).optional(),
  function_declarations: z.array(functionDeclarationSchema).optional(),
});
const functionCallingConfigSchema = z.looseObject({
  mode: z.string().optional(),
  allowedFunctionNames: z.array(z.string()).optional(),
  allowed_function_names: z.array(z.string()).optional(),
});
export const toolConfigSchema = z.looseObject({ functionCallingConfig: functionCallingConfigSchema.optional(), function_calling_config: functionCallingConfigSchema.optional() });

export const requestBodySchema = z.looseObject({
  contents: z.array(contentSchema),
  systemInstruction: contentSchema.optional(),
  system_instruction: contentSchema.optional(),
  /** An array; older clients sent one object, which the API took. */
  tools: z.union([z.array(toolSchema), toolSchema]).optional(),
  toolConfig: toolConfigSchema.optional(),
  tool_config: toolConfigSchema.optional(),
  generationConfig: z.looseObject({}).optional(),
});
export type GeminiRequestBody = z.infer<typeof requestBodySchema>;

export const candidateSchema = z.looseObject({
  /** `{}` when a safety stop left nothing; absent in some chunks. */
  content: z.looseObject({ role: z.string().optional(), parts: z.array(partSchema).optional() }).optional(),
  finishReason: z.string().optional(),
  index: z.int().optional(),
});
export const usageMetadataSchema = z.looseObject({
  promptTokenCount: z.int().optional(),
  candidatesTokenCount: z.int().optional(),
  thoughtsTokenCount: z.int().optional(),
  cachedContentTokenCount: z.int().optional(),
  totalTokenCount: z.int().optional(),
});
export const responseSchema = z.looseObject({
  candidates: z.array(candidateSchema).optional(),
  promptFeedback: z.looseObject({ blockReason: z.string().optional() }).optional(),
  usageMetadata: usageMetadataSchema.optional(),
  modelVersion: z.string().optional(),
  responseId: z.string().optional(),
  createTime: z.string().optional(),
});
export type GeminiResponse = z.infer<typeof responseSchema>;

/** A streamed chunk is a partial response. */
export const streamChunkSchema = responseSchema;
