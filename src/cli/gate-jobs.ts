// How `gate` spreads its work: all in this thread, or, with `--jobs` 2 or more
// and a journal large enough to repay a thread's start-up, in two, each with
// about half of the work:
//
// | step                                                   | thread                   |
// |--------------------------------------------------------|--------------------------|
// | read the sources' bytes                                | this one                 |
// | split them into lines and decode them (LineSplitter)   | the worker (gate-worker) |
// |   (while the worker loads, this one, which then hands  |                          |
// |   the splitter's state over)                           |                          |
// | parse and normalize each line (ChunkNormalizer)        | this one                 |
// | keep the tools in force, per call (ToolsInForce)       | this one                 |
// | verdicts, journal-wide checks, lines (PreparedGate)    | the worker               |
// | write the lines                                        | this one                 |
//
// Each step sees every line or record in input order, as in one thread, so the
// output is the same, byte for byte. Two threads is the most the gate can use:
// normalization carries state from line to line (streams, repeated history, tools
// from request bodies), and the checks from item to item; neither can be split.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { JournalGateOptions } from "../gate/gate-journal.js";
import type { ToolSchema } from "../gate/schema.js";
import { ToolsInForce } from "../gate/tools-in-force.js";
import type { Target } from "../gate/targets.js";
import { RecordEncoder } from "../gate/transfer-records.js";
import { ChunkNormalizer, type NormalizedBatch } from "../journal/normalize-chunks.js";
import type { ReadOptions } from "../journal/read.js";
import { decodeLines, type LineTransfer } from "../journal/transfer-lines.js";
import type { NormalizeOptions } from "../journal/normalize.js";
import { GateOutput, type GateFormat, type GateLines } from "./gate-output.js";
import type { GateAnswer, GateRequest, GateWorkerOptions } from "./gate-worker.js";
import { inputChunks, type InputChunk } from "./inputs.js";
import type { CommandIO } from "./io.js";

/** Below this many bytes a journal is gated in one thread: starting a worker costs about as much as it saves. */
export const WORKER_MIN_BYTES = 4 * 1024 * 1024;
/** Batches of records sent to the worker and not yet answered: enough to keep it busy, few enough to keep memory flat. */
const IN_FLIGHT = 8;

export interface GateJobsOptions {
  jobs: number;
  read: ReadOptions;
  normalize: NormalizeOptions;
  gate: Pick<JournalGateOptions, "schema" | "registry" | "omitSource"> & { target?: Target };
  format: GateFormat;
  colour: boolean;
  /** The size from which a second thread is used (`WORKER_MIN_BYTES`); tests lower it to run small journals in two threads. */
  workerMinBytes?: number;
}

/** The lines for a stretch of the journal: how many input lines and bytes they answer, and how many threads gate it. */
export type GatedBatch = GateLines & { lines: number; bytes: number; threads: 1 | 2 };

export function defaultJobs(): number {
  return availableParallelism();
}

/** The gate's lines for the journal, in input order, a chunk's worth at a time. */
export async function* gatedBatches(sources: readonly string[], io: CommandIO, options: GateJobsOptions): AsyncGenerator<GatedBatch> {
  const chunks = inputChunks(sources, io);
  // Whether the journal is large enough is known by reading ahead, which works for stdin too.
  const ahead: InputChunk[] = [];
  let aheadBytes = 0;
  let ended = options.jobs < 2;
  const enough = options.workerMinBytes ?? WORKER_MIN_BYTES;
  while (!ended && aheadBytes < enough) {
    const next = await chunks.next();
    if (next.done) ended = true;
    else {
      ahead.push(next.value);
      if ("bytes" in next.value) aheadBytes += next.value.bytes.length;
    }
  }
  const all = concat(ahead, chunks);
  if (ended) yield* inThisThread(all, options);
  else yield* inTwoThreads(all, sources, options);
}

async function* concat(first: readonly InputChunk[], rest: AsyncIterable<InputChunk>): AsyncGenerator<InputChunk> {
  yield* first;
  yield* rest;
}

