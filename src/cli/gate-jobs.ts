// How `gate` spreads its work: all in this thread, or, with `--jobs` 2 or more
// and a journal large enough to repay a thread's start-up, in two:
//
// | step                                                   | thread                   |
// |--------------------------------------------------------|--------------------------|
// | read the sources' bytes                                | this one                 |
// | split them into lines (ChunkLines): a source of long   | this one, or the worker  |
// |   lines here, one of short lines in the worker         |                          |
// | parse and normalize each line (ChunkNormalizer)        | the worker (gate-worker) |
// | keep the tools in force, per call (ToolsInForce)       | the worker               |
// | verdicts, journal-wide checks, lines (PreparedGate)    | this one                 |
// | write the lines                                        | this one                 |
//
// Where a source's lines are long (records of many fields: request bodies,
// completions, provider responses), parsing and normalizing them is most of the
// work, and this thread splits them and sends their texts in one array
// (transfer-lines.ts). Where they are short (loose items and messages), a
// line's verdict costs this thread about what its parse costs the worker, and
// the bytes go as they are read (moved, not copied), for the worker to split.
// Records come back cut down to the fields the verdicts and checks read
// (transfer-records.ts). Each
// step sees every line or record in input order, as in one thread, so the output
// is the same, byte for byte. Two threads is the most the gate can use:
// normalization carries state from line to line (streams, repeated history, tools
// from request bodies), and the checks from item to item; neither can be split.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { JournalGateOptions } from "../gate/gate-journal.js";
import type { PreparedGate } from "../gate/prepared-gate.js";
import type { Target } from "../gate/targets.js";
import { RecordDecoder } from "../gate/transfer-records.js";
import { ChunkLines } from "../journal/chunk-lines.js";
import { encodeLines } from "../journal/transfer-lines.js";
import type { ReadOptions } from "../journal/read.js";
import type { NormalizeOptions } from "../journal/normalize.js";
import type { ToolSchema } from "../gate/schema.js";
import { registryCrossing, restoreShelved, toCrossing } from "./deep-values.js";
import { GateOutput, type GateFormat, type GateShown, type GateLines } from "./gate-output.js";
import type { GateAnswer, GateRequest, GateWorkerOptions } from "./gate-worker.js";
import { inputChunks, type InputChunk } from "./inputs.js";
import type { CommandIO } from "./io.js";
import { GATE_READING } from "../journal/gate-reading.js";
import { limitHeapGrowth } from "./heap-growth.js";

/** Below this many bytes a journal is gated in one thread: starting a worker costs about as much as it saves. */
export const WORKER_MIN_BYTES = 4 * 1024 * 1024;
export interface GateJobsOptions {
  jobs: number;
  read: ReadOptions;
  normalize: NormalizeOptions;
  gate: Pick<JournalGateOptions, "schema" | "registry" | "readTools" | "omitSource" | "targetOptions" | "assertFormats"> & { target?: Target };
  format: GateFormat;
  colour: boolean;
  shown?: GateShown;
  /** The size from which a second thread is used (`WORKER_MIN_BYTES`); tests lower it to run small journals in two threads. */
  workerMinBytes?: number;
  /** The worker's module, gate-worker by default; tests give one that fails. */
  workerModule?: URL;
  /** The worker's stack in MB, as deep as this thread's by default; tests give a deeper one, for a worker that sends what this thread cannot read. */
  workerStackMb?: number;
}

/** The lines for a stretch of the journal: how many input lines and bytes they answer, and how many threads gate it. */
export type GatedBatch = GateLines & { lines: number; bytes: number; threads: 1 | 2 };

export function defaultJobs(): number {
  return availableParallelism();
}

