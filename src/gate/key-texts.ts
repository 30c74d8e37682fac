// Conversation keys of two JSON types that one text names. The gate keys a
// conversation by a string or a whole number and tells the types apart
// ("7" and 7 are two conversations); a replayer that groups records by the key's
// text (a partitioner, a Python str(), a shell script) puts both in one, where
// a request's tool_choice "none" of one holds the other's calls, and one's calls
// wait for the other's outputs. Neither reading can be trusted, so the first
// type a text is met with keeps it, and a record that gives it in the other is
// in no conversation: the router reports its line (conversation-router.ts).
//
// | key                                             | its text                     |
// |-------------------------------------------------|------------------------------|
// | a whole number                                  | as JavaScript writes it: `7` |
// | a string that is a JSON number of such a value  | that number's: "7", "7.0", "7e0" and "-0" name 7 and 0 |
// |   ("7.0", "7e0", "-0")                          |                              |
// | any other string                                | none: no number names it     |
//
// Texts are kept as fingerprints (fingerprint-table.ts): two that share one
// make a key an error that should not be, never two conversations one.
import type { ConversationKey } from "../journal/conversation-key.js";
import { FingerprintTable } from "./fingerprint-table.js";

const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;
const STRING = 1;
const NUMBER = 2;

export class KeyTexts {
  private readonly types = new FingerprintTable<"type">({ type: "uint8" });

  /** Why `key` may not key a conversation (its text keyed one as the other type), or undefined; remembers its type otherwise. */
  clash(key: ConversationKey): string | undefined {
    const text = numberText(key);
    if (text === undefined) return undefined;
    const type = typeof key === "number" ? NUMBER : STRING;
    const slot = this.types.add(text);
    if (this.types.added) {
      this.types.set(slot, "type", type);
      return undefined;
    }
    if (this.types.get(slot, "type") === type) return undefined;
    const other = type === NUMBER ? `the string "${text}"` : `the number ${text}`;
    return `the key ${JSON.stringify(key)} names the conversation an earlier record keyed by ${other}: a replayer that groups records by the key's text takes both for one conversation, which the gate would judge as two`;
  }
}

/** The number a key names, as text; undefined for a string that is no JSON number of a whole value. */
function numberText(key: ConversationKey): string | undefined {
  if (typeof key === "number") return String(key);
  if (!JSON_NUMBER.test(key)) return undefined;
  const value = Number(key);
  // -0 is the number 0 as JavaScript writes it.
  return Number.isSafeInteger(value) ? String(value) : undefined;
}
