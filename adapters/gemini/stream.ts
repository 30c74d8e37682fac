// Rebuilds Gemini responses from `streamGenerateContent` chunks. Each chunk is a
// partial GenerateContentResponse; the chunks of one response are joined into
// the response the non-streamed API would have returned, and that goes through
// generateContentToResponse, so a streamed answer and its non-streamed twin give
// the same items. Nothing is final until the stream says so.
//
// | chunk                                        | effect                                                 |
// |----------------------------------------------|--------------------------------------------------------|
// | another responseId than the open response's, | closes the open response and opens another             |
// |   or a chunk without the same responseId     |                                                        |
// |   after every candidate finished             |                                                        |
// | candidates[k] (by `index`, else position)    | the candidate k of the response                        |
// |   text part                                  | appended to the candidate's last part when that is text of the |
// |                                              |   same kind (thought or not) without a thoughtSignature yet; a |
// |                                              |   signature arriving with it is set there               |
// |   functionCall with a name, no willContinue  | a whole call part                                      |
// |   functionCall {name, willContinue: true}    | opens a call whose args come in pieces                 |
// |   functionCall {partialArgs, willContinue}   | each piece sets the value at its jsonPath; a string    |
// |                                              |   whose piece said it will continue is appended to; any |
// |                                              |   other piece for a path already set, a piece with two  |
// |                                              |   values, or a jsonPath with an escape leaves the       |
// |                                              |   response's calls incomplete                          |
// |   functionCall {} (no willContinue)          | closes the call: arguments are the args built          |
// |   a piece or close that names the call, or   | the response's calls are incomplete: a reader that     |
// |     gives its id, otherwise than it opened   |   takes the last name reads another call               |
// |   any other part                             | appended whole                                         |
// |   finishReason, safetyRatings, other fields  | set on the candidate, the last value kept              |
// |   a finishReason other than the candidate's  | every call of the response is incomplete (a reader     |
// |     first                                    |   that stops at the first sees them end otherwise)     |
// |   a part after the candidate's finishReason  | appended; every call of the response is incomplete     |
// |                                              |   (a reader that stops there sees other calls), reported|
// | usageMetadata, promptFeedback                | the last value kept                                    |
// | a promptFeedback without the blockReason an  | every call of the response is incomplete (a reader     |
// |   earlier chunk gave, or with another        |   of that chunk saw the prompt blocked)                |
// | responseId, modelVersion, createTime         | the first value kept                                   |
// | the end of the recording                     | the open response as far as it got; a candidate without |
// |                                              |   finishReason, or with a call still open, leaves its   |
// |                                              |   calls in_progress: reported                           |
// | a whole response on a JSON line (a chunk with | the next chunk of the open response (`continues`): the  |
// |   every finishReason) with the open response's|   last chunk of a stream kept one chunk per line, or   |
// |   responseId                                 |   one that goes on after it finished                   |
// | a chunk dumped by the Python SDK: snake_case | read as its camelCase twin, nulls as fields left out    |
// |   fields, null for each it does not hold     |   (camel-chunk.ts); losses name its fields as written  |
// | a chunk of the other spelling than the       | every call of the response is incomplete (the Python   |
// |   response's chunks before it, one field in  |   SDK joins the two, a reader of camelCase reads none  |
// |   both spellings, or calls' fields in both   |   of the snake_case fields), reported                  |
//
// Every chunk says the response's own fields again (usageMetadata, modelVersion,
// responseId, each candidate's finishReason and index), and none is in an item.
// What normalize writes (`items`, `losses`) leaves each one behind where its
// chunk said it. What convert writes (`record`) is the response object the
// joined response amounts to, which holds the values kept above; a value of an
// earlier chunk that a later one replaced is reported where it was said.
import { stoppedCall, type AssembledResponse, type StreamLoss } from "../../src/models/assembled-response.js";
import type { Loss } from "../../src/models/loss.js";
import type { IdlessResponses } from "../../src/models/idless-responses.js";
import type { CallPairing } from "./call-ids.js";
import { pointerToken } from "../../src/models/json-pointer.js";
import { setOwn } from "../../src/models/json-value.js";
import { camelChunk, type CamelChunk } from "./camel-chunk.js";
import { isPresent, isRecord, read, snakeOf, typeOf, type Fields } from "./fields.js";
import { finishReasonName, generateContentToResponse } from "./generate-content-to-response.js";
import { writtenPath } from "./written-path.js";

export interface GeminiStreamOptions {
  /** Also give each response the GenerateContentResponse its chunks amount to (`GeminiAssembledResponse.response`). */
  response?: boolean;
  /** The journal's pairing, which the calls of each response continue. */
  pairing?: CallPairing;
  /** The journal's count of responses without responseId, which each such response continues. */
  responses?: IdlessResponses;
}

