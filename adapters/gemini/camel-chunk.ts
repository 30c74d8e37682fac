// A stream chunk as the API writes it: its fields in camelCase, none of them
// null. The Python SDK (google-genai) and ADK record `generate_content_stream`
// chunks as `model_dump()` JSON, every field in snake_case and every field the
// chunk does not hold written null; pydantic reads either spelling, and a null
// as the field left out. The stream assembler joins chunks by their fields'
// names, so it reads each chunk in one spelling: a dumped stream then joins
// into the response its camelCase twin joins into.
//
// | level                      | fields respelled, nulls dropped | what goes on respelled      |
// |----------------------------|---------------------------------|-----------------------------|
// | the chunk                  | yes                             | candidates                  |
// | a candidate                | yes                             | content                     |
// | its content                | yes                             | parts                       |
// | a part                     | yes                             | functionCall                |
// | a functionCall             | yes                             | partialArgs (not args)      |
// | a partialArgs piece        | yes                             | nothing                     |
// | any other value            | no: as written                  |                             |
//
// Only these levels hold the fields the stream is joined by; below them a value
// is the model's (`args`, a result) or a field kept as written (usage, ratings),
// which the converter reads in either spelling. A field given in both spellings
// keeps the camelCase value, as a reader of the API's JSON does; pydantic
// refuses such a chunk (`extra='forbid'`), so the two read it apart (`twice`).
import { pointerToken } from "../../src/models/json-pointer.js";
import { setOwn } from "../../src/models/json-value.js";
import { isRecord, type Fields } from "./fields.js";

export interface CamelChunk {
  /** The chunk in camelCase without nulls; the chunk itself when it was so already. */
  chunk: Fields;
  /** Whether a field was written in snake_case, and whether one was written in camelCase (a name with a capital). */
  snake: boolean;
  camel: boolean;
  /** The first field given in both spellings, where it was given in snake_case. */
  twice?: string;
}

type Level = (value: unknown, at: string, read: CamelChunk) => unknown;

/** A snake_case name of one or more words, which a camelCase name was written as. */
const SNAKE_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
/** A camelCase name with a capital, which no snake_case name is. */
const CAMEL_NAME = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;

const listOf =
  (level: Level): Level =>
  (value, at, read) => {
    if (!Array.isArray(value)) return value;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const respelled = level(value[i], `${at}/${i}`, read);
      if (respelled !== value[i]) (out ??= value.slice())[i] = respelled;
    }
    return out ?? value;
  };

const objectOf =
  (children: Readonly<Record<string, Level>>): Level =>
  (value, at, read) => {
    if (!isRecord(value)) return value;
    let out: Fields | undefined;
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const said = value[key];
      const snake = SNAKE_NAME.test(key);
      if (snake) read.snake = true;
      else if (!read.camel && CAMEL_NAME.test(key)) read.camel = true;
      const name = snake ? camelOf(key) : key;
      const child = Object.hasOwn(children, name) ? children[name] : undefined;
      const respelled = said === null || child === undefined ? said : child(said, `${at}/${pointerToken(key)}`, read);
      if (out === undefined && !snake && said !== null && respelled === said) continue;
      // The members before this one went through as they were: copied now, in their order.
      if (out === undefined) {
        out = {};
        for (let j = 0; j < i; j++) if (value[keys[j]!] !== null) setOwn(out, keys[j]!, value[keys[j]!]);
      }
      if (said === null) continue;
      // Given in both spellings: the camelCase value stays, whichever came first.
      if (snake && Object.hasOwn(value, name) && value[name] !== null) {
        read.twice ??= `${at}/${pointerToken(key)}`;
        continue;
      }
      setOwn(out, name, respelled);
    }
    return out ?? value;
  };

const piece = objectOf({});
const functionCall = objectOf({ partialArgs: listOf(piece) });
const part = objectOf({ functionCall });
const content = objectOf({ parts: listOf(part) });
const candidate = objectOf({ content });
const chunkLevel = objectOf({ candidates: listOf(candidate) });

/** The chunk in the API's camelCase, without the nulls a dump writes for the fields it does not hold. */
export function camelChunk(chunk: Fields): CamelChunk {
  const read: CamelChunk = { chunk, snake: false, camel: false };
  read.chunk = chunkLevel(chunk, "", read) as Fields;
  return read;
}

function camelOf(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}
