// Langfuse's blob storage exports: observation rows, in Parquet (written here by a
// maintained writer from the rows of a download) or in JSONL, read as the
// download they come from is read.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";
import { describe, expect, it } from "vitest";
import { READERS } from "../../adapters/index.js";
import { readSource } from "../../src/journal/read-document.js";
import type { JournalLine } from "../../src/journal/read.js";

interface Observation {
  id: string;
  traceId?: string;
  type: string;
  name: string;
  startTime: string;
  parentObservationId: string | null;
  input: unknown;
  output: unknown;
  metadata: unknown;
}

const text = (value: unknown) => (value === null || value === undefined ? null : typeof value === "string" ? value : JSON.stringify(value));

/** The observations of a download as the rows of an export: snake_case, times as "YYYY-MM-DD HH:MM:SS.ffffff" UTC, JSON as text. */
function exportRows(download: { trace: { id: string }; observations: Observation[] }) {
  return download.observations.map((observation) => ({
    id: observation.id,
    trace_id: observation.traceId ?? download.trace.id,
    type: observation.type,
    name: observation.name,
    start_time: observation.startTime.replace("T", " ").replace("Z", "000"),
    parent_observation_id: observation.parentObservationId,
    input: text(observation.input),
    output: text(observation.output),
    metadata: text(observation.metadata),
  }));
}

function parquetOf(rows: ReturnType<typeof exportRows>): Buffer {
  const columns = Object.keys(rows[0]) as (keyof (typeof rows)[number])[];
  return Buffer.from(parquetWriteBuffer({ columnData: columns.map((name) => ({ name, data: rows.map((row) => row[name]), type: "STRING" as const })) }));
}

async function readAll(bytes: Buffer) {
  const notes: string[] = [];
  const lines: JournalLine[] = [];
  const chunks = (async function* () {
    yield bytes;
  })();
  for await (const line of readSource("in", chunks, {}, (note) => notes.push(note))) lines.push(line);
  return { texts: lines.map((line) => line.text), notes };
}

function downloadRecords(download: unknown): string[] {
  return READERS.langfuse.read(download).records.map(({ record }) => JSON.stringify(record));
}

describe("a Langfuse export of observation rows", () => {
  const download = JSON.parse(readFileSync("golden/langfuse/adk-calls-without-ids/export.json", "utf8"));
  const rows = exportRows(download);

  it("in Parquet gives the records its download gives", async () => {
    const read = await readAll(parquetOf(rows));
    expect(read.texts).toEqual(downloadRecords(download));
    expect(read.notes[0]).toBe("in: read as langfuse: 5 units (2 other, 2 llm_call, 1 tool); 9 read, 5 emitted, 4 repeats, 0 not read; 5 records in 1 conversation; 20 losses");
  });

  it("in JSONL gives the same records", async () => {
    const read = await readAll(Buffer.from(rows.map((row) => JSON.stringify(row)).join("\n") + "\n"));
    expect(read.texts).toEqual(downloadRecords(download));
  });

  it("a file with a column named __proto__, which the Parquet reader would drop from each row, is one error", async () => {
    const columns: Array<[string, string]> = [
      ["type", "function_call"],
      ["__proto__", '{"type":"function_call","call_id":"call_2","name":"delete_files","arguments":"{}"}'],
      ["call_id", "call_1"],
      ["name", "get_weather"],
      ["arguments", "{}"],
      ["status", "completed"],
    ];
    const columnData = columns.map(([name, value]) => ({ name, data: [value], type: "STRING" as const }));
    await expect(readAll(Buffer.from(parquetWriteBuffer({ columnData })))).rejects.toThrow("in opens as a Parquet file and cannot be read as one: a column or field is named __proto__, which the Parquet reader drops from every row");
  });

  it("a file that opens as Parquet and is not one is one error", async () => {
    await expect(readAll(Buffer.from("PAR1 and then nothing of a footer"))).rejects.toThrow(/^in opens as a Parquet file and cannot be read as one: /);
  });
});

const real = join(import.meta.dirname, "../../../shared/corpus/traces/langfuse-ms-agent-framework/microsoft-agent-2025-12-17.trace.json");
if (!existsSync(real)) console.warn(`Parquet test on a real Langfuse export skipped: ${real} is absent`);

describe.skipIf(!existsSync(real))("a real Langfuse download written as Parquet", () => {
  it("gives the records the download gives", async () => {
    const download = JSON.parse(readFileSync(real, "utf8"));
    expect((await readAll(parquetOf(exportRows(download)))).texts).toEqual(downloadRecords(download));
  });
});
