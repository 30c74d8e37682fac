// The names a tool entry writes, in whichever envelope's form: its own `name`
// (Open Responses, Anthropic), or the `name` of an object it holds (Chat's
// `function`, a Chat custom tool's `custom`, Bedrock's `toolSpec`). An entry one
// envelope's reader cannot take, or takes for a tool of another kind, still
// defines those names to a reader of the form it is written in, so that a
// function of the same name in the same body has no single definition.
import { isPlainObject } from "./json-value.js";

/**
 * The non-empty names `entry` writes at its top or in an object it holds, each
 * once, in the order written. `lists`: also the names of the objects of a list
 * it holds (Gemini's `functionDeclarations`), for an entry that cannot be read
 * at all or that a reader kept as a tool of its envelope's own kind; a tool
 * that can be read keeps the names of its list to itself (the functions of an
 * Open Responses namespace are the namespace's).
 */
export function writtenToolNames(entry: unknown, options: { lists: boolean }): string[] {
  if (!isPlainObject(entry)) return [];
  const names = new Set<string>();
  const take = (holder: unknown): void => {
    if (isPlainObject(holder) && typeof holder.name === "string" && holder.name !== "") names.add(holder.name);
  };
  take(entry);
  for (const key of Object.keys(entry)) {
    const member = entry[key];
    if (!Array.isArray(member)) take(member);
    else if (options.lists) member.forEach(take);
  }
  return [...names];
}

/** A part of a request body an envelope's reader cannot take, with what it governs (adapters' UnreadToolPart). */
export interface UnreadEntries {
  path: string;
  detail: string;
  governs: { tool: string } | "tools";
}

/**
 * What entries that cannot be read refuse: each name they write (those of the
 * lists they hold included), or, where they write none, the tools as a whole,
 * since which tools exist is then not known.
 */
export function refusedByUnreadEntries(entries: readonly unknown[], path: string, detail: string): UnreadEntries[] {
  const names = new Set(entries.flatMap((entry) => writtenToolNames(entry, { lists: true })));
  if (names.size === 0) return [{ path, detail, governs: "tools" }];
  return [...names].map((tool) => ({ path, detail, governs: { tool } }));
}
