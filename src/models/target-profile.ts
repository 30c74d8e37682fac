// What a replay target accepts, as data: each envelope keeps its profile beside
// its adapter (adapters/<envelope>/profile.ts), the registry lists them
// (adapters/profiles.ts), and whoever runs the gate or a rewrite hands the one it
// needs over. Each rule names the provider's own words where they are known, so
// that a finding can quote the error the provider would answer with.
import { z } from "zod";

/** A rule of the provider, with what it answers when the rule is broken. */
const ruleSchema = z.object({
  /** The rule, as the provider states it. */
  rule: z.string(),
  /** The error text the provider answers with, where it is known. */
  error: z.string().optional(),
  /** Where the rule is written down. */
  source: z.string(),
});

export const targetProfileSchema = z.object({
  /** The target's name, as `--for` takes it. */
  name: z.string(),
  /** The envelope a journal for this target is written in. */
  envelope: z.enum(["responses", "chat", "anthropic", "gemini", "bedrock"]),
  /** The slug of the extension items the target takes back (`anthropic` for `anthropic:server_tool_use`); none: it takes none. */
  slug: z.string().optional(),
  /** Call ids (`call_id`, and the `tool_call_id` / `tool_use_id` that answers it). */
  callIds: ruleSchema
    .extend({
      /** The grammar, an ECMAScript pattern anchored at both ends; none: any non-empty string. */
      pattern: z.string().optional(),
    })
    .optional(),
  /** The names of the functions a call may run (`name`): the grammar, an ECMAScript pattern anchored at both ends. */
  toolNames: ruleSchema.extend({ pattern: z.string() }).optional(),
  /**
   * A tool result that names the function of the call it answers, in `field` of
   * the output item (the field the envelope's writer reads); none: a result
   * names only its call's id.
   */
  toolResultNames: ruleSchema.extend({ field: z.string() }).optional(),
  /** The order of a conversation's turns, past what Chat's turn order asks of Chat targets: each rule, where the target has it. */
  turns: z
    .object({
      /** A system or developer message after the conversation's first message of another role. */
      laterSystem: ruleSchema
        .extend({
          /** Refused only right after the model's turn or a tool result; after a user message it is taken. */
          afterAnswer: z.boolean().optional(),
        })
        .optional(),
      /** A conversation whose first message, past its system prompt, is not the user's. */
      userFirst: ruleSchema.optional(),
      /** A call made before any user message or tool result: the model's turn that makes it follows neither. */
      callAfterUser: ruleSchema.optional(),
    })
    .optional(),
  reasoning: z.object({
    /**
     * The family whose opaque reasoning (a signature, a thoughtSignature,
     * encrypted_content, redacted data) the target takes back; any other
     * family's is refused. None: the target takes no opaque reasoning.
     */
    family: z.string().optional(),
    /** What the target does with reasoning that carries only text. */
    text: z.enum(["read", "refused", "dropped"]),
    /** The Chat message field that carries reasoning text to the target (`reasoning_content`), for a Chat dialect that reads it. */
    chatField: z.string().optional(),
    /** Rule for opaque reasoning of another family. */
    foreign: ruleSchema,
    /** Rule for reasoning the target does not take at all, when it refuses it. */
    refused: ruleSchema.optional(),
    /**
     * Rule for an assistant turn that makes tool calls without the reasoning the
     * model wrote with them, once the conversation shows the model reasons
     * (thinking mode); none: the target does not need it back.
     */
    requiredWithCalls: ruleSchema.optional(),
  }),
  content: z.object({
    /** A text part or message content that is empty. */
    emptyText: ruleSchema.extend({
      accepted: z.boolean(),
      /** Text of white space alone counts as empty too. */
      blank: z.boolean().optional(),
    }),
    /** Images, files, audio and videos in any message; none: a message may hold those the envelope has. */
    media: ruleSchema.extend({ accepted: z.boolean() }).optional(),
    /** The parts of a tool result other than text: images, files, videos. */
    toolResultParts: ruleSchema.extend({
      /** Whether a tool result holds them; if not, it holds text alone and they go in a user message. */
      accepted: z.boolean(),
      /** What the provider answers to a refused part, by its type (`input_image`), where known. */
      errors: z.record(z.string(), z.string()).optional(),
    }),
  }),
});
export type TargetProfile = z.infer<typeof targetProfileSchema>;
export type TargetRule = z.infer<typeof ruleSchema>;
