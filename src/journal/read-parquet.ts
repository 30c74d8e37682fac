// Parquet (the default of Langfuse's blob storage exports), recognised by its
// magic number and read through hyparquet, which is loaded only when a Parquet
// file is met so that every other run starts as before. A Parquet file's rows are
// found from its footer, so the file is read whole; its rows are then the records,
// or the documents of a stored log.

import { setOwn } from "../models/json-value.js";

/** Whether bytes open a Parquet file ("PAR1"). */
export function isParquet(head: Buffer): boolean {
  return head.length >= 4 && head.toString("latin1", 0, 4) === "PAR1";
}

/**
 * The rows of a Parquet file as JSON values: 64-bit integers a double holds
 * become numbers, others decimal text; timestamps ISO 8601 text. Throws for a
 * file with a column or field named `__proto__`: the reader builds each row by
 * assignment, which sets the row's prototype and leaves no member, so what the
 * column held would be lost unsaid.
 */
export async function parquetRows(bytes: Buffer): Promise<unknown[]> {
  const [{ parquetMetadata, parquetReadObjects }, { compressors }] = await Promise.all([import("hyparquet"), import("hyparquet-compressors")]);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  // The first element of the schema is the root, whose name no row holds.
  const unreadable = parquetMetadata(file).schema.slice(1).find((element) => element.name === "__proto__");
  if (unreadable !== undefined) throw new Error("a column or field is named __proto__, which the Parquet reader drops from every row");
  const rows = await parquetReadObjects({ file, compressors });
  return rows.map((row) => asJson(row));
}

function asJson(value: unknown): unknown {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (Array.isArray(value)) return value.map(asJson);
  if (value !== null && typeof value === "object") {
    const object: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) setOwn(object, key, asJson(inner));
    return object;
  }
  return value;
}
