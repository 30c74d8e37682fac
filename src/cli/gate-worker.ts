// The worker thread of `gate --jobs`: the first half of the gate (gate-jobs.ts).
// It is sent the journal's bytes, chunk by chunk, splits them into lines, parses
// and normalizes each, keeps the tools in force, and answers each request with
// the records it completed, cut down to what the second half reads
// (transfer-records.ts). Parsing makes most of the garbage of a run, and a worker's
// heap can be kept small (`resourceLimits`), while the first thread's cannot.
import { parentPort, workerData } from "node:worker_threads";
import type { ToolSchema } from "../gate/schema.js";
import { ToolRegistry, type ToolRegistryData } from "../gate/tool-registry.js";
import { ToolsInForce } from "../gate/tools-in-force.js";
import { RecordEncoder, type RecordTransfer } from "../gate/transfer-records.js";
import { ChunkNormalizer, type NormalizedBatch } from "../journal/normalize-chunks.js";
import type { NormalizeOptions } from "../journal/normalize.js";
import type { ReadOptions } from "../journal/read.js";

export type GateRequest =
  /** A chunk of a source's bytes; a chunk of a new source follows the end of the last. */
  | { kind: "chunk"; source: string; bytes: Uint8Array }
  /** The end of the current source. */
  | { kind: "end" }
  /** The end of the journal. */
  | { kind: "finish" };

/** The answer to each request, in the order sent: the records it completed, and how many input lines they answer. */
export interface GateAnswer {
  kind: "records";
  lines: number;
  transfer: RecordTransfer;
}

export interface GateWorkerOptions {
  sources: readonly string[];
  read: ReadOptions;
  normalize: NormalizeOptions;
  schema?: ToolSchema;
  registry?: ToolRegistryData;
  /** Whether a replay target's checks read every field of each item (`gate --for`): items then go whole. */
  wholeItems: boolean;
}

const options = workerData as GateWorkerOptions;
const normalizer = new ChunkNormalizer({ ...options.normalize, ...options.read, unknownObjects: "item" });
const tools = new ToolsInForce({ schema: options.schema, registry: options.registry === undefined ? undefined : ToolRegistry.fromData(options.registry) });
const encoder = new RecordEncoder(options.sources, options.wholeItems);

parentPort!.on("message", (request: GateRequest) => {
  parentPort!.postMessage(answer(request) satisfies GateAnswer);
});

function answer(request: GateRequest): GateAnswer {
  switch (request.kind) {
    case "chunk":
      return encoded(normalizer.push(request.source, Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength)));
    case "end":
      return encoded(normalizer.end());
    case "finish":
      return encoded(normalizer.finish());
    default:
      return assertNever(request);
  }
}

function encoded(batch: NormalizedBatch): GateAnswer {
  for (const record of batch.records) {
    if (record.kind === "error") encoder.addError(record.source, record.line, record.detail);
    else encoder.add(tools.prepare(record));
  }
  return { kind: "records", lines: batch.lines, transfer: encoder.take() };
}

function assertNever(value: never): never {
  throw new Error(`unknown request ${JSON.stringify(value)}`);
}
