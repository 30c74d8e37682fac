// A tool call's input written as a string where its envelope writes an object
// (Anthropic and Bedrock `input`, Gemini `args`). The envelope's SDK hands the
// tool that string as it is. When the string is the text of a JSON object,
// taking it as the arguments text would let the gate judge an object the tool
// never gets; so the arguments are the string itself, a JSON string value,
// which a schema of an object refuses. Any other string (text cut short, a
// string that is itself JSON text of a string) is taken as the arguments text:
// the gate blocks it either way, and the way back writes it as it came.
import type { Loss } from "./loss.js";
import { isPlainObject } from "./json-value.js";

export function argumentsOfStringInput(input: string, field: string): { value: string; loss: { code: Loss["code"]; detail: string } } {
  if (holdsObjectText(input)) {
    return { value: JSON.stringify(input), loss: { code: "form_changed", detail: `${field} is a string that holds the text of a JSON object, not an object: the tool is handed the string, so the arguments are that string as a JSON value, which the gate does not take for the object` } };
  }
  return { value: input, loss: { code: "form_changed", detail: `${field} is a string, not an object: taken as the arguments text as it is; the gate judges it` } };
}

function holdsObjectText(text: string): boolean {
  try {
    return isPlainObject(JSON.parse(text));
  } catch {
    return false;
  }
}
