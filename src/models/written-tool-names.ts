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
