// A Gemini response (`GenerateContentResponse`, or a stream's chunks joined) as
// an Open Responses response object.
//
// | Gemini response                      | response object                                            |
// |--------------------------------------|------------------------------------------------------------|
// | responseId, modelVersion             | id, model; no responseId: `gemini_resp_<16 hex>` of the body, reported |
// |   (response_id, model_version, create_time, usage_metadata: the Python SDK's dumps) | read alike, and kept as `gemini:<key>` as written |
// | createTime (Vertex)                  | created_at in seconds; none: 0, reported                   |
// | candidates[k].content                | output: contentsToItems of its one model content, each item an output item; |
// |                                      |   the first candidate continues the journal's pairing (call-ids.ts), the |
// |                                      |   others, alternatives, fork it                            |
// |   (no item ids)                      |   id: msg_/fc_/rs_ + 48 hex of sha256(response id, output index), |
// |                                      |   reported synthesized at /output/<n>/id                   |
// | several candidates                   | every candidate's items in candidate order, each with `gemini:candidate` k: |
// |                                      |   they are alternatives, not one turn, but a call in any of them is gated; |
// |                                      |   reported once. One candidate: no mark                    |
// | candidates[k] other fields           | `gemini:candidates` [k], without the content that has parts: |
// |   (finishReason, index, safetyRatings, |   what the way back rebuilds each candidate from           |
// |   citationMetadata, groundingMetadata…) |                                                         |
// | finishReason of every candidate      | status, incomplete_details, item status:                   |
// |   STOP                               |   completed, null, completed                               |
// |   MAX_TOKENS                         |   incomplete, {reason: "max_output_tokens"}; the last part incomplete, |
// |                                      |   so a call it cut is blocked                              |
// |   SAFETY, RECITATION, BLOCKLIST,     |   incomplete, {reason: "content_filter"}, the finishReason kept in |
// |   PROHIBITED_CONTENT, SPII, IMAGE_…  |   `gemini:candidates`; every call of that candidate incomplete |
// |   MALFORMED_FUNCTION_CALL, any other |   incomplete, {reason: the finishReason}; every call of that candidate |
// |                                      |   incomplete                                               |
// |   absent (still streaming)           |   in_progress, null, in_progress                           |
// |   finish_reason (snake case)         |   read alike; given in both spellings with two values, the |
// |                                      |   one that ends the calls otherwise, reported              |
// | promptFeedback.blockReason, no       | output [], incomplete, {reason: "content_filter"}; promptFeedback kept |
// |   candidates                         |   as `gemini:promptFeedback`                               |
// | promptFeedback.blockReason (either   | every candidate read as filtered: its calls incomplete, reported (a |
// |   spelling) beside candidates        |   blocked prompt gets none)                                |
// | usageMetadata                        | usage: promptTokenCount -> input_tokens, candidates + thoughts -> |
// |                                      |   output_tokens, cachedContentTokenCount -> cached_tokens, |
// |                                      |   thoughtsTokenCount -> reasoning_tokens; and `gemini:usageMetadata` as written |
// | any other key (sdkHttpResponse…)     | `gemini:<key>`                                             |
import { sha256Hex } from "../sha256-hex.js";
import { completeResponse, RESPONSE_NEUTRALS } from "../../src/models/response-neutrals.js";
import type { Converted, Loss } from "../../src/models/loss.js";
import type { CanonicalItem, ResponseResource } from "../../src/models/open-responses.js";
import { rankSuffix, type IdlessResponses } from "../../src/models/idless-responses.js";
import { CallPairing } from "./call-ids.js";
import { callStatusOf, contentsToItems } from "./contents-to-items.js";
import { digest, isPresent, isRecord, lossAt, PREFIX, read, typeOf, type Fields, type PointerTokens } from "./fields.js";
import { pointer } from "../../src/models/json-pointer.js";
import type { ResponsePathsOption } from "../../src/models/response-paths.js";

export { RESPONSE_NEUTRALS };

/** Where a Gemini response holds what each field of the response object it gives says: a loss at that field points there. */
export const RESPONSE_FIELD_PATHS: Readonly<Record<string, string>> = {
  id: "/responseId",
  model: "/modelVersion",
  created_at: "/createTime",
  output: "/candidates",
  status: "/candidates",
  incomplete_details: "/candidates",
  usage: "/usageMetadata",
};

