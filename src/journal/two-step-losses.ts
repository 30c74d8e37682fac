// The losses of a whole record converted through its Open Responses form
// (Anthropic -> Chat, Chat -> Bedrock…), as paths into the record the user
// wrote. The first step's losses already point into that record; the second
// step's point into the Open Responses form, which the user never saw.
//
// | second step's loss at                  | reported at                                        |
// |----------------------------------------|----------------------------------------------------|
// | a value the first step synthesized     | not reported: the source never held it             |
// |   (or a field inside it)               |                                                    |
// | a value the second step synthesized    | as it is: a path into the record written           |
// | /output/<n>/id, /output/<n>/status,    | not reported: no envelope but Open Responses has   |
// |   source other than Open Responses     |   item ids or item statuses, the first step made them |
// | /<slug>:<key>… (the source's own slug) | /<key>…: the field the first step kept as it was   |
// | a response field the source names      | the source's field (`created_at` -> `/created`,    |
// |   otherwise (responseFields)           |   `/output/3/…` -> `/content`)                     |
// | any other path                         | "" (the record): the detail names the field        |
// | a source field already reported by the | not reported again (`createTime`: both the seconds |
// |   second step with the same code       |   of created_at and `gemini:createTime` as written) |
//
// | first step's `synthesized` value       | reported                                           |
// |----------------------------------------|----------------------------------------------------|
// | target Open Responses                  | as it is: the value is in the output, at that path |
// | a neutral setting (`tools`, `top_p`…)  | not reported: only a response object holds them,   |
// |   or an item id, another target        |   and the target writes none of them               |
// | another field                          | at the target's field for it, when the record      |
// |                                        |   written holds that field; else not reported      |
// | a value of an item, reported where the | at the target's field for the output, when the     |
// |   item stands in the source            |   record written holds it (a Chat call's call_id)  |
// | a field the second step synthesized    | not reported: the second step's loss says what the |
// |   again, at the same path              |   record written holds there (Anthropic's zero     |
// |                                        |   usage, not the first step's null)                |
// | a call's arguments, the JSON text of   | not reported where the target holds arguments as   |
// |   an input object (Anthropic)          |   an object too: it parses the text back into the  |
// |                                        |   same object, and the second step's losses at the |
// |                                        |   arguments say what else changed                  |
import { pointerToken } from "../models/json-pointer.js";
import type { Loss } from "../models/loss.js";
import { RESPONSE_NEUTRALS } from "../models/response-neutrals.js";
import { holdsPointer, parsePointer, resolvePointer } from "./json-pointer.js";

/**
 * A loss as a place in `record`: its path when the record holds it, else the
 * record as a whole, the detail naming the field of the Open Responses form it
 * stood for (a field the source keeps elsewhere, or not at all, such as the
 * `candidates` of a Gemini response whose prompt was blocked).
 */
export function heldIn(record: unknown, loss: Loss): Loss {
  if (loss.path === "" || resolvePointer(record, parsePointer(loss.path)).found) return loss;
  return { ...loss, path: "", detail: `${loss.detail} (${loss.path} of the Open Responses form)` };
}

/** What an envelope calls the fields of an Open Responses response object: a JSON Pointer into its own response, per top-level field. */
export type ResponseFieldPaths = Readonly<Record<string, string>>;

/**
 * One side of the conversion: the canonical form itself, or an envelope's slug
 * and response fields, and whether its calls hold their arguments as an object.
 */
export type StepEnvelope = "responses" | { slug?: string; responseFields: ResponseFieldPaths; argumentsAsObjects?: boolean };

const ARGUMENTS_PATH = /^\/(?:output|input)\/\d+\/arguments$/;

/**
 * Whether a loss of the step to Open Responses says that a call's arguments
 * are the JSON text of the object the source held (an Anthropic tool_use
 * input), at the call's place in the Open Responses form.
 */
function madeArgumentsText(loss: Loss): boolean {
  return loss.code === "synthesized" && ARGUMENTS_PATH.test(loss.path);
}

/**
 * The first step's losses that still say something of the record a target
 * writes: one that holds arguments as an object parses the arguments text made
 * of an object back into that object, so that text never reaches it.
 */