export interface GeminiAssembledResponse extends AssembledResponse {
  /** The non-streamed response the chunks amount to; kept when the assembler is asked to. */
  response?: Fields;
}

interface PartState {
  part: Fields;
  /** Where the part first came: its chunk's line and its place there. */
  line: number;
  path: string;
  /** Args of a call still coming in pieces. */
  building?: Fields;
  /** For each jsonPath a piece of the call set (its steps as JSON), whether that piece said more of it follows (`willContinue`). */
  pieces?: Map<string, boolean>;
  open?: boolean;
  /** Set when a piece of the call was not applied, or a chunk also gave the call whole args: its args are not sure to be the model's. */
  doubted?: boolean;
}

interface CandidateState {
  fields: Fields;
  parts: PartState[];
  role?: unknown;
  /** The first parts that came after the candidate's finishReason, and the line of that finishReason. */
  late?: { line: number; path: string; finished: number };
  /** The line of the candidate's last finishReason. */
  finishedAt?: number;
  /** The first finishReason the candidate gave, in either spelling, and its line. */
  reason?: { value: string; line: number };
  /** The first finishReason that said otherwise than `reason`, and where. */
  endedTwoWays?: { line: number; path: string; value: string };
}

/** A field of the response or of a candidate, as one chunk said it. */
interface Said {
  line: number;
  path: string;
  key: string;
  value: unknown;
  /** The candidate it belongs to; absent for a field of the response. */
  candidate?: number;
}

interface OpenResponse {
  line: number;
  lastLine: number;
  fields: Fields;
  said: Said[];
  candidates: Map<number, CandidateState>;
  losses: StreamLoss[];
  finished: boolean;
  /** The first blockReason a chunk's promptFeedback gave, and its line. */
  blocked?: { value: unknown; line: number };
  /** The first promptFeedback after it that gave no blockReason or another, and where. */
  unblocked?: { line: number; path: string; value: unknown };
  /** The chunks written otherwise than they were read (in snake_case, with nulls), by line: losses name their fields as written. */
  written?: Map<number, Fields>;
  /** The spelling of the first chunk that wrote a field in one (camelCase, or snake_case), and its line. */
  spelling?: { snake: boolean; line: number };
  /** The spelling of the first chunk that wrote a call's field in one, and its line. */
  callSpelling?: { snake: boolean; line: number };
  /** The first chunk that two readers of the chunks read apart for their spelling, and why. */
  respelled?: { line: number; path: string; detail: string };
}

export class GeminiStreamAssembler {
  /** A chunk's functionCall writes `args` as an object. */
  readonly argumentsAsObjects = true;
  private current: OpenResponse | undefined;

  constructor(private readonly options: GeminiStreamOptions = {}) {}

  push(chunk: unknown, line: number): GeminiAssembledResponse[] {
    if (!isRecord(chunk)) throw new TypeError("not a Gemini stream chunk: not an object");
    // Read in the API's spelling, so that a dumped chunk joins as its camelCase twin does.
    const read = camelChunk(chunk);
    const fields = read.chunk;
    const closed: GeminiAssembledResponse[] = [];
    const open = this.current;
    // A chunk of the same responseId after every candidate finished is no new response: it goes on the
    // finished one, whose calls a reader that reads on sees otherwise (parts after a finishReason, below).
    const sameId = typeof fields.responseId === "string" && typeof open?.fields.responseId === "string" && fields.responseId === open.fields.responseId;
    if (open && ((open.finished && !sameId) || (typeof fields.responseId === "string" && typeof open.fields.responseId === "string" && fields.responseId !== open.fields.responseId))) {
      closed.push(...this.finish());
    }
    const response: OpenResponse = (this.current ??= { line, lastLine: line, fields: {} as Fields, said: [], candidates: new Map<number, CandidateState>(), losses: [], finished: false });
    response.lastLine = line;
    if (fields !== chunk) (response.written ??= new Map()).set(line, chunk);
    noteSpelling(response, read, line);
    notePromptBlock(response, fields, line);
    for (const [key, value] of Object.entries(fields)) {
      if (key === "candidates") continue;
      response.said.push({ line, path: `/${pointerToken(key)}`, key, value });
      if (key === "responseId" || key === "modelVersion" || key === "createTime") {
        if (!(key in response.fields)) response.fields[key] = value;
      } else response.fields[key] = value;
    }
    if (Array.isArray(fields.candidates)) {
      fields.candidates.forEach((candidate: unknown, position) => this.mergeCandidate(response, candidate, position, line));
      response.finished = response.candidates.size > 0 && [...response.candidates.values()].every((state) => saysWhyFinished(state.fields));
    }
    return closed;
  }

