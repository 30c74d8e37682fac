// What the corpus check finds that does not hold yet, each case named by what
// is wrong in the project's terms. A case excuses input leaves by their path
// (and value, where that is the point), never a whole recording: a new value
// dropped in the same file still fails the check.
import type { Unaccounted } from "./account-leaves.js";

export type Command = "normalize" | "convert";

interface KnownCase {
  commands: readonly Command[];
  /** The recordings it is seen in, by a part of their corpus path; any when absent. */
  files?: RegExp;
  path: RegExp;
  value?: RegExp;
  why: string;
}

export const KNOWN_CASES: readonly KnownCase[] = [
  {
    commands: ["normalize", "convert"],
    path: /^\/obfuscation$/,
    why:
      "Every streamed Chat chunk and Open Responses event from OpenAI and Azure carries `obfuscation` (padding against length side channels); " +
      "the Chat stream assembler and the Open Responses one drop it with no left_behind entry and no loss, in normalize and convert alike",
  },
  {
    commands: ["normalize", "convert"],
    path: /^\/created$/,
    value: /^0$/,
    why: "Azure's prompt-filter chunk (`choices: []`, `id: \"\"`) says `created: 0`; the Chat stream assembler takes `created` from the next chunk and drops this one unreported",
  },
  {
    commands: ["normalize", "convert"],
    path: /^\/choices\/\d+\/message\/content$/,
    value: /^$/,
    why: "A stored chat.completion whose message has `content: \"\"` beside its tool_calls (DeepSeek) gives items without it and no loss; the way back writes `content: null`",
  },
  {
    commands: ["convert"],
    path: /^(\/response)?\/(background|parallel_tool_calls|temperature|top_p|top_logprobs|truncation|tool_choice|store|service_tier|presence_penalty|frequency_penalty)$/,
    why:
      "A response object converted to a chat.completion loses the settings a completion has no place for without a loss when they hold the neutral value " +
      "(RESPONSE_NEUTRALS: `temperature: 1.0`, `top_p: 1.0`, `store: false`, `truncation: \"disabled\"`…), though the recording said them: " +
      "response-to-completion.ts reports a field only when it differs from the value the way in would synthesize",
  },
  {
    commands: ["normalize", "convert"],
    files: /^providers\/anthropic\//,
    path: /^\/(message\/(id|model|usage\/.*)|usage\/.*|delta\/(stop_reason|stop_sequence|container\/.*))$/,
    why:
      "An Anthropic stream's own fields (message_start's message id, model and usage; message_delta's usage, stop_reason and container) " +
      "are not reported field by field: convert writes one left_behind entry with path \"\" on the stream's second line, normalize none",
  },
  {
    commands: ["normalize", "convert"],
    files: /^providers\/anthropic\//,
    path: /^\/delta\/partial_json$/,
    why:
      "A streamed Anthropic tool input becomes arguments by JSON.stringify of the parsed partial_json: the recorded text " +
      "(`{\"command\": \"echo …\"}`, with its spaces) is not the argument string written, and no loss says so",
  },
  {
    commands: ["normalize"],
    files: /^providers\/anthropic\//,
    path: /^\/response\/stop_reason$/,
    value: /^stop_sequence$/,
    why: "A stored Anthropic message that stopped at a stop sequence: normalize gives its items completed, and neither keeps nor reports stop_reason",
  },
  {
    commands: ["normalize", "convert"],
    files: /^providers\/gemini\//,
    path: /^\/(usageMetadata\/.*|modelVersion|responseId|candidates\/\d+\/(index|finishReason))$/,
    why:
      "A Gemini stream (SSE in pydantic-ai's cassettes) says its usageMetadata, modelVersion, responseId and finishReason on every chunk; " +
      "the values of the chunks before the last are neither kept nor reported (normalize, and convert for the usage counts)",
  },
  {
    commands: ["normalize"],
    files: /^providers\/gemini\//,
    path: /^\/request\/contents\/\d+\/parts\/\d+\/(thought|functionResponse\/response\/.*)$/,
    why: "A Gemini request's thought flag on a replayed part, and a functionResponse's structured response, are not found in the items normalize writes, nor reported",
  },
];

export function excused(command: Command, file: string, leaf: Unaccounted): boolean {
  return KNOWN_CASES.some((known) => known.commands.includes(command) && (known.files?.test(file) ?? true) && known.path.test(leaf.path) && (known.value?.test(leaf.value) ?? true));
}

interface KnownGateCase {
  /** The recordings it is seen in, by a part of their corpus path; any when absent. */
  files?: RegExp;
  /** The tool the call names, when the case is one call's. */
  name?: string;
  /** What the verdict or one of its findings says. */
  detail: RegExp;
  why: string;
}