function normalizerFor(options: GateJobsOptions): ChunkNormalizer {
  return new ChunkNormalizer({ ...options.normalize, ...options.read, unknownObjects: "item" });
}

async function* inThisThread(chunks: AsyncIterable<InputChunk>, options: GateJobsOptions): AsyncGenerator<GatedBatch> {
  // Loaded here, not with this module: with two threads, Ajv is the worker's alone.
  const { JournalGate } = await import("../gate/gate-journal.js");
  const normalizer = normalizerFor(options);
  const gate = new JournalGate(options.gate);
  const output = new GateOutput(options.format, options.colour);
  for await (const chunk of chunks) {
    const batch = "bytes" in chunk ? normalizer.push(chunk.source, chunk.bytes) : normalizer.end();
    output.addGated(batch.records, gate);
    yield { ...output.take(), lines: batch.lines, bytes: "bytes" in chunk ? chunk.bytes.length : 0, threads: 1 };
  }
  const last = normalizer.finish();
  output.addGated(last.records, gate);
  output.add(gate.finish());
  yield { ...output.take(), lines: last.lines, bytes: 0, threads: 1 };
}

/** Chunks handed to the worker to split and not yet back as lines: enough to keep this thread fed. */
const SPLIT_AHEAD = 8;

async function* inTwoThreads(chunks: AsyncIterable<InputChunk>, sources: readonly string[], options: GateJobsOptions): AsyncGenerator<GatedBatch> {
  const worker = new GateWorker({
    sources,
    maxLineBytes: options.read.maxLineBytes,
    target: options.gate.target,
    omitSource: options.gate.omitSource === true,
    format: options.format,
    colour: options.colour,
    schemas: knownSchemas(options.gate),
  });
  try {
    const normalizer = normalizerFor(options);
    const tools = new ToolsInForce(options.gate);
    const encoder = new RecordEncoder(sources, options.gate.target !== undefined);
    // The bytes of each chunk sent to be split, and what each batch of records sent answers, in the order sent.
    const splitting: number[] = [];
    const gating: { lines: number; bytes: number; threads: 2 }[] = [];
    const sendRecords = (batch: NormalizedBatch, bytes: number) => {
      for (const record of batch.records) {
        if (record.kind === "error") encoder.addError(record.source, record.line, record.detail);
        else encoder.add(tools.prepare(record));
      }
      worker.send({ kind: "records", transfer: encoder.take() });
      gating.push({ lines: batch.lines, bytes, threads: 2 });
    };
    const takeLines = async () => {
      const bytes = splitting.shift()!;
      sendRecords(normalizer.pushLines(decodeLines(await worker.nextLines())), bytes);
    };
    // Until the worker has loaded, this thread splits lines itself, then hands the
    // splitter's state over with the next chunk: neither thread waits for the other to start.
    let handedOver = false;
    for await (const chunk of chunks) {
      if (!handedOver && !(worker.ready && "bytes" in chunk)) {
        sendRecords("bytes" in chunk ? normalizer.push(chunk.source, chunk.bytes) : normalizer.end(), "bytes" in chunk ? chunk.bytes.length : 0);
      } else if ("bytes" in chunk) {
        const from = handedOver ? undefined : normalizer.handOver();
        handedOver = true;
        splitting.push(chunk.bytes.length);
        // The chunk is this thread's no more: its bytes move to the worker rather than being copied.
        const bytes = ownBytes(chunk.bytes);
        worker.send({ kind: "split", source: chunk.source, bytes, ...(from ? { from } : {}) }, [bytes.buffer as ArrayBuffer]);
      } else {
        splitting.push(0);
        worker.send({ kind: "end" });
      }
      while (worker.linesReady > 0 || splitting.length >= SPLIT_AHEAD) await takeLines();
      // Lines already gated are written at once; past the limit, this thread waits for the worker.
      while (worker.outputReady > 0 || gating.length >= IN_FLIGHT) yield { ...(await worker.nextOutput()), ...gating.shift()! };
    }
    while (splitting.length > 0) await takeLines();
    sendRecords(normalizer.finish(), 0);
    worker.send({ kind: "finish" });
    gating.push({ lines: 0, bytes: 0, threads: 2 });
    while (gating.length > 0) yield { ...(await worker.nextOutput()), ...gating.shift()! };
  } finally {
    await worker.stop();
  }
}