const ID_PREFIXES: Record<string, string> = { message: "msg", function_call: "fc", reasoning: "rs" };
const MAPPED = ["responseId", "modelVersion", "createTime", "candidates", "usageMetadata"];
const SYNTHESIZED_RESPONSE_ID = /^gemini_resp_[0-9a-f]{16}$/;

export function outputItemId(responseId: unknown, outputIndex: number, type: string): string | undefined {
  const prefix = ID_PREFIXES[type];
  if (prefix === undefined) return undefined;
  return `${prefix}_${sha256Hex(`${String(responseId)}\u0000${outputIndex}`).slice(0, 48)}`;
}

export function isSynthesizedResponseId(id: unknown): boolean {
  return typeof id === "string" && SYNTHESIZED_RESPONSE_ID.test(id);
}

/**
 * The finishReasons that say a filter stopped the candidate: Open Responses and
 * Chat call that `content_filter`, Bedrock `content_filtered`. Which filter
 * stays in the candidate kept beside the response.
 */
const FILTERED = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION"]);

/** The finishReasons Gemini writes, so that the way back never writes another envelope's word as one. */
export const FINISH_REASONS = new Set(["FINISH_REASON_UNSPECIFIED", "STOP", "MAX_TOKENS", "LANGUAGE", "OTHER", "MALFORMED_FUNCTION_CALL", "IMAGE_OTHER", "NO_IMAGE", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS", "MISSING_THOUGHT_SIGNATURE", ...FILTERED]);

/** The status and incomplete reason the finishReasons of a response's candidates give it. */
export function responseStatusOf(finishReasons: readonly unknown[], blockReason?: unknown): { status: "completed" | "incomplete" | "in_progress"; reason: string | null } {
  // A prompt blocked before any candidate was filtered, whatever the blockReason (SAFETY, BLOCKLIST, OTHER…).
  if (finishReasons.length === 0) return blockReason === undefined ? { status: "in_progress", reason: null } : { status: "incomplete", reason: "content_filter" };
  if (finishReasons.some((reason) => reason === undefined || reason === null)) return { status: "in_progress", reason: null };
  const cut = finishReasons.find((reason) => reason !== "STOP");
  if (cut === undefined) return { status: "completed", reason: null };
  return { status: "incomplete", reason: cut === "MAX_TOKENS" ? "max_output_tokens" : FILTERED.has(String(cut)) ? "content_filter" : String(cut) };
}

export function generateContentToResponse(args: { response: unknown; pairing?: CallPairing; responses?: IdlessResponses } & ResponsePathsOption): Converted<ResponseResource> {
  const { response } = args;
  const pairing = args.pairing ?? new CallPairing();
  if (!isRecord(response) || (!Array.isArray(response.candidates) && !isRecord(read(response, "promptFeedback").value) && !isRecord(read(response, "usageMetadata").value))) {
    throw new TypeError("not a Gemini response: it has no candidates, promptFeedback or usageMetadata");
  }
  const losses: Loss[] = [];
  // The Python SDK's dumps spell the response's fields in snake_case (response_id, model_version…):
  // read alike, they are kept as written by the loop below, which the way back restores.
  let id = read(response, "responseId").value;
  if (typeof id !== "string" || id === "") {
    const rank = args.responses?.next();
    id = `gemini_resp_${digest(JSON.stringify(response) + rankSuffix(rank), 16)}`;
    losses.push(lossAt(["id"], "synthesized", `a response without responseId: id ${String(id)} derived from its body${rankSuffix(rank) === "" ? "" : ` and its rank (${rank}) among the journal's responses without one`}`));
  }
  let createdAt = 0;
  const createTime = read(response, "createTime").value;
  const created = typeof createTime === "string" ? Date.parse(createTime) : Number.NaN;
  if (Number.isNaN(created)) losses.push(lossAt(["created_at"], "synthesized", "a Gemini response has no creation time: created_at 0 written"));
  else createdAt = Math.floor(created / 1000);

  const candidates: unknown[] = Array.isArray(response.candidates) ? response.candidates : [];
  const several = candidates.length > 1;
  if (several) losses.push(lossAt(["candidates"], "form_changed", `${candidates.length} candidates are alternatives: the output holds each one's items in turn, marked gemini:candidate, so that a call in any of them is gated`));
  const output: Fields[] = [];
  const kept: Fields[] = [];
  const finishReasons: unknown[] = [];
  const modelVersion = read(response, "modelVersion").value;
  const model = typeof modelVersion === "string" ? modelVersion : undefined;
  const blocked = candidates.length > 0 ? promptBlockReason(response, losses) : undefined;
  candidates.forEach((candidate, k) => {
    if (!isRecord(candidate)) {
      losses.push(lossAt(["candidates", k], "unsupported_item", `a ${typeOf(candidate)} is not a candidate`));
      kept.push({});
      finishReasons.push(undefined);
      return;
    }
    const own = finishReasonOf(candidate, k, losses);
    const finishReason = blocked === undefined ? own : BLOCKED_PROMPT;
    finishReasons.push(finishReason ?? undefined);
    const content = candidate.content;
    const meta: Fields = {};
    for (const key of Object.keys(candidate)) if (key !== "content") meta[key] = candidate[key];
    const hasParts = isRecord(content) && Array.isArray(content.parts) && content.parts.length > 0;
    if (!hasParts) {
      if (content !== undefined) meta.content = content;
      kept.push(meta);
      return;
    }
    kept.push(meta);
    const origins: PointerTokens[] = [];
    const converted = contentsToItems({
      contents: [content],
      model,
      finishReason,
      pairing: k === 0 ? pairing : pairing.fork(`candidate ${k}`),
      ...(args.sourcePaths ? { origins } : { itemsAt: { path: "/output", offset: output.length } }),
    });
    const inCandidate = (path: string) => path.replace(/^\/contents\/0(?=\/|$)/, `/candidates/${k}/content`);
    losses.push(...converted.losses.map((loss) => ({ ...loss, path: inCandidate(loss.path) })));
    converted.value.forEach((item, index) => {
      const out = outputItem(item, output.length, id, finishReason, index === converted.value.length - 1);
      if (several) out[`${PREFIX}candidate`] = k;
      if (out.id !== (item as Fields).id) {
        const detail = `a Gemini part has no item id: ${String(out.id)} derived from the response id and the item's place`;
        const from = origins[index];
        if (!args.sourcePaths) losses.push(lossAt(["output", output.length, "id"], "synthesized", detail));
        else losses.push({ path: from ? inCandidate(pointer(...from)) : `/candidates/${k}/content`, code: "synthesized", detail: `${detail} (item ${output.length} of the response)` });
      }
      output.push(out);
    });
  });
  const feedback = read(response, "promptFeedback").value;
  const blockReason = isRecord(feedback) && isPresent(read(feedback, "blockReason").value) ? read(feedback, "blockReason").value : undefined;
  const { status, reason } = responseStatusOf(finishReasons, blockReason);

  const completed = completeResponse(
    {
      id,
      object: "response",
      created_at: createdAt,
      status,
      incomplete_details: reason === null ? null : { reason },
      model: model ?? "",
      output,
      usage: responseUsage(read(response, "usageMetadata").value, losses),
    },
    "Gemini response",
  );
  losses.push(...completed.losses);
  const value: Fields = completed.value;
  if (model === undefined) losses.push(lossAt(["model"], "synthesized", "a response without modelVersion: model \"\" written"));
  if (Array.isArray(response.candidates)) value[`${PREFIX}candidates`] = kept;
  for (const key of Object.keys(response)) {
    if ((!MAPPED.includes(key) || key === "createTime") && response[key] !== undefined) value[PREFIX + key] = response[key];
  }
  if (response.usageMetadata !== undefined) value[`${PREFIX}usageMetadata`] = response.usageMetadata;
  return { value: value as ResponseResource, losses };
}

/** The reason a candidate of a response whose prompt is said to be blocked is read as finishing by: a filter's, which completes no call. */
const BLOCKED_PROMPT = "content_filter";

/**
 * The blockReason of a response that says its prompt was blocked, in either
 * spelling (null says none). A blocked prompt gets no candidate (the API's
 * contract): a response that says so and still holds some says two things of
 * them, and is read the way that blocks, as filtered, so that no call passes.
 */
function promptBlockReason(response: Fields, losses: Loss[]): unknown {
  for (const feedbackKey of ["promptFeedback", "prompt_feedback"]) {
    const feedback = response[feedbackKey];
    for (const reasonKey of ["blockReason", "block_reason"]) {
      const reason = isRecord(feedback) ? feedback[reasonKey] : undefined;
      if (reason === undefined || reason === null) continue;
      losses.push(lossAt([feedbackKey, reasonKey], "form_changed", `the prompt is said to be blocked (${JSON.stringify(reason)}), which gets no candidate, yet the response holds candidates: they are read as filtered, and their calls are incomplete`));
      return reason;
    }
  }
  return undefined;
}

/**
 * A candidate's finishReason, in either spelling (the Python SDK's dumps write
 * `finish_reason`). Written both ways with two values, each reader sees its own:
 * the one that ends the calls otherwise than STOP is taken (none, when one says
 * none: the candidate may still be streaming), so that no call passes on the
 * other's word.
 */
/**
 * The finishReasons of the enum's numbers that the Gemini API and Vertex AI
 * share: a Google client that asks for enums as numbers (Go's, with
 * `$alt=json;enum-encoding=int`) is answered `"finishReason": 1`. From 6 on the
 * two APIs number their reasons apart.
 */
const FINISH_REASON_NUMBERS: readonly string[] = ["FINISH_REASON_UNSPECIFIED", "STOP", "MAX_TOKENS", "SAFETY", "RECITATION", "OTHER"];

/**
 * A finishReason as its name: a string as it is, an enum number as the name
 * both APIs give it, another whole number as a reason no name is known for
 * (it still says the candidate finished, not how); anything else says nothing.
 */
export function finishReasonName(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) return null;
  return FINISH_REASON_NUMBERS[value] ?? `finishReason ${value}`;
}

function finishReasonOf(candidate: Fields, k: number, losses: Loss[]): string | null {
  const camel = finishReasonName(candidate.finishReason);
  const snake = finishReasonName(candidate.finish_reason);
  if (candidate.finishReason === undefined || candidate.finish_reason === undefined || camel === snake) return camel ?? snake;
  const taken = camel === null || snake === null ? null : camel === "STOP" ? snake : camel;
  losses.push(lossAt(["candidates", k, "finish_reason"], "form_changed", `finishReason ${JSON.stringify(candidate.finishReason)} is given again as finish_reason ${JSON.stringify(candidate.finish_reason)}: a reader of either spelling sees its own, so the candidate is read as ${taken === null ? "not finished" : `finished by ${taken}`}, and its calls with it`));
  return taken;
}

function outputItem(item: CanonicalItem, index: number, responseId: unknown, finishReason: string | null, isLast: boolean): Fields {
  const fields = item as Fields;
  const id = outputItemId(responseId, index, String(fields.type));
  if (id === undefined) return { ...fields };
  const { type, ...rest } = fields;
  // A message gets the status its finishReason gives; a call has its own already, and reasoning has none.
  return type === "message" ? { id, type, status: callStatusOf(finishReason, isLast), ...rest } : { id, type, ...rest };
}

function responseUsage(usage: unknown, losses: Loss[]): Fields | null | undefined {
  if (usage === undefined) return undefined;
  if (usage === null) return null;
  if (!isRecord(usage)) {
    losses.push(lossAt(["usageMetadata"], "form_changed", `usageMetadata is ${typeOf(usage)}: usage null written`));
    return null;
  }
  const count = (key: string) => {
    const value = read(usage, key).value;
    return typeof value === "number" ? value : 0;
  };
  const total = read(usage, "totalTokenCount").value;
  const input = count("promptTokenCount") + count("toolUsePromptTokenCount");
  const output = count("candidatesTokenCount") + count("thoughtsTokenCount");
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: typeof total === "number" ? total : input + output,
    input_tokens_details: { cached_tokens: count("cachedContentTokenCount") },
    output_tokens_details: { reasoning_tokens: count("thoughtsTokenCount") },
  };
}
