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
// |                                        |   `toolResult`) whose `key` holds the value kept      |
// | /input/<k>/… otherwise                 | the block of the message that holds the item's       |
// |                                        |   call_id (a call or its result), else the message:  |
// |                                        |   the detail names the field                         |
// | /input/<k>… of the system prompt's     | the system prompt's field                            |
// | /<slug>:<key>… (a field of the body)   | /<key>…: the field the first step kept as it was     |
// | any other path                         | as it is                                             |
//
// The first step's `synthesized` values at `/input/<k>/…` are the message's too:
// the target is not Open Responses (which takes the first step alone), so the
// value is not written where its path points. When the runs do not add up, the
// losses at `/input/<k>…` stay as they were.
import { isDeepStrictEqual } from "node:util";
import { pointerToken } from "../models/json-pointer.js";
import type { Loss } from "../models/loss.js";

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
  first: readonly Loss[];
  second: readonly Loss[];
}

const INPUT_PATH = /^\/input\/(\d+)(\/.*)?$/;

export function joinBodyStepLosses(steps: BodySteps): Loss[] {
  const messageOf = messageIndexes(steps);
  // Known to be the body's array of messages whenever `messageOf` is.
  const messages = messageOf === undefined ? [] : ((steps.record as Record<string, unknown>)[steps.messagesField] as unknown[]);
  const system = steps.system?.items ?? 0;
  const place = (loss: Loss): Loss => {
    const match = INPUT_PATH.exec(loss.path);
    if (!match) {
      const key = slugKey(loss.path, steps.slug);
      if (key === undefined) return loss;
      const rest = loss.path.indexOf("/", 1);
      return { ...loss, path: `/${pointerToken(key)}${rest === -1 ? "" : loss.path.slice(rest)}` };
    }
    if (messageOf === undefined) return loss;
    const index = Number(match[1]);
    if (index < system) return { ...loss, path: `/${pointerToken(steps.system!.field)}` };
    const message = messageOf[index - system];
    if (message === undefined) return loss;
    const at = `/${pointerToken(steps.messagesField)}/${message}`;
    const item = steps.input[index];
    const fields = isObject(item) ? item : {};
    const key = slugKey(match[2], steps.slug);
    if (key === undefined) return { ...loss, path: at + (typeof fields.call_id === "string" ? (blockHolding(messages[message], fields.call_id) ?? "") : "") };
    return { ...loss, path: at + (fieldHolding(messages[message], key, fields[`${steps.slug}:${key}`]) ?? "") };
  };
  const first = steps.first.map((loss) => (loss.code === "synthesized" ? place(loss) : loss));
  return [...first, ...steps.second.map(place)];
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

/** `key` of a path `/<slug>:<key>…` under an item. */
function slugKey(rest: string | undefined, slug: string | undefined): string | undefined {
  if (rest === undefined || slug === undefined) return undefined;
  const token = rest.slice(1).split("/")[0]!.replace(/~1/g, "/").replace(/~0/g, "~");
  return token.startsWith(`${slug}:`) ? token.slice(slug.length + 1) : undefined;
}

/** The pointer, within the message, of the field `key` that holds `value`: the message's own, a block's, or a block's one object's. */
function fieldHolding(message: unknown, key: string, value: unknown): string | undefined {
  if (!isObject(message)) return undefined;
  if (Object.hasOwn(message, key) && isDeepStrictEqual(message[key], value)) return `/${pointerToken(key)}`;
  for (const blocksField of ["content", "parts"]) {
    const blocks = message[blocksField];
    if (!Array.isArray(blocks)) continue;
    for (let b = 0; b < blocks.length; b++) {
      const block = blocks[b];
      if (!isObject(block)) continue;
      const at = `/${blocksField}/${b}`;
      if (Object.hasOwn(block, key) && isDeepStrictEqual(block[key], value)) return `${at}/${pointerToken(key)}`;
      const members = Object.keys(block);
      const inner = members.length === 1 ? block[members[0]!] : undefined;
      if (isObject(inner) && Object.hasOwn(inner, key) && isDeepStrictEqual(inner[key], value)) return `${at}/${pointerToken(members[0]!)}/${pointerToken(key)}`;
    }
  }
  return undefined;
}

/** The pointer, within the message, of the block (a content part, a Chat tool call) one of whose ids, or its one object's, is `id`. */
function blockHolding(message: unknown, id: string): string | undefined {
  if (!isObject(message)) return undefined;
  for (const blocksField of ["content", "parts", "tool_calls"]) {
    const blocks = message[blocksField];
    if (!Array.isArray(blocks)) continue;
    for (let b = 0; b < blocks.length; b++) {
      const block = blocks[b];
      if (!isObject(block)) continue;
      const members = Object.keys(block);
      const inner = members.length === 1 ? block[members[0]!] : undefined;
      if (holdsId(block, id) || (isObject(inner) && holdsId(inner, id))) return `/${blocksField}/${b}`;
    }
  }
  return undefined;
}

const ID_FIELDS = ["id", "tool_use_id", "toolUseId", "tool_call_id"];

function holdsId(fields: Record<string, unknown>, id: string): boolean {
  return ID_FIELDS.some((field) => fields[field] === id);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
