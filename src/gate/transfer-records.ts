// The form in which prepared records cross from the thread that reads, normalizes
// and keeps the tools in force to the thread that gates and checks them
// (`gate --jobs`): one flat array of values per batch, which a thread copies
// much faster than the objects it stands for, and only the fields the gate reads.
//
// An item goes as its view, the fields its readers read, and nothing more:
// | reader                          | reads                                                              |
// |---------------------------------|--------------------------------------------------------------------|
// | replayGate                      | type, status, arguments, name                                      |
// | JournalChecker (journal-checks) | type, id, call_id, name, role, status; tool_calls, tool_call_id,   |
// |                                 | function_call, function; the type of each content part             |
// | the gate's records              | type, call_id, name                                                |
// Every reader takes a field that is absent and one that is `undefined` alike,
// and a content part that is not an object as one without a type. Only an item
// whose `type` is a string is cut down: without one, its kind depends on how many
// keys it has, so it goes whole, as do items that are not objects, and every item
// when a replay target's checks (`gate --for`), which read every field, are on.
//
// Tool schemas go once each, by content, with a number the items refer to; the
// table is bounded, and a number the sender forgets is forgotten by the receiver.
import type { Provenance } from "../models/journal-item.js";
import type { PreparedItem, PreparedRecord } from "./gate-journal.js";
import type { ToolSchema } from "./schema.js";

const VIEW_FIELDS = ["type", "id", "call_id", "name", "role", "status", "arguments", "tool_calls", "tool_call_id", "function_call", "function"] as const;
type ViewField = (typeof VIEW_FIELDS)[number];

/** What crosses for one batch of records. */
export interface RecordTransfer {
  values: unknown[];
  /** Schemas first referred to in this batch: number, then schema. */
  schemas: [number, ToolSchema][];
  /** Schema numbers no longer used from this batch on. */
  forget: number[];
}

/** How many distinct schemas each side keeps; a schema beyond it is sent again when it comes back. */
export const TRANSFER_SCHEMA_LIMIT = 1024;

const RECORD = 0;
const RECORD_WITH_REQUEST_ERROR = 1;
const ERROR_LINE = 2;
const WHOLE_ITEM = 0;
const ITEM_VIEW = 1;
const NO_SOURCE = -1;
const NO_SCHEMA = -1;

export class RecordEncoder {
  private readonly sourceNumbers: Map<string, number>;
  /** Schema numbers by content, least recently used first. */
  private readonly schemaByContent = new Map<string, number>();
  private nextSchema = 0;
  private pending: RecordTransfer = { values: [], schemas: [], forget: [] };

  constructor(
    private readonly sources: readonly string[],
    private readonly wholeItems: boolean,
  ) {
    this.sourceNumbers = new Map(sources.map((source, i) => [source, i]));
  }

  /** Adds records to the batch being built. */
  add(records: readonly PreparedRecord[]): void {
    const values = this.pending.values;
    for (const record of records) {
      if (record.requestError === undefined) values.push(RECORD, this.sourceNumber(record.source), record.line);
      else values.push(RECORD_WITH_REQUEST_ERROR, this.sourceNumber(record.source), record.line, record.requestError);
      values.push(record.items.length);
      for (const item of record.items) this.addItem(values, item);
    }
  }

  /** A line that gave no item, in its place among the records. */
  addError(source: string | undefined, line: number, detail: string): void {
    this.pending.values.push(ERROR_LINE, this.sourceNumber(source), line, detail);
  }

  /** The batch built so far; the next one starts empty. */
  take(): RecordTransfer {
    const batch = this.pending;
    this.pending = { values: [], schemas: [], forget: [] };
    return batch;
  }

  private addItem(values: unknown[], prepared: PreparedItem): void {
    const item = prepared.item as unknown;
    if (!this.wholeItems && item !== null && typeof item === "object" && !Array.isArray(item) && typeof (item as { type?: unknown }).type === "string") {
      const fields = item as Record<ViewField | "content", unknown>;
      values.push(ITEM_VIEW);
      for (const field of VIEW_FIELDS) values.push(fields[field]);
      values.push(Array.isArray(fields.content) ? fields.content.map(partType) : undefined);
    } else {
      values.push(WHOLE_ITEM, item);
    }
    const provenance = prepared.provenance;
    const response = provenance.response;
    values.push(this.sourceNumber(provenance.source), provenance.line, provenance.index, provenance.envelope, response !== undefined, response?.id, response?.status);
    values.push(prepared.schema === undefined ? NO_SCHEMA : this.schemaNumber(prepared.schema), prepared.notAllowed);
  }

