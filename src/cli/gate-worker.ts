// The worker thread of `gate --jobs`: reads and normalizes the journal, in order,
// and hands each chunk's records back with their items cut to what the gate reads
// (`gateView`). The thread that started it gates them, in the same order.
import { parentPort, workerData } from "node:worker_threads";
import { gateView, requestView } from "../gate/gate-view.js";
import type { NormalizedRecord } from "../journal/normalize.js";
import { ChunkNormalizer, type NormalizedBatch } from "../journal/normalize-chunks.js";

/** What the gate sends: a chunk of a source, the end of a source, the end of the journal. */
export type WorkerRequest = { kind: "chunk"; source: string; bytes: Uint8Array } | { kind: "end" } | { kind: "finish" };

export interface WorkerOptions {
  origin?: string;
  maxLineBytes?: number;
  /** Hand items over whole: a replay target's checks read every field. */
  wholeItems: boolean;
}

const options = workerData as WorkerOptions;
const normalizer = new ChunkNormalizer({ origin: options.origin, maxLineBytes: options.maxLineBytes, unknownObjects: "item" });

parentPort!.on("message", (request: WorkerRequest) => {
  parentPort!.postMessage(JSON.stringify(handOver(step(request))));
});

function step(request: WorkerRequest): NormalizedBatch {
  switch (request.kind) {
    case "chunk":
      return normalizer.push(request.source, Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength));
    case "end":
      return normalizer.end();
    case "finish":
      return normalizer.finish();
    default:
      return assertNever(request);
  }
}

/** The records as the gate reads them: items cut to their views, request bodies to their tools, no losses. */
function handOver(batch: NormalizedBatch): NormalizedBatch {
  return { lines: batch.lines, records: batch.records.map(cut) };
}

function cut(record: NormalizedRecord): NormalizedRecord {
  if (record.kind === "error") return record;
  const items = options.wholeItems ? record.items : record.items.map((journalItem) => ({ item: gateView(journalItem.item), provenance: journalItem.provenance }));
  return { ...record, items, losses: [], ...(record.request ? { request: requestView(record.request) } : {}) };
}

function assertNever(value: never): never {
  throw new Error(`unknown request ${JSON.stringify(value)}`);
}
