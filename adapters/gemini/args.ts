// A call's `args` (a JSON object, Gemini) and its `arguments` (a JSON text,
// Open Responses).
//
// | Gemini `args`                | Open Responses `arguments`                                        |
// |------------------------------|-------------------------------------------------------------------|
// | an object                    | JSON.stringify(args): member order kept                           |
// | absent                       | "{}": a call without parameters; reported, and the way back       |
// |                              |   writes `args: {}`                                               |
// | a string                     | the string as written: the arguments text of a writer that could  |
// |                              |   not parse it; reported                                          |
// | any other value              | its JSON text: reported; the gate judges it against the schema    |
//
// | Open Responses `arguments`   | Gemini `args`                                                     |
// |------------------------------|-------------------------------------------------------------------|
// | the text of a JSON object    | the parsed object; a name given twice or a number a double does   |
// |                              |   not hold is reported, and so is other spelling (spaces, escapes)|
// |                              |   that the object's JSON text does not keep (inexact-json.ts)     |
// | ""                           | {}: reported (providers write "" for a call without parameters)   |
// | anything else                | the text as a string: target_rejects. Gemini rejects the request  |
// |                              |   rather than run a call whose arguments were never an object;    |
// |                              |   {} would forge a call                                           |
import type { Loss } from "../../src/models/loss.js";
import { argumentsAsObject } from "../../src/models/inexact-json.js";
import { argumentsOfStringInput } from "../../src/models/string-input.js";
import { isRecord } from "./fields.js";

export type ArgsLoss = { code: Loss["code"]; detail: string };

export function argumentsOfArgs(args: unknown): { value: string; loss?: ArgsLoss } {
  if (args === undefined) return { value: "{}", loss: { code: "synthesized", detail: "a functionCall without args: arguments \"{}\" written, a call without parameters" } };
  if (typeof args === "string") return argumentsOfStringInput(args, "args");
  const text = JSON.stringify(args);
  if (!isRecord(args)) return { value: text, loss: { code: "form_changed", detail: `args is ${Array.isArray(args) ? "an array" : String(args)}, not an object: its JSON text is the arguments; the gate judges it` } };
  return { value: text };
}

export function argsOfArguments(text: unknown): { value: unknown; loss?: ArgsLoss } {
  if (text === "") return { value: {}, loss: { code: "form_changed", detail: "empty arguments written as the empty args {}" } };
  if (typeof text !== "string") return { value: text, loss: { code: "target_rejects", detail: "arguments are not a string: written as they are, which Gemini rejects unless they are an object" } };
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) {
      return argumentsAsObject(text, parsed, "args", "Gemini");
    }
  } catch {
    // Not JSON: written as the text below.
  }
  return { value: text, loss: { code: "target_rejects", detail: "arguments are not the text of a JSON object: written as the string, which Gemini rejects" } };
}
