// A functionResponse's `response` (a JSON object) and a function_call_output's
// `output` (text or parts).
//
// | Gemini `response`                          | Open Responses `output`                                |
// |--------------------------------------------|--------------------------------------------------------|
// | {output: text}, the text not itself the    | the text: the form Gemini's documentation gives a plain |
// |   text of a JSON object                    |   result, unwrapped                                    |
// | any other object                           | JSON.stringify(response): member order kept; reported  |
// |                                            |   (form_changed), as the output is text, not an object |
// | absent or not an object                    | its JSON text, or "": reported                         |
//
// | Open Responses `output`                    | Gemini `response`                                      |
// |--------------------------------------------|--------------------------------------------------------|
// | the text of a JSON object                  | the parsed object; reported (form_changed) when its    |
// |                                            |   JSON text is not the output's (a number a double     |
// |                                            |   cannot hold, a name twice, other spelling), or when  |
// |                                            |   it is {output: text}, which reads back as the text   |
// | any other text                             | {output: text}                                         |
// | parts                                      | the texts joined as above (reported when several, or   |
// |                                            |   when one is all the output holds: it comes back as   |
// |                                            |   text); the other parts go to functionResponse `parts` |
// | no parts                                   | {output: ""}, which reads back as text: reported       |
// | files alone                                | {output: ""} beside them, which reads back as no text; |
// |                                            |   empty text parts beside files are reported           |
import type { Loss } from "../../src/models/loss.js";
import { isRecord, lossAt, typeOf, type Fields, type PointerTokens } from "./fields.js";
import { partOfInput } from "./parts.js";
import { argumentsObjectChange } from "../../src/models/inexact-json.js";

export function outputOfResponse(response: unknown, at: PointerTokens, losses: Loss[]): string {
  if (isRecord(response)) {
    if (readsAsPlainText(response)) return response.output as string;
    // An output is text or parts: the structure lives on in the text, which the way back parses.
    losses.push(lossAt(at, "form_changed", "the response object is written as its JSON text, member order kept; the way back parses it again"));
    return JSON.stringify(response);
  }
  losses.push(lossAt(at, "form_changed", `a response that is ${typeOf(response)}, not an object: ${response === undefined ? "an empty output" : "its JSON text"} written`));
  return response === undefined ? "" : JSON.stringify(response);
}

export function responseOfOutput(output: unknown, at: PointerTokens, losses: Loss[]): { response: unknown; parts?: Fields[] } {
  if (typeof output === "string") return { response: responseOfText(output, at, losses) };
  if (!Array.isArray(output)) {
    losses.push(lossAt(at, "target_rejects", `an output that is ${typeOf(output)}: written as {output: its JSON text}`));
    return { response: { output: JSON.stringify(output) ?? "" } };
  }
  const texts: string[] = [];
  const parts: Fields[] = [];
  output.forEach((part: unknown, index) => {
    if (isRecord(part) && part.type === "input_text" && typeof part.text === "string") texts.push(part.text);
    else {
      const converted = partOfInput(part, [...at, index], losses);
      if (converted) parts.push(converted);
    }
  });
  // A result of no parts is written as a result of no text is, {output: ""}, which the way back reads as text.
  if (output.length === 0) losses.push(lossAt(at, "form_changed", "an output of no parts written as an empty text result: it comes back as text, not as parts"));
  if (texts.length > 1) losses.push(lossAt(at, "form_changed", `${texts.length} text parts joined into one response`));
  // A functionResponse holds no text part, only the response: with no file beside it, the way back reads text where the output held parts.
  if (texts.length === 1 && parts.length === 0) losses.push(lossAt(at, "form_changed", "a text part written as the response's text: a Gemini result holds files as parts, never text"));
  // The way back reads an empty text beside files as none: an empty part given here does not come back.
  if (texts.length > 0 && texts.every((text) => text === "") && parts.length > 0) losses.push(lossAt(at, "form_changed", "an empty text beside files is no part of a Gemini result: written as the files alone"));
  const response = responseOfText(texts.join(""), at, losses);
  return parts.length > 0 ? { response, parts } : { response };
}

function responseOfText(text: string, at: PointerTokens, losses: Loss[]): unknown {
  if (!isObjectText(text)) return { output: text };
  const parsed: unknown = JSON.parse(text);
  const change = argumentsObjectChange(text, parsed, "response", "output");
  if (change !== undefined) losses.push(lossAt(at, "form_changed", change));
  // {output: text} is how Gemini writes a plain result, and the way back unwraps it:
  // an object of that one member comes back as its text, not as the object's text.
  // Wrapping it again would not help, as an object's text is never unwrapped.
  if (readsAsPlainText(parsed)) losses.push(lossAt(at, "form_changed", "the output text is the object {output: text}, which is how Gemini writes a plain result: it reads back as the text it holds, not as the object"));
  return parsed;
}

/** Whether a response object is the one `outputOfResponse` unwraps into the text it holds. */
function readsAsPlainText(response: unknown): boolean {
  if (!isRecord(response)) return false;
  const keys = Object.keys(response);
  return keys.length === 1 && keys[0] === "output" && typeof response.output === "string" && !isObjectText(response.output);
}

function isObjectText(text: string): boolean {
  // Only a text whose first character past JSON's whitespace is `{` parses to an
  // object: any other is told without a parse, which throws for most results.
  if (!opensObject(text)) return false;
  try {
    return isRecord(JSON.parse(text));
  } catch {
    return false;
  }
}

/** Whether the first character of `text` past JSON's whitespace (space, tab, line feed, carriage return) is `{`. */
function opensObject(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) continue;
    return code === 0x7b;
  }
  return false;
}