  /**
   * Whether a record that reads as a whole response is the last chunk of the
   * open one: a stream kept one chunk per JSON line ends with a chunk whose
   * candidates all finished, which has the shape of a stored response.
   */
  continues(record: unknown): boolean {
    const open = this.current;
    if (open === undefined || !isRecord(record)) return false;
    const responseId = isPresent(record.responseId) ? record.responseId : record.response_id;
    return typeof responseId === "string" && responseId === open.fields.responseId;
  }

  finish(): GeminiAssembledResponse[] {
    const open = this.current;
    if (!open) return [];
    this.current = undefined;
    return [assemble(open, this.options)];
  }

  private mergeCandidate(response: OpenResponse, candidate: unknown, position: number, line: number): void {
    if (!isRecord(candidate)) {
      response.losses.push({ line, path: `/candidates/${position}`, code: "unsupported_item", detail: `a ${typeOf(candidate)} is not a candidate: not applied` });
      return;
    }
    const index = typeof candidate.index === "number" ? candidate.index : position;
    let state = response.candidates.get(index);
    if (!state) {
      state = { fields: {}, parts: [] };
      response.candidates.set(index, state);
    }
    const finished = state.finishedAt;
    if (saysWhyFinished(candidate)) state.finishedAt = line;
    noteFinishReason(state, candidate, line, `/candidates/${position}`);
    for (const [key, value] of Object.entries(candidate)) {
      if (key === "content") continue;
      state.fields[key] = value;
      response.said.push({ line, path: `/candidates/${position}/${pointerToken(key)}`, key, value, candidate: index });
    }
    const content = candidate.content;
    if (!isRecord(content)) return;
    if (content.role !== undefined) state.role ??= content.role;
    const parts: unknown[] = Array.isArray(content.parts) ? content.parts : [];
    if (finished !== undefined && parts.some(holdsSomething)) state.late ??= { line, path: `/candidates/${position}/content/parts`, finished };
    parts.forEach((part, partIndex) => mergePart(state!, part, line, `/candidates/${position}/content/parts/${partIndex}`, response.losses));
  }
}

/**
 * Keeps the spelling of the response's first chunk that writes a field in
 * one, and the first chunk that two readers read apart for its spelling: one
 * that gives a field in both spellings (pydantic refuses it, a reader of the
 * API's JSON takes the camelCase value), or one of snake_case fields in a
 * response of camelCase chunks or the other way round. The Python SDK reads
 * either spelling in each chunk and joins them; js-genai, as any reader of the
 * API's JSON, reads none of the snake_case fields (a call, a finishReason), so
 * the two see other calls. A chunk of both spellings is read as a dump, but
 * for the names of its calls: a call whose fields, or a response whose calls,
 * are written in both (`functionCall {name, will_continue}`: a whole call
 * without args to a reader of camelCase, the first of its pieces to pydantic)
 * is read apart by the two, and no writer writes one.
 */
function noteSpelling(response: OpenResponse, read: CamelChunk, line: number): void {
  if (response.respelled !== undefined) return;
  if (read.twice !== undefined) {
    response.respelled = { line, path: read.twice, detail: "a field given in both camelCase and snake_case: a reader of the API's JSON takes the camelCase one, the Python SDK refuses the chunk, so the response's calls are written incomplete" };
    return;
  }
  if (read.callSnake || read.callCamel) {
    const spelling = read.callSnake && read.callCamel ? undefined : (response.callSpelling ??= { snake: read.callSnake, line });
    if (spelling === undefined || spelling.snake !== read.callSnake) {
      const how = spelling === undefined ? "both camelCase and snake_case" : `${read.callSnake ? "snake_case" : "camelCase"}, where line ${spelling.line} wrote them in ${spelling.snake ? "snake_case" : "camelCase"}`;
      response.respelled = { line, path: "", detail: `this chunk writes the fields of calls in ${how}: the Python SDK reads both and joins them, a reader of the API's camelCase (js-genai) reads none of the snake_case fields, so the response's calls are written incomplete` };
      return;
    }
  }
  if (!read.snake && !read.camel) return;
  if (response.spelling === undefined) response.spelling = { snake: read.snake, line };
  else if (response.spelling.snake !== read.snake) {
    const [now, then] = read.snake ? ["snake_case", "camelCase"] : ["camelCase", "snake_case"];
    response.respelled = { line, path: "", detail: `this chunk writes its fields in ${now}, where line ${response.spelling.line} wrote them in ${then}: the Python SDK reads both and joins them, a reader of the API's camelCase (js-genai) reads none of the snake_case fields, so the response's calls are written incomplete` };
  }
}

