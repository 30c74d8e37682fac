// The conversation so far, as keys of its items, so that the normalizer can tell
// when a request replays it (logged exchanges send the whole history each time)
// and emit only what is new. Memory stays bounded: past a size the conversation
// is no longer followed, and a request that replays it is then emitted whole
// rather than guessed at.
import type { CanonicalItem } from "../models/open-responses.js";
import { isPlainObject } from "../models/json-value.js";

const MAX_CONVERSATION_ITEMS = 10_000;
const MAX_CONVERSATION_CHARS = 16 * 1024 * 1024;

export class ConversationSoFar {
  private keys: string[] = [];
  /** Characters held in `keys`. */
  private size = 0;
  /** Set once the conversation outgrew the limits: nothing is recognised as repeated until it restarts. */
  private lost = false;

  /** How many leading items of a request repeat the conversation so far. */
  repeatedPrefix(requestItemCount: number, items: readonly CanonicalItem[]): number {
    const count = requestItemCount > 0 ? requestItemCount : items.length;
    if (this.lost || this.keys.length === 0 || this.keys.length > count) return 0;
    for (let i = 0; i < this.keys.length; i++) if (conversationKey(items[i]) !== this.keys[i]) return 0;
    return this.keys.length;
  }

  /** Items that continue the conversation. */
  extend(items: readonly CanonicalItem[]): void {
    if (this.lost) return;
    for (const item of items) {
      const key = conversationKey(item);
      this.keys.push(key);
      this.size += key.length;
    }
    if (this.keys.length > MAX_CONVERSATION_ITEMS || this.size > MAX_CONVERSATION_CHARS) this.forget(true);
  }

  /** A request carries the whole history: the conversation starts again from it. */
  restart(): void {
    this.forget(false);
  }

  private forget(lost: boolean): void {
    this.keys = [];
    this.size = 0;
    this.lost = lost;
  }
}

/**
 * The identity of an item within a conversation, stable across replays: a replay
 * may add an `id` or drop a `status`, but keeps the call_id, role and content.
 * Each key is a tag and its fields, each field written with its kind and length,
 * so that no item can be written to take another's key: a key that matches
 * makes the normalizer leave a call out as already seen, and the gate never
 * judges it.
 */
function conversationKey(item: unknown): string {
  if (!isPlainObject(item)) return "v" + field(item);
  switch (item.type) {
    case "function_call":
      return "c" + field(item.call_id) + field(item.name) + field(item.arguments);
    case "function_call_output":
      return "o" + field(item.call_id) + field(item.output);
    case "message":
    case undefined:
      return "m" + field(item.role) + field(textOf(item.content));
    case "reasoning":
      return "r" + field(item.id ?? item.encrypted_content);
    default:
      return "i" + field(item.type) + (item.id === undefined ? field(item) : field(item.id));
  }
}

/** Keys given to values too deep to serialize, each its own. */
let unmatched = 0;

/** One field of a key: a string as it is, any other value as JSON, each after its kind and length. */
function field(value: unknown): string {
  if (typeof value === "string") return `s${value.length}:${value}`;
  if (value === undefined) return "u";
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    // Too deep to serialize: a key that matches nothing, so the item is never taken for a repeat.
    return `x${(unmatched += 1)}:`;
  }
  return json === undefined ? "u" : `j${json.length}:${json}`;
}

/** The text of a content field, whatever its form (string or parts). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (isPlainObject(part) ? String(part.text ?? part.refusal ?? part.image_url ?? "") : "")).join("");
}
