// What the journal gate reads of an item, and nothing more: the form in which an
// item crosses from the thread that normalizes a journal to the thread that gates
// it (`gate --jobs`). Copying a whole item between threads costs about as much as
// parsing it again; its view is a handful of fields.
//
// The view must give every reader the same answers as the item:
// | reader                          | reads                                                              |
// |---------------------------------|--------------------------------------------------------------------|
// | replayGate                      | type, status, arguments, name                                      |
// | JournalChecker (journal-checks) | type, id, call_id, name, role, status; tool_calls, tool_call_id,   |
// |                                 | function_call, function; the type of each content part             |
// | the gate's records              | type, call_id, name                                                |
// Only an item whose `type` is a string is cut down: without one, its kind
// depends on how many keys it has, so it goes whole, as do items that are not
// objects. A replay target's checks (`gate --for`) read every field: items
// checked for a target go whole as well (`gateView` is then not used).
import type { JournalItem } from "../models/journal-item.js";

const VIEW_FIELDS = ["type", "id", "call_id", "name", "role", "status", "arguments", "tool_calls", "tool_call_id", "function_call", "function"] as const;

/** The fields of `item` the journal gate reads, or the item itself when it must go whole. */
export function gateView(item: JournalItem["item"]): JournalItem["item"] {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
  const fields = item as Record<string, unknown>;
  if (typeof fields.type !== "string") return item;
  const view: Record<string, unknown> = {};
  for (const key of VIEW_FIELDS) if (Object.hasOwn(fields, key)) view[key] = fields[key];
  const content = fields.content;
  // Only the parts' types are read (a Chat part inside an item); their positions name the path.
  if (Array.isArray(content) && Object.hasOwn(fields, "content")) view.content = content.map(partType);
  return view as JournalItem["item"];
}

function partType(part: unknown): { type?: unknown } | null {
  if (part === null || typeof part !== "object" || Array.isArray(part)) return null;
  const type = (part as Record<string, unknown>).type;
  return Object.hasOwn(part, "type") ? { type } : {};
}

/** A request body cut to what the tool registry reads of it. */
export function requestView(request: Record<string, unknown>): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const key of ["tools", "functions", "tool_choice", "function_call"] as const) if (Object.hasOwn(request, key)) view[key] = request[key];
  return view;
}