/**
 * Keeps the first blockReason a chunk's promptFeedback gave, and the first
 * later promptFeedback that gives none or another: the joined response keeps
 * the last, and a reader of the earlier chunk saw the prompt blocked.
 */
function notePromptBlock(response: OpenResponse, chunk: Fields, line: number): void {
  for (const key of ["promptFeedback", "prompt_feedback"]) {
    const feedback = chunk[key];
    if (feedback === undefined || !Object.hasOwn(chunk, key)) continue;
    const reason = isRecord(feedback) ? (feedback.blockReason ?? feedback.block_reason ?? undefined) : undefined;
    if (response.blocked === undefined) {
      if (reason !== undefined && reason !== null) response.blocked = { value: reason, line };
    } else if (reason !== response.blocked.value) response.unblocked ??= { line, path: `/${key}`, value: reason };
  }
}

/**
 * Keeps the candidate's first finishReason, and the first later one that says
 * otherwise: the joined candidate keeps the last, and a reader that stops at
 * the first (or reads each chunk as it comes) sees its calls end another way.
 */
function noteFinishReason(state: CandidateState, candidate: Fields, line: number, path: string): void {
  const key = finishReasonName(candidate.finishReason) !== null ? "finishReason" : finishReasonName(candidate.finish_reason) !== null ? "finish_reason" : undefined;
  if (key === undefined) return;
  const value = finishReasonName(candidate[key])!;
  if (state.reason === undefined) state.reason = { value, line };
  else if (value !== state.reason.value) state.endedTwoWays ??= { line, path: `${path}/${key}`, value };
}

/** Whether a part adds to its candidate: anything but an empty text. */
function holdsSomething(part: unknown): boolean {
  return !(isRecord(part) && Object.keys(part).length === 1 && part.text === "");
}

function mergePart(state: CandidateState, part: unknown, line: number, path: string, losses: StreamLoss[]): void {
  if (!isRecord(part)) {
    losses.push({ line, path, code: "unsupported_part", detail: `a ${typeOf(part)} is not a part: not applied` });
    return;
  }
  const last = state.parts[state.parts.length - 1];
  const call = read(part, "functionCall");
  if (isRecord(call.value)) {
    const pieces = read(call.value, "partialArgs").value;
    reportFraming(call.value, `${path}/${call.key}`, line, losses);
    const opening = typeof call.value.name === "string" && call.value.willContinue === true;
    if (!opening && last?.open && (Array.isArray(pieces) || Object.keys(call.value).length === 0 || call.value.willContinue === undefined || onlyGoesOn(call.value))) {
      if (namesOtherwise(last, call.value, `${path}/${call.key}`, line, losses)) last.doubted = true;
      if (Array.isArray(pieces)) pieces.forEach((piece, k) => (last.doubted = !applyPiece(last.building!, (last.pieces ??= new Map()), piece, line, `${path}/${call.key}/partialArgs/${k}`, losses) || last.doubted));
      if (call.value.args !== undefined) last.doubted = doubtArgs(`${path}/${call.key}/args`, line, losses);
      if (call.value.willContinue !== true) {
        last.open = false;
        const inner = last.part[call.key] as Fields;
        delete inner.willContinue;
        inner.args = last.building;
      }
      for (const [key, value] of Object.entries(part)) if (key !== call.key) last.part[key] = value;
      return;
    }
    if (opening) {
      const { willContinue: _continues, partialArgs: _pieces, ...inner } = call.value;
      const building: Fields = {};
      const said = new Map<string, boolean>();
      let doubted = false;
      if (Array.isArray(pieces)) pieces.forEach((piece, k) => (doubted = !applyPiece(building, said, piece, line, `${path}/${call.key}/partialArgs/${k}`, losses) || doubted));
      if (call.value.args !== undefined) doubted = doubtArgs(`${path}/${call.key}/args`, line, losses);
      state.parts.push({ part: { ...part, [call.key]: inner }, line, path, building, pieces: said, open: true, doubted });
      return;
    }
    state.parts.push({ part: { ...part }, line, path });
    return;
  }
  if (typeof part.text === "string" && last && typeof last.part.text === "string" && !last.open && (last.part.thought === true) === (part.thought === true) && read(last.part, "thoughtSignature").value === undefined && onlyText(part)) {
    last.part.text += part.text;
    const signature = read(part, "thoughtSignature");
    if (signature.value !== undefined) last.part[signature.key] = signature.value;
    return;
  }
  state.parts.push({ part: { ...part }, line, path });
}

