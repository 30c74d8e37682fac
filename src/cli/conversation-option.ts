// `--conversation POINTER`, as gate and report read it: a JSON Pointer to a
// member of each record, which keys its conversation.
import { parsePointer, type JsonPointer } from "../journal/json-pointer.js";
import { UsageError } from "./io.js";

export function conversationOption(value: string | undefined): JsonPointer | undefined {
  if (value === undefined) return undefined;
  let pointer: JsonPointer;
  try {
    pointer = parsePointer(value);
  } catch (error) {
    throw new UsageError(`--conversation: ${(error as Error).message}`);
  }
  if (pointer.tokens.length === 0) throw new UsageError('--conversation must point to a member of each record, as /conversation_id, not to the whole record ("")');
  return pointer;
}
