// A tool call's `input` (a JSON object, Anthropic) and its `arguments` (a JSON
// text, Open Responses).
//
// | Anthropic `input`            | Open Responses `arguments`                                       |
// |------------------------------|------------------------------------------------------------------|
// | an object                    | JSON.stringify(input): member order kept, no spaces; reported    |
// |                              |   synthesized, as the record holds a value, not its text         |
// | a string                     | the string itself, as written: no call has it, so it is text a   |
// |                              |   writer put there for arguments it could not parse (see below)  |
// | any other value              | its JSON text: loss, the gate judges it against the schema       |
// | absent                       | "": loss, the gate blocks it (arguments_parse)                   |
//
// | Open Responses `arguments`   | Anthropic `input`                                                |
// |------------------------------|------------------------------------------------------------------|
// | the text of a JSON object    | the parsed object                                                |
// |   a name given twice, a      |   the object JSON.parse gives: loss, what the text said is not   |
// |   number a double cannot hold|   what the object holds                                          |
// |   other spacing, escapes or  |   the same object: loss form_changed, the values are kept, the   |
// |   number forms               |   text is not                                                    |
// | ""                           | {}: loss (providers write "" for a call without parameters)      |
// | anything else (not JSON, an  | the text as a string: loss target_rejects. Anthropic rejects the |
// |   array, a string…)          |   request rather than run a call whose arguments were never an   |
// |                              |   object; {} would forge a call, and dropping it would lose it    |
// |                              |   unseen. The way back gives the same text again.                |
import type { Loss } from "../../src/models/loss.js";
import { argumentsAsObject } from "../../src/models/inexact-json.js";
import { argumentsOfStringInput } from "../../src/models/string-input.js";

export type InputLoss = { code: Loss["code"]; detail: string };

export function argumentsOfInput(input: unknown): { value: string; loss?: InputLoss } {
  if (input === undefined) return { value: "", loss: { code: "form_changed", detail: "a tool_use without input: empty arguments written, which the gate blocks" } };
  if (typeof input === "string") return argumentsOfStringInput(input, "input");
  const text = JSON.stringify(input);
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return { value: text, loss: { code: "form_changed", detail: `input is ${Array.isArray(input) ? "an array" : String(input)}, not an object: its JSON text is the arguments; the gate judges it` } };
  }
  return { value: text, loss: { code: "synthesized", detail: "input is an object, not a text: the arguments are its JSON text as JSON.stringify writes it (no spaces, member order kept)" } };
}

export function inputOfArguments(args: string): { value: unknown; loss?: InputLoss } {
  if (args === "") return { value: {}, loss: { code: "form_changed", detail: "empty arguments written as the empty input {}" } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return { value: args, loss: { code: "target_rejects", detail: "arguments that are not JSON cannot be an input object: written as the text it is, which Anthropic rejects" } };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { value: args, loss: { code: "target_rejects", detail: "arguments that are not a JSON object cannot be an input object: written as the text it is, which Anthropic rejects" } };
  }
  return argumentsAsObject(args, parsed, "input", "Anthropic");
}