export const KNOWN_GATE_CASES: readonly KnownGateCase[] = [
  {
    detail: /^the call has no status; only a completed call may run$/,
    why:
      "pydantic-ai's Responses cassette replays its call with the item id (`fc_…`) as call_id and no status: the request is not recognised as " +
      "the conversation so far (its call_id differs from the one the response gave), so the replayed call is a new call without status. " +
      "Blocking it is right, and stays: a call whose status is not said may have been cut, and taking the item id for the call_id to match " +
      "it with the earlier call would be a guess the gate must not make (an item id is never a call_id)",
  },
  {
    files: /^providers\/anthropic\/pydantic-ai-tool-result-error\//,
    name: "stock_lookup",
    detail: /^arguments must have required property 'symbol'$/,
    why:
      "The model called stock_lookup with `{\"ticker\": \"AAPL\"}` where its input_schema requires `symbol` and allows nothing else (the cassette records the " +
      "tool's error answer): the call is invalid as recorded, and blocking it is right",
  },
  {
    files: /^providers\/gemini\/pydantic-ai-vertex-snake-case-tool-errors\//,
    name: "get_file",
    detail: /^arguments must NOT have additional properties$/,
    why:
      "The model called get_file with `{\"type\": \"IMAGE\"}` where its parametersJsonSchema has no property and additionalProperties false: " +
      "the call is invalid as recorded, and blocking it is right",
  },
];

export function gateExcused(file: string, verdict: Record<string, unknown>): boolean {
  const said = [String(verdict.detail), ...((verdict.findings as Array<{ detail: string }> | undefined) ?? []).map((finding) => finding.detail)];
  return KNOWN_GATE_CASES.some(
    (known) => (known.files?.test(file) ?? true) && (known.name === undefined || known.name === verdict.name) && said.some((detail) => known.detail.test(detail)),
  );
}

interface KnownSchemaCase {
  files?: RegExp;
  error: RegExp;
  why: string;
}

export const KNOWN_SCHEMA_CASES: readonly KnownSchemaCase[] = [
  {
    files: /^providers\/(anthropic|gemini)\//,
    error: /^convert line \d+: (\/|\/output\/\d+(\/type)?) must (have required property|be equal to one of the allowed values|match exactly one schema in oneOf)/,
    why:
      "A reassembled Anthropic or Gemini stream converted to Open Responses is a response object without the fields the spec requires " +
      "(created_at, model, tools…), whose output items lack id and status: they are neither written nor reported synthesized",
  },
  {
    files: /^providers\/gemini\//,
    error: /^normalize item \d+: (\/type must|\/ must have required property|\/ must match exactly one schema in oneOf)/,
    why:
      "Gemini chunks kept one per line (Vertex streaming with partialArgs) are not assembled into one response: each chunk is a response of its own, " +
      "whose function_call has no name yet (invalid against ItemParam), with in_progress status",
  },
];

interface KnownRoundTripCase {
  files: RegExp;
  streamed: boolean;
  why: string;
}

/** Recordings whose way back is known not to give their items back: only the way there is diffed. */
export const KNOWN_ROUND_TRIP_CASES: readonly KnownRoundTripCase[] = [
  {
    files: /^providers\/anthropic\//,
    streamed: true,
    why:
      "A reassembled Anthropic stream converts to a response object without `model`, which converts back to an Anthropic message without `model`; " +
      "normalize then reads that message as an Open Responses message item, whole, so its tool_use, thinking and server tool blocks are no items " +
      "(and the gate never sees the call). The streamed tool input is also re-serialized (partial_json to JSON.stringify), so the request " +
      "that replays it is no longer seen as the conversation so far and its messages count twice",
  },
];

export function roundTripExcused(file: string, streamed: boolean): boolean {
  return KNOWN_ROUND_TRIP_CASES.some((known) => known.files.test(file) && known.streamed === streamed);
}

/**
 * Synthesized entries that point into the source, where the value is missing,
 * rather than into the output: call ids made for a provider that writes none.
 */
export const KNOWN_SYNTHESIZED_CASES: ReadonlyArray<{ files: RegExp; detail: RegExp; why: string }> = [
  {
    files: /^providers\/gemini\//,
    detail: /call_id \S+ synthesized from |^a functionResponse without id answers |^a functionCall without args: arguments "\{\}" written/,
    why:
      "Gemini call ids (of a functionCall, and the one a functionResponse is given) and the arguments of a call without args are reported " +
      "synthesized at the functionCall or functionResponse path of the source, where the other synthesized entries name a path of the output",
  },
  {
    files: /^providers\/gemini\//,
    detail: /^(the response object requires \S+ and the Gemini response has none|a Gemini response has no creation time)/,
    why:
      "A reassembled Gemini stream converted to Open Responses reports the response fields it synthesized (created_at 0, completed_at null, " +
      "tools [] and 21 more), but the response object it writes has none of them: only id, object, status and output",
  },
];

export function synthesizedExcused(file: string, detail: string): boolean {
  return KNOWN_SYNTHESIZED_CASES.some((known) => known.files.test(file) && known.detail.test(detail));
}

export function schemaExcused(file: string, error: string): boolean {
  return KNOWN_SCHEMA_CASES.some((known) => (known.files?.test(file) ?? true) && known.error.test(error));
}