/**
 * Whether a piece of the open call gives it another name or id than the one it
 * opened with, reported: this reader keeps the first, a reader that takes each
 * piece's name and id as they come (Google's ADK aggregator does) keeps the
 * last, so no one call is the stream's.
 */
function namesOtherwise(open: PartState, piece: Fields, at: string, line: number, losses: StreamLoss[]): boolean {
  const opened = read(open.part, "functionCall").value as Fields;
  for (const key of ["name", "id"]) {
    const said = piece[key];
    if (said === undefined || said === null || said === opened[key]) continue;
    losses.push({ line, path: `${at}/${key}`, code: "form_changed", detail: `a piece of the call gives its ${key} as ${JSON.stringify(said)}, where it opened as ${JSON.stringify(opened[key] ?? null)}: a reader that keeps the first and one that takes the last read other calls, so the response's calls are written incomplete` });
    return true;
  }
  return false;
}

/**
 * A functionCall that says only that more will follow (`{willContinue: true}`):
 * Vertex sends one between the pieces of a call's args, after each object of an
 * array is done. It belongs to the open call and adds nothing to it; taken as a
 * call of its own it would split the one call into many nameless ones.
 */
function onlyGoesOn(call: Fields): boolean {
  const keys = Object.keys(call);
  return keys.length === 1 && read(call, "willContinue").value === true;
}

/** The pieces a call's args come in, and the marks that more follow, are spent on the whole call: written, they are its args. */
function reportFraming(call: Fields, at: string, line: number, losses: StreamLoss[]): void {
  const pieces = read(call, "partialArgs");
  const continues = read(call, "willContinue");
  if (Array.isArray(pieces.value) && pieces.value.length > 0) losses.push({ line, path: `${at}/${pieces.key}`, code: "form_changed", detail: "partialArgs pieces are set at their jsonPath into the call's args: the call is written whole" });
  if (continues.value !== undefined) losses.push({ line, path: `${at}/${continues.key}`, code: "form_changed", detail: "willContinue marks a call whose args come in pieces: the call is written once they have all come" });
}

/** A text part that holds nothing but its text, its thought mark and a signature can be appended to another. */
function onlyText(part: Fields): boolean {
  return Object.keys(part).every((key) => key === "text" || key === "thought" || key === "thoughtSignature" || key === "thought_signature");
}

/**
 * The whole args a chunk gives beside the pieces of the same call: the pieces
 * make the args, and a reader that takes the args sees another call. Reported;
 * the call is then not taken as completed.
 */
function doubtArgs(path: string, line: number, losses: StreamLoss[]): true {
  losses.push({ line, path, code: "form_changed", detail: "args given whole beside the call's partialArgs pieces: the pieces make the args, a reader that takes these sees another call, so the response's calls are written incomplete" });
  return true;
}

/** The value fields of a partialArgs piece: it holds one of them. */
const PIECE_VALUES = ["nullValue", "numberValue", "stringValue", "boolValue"];

/**
 * Sets the value a partialArgs piece carries at its jsonPath (`$.a.b[0]`);
 * false, reported, when it cannot be set as written. Only own members are read
 * and written (a step `__proto__` names a member, never a prototype), and an
 * index may extend an array by one element at most, so that no piece leaves a
 * hole or makes an array of billions of slots.
 *
 * A piece continues its jsonPath only when the piece before it there said more
 * would follow (`willContinue`), and only a string continues. Any other piece
 * for a path already set (after its last piece, a number twice, a value over
 * the object built there) one reader appends and another puts in place: it is
 * refused, as is a piece with two values, which a reader of either one reads
 * otherwise. `said` holds, per path, whether its last piece will continue.
 */