  private sourceNumber(source: string | undefined): number | string {
    if (source === undefined) return NO_SOURCE;
    // A source outside the list (a library caller's) goes by name.
    return this.sourceNumbers.get(source) ?? source;
  }

  private schemaNumber(schema: ToolSchema): number {
    const key = contentKey(schema);
    let number = this.schemaByContent.get(key);
    if (number === undefined) {
      number = this.nextSchema++;
      this.pending.schemas.push([number, schema]);
      if (this.schemaByContent.size >= TRANSFER_SCHEMA_LIMIT) {
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
}

/** A schema's content as a key, serialized once per schema object. */
function contentKey(schema: ToolSchema): string {
  if (typeof schema !== "object" || schema === null) return String(schema);
  let key = contentKeyOf.get(schema);
  if (key === undefined) {
    key = JSON.stringify(schema);
    contentKeyOf.set(schema, key);
  }
  return key;
}

/** The content key of each schema object met, so that one seen before is not serialized again. */
const contentKeyOf = new WeakMap<object, string>();

function partType(part: unknown): unknown {
  return part !== null && typeof part === "object" && !Array.isArray(part) ? (part as { type?: unknown }).type : undefined;
}

/** A decoded record: a prepared record, or a line that gave no item. */
export type TransferredRecord = ({ kind: "items" } & PreparedRecord) | { kind: "error"; source?: string; line: number; detail: string };

export class RecordDecoder {
  private readonly schemas = new Map<number, ToolSchema>();

  constructor(private readonly sources: readonly string[]) {}

  decode(batch: RecordTransfer): TransferredRecord[] {
    // Items of the batch may refer to a schema the sender forgot later in it; numbers are never given twice.
    for (const [number, schema] of batch.schemas) this.schemas.set(number, schema);
    const values = batch.values;
    const records: TransferredRecord[] = [];
    let at = 0;
    while (at < values.length) {
      const tag = values[at++];
      const source = this.source(values[at++]);
      const line = values[at++] as number;
      if (tag === ERROR_LINE) {
        records.push(source === undefined ? { kind: "error", line, detail: values[at++] as string } : { kind: "error", source, line, detail: values[at++] as string });
        continue;
      }
      const record: TransferredRecord & { kind: "items" } = { kind: "items", line, items: [] };
      if (source !== undefined) record.source = source;
      if (tag === RECORD_WITH_REQUEST_ERROR) record.requestError = values[at++] as string;
      const count = values[at++] as number;
      for (let i = 0; i < count; i++) {
        let item: unknown;
        if (values[at++] === ITEM_VIEW) {
          item = {
            type: values[at],
            id: values[at + 1],
            call_id: values[at + 2],
            name: values[at + 3],
            role: values[at + 4],
            status: values[at + 5],
            arguments: values[at + 6],
            tool_calls: values[at + 7],
            tool_call_id: values[at + 8],
            function_call: values[at + 9],
            function: values[at + 10],
            content: (values[at + 11] as unknown[] | undefined)?.map((type) => ({ type })),
          };
          at += VIEW_FIELDS.length + 1;
        } else {
          item = values[at++];
        }
        const provenanceSource = this.source(values[at++]);
        const provenance: Provenance = { line: values[at++] as number, index: values[at++] as number, envelope: values[at++] as Provenance["envelope"] };
        if (provenanceSource !== undefined) provenance.source = provenanceSource;
        const hasResponse = values[at++] as boolean;
        const responseId = values[at++] as string | undefined;
        const responseStatus = values[at++] as string | undefined;
        if (hasResponse) provenance.response = { id: responseId, status: responseStatus };
        const schemaNumber = values[at++] as number;
        const notAllowed = values[at++] as string | null | undefined;
        const prepared: PreparedItem = { item: item as PreparedItem["item"], provenance };
        if (schemaNumber !== NO_SCHEMA) prepared.schema = this.schemaOf(schemaNumber);
        if (notAllowed !== undefined) prepared.notAllowed = notAllowed;
        record.items.push(prepared);
      }
      records.push(record);
    }
    for (const number of batch.forget) this.schemas.delete(number);
    return records;
  }

  private source(value: unknown): string | undefined {
    if (value === NO_SOURCE) return undefined;
    return typeof value === "number" ? this.sources[value] : (value as string);
  }

  private schemaOf(number: number): ToolSchema {
    const schema = this.schemas.get(number);
    if (schema === undefined) throw new Error(`schema ${number} was not sent`);
    return schema;
  }
}