/** The schemas known before the journal is read: the worker compiles them while it loads. */
function knownSchemas(gate: GateJobsOptions["gate"]): ToolSchema[] {
  const schemas: ToolSchema[] = gate.schema === undefined ? [] : [gate.schema];
  for (const name of gate.registry?.names() ?? []) {
    const schema = gate.registry!.schemaFor(name);
    if (schema !== undefined) schemas.push(schema);
  }
  return schemas;
}

/** Answers of one kind, taken in the order they came. */
class AnswerQueue<T> {
  private readonly ready: T[] = [];
  private waiting: { resolve(answer: T): void; reject(error: Error): void } | undefined;

  get size(): number {
    return this.ready.length;
  }

  put(answer: T): void {
    if (this.waiting) {
      this.waiting.resolve(answer);
      this.waiting = undefined;
    } else this.ready.push(answer);
  }

  take(failure: Error | undefined): Promise<T> {
    if (this.ready.length > 0) return Promise.resolve(this.ready.shift()!);
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  fail(error: Error): void {
    this.waiting?.reject(error);
    this.waiting = undefined;
  }
}

/** The worker thread (gate-worker.ts): one answer per request, in the order sent. */
class GateWorker {
  private readonly worker: Worker;
  private readonly lines = new AnswerQueue<LineTransfer>();
  private readonly outputs = new AnswerQueue<GateLines>();
  private failure: Error | undefined;
  private stopping = false;
  /** Whether the worker has loaded and splits what it is sent. */
  ready = false;

  constructor(options: GateWorkerOptions) {
    this.worker = startWorker(options);
    this.worker.on("message", (answer: GateAnswer) => {
      switch (answer.kind) {
        case "ready":
          this.ready = true;
          return;
        case "lines":
          return this.lines.put(answer.lines);
        case "output":
          return this.outputs.put(answer.output);
        default:
          return assertNever(answer);
      }
    });
    this.worker.on("error", (error: Error) => this.fail(new Error(`the gate's worker thread failed: ${error.message}`)));
    this.worker.on("exit", (code) => {
      if (!this.stopping) this.fail(new Error(`the gate's worker thread stopped (exit code ${code}) before the journal's end`));
    });
  }

  get linesReady(): number {
    return this.lines.size;
  }

  get outputReady(): number {
    return this.outputs.size;
  }

  send(request: GateRequest, transfer: ArrayBuffer[] = []): void {
    if (this.failure) throw this.failure;
    this.worker.postMessage(request, transfer);
  }

  nextLines(): Promise<LineTransfer> {
    return this.lines.take(this.failure);
  }

  nextOutput(): Promise<GateLines> {
    return this.outputs.take(this.failure);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.lines.fail(this.failure);
    this.outputs.fail(this.failure);
  }
}

/** The chunk's bytes in a buffer of their own: a view into a larger one would take all of it across. */
function ownBytes(bytes: Buffer): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

/**
 * The young generation of the worker's heap, in MB. V8 lets it grow to 48 MB on
 * its own; a small one keeps the two heaps together within the memory target.
 */
const WORKER_YOUNG_GENERATION_MB = 16;

function startWorker(options: GateWorkerOptions): Worker {
  const here = import.meta.url;
  const resourceLimits = { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB };
  if (!here.endsWith(".ts")) return new Worker(new URL("./gate-worker.js", here), { workerData: options, resourceLimits });
  // Run from the TypeScript sources (tests, tsx): the worker loads them through tsx too.
  const entry = new URL("./gate-worker.ts", here).href;
  const bootstrap = `import("tsx/esm/api").then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(here)}))`;
  return new Worker(bootstrap, { eval: true, workerData: options, resourceLimits });
}

function assertNever(value: never): never {
  throw new Error(`unknown answer ${JSON.stringify(value)}`);
}