function applyPiece(args: Fields, said: Map<string, boolean>, piece: unknown, line: number, path: string, losses: StreamLoss[]): boolean {
  const refuse = (at: string, detail: string) => {
    losses.push({ line, path: at, code: "unsupported_field", detail: `${detail}: not applied, so the response's calls are written incomplete` });
    return false;
  };
  if (!isRecord(piece) || typeof piece.jsonPath !== "string") return refuse(path, "a partialArgs piece without a jsonPath");
  const steps = pathSteps(piece.jsonPath);
  if (steps === undefined || steps.length === 0) return refuse(`${path}/jsonPath`, `jsonPath ${JSON.stringify(piece.jsonPath)} is not of the form $.name or $.name[0]`);
  const valueKeys = PIECE_VALUES.flatMap((key) => [key, snakeOf(key)]).filter((key) => piece[key] !== undefined);
  if (valueKeys.length === 0) return refuse(path, "a partialArgs piece without a value");
  if (valueKeys.length > 1) return refuse(path, `a partialArgs piece with ${valueKeys.length} values (${valueKeys.join(", ")}): a reader of either reads another call`);
  const valueKey = valueKeys[0]!;
  const value = valueKey === "nullValue" || valueKey === "null_value" ? null : piece[valueKey];
  const continues = read(piece, "willContinue").value === true;
  const pathKey = JSON.stringify(steps);
  const before = said.get(pathKey);
  let target: Fields | unknown[] = args;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const last = i === steps.length - 1;
    if (typeof step === "number" ? !Array.isArray(target) || step > target.length : Array.isArray(target)) {
      return refuse(`${path}/jsonPath`, `jsonPath ${JSON.stringify(piece.jsonPath)} does not fit the args built so far (step ${i + 1})`);
    }
    const holder = target as Record<string | number, unknown>;
    const present = Object.hasOwn(holder, step) ? holder[step] : undefined;
    if (last) {
      if (before === true && typeof value === "string" && typeof present === "string") setOwn(holder, step, present + value);
      else if (before !== undefined || present !== undefined) {
        const why = before === false ? "after the piece that said it was the last of it" : before === true ? "continuing a value that is not a string with another" : "where the pieces before built a value";
        return refuse(`${path}/jsonPath`, `a piece for jsonPath ${JSON.stringify(piece.jsonPath)} ${why}: a reader that appends it and one that puts it in place read different args`);
      } else setOwn(holder, step, value);
      said.set(pathKey, continues);
      return true;
    }
    const wanted = typeof steps[i + 1] === "number" ? "array" : "object";
    if (present === undefined) setOwn(holder, step, wanted === "array" ? [] : {});
    else if (wanted === "array" ? !Array.isArray(present) : !isRecord(present)) return refuse(`${path}/jsonPath`, `jsonPath ${JSON.stringify(piece.jsonPath)} goes through a value that is no ${wanted} (step ${i + 1})`);
    target = holder[step] as Fields | unknown[];
  }
  return true;
}

function pathSteps(jsonPath: string): Array<string | number> | undefined {
  if (!jsonPath.startsWith("$")) return undefined;
  const steps: Array<string | number> = [];
  // RFC 9535's shorthand names and quoted names without escapes: a name with an
  // escape (`$['\u0061']`) is refused rather than read one way of several.
  const pattern = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(0|[1-9]\d*)\]|\['([^'\\]*)'\]|\["([^"\\]*)"\]/y;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < jsonPath.length) {
    const start = pattern.lastIndex;
    const match = pattern.exec(jsonPath);
    if (!match || pattern.lastIndex === start) return undefined;
    steps.push(match[2] !== undefined ? Number(match[2]) : (match[1] ?? match[3] ?? match[4])!);
  }
  return steps;
}

