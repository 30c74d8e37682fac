// The worker thread of `gate --jobs`: the first half of the gate (gate-jobs.ts).
// It is sent the journal's bytes, chunk by chunk, or its lines, as the first
// thread split them from each chunk (transfer-lines.ts); it splits the bytes,
// parses and normalizes each line, keeps the tools in force, and answers each
// request with the records it completed, cut down to what the second half reads
// (transfer-records.ts). Parsing makes most of the
// garbage of a run, and a worker's heap can be kept small (`resourceLimits`),
// while the first thread's cannot.
import { PrototypeGuard } from "./prototype-guard.js";
import { randomUUID } from "node:crypto";
import { parentPort, workerData } from "node:worker_threads";
import type { PreparedRecord } from "../gate/prepared-gate.js";
import type { ToolSchema } from "../gate/schema.js";
import { ToolRegistry } from "../gate/tool-registry.js";
import { ToolsInForce } from "../gate/tools-in-force.js";
import { readEnvelopeTools } from "./envelope-tools.js";
import { RecordEncoder, type RecordTransfer } from "../gate/transfer-records.js";
import { ChunkNormalizer, type NormalizedBatch } from "../journal/normalize-chunks.js";
import { decodeLines, type LinesTransfer } from "../journal/transfer-lines.js";
import { CROSSING_DEPTH, deeperThan, flatten, fromCrossing, shelveDeepValues, type Crossing, type CrossingRegistryData, type Shelved } from "./deep-values.js";
import type { NormalizeOptions } from "../journal/normalize.js";
import type { ReadOptions } from "../journal/read.js";
import { GATE_READING } from "../journal/gate-reading.js";

export type GateRequest =
  /** A chunk of a source's bytes, split here; a chunk of a new source follows the end of the last. */
  | { kind: "chunk"; source: string; bytes: Uint8Array }
  /** The end of the current source, split here. */
  | { kind: "end" }
  /** The lines the first thread split from a chunk of a source's bytes, or from the end of a source, in input order. */
  | { kind: "lines"; lines: LinesTransfer }
  /** The end of the journal. */
  | { kind: "finish" };

/**
 * The answer to each request, in the order sent: the records it completed, and
 * how many input lines they answer. Values too deep to cross as they are cross
 * flat (deep-values.ts): `shelved` for those of `transfer.values`, `shelvedSchemas`
 * for the schemas of `transfer.schemas`, each put back by its place.
 */
export interface GateAnswer {
  kind: "records";
  lines: number;
  transfer: RecordTransfer;
  shelved?: Shelved[];
  shelvedSchemas?: Shelved[];
}

export interface GateWorkerOptions {
  sources: readonly string[];
  read: ReadOptions;
  normalize: NormalizeOptions;
  schema?: Crossing;
  registry?: CrossingRegistryData;
  /** Whether a replay target's checks read every field of each item (`gate --for`): items then go whole. */
  wholeItems: boolean;
}

function registryOf(data: CrossingRegistryData): ToolRegistry {
  return ToolRegistry.fromData({ ...data, schemas: new Map([...data.schemas].map(([name, crossing]) => [name, fromCrossing(crossing) as ToolSchema])) });
}

const options = workerData as GateWorkerOptions;
const normalizer = new ChunkNormalizer({ ...options.normalize, ...options.read, ...GATE_READING });
const tools = new ToolsInForce({
  schema: options.schema === undefined ? undefined : (fromCrossing(options.schema) as ToolSchema),
  registry: options.registry === undefined ? undefined : registryOf(options.registry),
  readTools: readEnvelopeTools,
});
const encoder = new RecordEncoder(options.sources, options.wholeItems);

const guard = new PrototypeGuard();

parentPort!.on("message", (request: GateRequest) => {
  const reply = answer(request);
  // This thread's prototypes are its own: checked here, before its records are judged.
  guard.check();
  parentPort!.postMessage(reply satisfies GateAnswer);
});

function answer(request: GateRequest): GateAnswer {
  switch (request.kind) {
    case "chunk":
      return encoded(normalizer.push(request.source, Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength)));
    case "end":
      return encoded(normalizer.end());
    case "lines":
      return encoded(normalizer.pushLines(decodeLines(request.lines)));
    case "finish":
      return encoded(normalizer.finish());
    default:
      return assertNever(request);
  }
}

function encoded(batch: NormalizedBatch): GateAnswer {
  for (const record of batch.records) {
    if (record.kind === "error") encoder.addError(record.source, record.line, record.detail);
    else encoder.add(deepSchemas.standIn(tools.prepare(record)));
  }
  const transfer = encoder.take();
  const answer: GateAnswer = { kind: "records", lines: batch.lines, transfer };
  const shelved = shelveDeepValues(transfer.values);
  if (shelved.length > 0) answer.shelved = shelved;
  const shelvedSchemas = deepSchemas.shelve(transfer.schemas);
  if (shelvedSchemas.length > 0) answer.shelvedSchemas = shelvedSchemas;
  return answer;
}

/**
 * Tool schemas too deep to cross as they are, nor to be keyed by their JSON text
 * as the encoder keys schemas: each is encoded as a shallow stand-in, unique to
 * it and holding a secret of this run (so that no schema of the journal can be
 * taken for it), and crosses flat in the stand-in's place.
 */
class DeepSchemas {
  private readonly secret = randomUUID();
  private count = 0;
  private readonly standInOf = new WeakMap<object, ToolSchema>();
  private readonly schemaOf = new WeakMap<object, object>();
  /** Schemas found shallow enough: the calls of one tool share its schema, which is walked once rather than once a call. */
  private readonly shallow = new WeakSet<object>();

  standIn(record: PreparedRecord): PreparedRecord {
    for (const item of record.items) {
      const schema = item.schema;
      if (schema === undefined || typeof schema !== "object" || schema === null || this.shallow.has(schema)) continue;
      if (!deeperThan(schema, CROSSING_DEPTH)) {
        this.shallow.add(schema);
        continue;
      }
      let standIn = this.standInOf.get(schema);
      if (standIn === undefined) {
        standIn = { "x-orbridge-deep-schema": `${this.secret} ${this.count++}` };
        this.standInOf.set(schema, standIn);
        this.schemaOf.set(standIn, schema);
      }
      item.schema = standIn;
    }
    return record;
  }

  /** The stand-ins among the schemas a batch sends, each replaced by null and returned flat with its place. */
  shelve(schemas: RecordTransfer["schemas"]): Shelved[] {
    const shelved: Shelved[] = [];
    schemas.forEach((entry, at) => {
      const schema = typeof entry[1] === "object" && entry[1] !== null ? this.schemaOf.get(entry[1]) : undefined;
      if (schema === undefined) return;
      shelved.push({ at, flat: flatten(schema) });
      entry[1] = null as unknown as ToolSchema;
    });
    return shelved;
  }
}
const deepSchemas = new DeepSchemas();

function assertNever(value: never): never {
  throw new Error(`unknown request ${JSON.stringify(value)}`);
}
