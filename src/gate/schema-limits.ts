// Bounds on the size of a tool schema, checked before anything compiles it. Ajv's
// compile time grows with the subschemas it turns into code (about a quarter of a
// millisecond each, measured), and both its code generation and the code it
// generates nest once per level; a schema past these bounds is refused with the
// bound it broke, where it would otherwise stall the gate or run out of stack.
import { keywordRole } from "./schema-keywords.js";

/** Schema objects (the root and every subschema), plus the entries of dependentRequired, which Ajv also turns into code one by one. */
export const MAX_SUBSCHEMAS = 1_000;
/** JSON values in the whole schema document, data (enum, const, examples) included. */
export const MAX_SCHEMA_NODES = 50_000;
/** Levels of JSON nesting: the schema itself is level 1, `{"properties":{"a":{}}}` has 3. */
export const MAX_SCHEMA_DEPTH = 100;

/** Why the schema is too large to compile, or undefined when it is within bounds. */
export function schemaLimitBroken(schema: unknown): string | undefined {
  // Explicit stacks: a schema nested far past the bound must not exhaust ours.
  const stack: Array<{ value: unknown; depth: number }> = [{ value: schema, depth: 1 }];
  let nodes = 0;
  let depth = 0;
  while (stack.length > 0) {
    const next = stack.pop()!;
    nodes += 1;
    if (next.depth > depth) depth = next.depth;
    const value = next.value;
    if (value === null || typeof value !== "object") continue;
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push({ value: child, depth: next.depth + 1 });
  }
  if (depth > MAX_SCHEMA_DEPTH) return `it is nested ${depth} levels deep, over the bound of ${MAX_SCHEMA_DEPTH}`;
  if (nodes > MAX_SCHEMA_NODES) return `it holds ${nodes} JSON values, over the bound of ${MAX_SCHEMA_NODES}`;
  const subschemas = countSubschemas(schema);
  if (subschemas > MAX_SUBSCHEMAS) return `it has ${subschemas} subschemas, over the bound of ${MAX_SUBSCHEMAS}`;
  return undefined;
}

/** Objects in a schema's place, as the gate's instrumented copy sees them (schema-instrument.ts). */
function countSubschemas(schema: unknown): number {
  let count = 0;
  const places: unknown[] = [schema];
  while (places.length > 0) {
    const place = places.pop();
    if (Array.isArray(place)) {
      places.push(...place);
      continue;
    }
    if (place === null || typeof place !== "object") continue;
    count += 1;
    for (const [keyword, value] of Object.entries(place)) {
      const role = keywordRole(keyword);
      if (role === "data") {
        if (keyword === "dependentRequired" && value !== null && typeof value === "object") count += Object.keys(value).length;
      } else if (role === "schemaMap" && value !== null && typeof value === "object" && !Array.isArray(value)) {
        for (const sub of Object.values(value)) {
          if (Array.isArray(sub)) count += 1;
          else places.push(sub);
        }
      } else places.push(value);
    }
  }
  return count;
}
