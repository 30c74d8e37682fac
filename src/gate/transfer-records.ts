// The form in which prepared records cross from the thread that normalizes and
// keeps the tools in force to the thread that gives verdicts and runs the
// journal-wide checks (`gate --jobs`): one flat array of values per batch, which a
// thread copies much faster than the objects it stands for, holding only what the
// gate reads.
//
// An item goes as its view, the fields its readers read, and nothing more:
// | reader                          | reads                                                            |
// |---------------------------------|------------------------------------------------------------------|
// | replayGate                      | type, status, arguments, parsed_arguments; name and namespace    |
// |                                 | for the detail of an unknown tool (the schema comes prepared)    |
// | JournalChecker (journal-checks) | type, id, call_id, name, role, status; tool_calls, tool_call_id, |
// |                                 | function_call, function; the type of each content part           |
// | the gate's records              | type, call_id, name                                              |
// Every reader takes a field that is absent and one that is `undefined` alike,
// and a content part that is not an object as one without a type. Only an item
// whose `type` is a string is cut down: without one, its kind depends on how many
// keys it has, so it goes whole, as do items that are not objects, items with
// Gemini `parts` or a content part that holds a call by member (the checks read
// those members), an output that names its tool in a provider's field
// (`gemini:name`, which the checks compare with its call's name), and every item
// when a replay target's checks (`gate --for`), which read every field, are on.
//
// Layout, value by value (a mask says which of the optional values follow):
//   record:  tag (RECORD | RECORD_ERROR | ERROR_LINE, with OTHER_ANSWERS, ANSWERS), source, line, [recordError | detail], [callsOfOtherAnswers], [answers], item count
//   item:    field mask (or WHOLE, then the item), the fields present, [content part types]
//   then:    provenance mask, [source], [line], index, envelope, [response id, response status]
//   then:    [schema number], [notAllowed]
// A batch also carries the tool schemas its items are the first to refer to, by
// number, and the numbers the sender no longer uses: each side keeps a bounded
// table, and a schema sent once is not sent again while both remember it.
import type { Envelope, Provenance } from "../models/journal-item.js";
import type { PreparedItem, PreparedRecord } from "./prepared-gate.js";
import type { ToolSchema } from "./schema.js";
import { callPartMember, outputToolName } from "./item-kind.js";
import { notJsonData } from "./schema-data.js";
import { MAX_SCHEMA_NODES } from "./schema-limits.js";

export const VIEW_FIELDS = ["type", "id", "call_id", "name", "role", "status", "arguments", "parsed_arguments", "namespace", "tool_calls", "tool_call_id", "function_call", "function"] as const;
type ViewField = (typeof VIEW_FIELDS)[number];
const CONTENT_BIT = 1 << VIEW_FIELDS.length;
const SCHEMA_BIT = CONTENT_BIT << 1;
const NOT_ALLOWED_BIT = SCHEMA_BIT << 1;
const WHOLE = -1;

const PROVENANCE_SOURCE = 1;
const PROVENANCE_LINE = 2;
const PROVENANCE_RESPONSE = 4;

const RECORD = 0;
const RECORD_ERROR = 1;
const ERROR_LINE = 2;
/** Added to RECORD or RECORD_ERROR: the record's callsOfOtherAnswers follow its recordError. */
const OTHER_ANSWERS = 4;
/** Added to RECORD or RECORD_ERROR: the record's answers follow its callsOfOtherAnswers. */
const ANSWERS = 8;
const NO_SOURCE = -1;
/** Ends the starts of a record's answers that continue the record before's (AnswerStarts' `later`): no start is negative. */
const LATER_ANSWER = -1;

/** What crosses for one batch of records. */
export interface RecordTransfer {
  values: unknown[];
  /** Schemas first referred to in this batch: number, then schema. */
  schemas: [number, ToolSchema][];
  /** Schema numbers the sender no longer uses after this batch. */
  forget: number[];
}

/** How many distinct schemas each side keeps; a schema forgotten is sent again when it comes back. */
export const TRANSFER_SCHEMA_LIMIT = 1024;

/** A decoded record: a prepared record, or a line that gave no item. */
export type TransferredRecord = ({ kind: "items" } & PreparedRecord) | { kind: "error"; source?: string; line: number; detail: string };

export class RecordEncoder {
  private readonly sourceNumbers: Map<string, number>;
  /** Schema numbers by content, least recently used first. */
  private readonly schemaByContent = new Map<string, number>();
  private nextSchema = 0;
  private pending: RecordTransfer = { values: [], schemas: [], forget: [] };

  constructor(
    sources: readonly string[],
    private readonly wholeItems: boolean,
    private readonly schemaLimit = TRANSFER_SCHEMA_LIMIT,
  ) {
    this.sourceNumbers = new Map(sources.map((source, i) => [source, i]));
  }

