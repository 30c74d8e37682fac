// What a JSON text says that the value JSON.parse gives of it does not hold: an
// envelope whose calls carry an input object (Anthropic, Gemini, Bedrock) writes
// that value, so a converter names what it cannot carry instead of changing a
// call's arguments in passing. Their spelling (spaces, escapes, `1.0`) is not
// value, but the text is what a journal keeps, so it is named too.
import { readsBackAsWritten, shownLiteral } from "./decimal-value.js";
import { scanJson } from "./json-scan.js";

/**
 * Why arguments written as an object (`noun`: what the envelope calls it) do
 * not come back as the same text, or `undefined` when they do: a value the
 * object does not hold first, else the spelling.
 */
export function argumentsObjectChange(text: string, parsed: unknown, noun: string, textNoun = "arguments"): string | undefined {
  // The object's own JSON text names each member once and writes each number as its double: nothing to walk for.
  if (JSON.stringify(parsed) === text) return undefined;
  const inexact = inexactness(text);
  if (inexact !== undefined) return `${inexact}: the ${noun} object does not hold what the ${textNoun} text says`;
  return spellingChange(noun, textNoun);
}

function spellingChange(noun: string, textNoun: string): string {
  return `the ${textNoun} text becomes the ${noun} object, whose JSON text is spelled otherwise (spaces, escapes or number forms): the values are kept, not the text`;
}

/**
 * A call's arguments text as the object an envelope writes (`noun`: what the
 * envelope calls it; `target`: its name), or the text itself when the object
 * would not hold what the text says: a name given twice (which value a tool
 * reads depends on its parser) or a number a double does not hold. The object
 * would be a call whose value no one wrote, and which the gate may pass where
 * it blocked the text; written as the text, the target rejects it and the gate
 * still blocks it. `parsed`: the text read by JSON.parse, an object.
 */
export function argumentsAsObject(text: string, parsed: object, noun: string, target: string): { value: unknown; loss?: { code: "form_changed" | "target_rejects"; detail: string } } {
  if (JSON.stringify(parsed) === text) return { value: parsed };
  const inexact = inexactness(text);
  if (inexact !== undefined) return { value: text, loss: { code: "target_rejects", detail: `${inexact}: the ${noun} object would not hold what the arguments text says, so the text is written as it is, which ${target} rejects` } };
  return { value: parsed, loss: { code: "form_changed", detail: spellingChange(noun, "arguments") } };
}

/**
 * What JSON.parse does not keep of a JSON text it accepted, the first in the
 * text: a member name given twice in one object (the last value wins) or a
 * number whose value a double does not hold. Spacing and escapes are spelling,
 * not value.
 */
export function inexactness(text: string): string | undefined {
  // The names met so far in each open object; `undefined` for an array.
  const open: Array<Set<string> | undefined> = [];
  let found: string | undefined;
  scanJson(text, {
    enter: (isObject) => void open.push(isObject ? new Set() : undefined),
    leave: () => void open.pop(),
    name: (name) => {
      const names = open[open.length - 1]!;
      if (!names.has(name)) {
        names.add(name);
        return false;
      }
      found = `the name ${JSON.stringify(name)} is given twice in one object`;
      return true;
    },
    number: (literal) => {
      if (readsBackAsWritten(literal)) return false;
      found = `the number ${shownLiteral(literal)} is not one a double holds`;
      return true;
    },
  });
  return found;
}