function assemble(open: OpenResponse, options: GeminiStreamOptions): GeminiAssembledResponse {
  const losses: StreamLoss[] = [...open.losses];
  const candidates: Fields[] = [];
  const partOrigins: PartState[][] = [];
  for (const index of [...open.candidates.keys()].sort((a, b) => a - b)) {
    const state = open.candidates.get(index)!;
    const cut = state.parts.filter((part) => part.open);
    for (const part of cut) {
      const inner = read(part.part, "functionCall");
      (inner.value as Fields).args = part.building;
      delete (inner.value as Fields).willContinue;
      losses.push({ line: part.line, path: part.path, code: "form_changed", detail: "the stream ended before this call's last piece: it stays in_progress" });
    }
    const candidate: Fields = {};
    if (state.parts.length > 0) candidate.content = { role: state.role ?? "model", parts: state.parts.map((part) => part.part) };
    Object.assign(candidate, state.fields);
    if (cut.length > 0) {
      delete candidate.finishReason;
      delete candidate.finish_reason;
    }
    if (!saysWhyFinished(candidate) && state.parts.length > 0 && cut.length === 0) {
      losses.push({ line: open.lastLine, path: "", code: "form_changed", detail: `the stream ended before candidate ${index} said why it finished: its calls stay in_progress` });
    }
    candidates.push(candidate);
    partOrigins.push(state.parts);
  }
  const response: Fields = {};
  if (candidates.length > 0) response.candidates = candidates;
  Object.assign(response, open.fields);
  if (!isRecord(response.promptFeedback) && !isRecord(response.usageMetadata) && candidates.length === 0) response.candidates = [];
  const converted = generateContentToResponse({ response, pairing: options.pairing, responses: options.responses });
  for (const loss of converted.losses) losses.push(placeLoss(loss, partOrigins, open.line));
  // Parts after a candidate's finishReason: a reader that stops there and one that
  // reads on see different calls, so no call of the response is taken as completed.
  const late = [...open.candidates.entries()].flatMap(([index, state]) => (state.late ? [{ index, ...state.late }] : []));
  // A call whose pieces could not all be set, or that was also given whole args: already reported where it was said.
  const doubted = [...open.candidates.values()].some((state) => state.parts.some((part) => part.doubted === true));
  for (const { index, line, path, finished } of late) {
    losses.push({ line, path, code: "form_changed", detail: `parts came after candidate ${index}'s finishReason (line ${finished}): a reader that stops there and one that reads on see different calls, so the response's calls are written incomplete` });
  }
  // A candidate that finished one way and then another: which one ended its calls is not known.
  const endedTwoWays = [...open.candidates.entries()].flatMap(([index, state]) => (state.endedTwoWays && state.reason ? [{ index, first: state.reason, ...state.endedTwoWays }] : []));
  for (const { index, first, line, path, value } of endedTwoWays) {
    losses.push({ line, path, code: "form_changed", detail: `candidate ${index} gives finishReason ${JSON.stringify(value)} after ${JSON.stringify(first.value)} on line ${first.line}: a reader that stops at the first and one that reads on see its calls end two ways, so the response's calls are written incomplete` });
  }
  if (open.unblocked !== undefined && open.blocked !== undefined) {
    const { line, path, value } = open.unblocked;
    const says = value === undefined || value === null ? "no blockReason" : `blockReason ${JSON.stringify(value)}`;
    losses.push({ line, path, code: "form_changed", detail: `the promptFeedback gives ${says} after blockReason ${JSON.stringify(open.blocked.value)} on line ${open.blocked.line}: a reader of that chunk saw the prompt blocked, so the response's calls are written incomplete` });
  }
  if (open.respelled !== undefined) losses.push({ code: "form_changed", ...open.respelled });
  const items = converted.value.output.map(inputItem) as GeminiAssembledResponse["items"];
  // Each loss names the field as its chunk's line writes it, which may not be the spelling it was read in.
  const written = open.written;
  const asWritten = written === undefined ? (losses: StreamLoss[]) => losses : (losses: StreamLoss[]) => losses.map((loss) => (written.has(loss.line) ? { ...loss, path: writtenPath(written.get(loss.line), loss.path) } : loss));
  const assembled: GeminiAssembledResponse = {
    id: converted.value.id,
    status: converted.value.status,
    items: late.length > 0 || endedTwoWays.length > 0 || open.unblocked !== undefined || open.respelled !== undefined || doubted ? items.map((item) => stoppedCall(item) ?? item) : items,
    // The items go without the ids the response object gives them, so their report does too.
    losses: asWritten(byLine([...losses.filter((loss) => !(loss.code === "synthesized" && /^\/output\/\d+\/id$/.test(loss.path))), ...open.said.flatMap(leftBehind)])),
    line: open.line,
    lastLine: open.lastLine,
    record: () => ({
      value: converted.value as unknown as Fields,
      losses: asWritten(byLine([...losses, ...replaced(open)])),
      place: (path) => {
        const placed = placeField(path, open, partOrigins);
        return written?.has(placed.line) === true ? { ...placed, path: writtenPath(written.get(placed.line), placed.path) } : placed;
      },
    }),
    merged: () => (written === undefined ? response : withPartsAsWritten(response, partOrigins, written)),
  };
  if (options.response) assembled.response = response;
  return assembled;
}

/**
 * The joined response with each part's fields named as the chunk it first came
 * in writes them: a call found in it is then said where the source wrote it.
 */
function withPartsAsWritten(response: Fields, origins: PartState[][], written: ReadonlyMap<number, Fields>): Fields {
  if (!Array.isArray(response.candidates)) return response;
  const candidates = response.candidates.map((candidate: unknown, index) => {
    const content = isRecord(candidate) ? candidate.content : undefined;
    if (!isRecord(candidate) || !isRecord(content) || !Array.isArray(content.parts)) return candidate;
    const parts = content.parts.map((part: unknown, partIndex) => {
      const origin = origins[index]?.[partIndex];
      const chunk = origin === undefined ? undefined : written.get(origin.line);
      return chunk === undefined ? part : namedAsWritten(part, valueAt(chunk, origin!.path));
    });
    return { ...candidate, content: { ...content, parts } };
  });
  return { ...response, candidates };
}

