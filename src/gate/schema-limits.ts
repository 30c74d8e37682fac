// Bounds on the size of a tool schema, checked before anything compiles it. Ajv's
// compile time grows with the subschemas it turns into code (about a quarter of a
// millisecond each, measured), and both its code generation and the code it
// generates nest once per level; a schema past these bounds is refused with the
// bound it broke, where it would otherwise stall the gate or run out of stack.
import { pointerToken } from "../models/json-pointer.js";
import { keywordRole } from "./schema-keywords.js";

/** Schema objects (the root and every subschema), plus the entries of dependentRequired, which Ajv also turns into code one by one. */
export const MAX_SUBSCHEMAS = 1_000;
/** JSON values in the whole schema document, data (enum, const, examples) included. */
export const MAX_SCHEMA_NODES = 50_000;
/** Levels of JSON nesting: the schema itself is level 1, `{"properties":{"a":{}}}` has 3. */
export const MAX_SCHEMA_DEPTH = 100;

/** Why the schema is too large to compile, or undefined when it is within bounds. */
export function schemaLimitBroken(schema: unknown): string | undefined {
  const shape = measure(schema);
  if ("cycle" in shape) return `it holds itself: the object at ${shape.cycle.inner === "" ? "the root" : shape.cycle.inner} is the object at ${shape.cycle.outer === "" ? "the root" : shape.cycle.outer} around it, which no JSON text can write`;
  if (shape.depth > MAX_SCHEMA_DEPTH) return `it is nested ${shape.depth} levels deep, over the bound of ${MAX_SCHEMA_DEPTH}`;
  if (shape.nodes > MAX_SCHEMA_NODES) return `it holds ${shape.nodes > Number.MAX_SAFE_INTEGER ? `more than ${Number.MAX_SAFE_INTEGER}` : shape.nodes} JSON values, over the bound of ${MAX_SCHEMA_NODES}`;
  // Within the node bound, a walk of the written-out tree is bounded too.
  const subschemas = countSubschemas(schema);
  if (subschemas > MAX_SUBSCHEMAS) return `it has ${subschemas} subschemas, over the bound of ${MAX_SUBSCHEMAS}`;
  return undefined;
}

/**
 * Whether writing the schema out as JSON text would pass the bound on values: a
 * plain walk that gives up at the bound, cheap enough to run before that text is
 * written (it stops on an object that holds itself, or one shared past the bound).
 */
export function mayExceedBounds(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  let nodes = 0;
  while (stack.length > 0) {
    const value = stack.pop();
    if (++nodes > MAX_SCHEMA_NODES) return true;
    if (value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) for (const child of value) stack.push(child);
    else for (const key in value) if (Object.hasOwn(value, key)) stack.push((value as Record<string, unknown>)[key]);
  }
  return false;
}

type Shape = { nodes: number; depth: number } | { cycle: { outer: string; inner: string } };

/**
 * Values and depth of the schema as its JSON text would write it. A schema built in
 * code may hold one object in many places, or hold itself: each object is measured
 * once and its measure reused wherever it appears again, so a shared subschema
 * counts once per place (as in its text) without being walked once per place, and
 * an object met again inside itself is a cycle.
 */
function measure(schema: unknown): Shape {
  if (schema === null || typeof schema !== "object") return { nodes: 1, depth: 1 };
  // Each object's measure once it is closed; OPEN while it is on the path being walked.
  const measured = new Map<object, { nodes: number; depth: number }>();
  // Explicit stack of open objects: a schema nested far past the bound must not exhaust ours.
  const open: Array<{ value: object; children: unknown[]; next: number; nodes: number; depth: number }> = [];
  const enter = (value: object): void => {
    measured.set(value, OPEN);
    open.push({ value, children: Array.isArray(value) ? value : Object.values(value), next: 0, nodes: 1, depth: 1 });
  };
  enter(schema);
  let result = { nodes: 1, depth: 1 };
  while (open.length > 0) {
    const top = open[open.length - 1];
    if (top.next < top.children.length) {
      const child = top.children[top.next++];
      if (child === null || typeof child !== "object") {
        top.nodes += 1;
        if (top.depth < 2) top.depth = 2;
        continue;
      }
      const known = measured.get(child);
      if (known === OPEN) return { cycle: { outer: pointerOf(open, open.findIndex((frame) => frame.value === child)), inner: pointerOf(open, open.length) } };
      if (known !== undefined) {
        top.nodes += known.nodes;
        if (top.depth < known.depth + 1) top.depth = known.depth + 1;
        continue;
      }
      enter(child);
      continue;
    }
    open.pop();
    result = { nodes: top.nodes, depth: top.depth };
    measured.set(top.value, result);
    const parent = open[open.length - 1];
    if (parent !== undefined) {
      parent.nodes += top.nodes;
      if (parent.depth < top.depth + 1) parent.depth = top.depth + 1;
    }
  }
  return result;
}

const OPEN = { nodes: 0, depth: 0 };

/**
 * The JSON Pointer of the place the walk entered at depth `length` (the root is
 * 0): each open object's last child taken is the next step. Only a cycle asks,
 * so the keys are read again here rather than kept for every object.
 */
function pointerOf(open: ReadonlyArray<{ value: object; next: number }>, length: number): string {
  let pointer = "";
  for (let i = 0; i < length; i++) {
    const { value, next } = open[i];
    pointer += `/${pointerToken(Array.isArray(value) ? String(next - 1) : Object.keys(value)[next - 1])}`;
  }
  return pointer;
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
