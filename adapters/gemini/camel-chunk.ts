// A stream chunk as the API writes it: its fields in camelCase, none of them
// null. The Python SDK (google-genai) and ADK record `generate_content_stream`
// chunks as `model_dump()` JSON, every field in snake_case and every field the
// chunk does not hold written null; pydantic reads either spelling, and a null
// as the field left out. The stream assembler joins chunks by their fields'
// names, so it reads each chunk in one spelling: a dumped stream then joins
// into the response its camelCase twin joins into. Nulls are dropped only from
// a dump (a chunk that writes a name in snake_case): the API's JSON writes none,
// and a null it holds is read as written.
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
// refuses such a chunk (`extra='forbid'`), so the two read it apart (`twice`),
// even where one of the two is null (`functionCall: null` beside a
// `function_call`: a reader of the API's JSON sees no call there).
import { pointerToken } from "../../src/models/json-pointer.js";
import { setOwn } from "../../src/models/json-value.js";
import { isRecord, type Fields } from "./fields.js";

export interface CamelChunk {
  /** The chunk in camelCase without nulls; the chunk itself when it was so already. */
  chunk: Fields;
  /** Whether a field was written in snake_case, and whether one was written in camelCase (a name with a capital). */
  snake: boolean;
  camel: boolean;
  /** The same, for the names of its calls alone: a part's functionCall, the call's fields and its pieces'. */
  callSnake: boolean;
  callCamel: boolean;
  /** The first field given in both spellings, where it was given in snake_case. */
  twice?: string;
  /** Whether a null was left out. */
  droppedNull: boolean;
}

/** The levels of a chunk whose fields are respelled, and the fields that lead from each to the next (`list`: an array of them). */
type Level = "chunk" | "candidate" | "content" | "part" | "call" | "piece";
const CHILDREN: Readonly<Record<Level, Readonly<Record<string, { level: Level; list: boolean }>>>> = {
  chunk: { candidates: { level: "candidate", list: true } },
  candidate: { content: { level: "content", list: false } },
  content: { parts: { level: "part", list: true } },
  part: { functionCall: { level: "call", list: false } },
  call: { partialArgs: { level: "piece", list: true } },
  piece: {},
};

/** A snake_case name of one or more words, which a camelCase name was written as. */
const SNAKE_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
/** A camelCase name with a capital, which no snake_case name is. */
const CAMEL_NAME = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;

/** How a field's name is spelled, and the name it is read by. */
interface Spelled {
  name: string;
  snake: boolean;
  camel: boolean;
}

/**
 * The names worked out so far: every chunk of a stream writes the same few,
 * and two regular expressions and a replace per field were most of the cost of
 * reading a dumped chunk. Bounded, though a chunk's names are the writer's.
 */
const SPELLINGS = new Map<string, Spelled>();
const MAX_SPELLINGS = 512;

function spelledOf(key: string): Spelled {
  let spelled = SPELLINGS.get(key);
  if (spelled === undefined) {
    const snake = SNAKE_NAME.test(key);
    spelled = { name: snake ? camelOf(key) : key, snake, camel: !snake && CAMEL_NAME.test(key) };
    if (SPELLINGS.size < MAX_SPELLINGS) SPELLINGS.set(key, spelled);
  }
  return spelled;
}

/** The chunk in the API's camelCase, without the nulls a dump writes for the fields it does not hold (a chunk of camelCase names keeps its nulls). */
export function camelChunk(chunk: Fields): CamelChunk {
  let read = respelled(chunk, false);
  // Only a dump writes null for a field it does not hold: a chunk of no snake_case
  // name is the API's JSON, whose null a reader of it takes as written
  // (`args: null` runs a tool with null, not with {}), so it keeps its nulls.
  if (!read.snake && read.droppedNull) read = respelled(chunk, true);
  // Where, found again only for the rare chunk that has one: the walk above builds no pointers.
  if (read.twice !== undefined) read.twice = givenTwiceAt(chunk, "chunk", "");
  return read;
}

function respelled(chunk: Fields, keepNulls: boolean): CamelChunk {
  const read: CamelChunk = { chunk, snake: false, camel: false, callSnake: false, callCamel: false, droppedNull: false };
  read.chunk = respell(chunk, "chunk", read, keepNulls) as Fields;
  return read;
}

/**
 * The value respelled, or the value itself when it was in camelCase without
 * nulls already: nearly every chunk of a camelCase stream costs a look at its
 * keys and no copy.
 */
function respell(value: unknown, level: Level, read: CamelChunk, keepNulls: boolean): unknown {
  if (!isRecord(value)) return value;
  let out: Fields | undefined;
  const keys = Object.keys(value);
  const inCall = level === "call" || level === "piece";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const said = value[key];
    const { name, snake, camel } = spelledOf(key);
    const child = Object.hasOwn(CHILDREN[level], name) ? CHILDREN[level][name] : undefined;
    if (snake) {
      read.snake = true;
      if (inCall || child?.level === "call") read.callSnake = true;
    } else if (camel) {
      read.camel = true;
      if (inCall || child?.level === "call") read.callCamel = true;
    }
    const respelled = said === null || child === undefined ? said : child.list ? respellList(said, child.level, read, keepNulls) : respell(said, child.level, read, keepNulls);
    // Given in both spellings, a null one too: pydantic refuses the chunk, and a reader of the API's
    // JSON reads the camelCase one, so a null there hides what the snake_case one holds.
    const twice = snake && Object.hasOwn(value, name);
    if (twice) read.twice ??= "";
    if (out === undefined && !snake && (said !== null || keepNulls) && respelled === said) continue;
    // The members before this one went through as they were: copied now, in their order.
    if (out === undefined) {
      out = {};
      for (let j = 0; j < i; j++) if (keepNulls || value[keys[j]!] !== null) setMember(out, keys[j]!, value[keys[j]!]);
    }
    // Given in both spellings: the camelCase value stays, whichever came first, and a null one leaves the field out.
    if (twice) continue;
    if (said === null && !keepNulls) {
      read.droppedNull = true;
      continue;
    }
    setMember(out, name, respelled);
  }
  return out ?? value;
}

function respellList(value: unknown, level: Level, read: CamelChunk, keepNulls: boolean): unknown {
  if (!Array.isArray(value)) return value;
  let out: unknown[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const respelled = respell(value[i], level, read, keepNulls);
    if (respelled !== value[i]) (out ??= value.slice())[i] = respelled;
  }
  return out ?? value;
}

/** The pointer to the first field given in both spellings, at the snake_case one. */
function givenTwiceAt(value: unknown, level: Level, at: string): string | undefined {
  if (!isRecord(value)) return undefined;
  for (const key of Object.keys(value)) {
    const said = value[key];
    const { name, snake } = spelledOf(key);
    const here = `${at}/${pointerToken(key)}`;
    if (snake && Object.hasOwn(value, name)) return here;
    if (said === null) continue;
    const child = Object.hasOwn(CHILDREN[level], name) ? CHILDREN[level][name] : undefined;
    if (child === undefined) continue;
    const found = child.list ? (Array.isArray(said) ? said.reduce<string | undefined>((first, element, index) => first ?? givenTwiceAt(element, child.level, `${here}/${index}`), undefined) : undefined) : givenTwiceAt(said, child.level, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Sets a member; `__proto__` as an own member, never as the prototype. */
function setMember(target: Fields, key: string, value: unknown): void {
  if (key === "__proto__") setOwn(target, key, value);
  else target[key] = value;
}

function camelOf(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}
