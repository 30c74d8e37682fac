// A tool schema built in code must be JSON data for the gate to know what it
// says. A Map, a String object, an object made from another with Object.create,
// a member that is not enumerable or is a getter: `JSON.stringify` writes each as
// something else (`{}` for a Map, which allows everything), and Ajv may read it
// differently again. So such a schema is refused, with the place of the first
// value that is not JSON data, and what is compiled is the schema's JSON text
// read back, never the object itself.
import { pointerToken } from "../models/json-pointer.js";

/** Why `schema` is not JSON data, or undefined when it is. Walks at most `maxValues` values. */
export function notJsonData(schema: unknown, maxValues: number): string | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value: schema, path: "" }];
  let values = 0;
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (++values > maxValues) return undefined;
    const where = path === "" ? "the schema" : `the value at ${path}`;
    switch (typeof value) {
      case "string":
      case "boolean":
        continue;
      case "number":
        if (!Number.isFinite(value)) return `${where} is ${String(value)}, which JSON cannot write`;
        continue;
      case "object":
        break;
      default:
        return `${where} is ${typeof value === "function" ? "a function" : `a ${typeof value}`}, not JSON data`;
    }
    if (value === null) continue;
    const isArray = Array.isArray(value);
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (isArray ? prototype !== Array.prototype : prototype !== Object.prototype && prototype !== null) {
      return `${where} is ${describeObject(value)}, not a plain ${isArray ? "array" : "object"}`;
    }
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key === "symbol") return `${where} has a symbol key, which JSON cannot write`;
      if (isArray && key === "length") continue;
      const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
      const at = `${path}/${pointerToken(key)}`;
      if (!("value" in descriptor)) return `the member at ${at} is a getter or setter, not JSON data`;
      if (!descriptor.enumerable) return `the member at ${at} is not enumerable, so its JSON text would leave it out`;
      stack.push({ value: descriptor.value, path: at });
    }
    if (isArray) {
      const array = value as unknown[];
      for (let index = 0; index < array.length; index += 1) if (!Object.hasOwn(array, index)) return `the array at ${path === "" ? "the root" : path} has a hole at ${index}`;
    }
  }
  return undefined;
}

function describeObject(value: object): string {
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  return typeof name === "string" && name !== "" && name !== "Object" ? `a ${name}` : "an object made from another";
}