/** The gate's lines for the journal, in input order, a chunk's worth at a time. */
export async function* gatedBatches(sources: readonly string[], io: CommandIO, options: GateJobsOptions): AsyncGenerator<GatedBatch> {
  limitHeapGrowth();
  const chunks = inputChunks(sources, io, options.read);
  // Whether the journal is large enough is known by reading ahead, which works for stdin too.
  const ahead: InputChunk[] = [];
  let aheadBytes = 0;
  let ended = options.jobs < 2;
  const enough = options.workerMinBytes ?? WORKER_MIN_BYTES;
  while (!ended && aheadBytes < enough) {
    let next: IteratorResult<InputChunk>;
    try {
      next = await chunks.next();
    } catch (error) {
      // An input that fails while read ahead: what was read is gated here, as one thread gates it before it meets the failure.
      yield* inThisThread(concat(ahead, failing(error)), options);
      return;
    }
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

/** Chunks that end in `error`, thrown where the input failed. */
async function* failing(error: unknown): AsyncGenerator<InputChunk> {
  throw error;
}

async function* inThisThread(chunks: AsyncIterable<InputChunk>, options: GateJobsOptions): AsyncGenerator<GatedBatch> {
  // Loaded here, not with this module: with two threads, the normalizer and the tools in force are the worker's alone.
  const [{ ChunkNormalizer }, { ToolsInForce }, { GateHalves }, prepared] = await Promise.all([
    import("../journal/normalize-chunks.js"),
    import("../gate/tools-in-force.js"),
    import("../gate/gate-halves.js"),
    secondHalf(options.gate),
  ]);
  const normalizer = new ChunkNormalizer({ ...options.normalize, ...options.read, ...GATE_READING });
  // JournalGate's halves, put together here so that the replay targets load only when asked for.
  const gate = new GateHalves(new ToolsInForce(options.gate), prepared);
  const output = new GateOutput(options.format, options.colour, options.shown);
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

/** Chunks sent to the worker and not yet answered: enough to keep both threads busy, few enough to keep memory flat. */
const IN_FLIGHT = 16;

async function* inTwoThreads(chunks: AsyncIterable<InputChunk>, sources: readonly string[], options: GateJobsOptions): AsyncGenerator<GatedBatch> {
  const worker = new GateWorker(
    {
      sources,
      read: options.read,
      normalize: options.normalize,
      schema: options.gate.schema === undefined ? undefined : toCrossing(options.gate.schema),
      registry: options.gate.registry === undefined ? undefined : registryCrossing(options.gate.registry.data()),
      wholeItems: options.gate.target !== undefined,
    },
    options.workerModule,
    options.workerStackMb,
  );
  const reading = chunks[Symbol.asyncIterator]();
  try {
    // Ajv loads while the first chunks go to the worker; each schema is compiled when a call first needs it.
    const loading = secondHalf(options.gate);
    loading.catch(() => undefined);
    const splitter = new ChunkLines(options.read);
    // The source whose lines are being split, and whether this thread splits them.
    let splitSource: string | undefined;
    let splitHere = false;
    const decoder = new RecordDecoder(sources);
    const output = new GateOutput(options.format, options.colour, options.shown);
    // The bytes of each request sent and not yet answered, in the order sent.
    const sent: number[] = [];
    const gated = async (): Promise<GatedBatch> => {
      const [answer, gate] = await Promise.all([worker.next(), loading]);
      if (answer.shelved) restoreShelved(answer.transfer.values, answer.shelved);
      if (answer.shelvedSchemas) {
        const schemas = answer.transfer.schemas.map(([, schema]) => schema as unknown);
        restoreShelved(schemas, answer.shelvedSchemas);
        for (const { at } of answer.shelvedSchemas) answer.transfer.schemas[at][1] = schemas[at] as ToolSchema;
      }
      output.addGated(decoder.decode(answer.transfer), gate);
      return { ...output.take(), lines: answer.lines, bytes: sent.shift()!, threads: 2 };
    };
    for (;;) {
      let next: IteratorResult<InputChunk>;
      try {
        next = await reading.next();
      } catch (error) {
        // As in one thread: the lines of the chunks read before the input failed
        // are gated and written, and then the failure stops the run.
        while (sent.length > 0) yield await gated();
        throw error;
      }
      if (next.done) break;
      const chunk = next.value;
      // Decided on each source's first chunk, before any of its lines is split: the splitter is wholly one thread's.
      if ("bytes" in chunk && chunk.source !== splitSource) {
        splitSource = chunk.source;
        splitHere = holdsLongLines(chunk.bytes);
      }
      if (splitHere) {
        const lines = "bytes" in chunk ? splitter.push(chunk.source, chunk.bytes) : splitter.end();
        worker.send({ kind: "lines", lines: encodeLines(lines) });
      } else if ("bytes" in chunk) {
        // The chunk is this thread's no more: its bytes move to the worker rather than being copied.
        const bytes = ownBytes(chunk.bytes);
        worker.send({ kind: "chunk", source: chunk.source, bytes }, [bytes.buffer as ArrayBuffer]);
      } else {
        worker.send({ kind: "end" });
      }
      sent.push("bytes" in chunk ? chunk.bytes.length : 0);
      // One answer that has come is gated per chunk sent, so that the worker always
      // has chunks waiting; past the limit, this thread waits for the worker.
      if (worker.ready > 0) yield await gated();
      while (sent.length >= IN_FLIGHT) yield await gated();
    }
    worker.send({ kind: "finish" });
    sent.push(0);
    while (sent.length > 0) yield await gated();
    output.add((await loading).finish());
    yield { ...output.take(), lines: 0, bytes: 0, threads: 2 };
  } finally {
    // The input is let go (its file closed) however the run ends, as a for-await loop would.
    await reading.return?.();
    await worker.stop();
  }
}

/**
 * Lines of more than this many bytes on average make a source's lines this
 * thread's to split. Measured on two cores, in runs alternated with the worker
 * splitting: at 840 bytes a line (request bodies, completions and streams
 * mixed) splitting them here made `--jobs 2` 5 to 8% faster; at 245 (loose
 * calls nearly all blocked) 10 to 15% slower.
 */
const LONG_LINE_BYTES = 512;

/** Whether a source's first chunk holds lines of LONG_LINE_BYTES or more on average (a chunk with no newline: one long line). */
function holdsLongLines(bytes: Buffer): boolean {
  let lines = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) lines += 1;
  return lines === 0 || bytes.length / lines >= LONG_LINE_BYTES;
}

/** The chunk's bytes in a buffer of their own: a view into a larger one would take all of it across. */
function ownBytes(bytes: Buffer): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

/** The verdicts and checks: the gate's second half. */
async function secondHalf(gate: GateJobsOptions["gate"]): Promise<PreparedGate> {
  const { PreparedGate } = await import("../gate/prepared-gate.js");
  // The replay targets load Zod and the models: only a run that checks one pays for them.
  const checks = gate.target === undefined ? [] : [new (await import("../gate/targets.js")).TargetChecker(gate.target, gate.targetOptions)];
  return new PreparedGate({ checks, omitSource: gate.omitSource === true, assertFormats: gate.assertFormats === true });
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
    // After a failure the answers may no longer line up with the requests: none is taken.
    if (failure) return Promise.reject(failure);
    if (this.ready.length > 0) return Promise.resolve(this.ready.shift()!);
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
  private readonly answers = new AnswerQueue<GateAnswer>();
  private failure: Error | undefined;
  private stopping = false;

  constructor(options: GateWorkerOptions, module?: URL, stackMb?: number) {
    this.worker = startWorker(options, module, stackMb);
    this.worker.on("message", (answer: GateAnswer) => this.answers.put(answer));
    this.worker.on("error", (error: Error) => this.fail(new Error(`the gate's worker thread failed: ${error.message}`)));
    // An answer that cannot be read is one answer fewer: the next would be taken for it.
    this.worker.on("messageerror", (error: Error) => this.fail(new Error(`an answer of the gate's worker thread could not be read: ${error.message}`)));
    this.worker.on("exit", (code) => {
      if (!this.stopping) this.fail(new Error(`the gate's worker thread stopped (exit code ${code}) before the journal's end`));
    });
  }

  /** Answers that have come and are not yet taken. */
  get ready(): number {
    return this.answers.size;
  }

  send(request: GateRequest, transfer: ArrayBuffer[] = []): void {
    if (this.failure) throw this.failure;
    this.worker.postMessage(request, transfer);
  }

  next(): Promise<GateAnswer> {
    return this.answers.take(this.failure);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.answers.fail(this.failure);
  }
}

/**
 * The young generation of the worker's heap, in MB. V8 lets it grow to 48 MB on
 * its own; a small one keeps the two heaps together within the memory target.
 */
const WORKER_YOUNG_GENERATION_MB = 16;

/**
 * The worker's stack, in MB: as deep as this thread's, so that a value nested
 * deep enough to run a recursion of the normalizer out of stack (JSON.stringify
 * of an item, for one) does so in the worker as it does here, and a line gets the
 * same record either way. A worker has 4 MB by default, four times as deep.
 * V8 lets this thread use `--stack-size` KB (984 unless given); Node keeps 192 KB
 * of a worker's stack in reserve.
 */
const WORKER_STACK_MB = (stackSizeKb() + 192) / 1024;

function stackSizeKb(): number {
  const given = process.execArgv.map((arg) => /^--stack[-_]size=(\d+)$/.exec(arg)).find((match) => match !== null);
  return given ? Number(given[1]) : 984;
}

function startWorker(options: GateWorkerOptions, module: URL | undefined, stackMb = WORKER_STACK_MB): Worker {
  const here = import.meta.url;
  const resourceLimits = { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB, stackSizeMb: stackMb };
  if (module !== undefined || !here.endsWith(".ts")) return new Worker(module ?? new URL("./gate-worker.js", here), { workerData: options, resourceLimits });
  // Run from the TypeScript sources (tests, tsx): the worker loads them through tsx too.
  const entry = new URL("./gate-worker.ts", here).href;
  const bootstrap = `import("tsx/esm/api").then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(here)}))`;
  return new Worker(bootstrap, { eval: true, workerData: options, resourceLimits });
}
