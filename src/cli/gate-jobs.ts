// Where `gate` normalizes its journal: in its own thread, or, with `--jobs` 2 or
// more and a journal large enough to repay a thread's start-up, in a worker
// thread, while this thread gates what the worker hands back. Records come back
// in input order either way, so verdicts and journal-wide findings are exactly
// those of one thread.
//
// Two threads is the most the gate can use: normalization carries state from
// line to line (streams, repeated history, tools from request bodies), so one
// thread must read the journal in order, and the journal-wide checks must see
// every item in order in another.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { ChunkNormalizer, type NormalizedBatch } from "../journal/normalize-chunks.js";
import type { NormalizeOptions } from "../journal/normalize.js";
import type { ReadOptions } from "../journal/read.js";
import type { WorkerOptions, WorkerRequest } from "./gate-worker.js";
import { inputChunks, type InputChunk } from "./inputs.js";
import type { CommandIO } from "./io.js";

/** Below this many bytes a journal is gated in one thread: starting a worker costs about as much as it saves. */
export const WORKER_MIN_BYTES = 4 * 1024 * 1024;
/** Chunks handed to the worker and not yet answered: enough to keep both threads busy, few enough to keep memory flat. */
const IN_FLIGHT = 4;

export interface NormalizeJobsOptions {
  jobs: number;
  normalize: NormalizeOptions;
  read: ReadOptions;
  /** Items go to the gate whole (a replay target reads every field), not as views. */
  wholeItems: boolean;
}

/** A batch of normalized records and how many input bytes it answers. */
export type InputBatch = NormalizedBatch & { bytes: number };

export function defaultJobs(): number {
  return availableParallelism();
}

/** The journal's records, normalized, in input order, a chunk's worth at a time. */
export async function* normalizedBatches(sources: readonly string[], io: CommandIO, options: NormalizeJobsOptions): AsyncGenerator<InputBatch> {
  const chunks = inputChunks(sources, io);
  // Whether the journal is large enough is known by reading ahead, which works for stdin too.
  const ahead: InputChunk[] = [];
  let aheadBytes = 0;
  let ended = options.jobs < 2;
  while (!ended && aheadBytes < WORKER_MIN_BYTES) {
    const next = await chunks.next();
    if (next.done) ended = true;
    else {
      ahead.push(next.value);
      if ("bytes" in next.value) aheadBytes += next.value.bytes.length;
    }
  }
  const all = concat(ahead, chunks);
  if (ended) yield* inThisThread(all, options);
  else yield* inWorker(all, options);
}

async function* concat(first: readonly InputChunk[], rest: AsyncIterable<InputChunk>): AsyncGenerator<InputChunk> {
  yield* first;
  yield* rest;
}

async function* inThisThread(chunks: AsyncIterable<InputChunk>, options: NormalizeJobsOptions): AsyncGenerator<InputBatch> {
  const normalizer = new ChunkNormalizer({ ...options.normalize, ...options.read });
  for await (const chunk of chunks) {
    if ("bytes" in chunk) yield { ...normalizer.push(chunk.source, chunk.bytes), bytes: chunk.bytes.length };
    else yield { ...normalizer.end(), bytes: 0 };
  }
  yield { ...normalizer.finish(), bytes: 0 };
}

async function* inWorker(chunks: AsyncIterable<InputChunk>, options: NormalizeJobsOptions): AsyncGenerator<InputBatch> {
  const worker = new NormalizeWorker({ origin: options.normalize.origin, maxLineBytes: options.read.maxLineBytes, wholeItems: options.wholeItems });
  try {
    const pending: Promise<InputBatch>[] = [];
    for await (const chunk of chunks) {
      pending.push("bytes" in chunk ? worker.send({ kind: "chunk", source: chunk.source, bytes: chunk.bytes }, chunk.bytes.length) : worker.send({ kind: "end" }, 0));
      if (pending.length >= IN_FLIGHT) yield await pending.shift()!;
    }
    pending.push(worker.send({ kind: "finish" }, 0));
    while (pending.length > 0) yield await pending.shift()!;
  } finally {
    await worker.stop();
  }
}

/** A worker thread running gate-worker: one answer per request, in the order sent. */
class NormalizeWorker {
  private readonly worker: Worker;
  private readonly waiting: { bytes: number; resolve(batch: InputBatch): void; reject(error: Error): void }[] = [];
  private failure: Error | undefined;

  constructor(options: WorkerOptions) {
    this.worker = startWorker(options);
    this.worker.on("message", (text: string) => {
      const batch = JSON.parse(text) as NormalizedBatch;
      const next = this.waiting.shift();
      next?.resolve({ ...batch, bytes: next.bytes });
    });
    this.worker.on("error", (error: Error) => this.fail(new Error(`the normalizing thread failed: ${error.message}`)));
    this.worker.on("exit", (code) => this.fail(new Error(`the normalizing thread stopped (exit code ${code}) before the journal's end`)));
  }

  send(request: WorkerRequest, bytes: number): Promise<InputBatch> {
    if (this.failure) return Promise.reject(this.failure);
    const answer = new Promise<InputBatch>((resolve, reject) => this.waiting.push({ bytes, resolve, reject }));
    // Awaited later, in order; until then a failure must not count as unhandled.
    answer.catch(() => undefined);
    this.worker.postMessage(request);
    return answer;
  }

  async stop(): Promise<void> {
    this.failure ??= new Error("the normalizing thread was stopped");
    this.worker.removeAllListeners("exit");
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.waiting.splice(0)) waiting.reject(this.failure);
  }
}

function startWorker(options: WorkerOptions): Worker {
  const here = import.meta.url;
  if (!here.endsWith(".ts")) return new Worker(new URL("./gate-worker.js", here), { workerData: options });
  // Run from the TypeScript sources (tests, tsx): the worker loads them through tsx too.
  const entry = new URL("./gate-worker.ts", here).href;
  const bootstrap = `import("tsx/esm/api").then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(here)}))`;
  return new Worker(bootstrap, { eval: true, workerData: options });
}
