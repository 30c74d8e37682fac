// A toolUse's `input` (a JSON value, Bedrock) and a call's `arguments` (a JSON
// text, Open Responses).
//
// | Bedrock `input`            | Open Responses `arguments`                                    |
// |----------------------------|---------------------------------------------------------------|
// | an object                  | JSON.stringify(input): member order kept                      |
// | a string                   | the string itself: text a writer put there for arguments it   |
// |                            |   could not parse (see below); loss                           |
// | any other value            | its JSON text: loss, the gate judges it against the schema    |
// | absent                     | "": loss, the gate blocks it                                  |
//
// | Open Responses `arguments` | Bedrock `input`                                               |
// |----------------------------|---------------------------------------------------------------|
// | the text of a JSON object  | the parsed object; a name given twice or a number a double    |
// |                            |   does not hold is reported, and so is other spelling (spaces,|
// |                            |   escapes) the object's JSON text does not keep (inexact-json.ts) |
// | ""                         | {}: loss (providers write "" for a call without parameters)   |
// | anything else              | the text as a string: loss target_rejects. Bedrock rejects the |
// |                            |   request rather than run a call whose arguments were never an |
// |                            |   object; {} would forge a call. The way back gives the text.  |
import type { Loss } from "../../src/models/loss.js";
import { argumentsAsObject } from "../../src/models/inexact-json.js";
import { argumentsOfStringInput } from "../../src/models/string-input.js";

export type InputLoss = { code: Loss["code"]; detail: string };

export function argumentsOfInput(input: unknown): { value: string; loss?: InputLoss } {
  if (input === undefined) return { value: "", loss: { code: "form_changed", detail: "a toolUse without input: empty arguments written, which the gate blocks" } };
  if (typeof input === "string") return argumentsOfStringInput(input, "input");
  const text = JSON.stringify(input);
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return { value: text, loss: { code: "form_changed", detail: `input is ${Array.isArray(input) ? "an array" : String(input)}, not an object: its JSON text is the arguments; the gate judges it` } };
  }
  return { value: text };
}

export function inputOfArguments(args: string): { value: unknown; loss?: InputLoss } {
  if (args === "") return { value: {}, loss: { code: "form_changed", detail: "empty arguments written as the empty input {}" } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return { value: args, loss: { code: "target_rejects", detail: "arguments that are not JSON cannot be an input object: written as the text it is, which Bedrock rejects" } };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { value: args, loss: { code: "target_rejects", detail: "arguments that are not a JSON object cannot be an input object: written as the text it is, which Bedrock rejects" } };
  }
  return argumentsAsObject(args, parsed, "input", "Bedrock");
}