export function firstStepLossesFor(losses: readonly Loss[], argumentsAsObjects: boolean): readonly Loss[] {
  return argumentsAsObjects ? losses.filter((loss) => !madeArgumentsText(loss)) : losses;
}

const ITEM_FIELD = /^\/output\/\d+\/(id|status)$/;
const NEUTRAL_KEYS = new Set(Object.keys(RESPONSE_NEUTRALS));

/** `written`: the record the second step wrote, which says whether a synthesized value reached it. */
export function joinStepLosses(args: { source: StepEnvelope; target: StepEnvelope; first: readonly Loss[]; second: readonly Loss[]; written: unknown }): Loss[] {
  const { source, target } = args;
  const firstLosses = firstStepLossesFor(args.first, target !== "responses" && target.argumentsAsObjects === true);
  const made = firstLosses.filter((loss) => loss.code === "synthesized").map((loss) => loss.path);
  // Where the second step wrote a value of its own in place of the first step's, the first step's detail no longer tells what the record holds.
  const madeAgain = new Set(args.second.filter((loss) => loss.code === "synthesized").map((loss) => loss.path));
  const retold = new Set<string>();
  const losses: Loss[] = [];
  const reported = new Set<string>();
  for (const loss of firstLosses) {
    if (loss.code !== "synthesized" || target === "responses") {
      losses.push(loss);
      continue;
    }
    const key = topKey(loss.path);
    if (NEUTRAL_KEYS.has(key) || /^\/output\/\d+\/id$/.test(loss.path)) continue;
    if (loss.path === "") {
      losses.push(loss);
      continue;
    }
    const at = target.responseFields[key] ?? outputField(loss.path, source, target);
    if (at === undefined || !holdsPointer(args.written, at)) continue;
    if (madeAgain.has(at)) retold.add(at);
    else losses.push({ ...loss, path: at });
  }
  for (const loss of args.second) {
    const retelling = loss.code === "synthesized" && retold.has(loss.path);
    if (!retelling && made.some((path) => path !== "" && (loss.path === path || loss.path.startsWith(path + "/")))) continue;
    // A value the second step wrote for want of one is reported where it was written, in the output.
    if (source === "responses" || loss.code === "synthesized") {
      losses.push(loss);
      continue;
    }
    if (ITEM_FIELD.test(loss.path)) continue;
    const path = sourcePath(loss.path, source);
    // Only whole fields are taken for one: losses inside a field that maps to a
    // container (`/output/3/…` -> `/content`, `/usage/…` -> `/usage`) say different things.
    const key = `${loss.code} ${path} ${loss.path.indexOf("/", 1) === -1 ? "" : loss.path}`;
    if (path !== "" && reported.has(key)) continue;
    reported.add(key);
    losses.push({ ...loss, path });
  }
  return losses;
}

/**
 * Where the target writes the items, for a value the first step made up for an
 * item and reported where the item stands in the source (Chat's call without
 * id, at `/choices/0/message/tool_calls/0`): the value reaches the target's
 * items all the same (`/content` of an Anthropic message).
 */
function outputField(path: string, source: StepEnvelope, target: Exclude<StepEnvelope, "responses">): string | undefined {
  if (source === "responses") return undefined;
  const items = source.responseFields.output;
  if (items === undefined || !(path === items || path.startsWith(items + "/"))) return undefined;
  return target.responseFields.output;
}

function topKey(path: string): string {
  return (path.split("/")[1] ?? "").replace(/~1/g, "/").replace(/~0/g, "~");
}

/**
 * The field a path's first token names under `slug` (`/anthropic:is_error/x` ->
 * `is_error`), and the rest of the path (`/x`); undefined when that token has
 * no such slug.
 */
export function slugField(path: string, slug: string | undefined): { key: string; rest: string } | undefined {
  const key = topKey(path);
  if (slug === undefined || !key.startsWith(`${slug}:`)) return undefined;
  const next = path.indexOf("/", 1);
  return { key: key.slice(slug.length + 1), rest: next === -1 ? "" : path.slice(next) };
}

function sourcePath(path: string, source: Exclude<StepEnvelope, "responses">): string {
  const own = slugField(path, source.slug);
  if (own !== undefined) return "/" + pointerToken(own.key) + own.rest;
  return source.responseFields[topKey(path)] ?? "";
}
