// The losses of a request body converted through its Open Responses form
// (Anthropic -> Chat, Chat -> Bedrock…), as paths into the body the user wrote.
// The second step's losses point into the Open Responses body, which the user
// never saw: `/input/3/anthropic:is_error` stands for the `is_error` of a block
// of the third item's message.
//
// The system prompt a body keeps apart gives the first input items, then each
// message of the source gives a run of input items, in order: how many is known
// by converting the message alone. When the runs add up to the input, an item's
// message is known, and
//
// | second step's loss at                  | reported at                                          |
// |----------------------------------------|------------------------------------------------------|
// | /input/<k>/<slug>:<key>…               | the field `key` of the message, or of the block of   |
// |                                        |   it (or the one object a block holds: Bedrock's     |
// |                                        |   `toolResult`) whose `key` holds the value kept:     |
// |                                        |   the block of the item's call_id, when it holds it  |
// | /input/<k>/… otherwise                 | the block of the message that holds the item's       |
// |                                        |   call_id (a call or its result), else the message:  |
// |                                        |   the detail names the field                         |
// | /input/<k>… of the system prompt's,    | the system prompt's field                            |
// |   or /instructions…                    |                                                      |
// | /<slug>:<key>… (a field of the body)   | /<key>…: the field the first step kept as it was     |
// | /tools/<k>/<slug>:<key>…               | /tools/<k>/<key>… when the body's tools are as many  |
// |                                        |   and its tool k holds `key` with the value kept;    |
// |                                        |   else "" (the body): the detail names the field     |
// | any other path                         | as it is, when the body holds it; else "" (the body), |
// |                                        |   the detail naming the field of the Open Responses  |
// |                                        |   form (`gemini:toolsForm`, `/tool_choice` of a body |
// |                                        |   that writes `toolConfig`)                          |
//
// The first step's `synthesized` values at `/input/<k>/…` are the message's too:
// the target is not Open Responses (which takes the first step alone), so the
// value is not written where its path points. When the runs do not add up, the
// losses at `/input/<k>…` stay as they were.
import { isDeepStrictEqual } from "node:util";
import { pointerToken } from "../models/json-pointer.js";
import type { Loss } from "../models/loss.js";
import { heldIn, slugField } from "./two-step-losses.js";

export interface BodySteps {
  /** The body as the user wrote it. */
  record: unknown;
  /** Its field that holds the messages (`messages`, `contents`). */
  messagesField: string;
  /** Its field that holds the system prompt, when it keeps one apart, and how many input items that gives. */
  system?: { field: string; items: number };
  /** How many input items one message gives, converted alone. */
  itemsOf(message: unknown): number;
  /** The slug of the fields the first step kept as they were (`anthropic`); none for Chat. */
  slug?: string;
  /** The Open Responses body's input. */
  input: readonly unknown[];
  /** The Open Responses body's tools. */
  tools?: readonly unknown[];
  first: readonly Loss[];
  second: readonly Loss[];
}

const INPUT_PATH = /^\/input\/(\d+)(\/.*)?$/;
const TOOL_PATH = /^\/tools\/(\d+)(\/.*)$/;

export function joinBodyStepLosses(steps: BodySteps): Loss[] {
  // Counted only when a loss points into the input: each message is converted again for it.
  let messageOf: number[] | undefined | null = null;
  const system = steps.system?.items ?? 0;
  const place = (loss: Loss): Loss => {
    // The Open Responses form's instructions are the system prompt the body keeps apart.
    if ((loss.path === "/instructions" || loss.path.startsWith("/instructions/")) && steps.system !== undefined) return { ...loss, path: `/${pointerToken(steps.system.field)}` };
    const tool = TOOL_PATH.exec(loss.path);
    if (tool) return { ...loss, path: toolField(steps, Number(tool[1]), tool[2]!) ?? loss.path };
    const match = INPUT_PATH.exec(loss.path);
    if (!match) {
      const own = slugField(loss.path, steps.slug);
      return own === undefined ? loss : { ...loss, path: `/${pointerToken(own.key)}${own.rest}` };
    }
    if (messageOf === null) messageOf = messageIndexes(steps);
    if (messageOf === undefined) return loss;
    // The body's array of messages, as `messageOf` was found.
    const messages = (steps.record as Record<string, unknown>)[steps.messagesField] as unknown[];
    const index = Number(match[1]);
    if (index < system) return { ...loss, path: `/${pointerToken(steps.system!.field)}` };
    const message = messageOf[index - system];
    if (message === undefined) return loss;
    const at = `/${pointerToken(steps.messagesField)}/${message}`;
    const item = steps.input[index];
    const fields = isObject(item) ? item : {};
    const own = slugField(match[2] ?? "", steps.slug);
    if (own === undefined) return { ...loss, path: at + (typeof fields.call_id === "string" ? (blockHolding(messages[message], fields.call_id) ?? "") : "") };
    // Blocks of one message often hold one value alike (each tool_result's `is_error: false`): the item's own block is looked at first.
    const kept = fields[`${steps.slug}:${own.key}`];
    const ownBlock = typeof fields.call_id === "string" ? fieldOfCallBlock(messages[message], fields.call_id, own.key, kept) : undefined;
    return { ...loss, path: at + (ownBlock ?? fieldHolding(messages[message], own.key, kept) ?? "") };
  };
  // A path the body does not hold is no place in it: the loss is the body's, and says which field it was.
  const held = (loss: Loss): Loss => heldIn(steps.record, loss);
  const first = steps.first.map((loss) => (loss.code === "synthesized" ? held(place(loss)) : loss));
  return [...first, ...steps.second.map((loss) => held(place(loss)))];
}