/** The value with each member named as `source` names it, in either spelling, level by level where both are objects. */
function namedAsWritten(value: unknown, source: unknown): unknown {
  if (!isRecord(value) || !isRecord(source)) return value;
  const out: Fields = {};
  for (const [key, inner] of Object.entries(value)) {
    const name = !Object.hasOwn(source, key) && Object.hasOwn(source, snakeOf(key)) ? snakeOf(key) : key;
    setOwn(out, name, namedAsWritten(inner, source[name]));
  }
  return out;
}

/** The value a pointer of array indexes and member names (no escapes: a part's place) leads to. */
function valueAt(record: unknown, path: string): unknown {
  let value = record;
  for (const token of path.split("/").slice(1)) value = Array.isArray(value) ? value[Number(token)] : isRecord(value) && Object.hasOwn(value, token) ? value[token] : undefined;
  return value;
}

/** Losses in the order of the lines they point into; those of one line as they were found. */
function byLine(losses: StreamLoss[]): StreamLoss[] {
  return losses.sort((a, b) => a.line - b.line);
}

/** A field the response was given is in no item: normalize writes items only. */
function leftBehind(said: Said): StreamLoss[] {
  const { value } = said;
  if (value === null || value === undefined || (typeof value === "object" && Object.keys(value).length === 0)) return [];
  const whose = said.candidate === undefined ? "the response" : `candidate ${said.candidate}`;
  return [{ line: said.line, path: said.path, code: "left_behind", detail: `${said.key} of ${whose} is in no item: normalize writes items only` }];
}

/** The values of earlier chunks that the joined response does not hold, as a later chunk said the field again. */
function replaced(open: OpenResponse): StreamLoss[] {
  const losses: StreamLoss[] = [];
  for (const said of open.said) {
    const holder = said.candidate === undefined ? open.fields : open.candidates.get(said.candidate)?.fields;
    if (holder !== undefined && JSON.stringify(holder[said.key]) === JSON.stringify(said.value)) continue;
    const whose = said.candidate === undefined ? "the response" : `candidate ${said.candidate}`;
    losses.push({ line: said.line, path: said.path, code: "left_behind", detail: `${said.key} of ${whose} as this chunk said it, which another chunk's replaced: the response holds one value` });
  }
  return losses;
}

/** An output item as an input item: without the id the way in derived. */
function inputItem(item: unknown): unknown {
  if (!isRecord(item)) return item;
  const { id: _id, ...rest } = item;
  if (rest.type === "message") delete rest.status;
  return rest;
}

/**
 * Where a field of the joined response was said: a part where it first came,
 * a field of the response or of a candidate in the last chunk that said the
 * value the response holds, else the response's first chunk.
 */
function placeField(path: string, open: OpenResponse, origins: PartState[][]): Pick<StreamLoss, "line" | "path"> {
  const part = /^\/candidates\/(\d+)\/content\/parts\/(\d+)(.*)$/.exec(path);
  const origin = part ? origins[Number(part[1])]?.[Number(part[2])] : undefined;
  if (part && origin) return { line: origin.line, path: origin.path + part[3] };
  const field = /^(?:\/candidates\/(\d+))?\/([^/]+)(.*)$/.exec(path);
  if (field) {
    const candidate = field[1] === undefined ? undefined : Number(field[1]);
    const key = field[2]!.replace(/~1/g, "/").replace(/~0/g, "~");
    const holder = candidate === undefined ? open.fields : open.candidates.get(candidate)?.fields;
    const held = JSON.stringify(holder?.[key]);
    const said = open.said.filter((entry) => entry.candidate === candidate && entry.key === key && JSON.stringify(entry.value) === held).pop();
    if (said) return { line: said.line, path: said.path + field[3] };
    // Candidates come in pieces over the chunks: the response's last chunk names them as a whole.
    if (candidate === undefined && key === "candidates" && field[3] === "") return { line: open.lastLine, path: "/candidates" };
  }
  return { line: open.line, path: "" };
}

function placeLoss(loss: Loss, origins: PartState[][], firstLine: number): StreamLoss {
  const match = /^\/candidates\/(\d+)\/content\/parts\/(\d+)(.*)$/.exec(loss.path);
  const origin = match ? origins[Number(match[1])]?.[Number(match[2])] : undefined;
  if (!match || !origin) return { ...loss, line: firstLine, path: loss.path === "" ? "" : loss.path };
  return { ...loss, line: origin.line, path: origin.path + match[3] };
}

/** Whether a candidate says why it finished, in either spelling (the Python SDK's dumps write `finish_reason`). */
function saysWhyFinished(candidate: Fields): boolean {
  return finishReasonName(candidate.finishReason) !== null || finishReasonName(candidate.finish_reason) !== null;
}
