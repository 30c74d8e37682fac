// Values that cross between the gate's threads (`gate --jobs`) however deep they
// are nested. A thread's message is copied by a serializer that recurses once per
// level: a value some thousands of levels deep (a record's field, a tool schema)
// is read whole in one thread, but the other cannot take it (the main thread's
// stack is the smaller) and the run would fail. Such a value crosses flat instead:
// each container numbered, listing its children by number, rebuilt on the other
// side without recursion. Values of ordinary depth cross as they are.
import type { ToolRegistryData } from "../gate/tool-registry.js";
import { setOwn } from "../models/json-value.js";

/** Deeper than this many levels, a value crosses flat; well within what any thread's serializer takes. */
export const CROSSING_DEPTH = 256;

/**
 * A value flat: node 0 is the value, each node a primitive (kind 0, its value in
 * `primitives`), an array (1) or an object (2), whose children are the node
 * numbers `children[first[n] .. first[n] + count[n]]`, with their keys in `keys`
 * ("" for an array's). A few long arrays copy far faster than one small array per
 * node.
 */
export interface FlatValue {
  kinds: number[];
  primitives: unknown[];
  first: number[];
  count: number[];
  children: number[];
  keys: string[];
}

/** A value as it crosses: itself, or flat. */
export type Crossing = { value: unknown } | { flat: FlatValue };

/** A value of an array that crossed flat, with its place in the array. */
export interface Shelved {
  at: number;
  flat: FlatValue;
}

export function toCrossing(value: unknown): Crossing {
  return deeperThan(value, CROSSING_DEPTH) ? { flat: flatten(value) } : { value };
}

export function fromCrossing(crossing: Crossing): unknown {
  return "flat" in crossing ? rebuild(crossing.flat) : crossing.value;
}

/** A registry's data with each schema as it crosses. */
export type CrossingRegistryData = Omit<ToolRegistryData, "schemas"> & { schemas: ReadonlyMap<string, Crossing> };

export function registryCrossing(data: ToolRegistryData): CrossingRegistryData {
  return { ...data, schemas: new Map([...data.schemas].map(([name, schema]) => [name, toCrossing(schema)])) };
}

/** Takes every too-deep value out of `values` (null in its place) and returns them flat, to be put back by `restoreShelved`. */
export function shelveDeepValues(values: unknown[]): Shelved[] {
  const shelved: Shelved[] = [];
  for (let at = 0; at < values.length; at++) {
    const value = values[at];
    if (value === null || typeof value !== "object" || !deeperThan(value, CROSSING_DEPTH)) continue;
    shelved.push({ at, flat: flatten(value) });
    values[at] = null;
  }
  return shelved;
}

export function restoreShelved(values: unknown[], shelved: readonly Shelved[]): void {
  for (const { at, flat } of shelved) values[at] = rebuild(flat);
}

/** Whether `value` holds containers nested more than `limit` deep; a cycle counts as too deep. */
export function deeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== "object") return false;
  const stack: object[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (child !== null && typeof child === "object") {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** `value` flat, whatever its depth. */
export function flatten(value: unknown): FlatValue {
  const flat: FlatValue = { kinds: [], primitives: [], first: [], count: [], children: [], keys: [] };
  const numbers = new Map<object, number>();
  const pending: object[] = [];
  const numberOf = (child: unknown): number => {
    const number = flat.kinds.length;
    if (child === null || typeof child !== "object") {
      flat.kinds.push(0);
      flat.primitives.push(child);
      flat.first.push(0);
      flat.count.push(0);
      return number;
    }
    // A container met again (shared, or a cycle) keeps its one number.
    const known = numbers.get(child);
    if (known !== undefined) return known;
    numbers.set(child, number);
    flat.kinds.push(Array.isArray(child) ? 1 : 2);
    flat.primitives.push(undefined);
    flat.first.push(0);
    flat.count.push(0);
    pending.push(child);
    return number;
  };
  numberOf(value);
  while (pending.length > 0) {
    const container = pending.pop()!;
    const number = numbers.get(container)!;
    // A container's children are numbered together, so they sit side by side.
    flat.first[number] = flat.children.length;
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) {
        flat.children.push(numberOf(container[i]));
        flat.keys.push("");
      }
      flat.count[number] = container.length;
    } else {
      const keys = Object.keys(container);
      for (const key of keys) {
        flat.children.push(numberOf((container as Record<string, unknown>)[key]));
        flat.keys.push(key);
      }
      flat.count[number] = keys.length;
    }
  }
  return flat;
}

function rebuild(flat: FlatValue): unknown {
  const values: unknown[] = flat.kinds.map((kind, number) => (kind === 0 ? flat.primitives[number] : kind === 1 ? [] : {}));
  for (let number = 0; number < flat.kinds.length; number++) {
    const kind = flat.kinds[number];
    if (kind === 0) continue;
    const container = values[number];
    for (let at = flat.first[number], end = at + flat.count[number]; at < end; at++) {
      const child = values[flat.children[at]];
      if (kind === 1) {
        (container as unknown[]).push(child);
        continue;
      }
      const key = flat.keys[at];
      // An own "__proto__" key, as JSON.parse makes it, not the prototype's setter.
      if (key === "__proto__") setOwn(container as object, key, child);
      else (container as Record<string, unknown>)[key] = child;
    }
  }
  return values[0];
}
