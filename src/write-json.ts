// JSON written without recursion, so that no depth of nesting stops it (where
// JSON.stringify throws once the thread's stack runs out, at a depth that
// depends on the thread), and as far as a caller needs it.
/**
 * A value written as JSON, members in their order or sorted by name (as UTF-16
 * code units compare); the writing stops soon after `limit` characters. A number
 * kept exactly by a lossless parser is written as its text.
 */
export function writeJson(value: unknown, sorted: boolean, limit = Infinity): string {
  type Frame = { array: unknown[]; next: number } | { object: Record<string, unknown>; names: string[]; next: number };
  const stack: Frame[] = [];
  let out = "";
  const open = (node: unknown): void => {
    if (node === null || typeof node !== "object") {
      out += typeof node === "bigint" ? String(node) : (JSON.stringify(node) ?? "null");
      return;
    }
    if (Array.isArray(node)) {
      out += "[";
      stack.push({ array: node, next: 0 });
      return;
    }
    const fields = node as Record<string, unknown>;
    if (fields.isLosslessNumber === true && typeof fields.value === "string" && Object.getPrototypeOf(fields) !== Object.prototype) {
      out += fields.value;
      return;
    }
    const names = Object.keys(fields).filter((name) => fields[name] !== undefined);
    if (sorted) names.sort();
    out += "{";
    stack.push({ object: fields, names, next: 0 });
  };
  open(value);
  while (stack.length > 0 && out.length <= limit) {
    const frame = stack[stack.length - 1];
    if ("array" in frame) {
      if (frame.next >= frame.array.length) {
        out += "]";
        stack.pop();
        continue;
      }
      if (frame.next > 0) out += ",";
      open(frame.array[frame.next++]);
      continue;
    }
    if (frame.next >= frame.names.length) {
      out += "}";
      stack.pop();
      continue;
    }
    if (frame.next > 0) out += ",";
    const name = frame.names[frame.next++];
    out += JSON.stringify(name) + ":";
    open(frame.object[name]);
  }
  return out;
}
