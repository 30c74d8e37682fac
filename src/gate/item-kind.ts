// What an item is, as the journal checks, the replay targets and the rewriter
// toward a target see it: its kind, its fields, whether its id is one a provider
// could have given it, and how a finding names it.
import { foreignItemIdReason } from "../models/foreign-item-id.js";
import { describeValue } from "../models/json-value.js";
import { OPENAI_ITEM_TYPES } from "../models/provider-item-types.js";

/**
 * The item types the Open Responses spec defines (the `type` of each item in its
 * `ItemParam` and `ItemField` unions), spelled exactly.
 */
export const SPEC_ITEM_TYPES: ReadonlySet<string> = new Set(["message", "function_call", "function_call_output", "reasoning", "item_reference", "compaction"]);

/**
 * The members by which Gemini parts and Bedrock blocks hold a tool call or its
 * result: inside an item they are never gated as calls, so the journal checks
 * block an item that holds one.
 */
const CALL_PART_MEMBERS: readonly string[] = ["functionCall", "functionResponse", "toolUse", "toolResult"];

/** The first member of a part that holds another envelope's call or result (CALL_PART_MEMBERS), or undefined. */
export function callPartMember(part: Record<string, unknown>): string | undefined {
  for (const name of CALL_PART_MEMBERS) if (Object.hasOwn(part, name)) return name;
  return undefined;
}

/**
 * Whether a type without a colon is one the gate can name: the spec's, or a
 * provider's that normalization gives the origin's slug (`web_search_call`).
 * Anything else (`Function_Call`, `function_call ` or `function_call\u200b`,
 * `openai\uff1ashell_call`) is a type no one defined, which a replayer that trims,
 * folds case or normalizes Unicode could turn into a call.
 */
export function isKnownBareType(type: string): boolean {
  return SPEC_ITEM_TYPES.has(type) || OPENAI_ITEM_TYPES.has(type);
}

/** What an item is, for the checks and the targets. */
export type ItemKind =
  | "message"
  /** A message without `type` (Chat-style `{role, content}`), which only some envelopes accept. */
  | "untyped_message"
  | "function_call"
  | "function_call_output"
  | "reasoning"
  | "item_reference"
  | "compaction"
  | "extension"
  /** No type, a type that is not a string, or a type no envelope defines. */
  | "unknown";

export function itemKind(fields: Record<string, unknown>): ItemKind {
  const type = fields.type;
  if (type === undefined || type === null) {
    if (typeof fields.role === "string") return "untyped_message";
    if (typeof fields.id === "string" && Object.keys(fields).length <= 2) return "item_reference";
    return "unknown";
  }
  if (typeof type !== "string") return "unknown";
  if (type.includes(":")) return "extension";
  switch (type) {
    case "message":
    case "function_call":
    case "function_call_output":
    case "reasoning":
    case "item_reference":
    case "compaction":
      return type;
  }
  return "unknown";
}

/** The fields of an item, or none when the record is not an object. */
export function itemFields(item: unknown): Record<string, unknown> {
  return item !== null && typeof item === "object" && !Array.isArray(item) ? (item as Record<string, unknown>) : {};
}

/** Why an item's id is not one a provider gave it, or `undefined` when it may be. */
export function foreignIdReason(fields: Record<string, unknown>, kind: ItemKind = itemKind(fields)): string | undefined {
  return foreignItemIdReason(fields, kind);
}

/** The item as a finding names it: "assistant message", "function_call", "item without a type". */
export function describeItem(kind: ItemKind, fields: Record<string, unknown>): string {
  switch (kind) {
    case "message":
    case "untyped_message":
      return typeof fields.role === "string" ? `${fields.role} message` : "message";
    case "function_call":
    case "function_call_output":
    case "reasoning":
    case "item_reference":
    case "compaction":
      return kind;
    case "extension":
      return `${String(fields.type)} item`;
    case "unknown":
      return typeof fields.type === "string" ? `${fields.type} item` : "item without a type";
    default:
      return assertNever(kind);
  }
}

/**
 * A value as the checks' findings quote it (ids, call_ids, statuses): at more length
 * than elsewhere, since an id is what a reader looks for.
 */
export function quoteValue(value: unknown): string {
  return describeValue(value, 60);
}

function assertNever(value: never): never {
  throw new Error(`unhandled item kind ${String(value)}`);
}

/** The tool name an output gives beside its call_id: `name`, or a provider's (`gemini:name`), which names its call a second way. */
export function outputToolName(fields: Record<string, unknown>): string | undefined {
  if (typeof fields.name === "string") return fields.name;
  for (const key in fields) if (key.endsWith(":name") && typeof fields[key] === "string") return fields[key] as string;
  return undefined;
}