  add(record: PreparedRecord): void {
    const values = this.pending.values;
    const flags = (record.callsOfOtherAnswers === undefined ? 0 : OTHER_ANSWERS) | (record.answers === undefined ? 0 : ANSWERS);
    if (record.recordError === undefined) values.push(RECORD | flags, this.sourceNumber(record.source), record.line);
    else values.push(RECORD_ERROR | flags, this.sourceNumber(record.source), record.line, record.recordError);
    if (record.callsOfOtherAnswers !== undefined) values.push([...record.callsOfOtherAnswers]);
    if (record.answers !== undefined) values.push(record.answers.later === true ? [...record.answers.starts, LATER_ANSWER] : [...record.answers.starts]);
    values.push(record.items.length);
    for (const item of record.items) this.addItem(values, item, record);
  }

  /** A line that gave no item, in its place among the records. */
  addError(source: string | undefined, line: number, detail: string): void {
    this.pending.values.push(ERROR_LINE, this.sourceNumber(source), line, detail);
  }

  /** The batch added since the last call. */
  take(): RecordTransfer {
    const batch = this.pending;
    this.pending = { values: [], schemas: [], forget: [] };
    return batch;
  }

  private addItem(values: unknown[], prepared: PreparedItem, record: PreparedRecord): void {
    const item = prepared.item as unknown;
    let mask = 0;
    if (prepared.schema !== undefined) mask |= SCHEMA_BIT;
    if (prepared.notAllowed !== undefined) mask |= NOT_ALLOWED_BIT;
    if (!this.wholeItems && item !== null && typeof item === "object" && !Array.isArray(item) && typeof (item as { type?: unknown }).type === "string" && !holdsCallParts(item as Record<string, unknown>) && !namesToolByProvider(item as Record<string, unknown>)) {
      const fields = item as Record<ViewField | "content", unknown>;
      for (let i = 0; i < VIEW_FIELDS.length; i++) if (fields[VIEW_FIELDS[i]] !== undefined) mask |= 1 << i;
      if (Array.isArray(fields.content)) mask |= CONTENT_BIT;
      values.push(mask);
      for (let i = 0; i < VIEW_FIELDS.length; i++) if (mask & (1 << i)) values.push(fields[VIEW_FIELDS[i]]);
      if (mask & CONTENT_BIT) values.push((fields.content as unknown[]).map(partType));
    } else {
      values.push(WHOLE, item, mask);
    }
    const provenance = prepared.provenance;
    const ownSource = provenance.source !== record.source;
    const ownLine = provenance.line !== record.line;
    const response = provenance.response;
    values.push((ownSource ? PROVENANCE_SOURCE : 0) | (ownLine ? PROVENANCE_LINE : 0) | (response !== undefined ? PROVENANCE_RESPONSE : 0));
    if (ownSource) values.push(this.sourceNumber(provenance.source));
    if (ownLine) values.push(provenance.line);
    values.push(provenance.index, provenance.envelope);
    if (response !== undefined) values.push(response.id, response.status);
    if (mask & SCHEMA_BIT) values.push(this.schemaNumber(prepared.schema!));
    if (mask & NOT_ALLOWED_BIT) values.push(prepared.notAllowed);
  }

  private schemaNumber(schema: ToolSchema): number {
    const key = contentKey(schema);
    let number = this.schemaByContent.get(key);
    if (number === undefined) {
      number = this.nextSchema++;
      this.pending.schemas.push([number, schema]);
      if (this.schemaByContent.size >= this.schemaLimit) {
        const [oldestKey, oldest] = this.schemaByContent.entries().next().value!;
        this.schemaByContent.delete(oldestKey);
        this.pending.forget.push(oldest);
      }
    } else {
      this.schemaByContent.delete(key);
    }
    this.schemaByContent.set(key, number);
    return number;
  }

  private sourceNumber(source: string | undefined): number | string {
    if (source === undefined) return NO_SOURCE;
    // A source outside the list (a library caller's) goes by name.
    return this.sourceNumbers.get(source) ?? source;
  }
}

/** The content key of each schema object met, so that one seen before is not serialized again. */
const contentKeyOf = new WeakMap<object, string>();
/** Schemas keyed by themselves alone, numbered. */
let keyedAlone = 0;

function contentKey(schema: ToolSchema): string {
  if (typeof schema !== "object" || schema === null) return String(schema);
  let key = contentKeyOf.get(schema);
  if (key === undefined) {
    key = textKey(schema);
    contentKeyOf.set(schema, key);
  }
  return key;
}

/**
 * The schema's JSON text, when that text tells it apart from every other. JSON
 * cannot write some values, and JSON.stringify writes them as others: so a
 * schema the other thread refuses for holding one would share its text with one
 * it accepts, and the first of the two sent would be used for both. Such a
 * schema, or one too deep to write, goes by a key of its own: it crosses whole,
 * and is refused there as in one thread. The schemas met here are JSON values,
 * parsed or copied from parsed ones by a reader of tools, whose only such value
 * is a number past the largest double (`1e400`, read as Infinity), written
 * `null`: a text without `null` needs no walk. (`notJsonData` gives up past the
 * bound on values, and the other thread refuses a schema that large for its size.)
 */
