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
 */
function conversationKey(item: unknown): string {
  if (!isPlainObject(item)) return JSON.stringify(item);
  switch (item.type) {
    case "function_call":
      return `call ${String(item.call_id)} ${String(item.name)} ${String(item.arguments)}`;
    case "function_call_output":
      // A string output is its own key: serializing it would copy it for nothing.
      return `output ${String(item.call_id)} ${typeof item.output === "string" ? item.output : JSON.stringify(item.output)}`;
    case "message":
    case undefined:
      return `message ${String(item.role)} ${textOf(item.content)}`;
    case "reasoning":
      return `reasoning ${String(item.id ?? item.encrypted_content)}`;
    default:
      return `${String(item.type)} ${String(item.id ?? JSON.stringify(item))}`;
  }
}

/** The text of a content field, whatever its form (string or parts). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (isPlainObject(part) ? String(part.text ?? part.refusal ?? part.image_url ?? "") : "")).join("");
}
