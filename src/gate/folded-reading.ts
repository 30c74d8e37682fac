// The arguments as a reader that matches member names regardless of case reads
// them. Go's encoding/json (and the case-insensitive binders of .NET and Java)
// fill a declared field from a member whose name only folds to it:
// `{"REGION":"global"}` is `region: "global"` to such a tool, while JSON Schema
// reads a member the schema leaves free and no region at all, and passes it. The
// gate judges that reading too: each member whose name the schema does not write
// but folds to one it declares is renamed to it, and the copy must pass the
// schema as well.
//
// Two members of one object that fold to a declared name never get here (the
// parse check blocks them), so each rename has one member to take. A name whose
// fold the schema writes in two spellings (`id` and `ID`) could be taken for
// either: that reading is not one, and the call is blocked.
import { foldedKey, isOwnFoldKey } from "../models/names-folded-twice.js";
import { pointerToken } from "../models/json-pointer.js";
import type { DeclaredNames } from "./declared-argument-names.js";
import { setOwn } from "../models/json-value.js";

/** A member renamed as a folding reader reads it: where it is (JSON Pointer into the arguments), its name, and the declared names it folds to. */
export interface FoldedMember {
  path: string;
  name: string;
  declared: readonly string[];
}

/** The arguments as a folding reader reads them, and the first member it renamed; `ambiguous` when a member folds to two declared spellings. */
export type FoldedReading = { value: unknown; renamed: FoldedMember } | { ambiguous: FoldedMember };

/** The folding reader's reading of `value` when it differs from the value judged; undefined when every member is read as written. */
export function foldedReading(value: unknown, names: DeclaredNames): FoldedReading | undefined {
  if (!mayFoldOnto(value, names)) return undefined;
  const members = foldedMembers(value, names);
  if (members.length === 0) return undefined;
  const ambiguous = members.find((member) => member.declared.length > 1);
  if (ambiguous !== undefined) return { ambiguous };
  return { value: renamedCopy(value, names), renamed: members[0]! };
}

/** The declared spellings a member name folds to, when the schema does not write it so itself. */
function foldsOnto(name: string, names: DeclaredNames): readonly string[] | undefined {
  if (names.written.has(name)) return undefined;
  // A name of printable ASCII without capitals is its own fold: it folds onto
  // another declared name only when that name is written otherwise.
  return names.byFold.get(isOwnFoldKey(name) ? name : foldedKey(name));
}

/**
 * Whether some member of a parsed value may be renamed: false only when none is.
 * Every call's arguments pass here, so nothing is built on the way.
 */
function mayFoldOnto(value: unknown, names: DeclaredNames, depth = 0): boolean {
  if (value === null || typeof value !== "object") return false;
  // Past this depth the walk of foldedMembers, with a stack of its own, decides.
  if (depth > 256) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (mayFoldOnto(value[i], names, depth + 1)) return true;
    return false;
  }
  const fields = value as Record<string, unknown>;
  // for-in over a parsed value: no array of keys built, and none inherited (JSON.parse sets own members only).
  for (const name in fields) if (foldsOnto(name, names) !== undefined || mayFoldOnto(fields[name], names, depth + 1)) return true;
  return false;
}

/** The members a folding reader renames, in document order; a stack of its own, for any depth. */
function foldedMembers(value: unknown, names: DeclaredNames): FoldedMember[] {
  const found: FoldedMember[] = [];
  const pending: Array<{ value: unknown; path: string }> = [{ value, path: "" }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.value === null || typeof next.value !== "object") continue;
    const children: Array<{ value: unknown; path: string }> = [];
    if (Array.isArray(next.value)) next.value.forEach((child, index) => children.push({ value: child, path: `${next.path}/${index}` }));
    else {
      for (const [name, child] of Object.entries(next.value)) {
        const path = `${next.path}/${pointerToken(name)}`;
        const declared = foldsOnto(name, names);
        if (declared !== undefined) found.push({ path, name, declared });
        children.push({ value: child, path });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return found;
}

/** A copy of the value with every member a folding reader renames written under the declared name, in the same order; a stack of its own, for any depth. */
function renamedCopy(value: unknown, names: DeclaredNames): unknown {
  const root = shell(value);
  const pending: Array<{ source: object; target: object }> = [];
  if (root !== null && typeof root === "object") pending.push({ source: value as object, target: root });
  while (pending.length > 0) {
    const { source, target } = pending.pop()!;
    const members: Array<[string | number, unknown]> = Array.isArray(source) ? source.map((child, index) => [index, child]) : Object.entries(source);
    for (const [name, child] of members) {
      const copy = shell(child);
      setOwn(target, typeof name === "number" ? name : (foldsOnto(name, names)?.[0] ?? name), copy);
      if (copy !== null && typeof copy === "object") pending.push({ source: child as object, target: copy });
    }
  }
  return root;
}

/** An empty container of the value's kind, or the value itself when it holds none. */
function shell(value: unknown): unknown {
  if (Array.isArray(value)) return [];
  return value !== null && typeof value === "object" ? {} : value;
}