function textKey(schema: object): string {
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch {
    return `\0${++keyedAlone}`;
  }
  return text.includes("null") && notJsonData(schema, MAX_SCHEMA_NODES) !== undefined ? `\0${++keyedAlone}` : text;
}

/**
 * Whether the checks read more of the item than the view holds: Gemini `parts`,
 * or a content part that holds another envelope's call by member. Such an item
 * crosses whole, so that the checks find the call as they would in one thread.
 */
function holdsCallParts(fields: Record<string, unknown>): boolean {
  if (fields.parts !== undefined) return true;
  const content = fields.content;
  if (!Array.isArray(content)) return false;
  for (const part of content) {
    if (part === null || typeof part !== "object" || Array.isArray(part)) continue;
    if (callPartMember(part as Record<string, unknown>) !== undefined) return true;
  }
  return false;
}

function partType(part: unknown): unknown {
  return part !== null && typeof part === "object" && !Array.isArray(part) ? (part as { type?: unknown }).type : undefined;
}

export class RecordDecoder {
  private readonly schemas = new Map<number, ToolSchema>();

  constructor(private readonly sources: readonly string[]) {}

  decode(batch: RecordTransfer): TransferredRecord[] {
    // Items may refer to a schema the sender forgot later in the same batch; numbers are never given twice.
    for (const [number, schema] of batch.schemas) this.schemas.set(number, schema);
    const records = decodeValues(batch.values, this.sources, this.schemas);
    for (const number of batch.forget) this.schemas.delete(number);
    return records;
  }
}

function decodeValues(values: readonly unknown[], sources: readonly string[], schemas: ReadonlyMap<number, ToolSchema>): TransferredRecord[] {
  const sourceOf = (value: unknown): string | undefined => (value === NO_SOURCE ? undefined : typeof value === "number" ? sources[value] : (value as string));
  const records: TransferredRecord[] = [];
  let at = 0;
  while (at < values.length) {
    const tag = values[at++] as number;
    const source = sourceOf(values[at++]);
    const line = values[at++] as number;
    if (tag === ERROR_LINE) {
      const detail = values[at++] as string;
      records.push(source === undefined ? { kind: "error", line, detail } : { kind: "error", source, line, detail });
      continue;
    }
    const record: TransferredRecord & { kind: "items" } = { kind: "items", line, items: [] };
    if (source !== undefined) record.source = source;
    if ((tag & ~(OTHER_ANSWERS | ANSWERS)) === RECORD_ERROR) record.recordError = values[at++] as string;
    if (tag & OTHER_ANSWERS) record.callsOfOtherAnswers = values[at++] as string[];
    if (tag & ANSWERS) {
      const starts = values[at++] as number[];
      record.answers = starts[starts.length - 1] === LATER_ANSWER ? { starts: starts.slice(0, -1), later: true } : { starts };
    }
    const count = values[at++] as number;
    for (let i = 0; i < count; i++) {
      let item: unknown;
      let mask = values[at++] as number;
      if (mask === WHOLE) {
        item = values[at++];
        mask = values[at++] as number;
      } else {
        const fields: Record<string, unknown> = {};
        for (let f = 0; f < VIEW_FIELDS.length; f++) if (mask & (1 << f)) fields[VIEW_FIELDS[f]] = values[at++];
        if (mask & CONTENT_BIT) fields.content = (values[at++] as unknown[]).map((type) => ({ type }));
        item = fields;
      }
      const provenanceMask = values[at++] as number;
      const provenanceSource = provenanceMask & PROVENANCE_SOURCE ? sourceOf(values[at++]) : source;
      const provenanceLine = provenanceMask & PROVENANCE_LINE ? (values[at++] as number) : line;
      const provenance: Provenance = { line: provenanceLine, index: values[at++] as number, envelope: values[at++] as Envelope };
      if (provenanceSource !== undefined) provenance.source = provenanceSource;
      if (provenanceMask & PROVENANCE_RESPONSE) provenance.response = { id: values[at++] as string | undefined, status: values[at++] as string | undefined };
      const prepared: PreparedItem = { item: item as PreparedItem["item"], provenance };
      if (mask & SCHEMA_BIT) {
        const schema = schemas.get(values[at++] as number);
        if (schema === undefined) throw new Error("an item refers to a tool schema that was not sent");
        prepared.schema = schema;
      }
      if (mask & NOT_ALLOWED_BIT) prepared.notAllowed = values[at++] as string | null;
      record.items.push(prepared);
    }
    records.push(record);
  }
  return records;
}

/** An output whose tool name is in a provider's field, which the view leaves out. */
function namesToolByProvider(item: Record<string, unknown>): boolean {
  return item.type === "function_call_output" && typeof item.name !== "string" && outputToolName(item) !== undefined;
}
