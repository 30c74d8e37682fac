// A pointer into a chunk read in camelCase (camel-chunk.ts), as a pointer into
// the chunk as its line writes it: a loss names the field the source wrote
// (`/candidates/0/content/parts/1/function_call/partial_args/0`), not the
// spelling the assembler read it in.
import { pointerToken } from "../../src/models/json-pointer.js";
import { isRecord, snakeOf } from "./fields.js";

export function writtenPath(written: unknown, path: string): string {
  if (path === "") return path;
  const tokens = path.slice(1).split("/");
  let node: unknown = written;
  let out = "";
  for (const token of tokens) {
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    // A member the line writes under this name, or else under its snake_case one; past what the line holds, as given.
    const name = isRecord(node) && !Object.hasOwn(node, key) && Object.hasOwn(node, snakeOf(key)) ? snakeOf(key) : key;
    out += `/${pointerToken(name)}`;
    node = isRecord(node) ? (Object.hasOwn(node, name) ? node[name] : undefined) : Array.isArray(node) ? node[Number(key)] : undefined;
  }
  return out;
}
