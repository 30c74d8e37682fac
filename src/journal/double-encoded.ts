// Arguments encoded twice: a JSON string whose value is itself the JSON text of
// an object or an array (`"\"{\\\"city\\\":\\\"Paris\\\"}\""`), as some logs and
// providers write them. The gate names them and blocks them like any other
// arguments its schema refuses; `--repair double-encoded` decodes them once,
// and only then, reporting each repair. Nothing else is decoded: a string that
// holds other text, or JSON text of a string or a number, is left as it is.
import { innerArguments } from "../models/double-encoded-arguments.js";
import type { Loss } from "../models/loss.js";

export { innerArguments };

/**
 * A record written for the journal with each call's arguments encoded twice
 * decoded once: `function_call` items (Open Responses) and `tool_calls` of Chat
 * messages, wherever they sit in the record. The record is changed in place;
 * each repair is returned as a loss of code `repaired` at its path.
 */
export function repairDoubleEncoded(record: unknown): Loss[] {
  const repairs: Loss[] = [];
  visit(record, "", repairs, 0);
  return repairs;
}

const MAX_DEPTH = 64;

function visit(value: unknown, path: string, repairs: Loss[], depth: number): void {
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    value.forEach((entry, index) => visit(entry, `${path}/${index}`, repairs, depth + 1));
    return;
  }
  const fields = value as Record<string, unknown>;
  if (fields.type === "function_call" && typeof fields.arguments === "string") repair(fields, `${path}/arguments`, repairs);
  if (fields.type === "function" && isObject(fields.function) && typeof fields.function.arguments === "string") repair(fields.function, `${path}/function/arguments`, repairs);
  for (const [name, member] of Object.entries(fields)) {
    if (member !== null && typeof member === "object") visit(member, `${path}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`, repairs, depth + 1);
  }
}

function repair(holder: Record<string, unknown>, path: string, repairs: Loss[]): void {
  const inner = innerArguments(holder.arguments as string);
  if (inner === undefined) return;
  holder.arguments = inner;
  repairs.push({ path, code: "repaired", detail: "arguments were encoded twice (a JSON string holding JSON text): decoded once" });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