/**
 * The source body's place for a field the first step kept in tool `index` under
 * the slug: `/tools/<index>/<key>…` when the body's tools are as many as the Open
 * Responses body's and that tool holds the value kept; "" when it cannot be
 * told; undefined for a path that is no field kept under the slug.
 */
function toolField(steps: BodySteps, index: number, inner: string): string | undefined {
  const own = slugField(inner, steps.slug);
  if (own === undefined) return undefined;
  const source = (steps.record as Record<string, unknown> | null)?.tools;
  const kept = steps.tools?.[index];
  if (!Array.isArray(source) || steps.tools === undefined || source.length !== steps.tools.length || !isObject(kept)) return "";
  const tool = source[index];
  return isObject(tool) && isDeepStrictEqual(tool[own.key], kept[`${steps.slug}:${own.key}`]) ? `/tools/${index}/${pointerToken(own.key)}${own.rest}` : "";
}

/** The source message of each input item, or undefined when the messages' runs of items are not the input. */
function messageIndexes(steps: BodySteps): number[] | undefined {
  const record = steps.record;
  if (record === null || typeof record !== "object") return undefined;
  const messages = (record as Record<string, unknown>)[steps.messagesField];
  if (!Array.isArray(messages)) return undefined;
  const owner: number[] = [];
  for (let message = 0; message < messages.length; message++) {
    let count: number;
    try {
      count = steps.itemsOf(messages[message]);
    } catch {
      return undefined;
    }
    for (let i = 0; i < count; i++) owner.push(message);
  }
  return owner.length + (steps.system?.items ?? 0) === steps.input.length ? owner : undefined;
}

/** The pointer, within the message, of the field `key` that holds `value`: the message's own, a block's, or a block's one object's. */
function fieldHolding(message: unknown, key: string, value: unknown): string | undefined {
  if (!isObject(message)) return undefined;
  const holds = (fields: Record<string, unknown>) => Object.hasOwn(fields, key) && isDeepStrictEqual(fields[key], value);
  if (holds(message)) return `/${pointerToken(key)}`;
  for (const { at, block, member, inner } of blocksOf(message, ["content", "parts"])) {
    if (holds(block)) return `${at}/${pointerToken(key)}`;
    if (inner !== undefined && holds(inner)) return `${at}/${pointerToken(member!)}/${pointerToken(key)}`;
  }
  return undefined;
}

/** The pointer, within the message, of the field `key` holding `value` of the block whose id is `callId`, or of its one object: undefined when that block does not hold it. */
function fieldOfCallBlock(message: unknown, callId: string, key: string, value: unknown): string | undefined {
  if (!isObject(message)) return undefined;
  const holds = (fields: Record<string, unknown>) => Object.hasOwn(fields, key) && isDeepStrictEqual(fields[key], value);
  for (const { at, block, member, inner } of blocksOf(message, ["content", "parts"])) {
    if (!holdsId(block, callId) && !(inner !== undefined && holdsId(inner, callId))) continue;
    if (holds(block)) return `${at}/${pointerToken(key)}`;
    if (inner !== undefined && holds(inner)) return `${at}/${pointerToken(member!)}/${pointerToken(key)}`;
  }
  return undefined;
}

/** The pointer, within the message, of the block (a content part, a Chat tool call) one of whose ids, or its one object's, is `id`. */
function blockHolding(message: unknown, id: string): string | undefined {
  if (!isObject(message)) return undefined;
  for (const { at, block, inner } of blocksOf(message, ["content", "parts", "tool_calls"])) {
    if (holdsId(block, id) || (inner !== undefined && holdsId(inner, id))) return at;
  }
  return undefined;
}

/** The object blocks of a message's arrays `fields`, each with its pointer, and the one object it holds when it has one member only (Bedrock's `toolUse`). */
function* blocksOf(message: Record<string, unknown>, fields: readonly string[]): Generator<{ at: string; block: Record<string, unknown>; member?: string; inner?: Record<string, unknown> }> {
  for (const field of fields) {
    const blocks = message[field];
    if (!Array.isArray(blocks)) continue;
    for (let b = 0; b < blocks.length; b++) {
      const block = blocks[b];
      if (!isObject(block)) continue;
      const members = Object.keys(block);
      const inner = members.length === 1 ? block[members[0]!] : undefined;
      yield isObject(inner) ? { at: `/${field}/${b}`, block, member: members[0]!, inner } : { at: `/${field}/${b}`, block };
    }
  }
}

const ID_FIELDS = ["id", "tool_use_id", "toolUseId", "tool_call_id"];

function holdsId(fields: Record<string, unknown>, id: string): boolean {
  return ID_FIELDS.some((field) => fields[field] === id);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
