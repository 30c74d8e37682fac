// The worker thread of `gate --jobs`. It does the two ends of the work, the
// thread that started it the middle (gate-jobs.ts):
//   split:   bytes of a source into lines, decoded, handed back to be normalized;
//   records: normalized records whose calls know their tool's schema, given their
//            verdicts and journal-wide findings in the order they come, and handed
//            back as the lines to write.
import { parentPort, workerData } from "node:worker_threads";
import { PreparedGate } from "../gate/prepared-gate.js";
import { SchemaCache, type ToolSchema } from "../gate/schema.js";
import type { Target } from "../gate/targets.js";
import { RecordDecoder, type RecordTransfer } from "../gate/transfer-records.js";
import { LineSplitter, type SplitterState } from "../journal/read.js";
import { encodeLines, type LineTransfer } from "../journal/transfer-lines.js";
import { GateOutput, type GateFormat, type GateLines } from "./gate-output.js";

export type GateRequest =
  /**
   * A chunk of a source's bytes; a chunk of a new source follows the end of the
   * last. `from`: the state of the splitter that split the source so far, in the
   * thread that sent it (which splits while this one starts).
   */
  | { kind: "split"; source: string; bytes: Uint8Array; from?: SplitterState }
  /** The end of the current source. */
  | { kind: "end" }
  | { kind: "records"; transfer: RecordTransfer }
  /** The end of the journal. */
  | { kind: "finish" };

export type GateAnswer = { kind: "ready" } | { kind: "lines"; lines: LineTransfer } | { kind: "output"; output: GateLines };

export interface GateWorkerOptions {
  sources: readonly string[];
  maxLineBytes?: number;
  target?: Target;
  omitSource: boolean;
  format: GateFormat;
  colour: boolean;
  /** Tool schemas known before the journal is read (`--schema`, `--tools`). */
  schemas: readonly ToolSchema[];
}

const options = workerData as GateWorkerOptions;
// The replay targets load Zod and the models: only a run that checks one pays for them.
const checks = options.target === undefined ? [] : [new (await import("../gate/targets.js")).TargetChecker(options.target)];
// The schemas known from the start are compiled now, before this thread says it is
// ready: the other thread splits lines meanwhile, rather than wait for the compiles.
const cache = new SchemaCache();
for (const schema of options.schemas) cache.compile(schema);
const gate = new PreparedGate({ checks, omitSource: options.omitSource, cache });
const decoder = new RecordDecoder(options.sources);
const output = new GateOutput(options.format, options.colour);
let splitter: { source: string; lines: LineSplitter } | undefined;

// Splitting comes first: the other thread waits for lines and has nothing else to
// do, while records can wait their turn. So records are queued and gated one batch
// per turn of the event loop, and a request to split that arrives meanwhile is
// answered between two batches.
const queued: GateRequest[] = [];
let draining = false;

parentPort!.on("message", (request: GateRequest) => {
  if (request.kind === "split" || request.kind === "end") {
    parentPort!.postMessage(answer(request));
    return;
  }
  queued.push(request);
  if (!draining) {
    draining = true;
    setImmediate(drain);
  }
});

function drain(): void {
  const request = queued.shift();
  if (request) parentPort!.postMessage(answer(request));
  if (queued.length > 0) setImmediate(drain);
  else draining = false;
}

function answer(request: GateRequest): GateAnswer {
  switch (request.kind) {
    case "split": {
      splitter ??= { source: request.source, lines: new LineSplitter(request.source, { maxLineBytes: options.maxLineBytes }, request.from) };
      const bytes = Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
      return { kind: "lines", lines: encodeLines(splitter.source, splitter.lines.push(bytes)) };
    }
    case "end": {
      const last = splitter ? encodeLines(splitter.source, splitter.lines.finish()) : encodeLines("", []);
      splitter = undefined;
      return { kind: "lines", lines: last };
    }
    case "records":
      output.addGated(decoder.decode(request.transfer), gate);
      return { kind: "output", output: output.take() };
    case "finish":
      output.add(gate.finish());
      return { kind: "output", output: output.take() };
    default:
      return assertNever(request);
  }
}

function assertNever(value: never): never {
  throw new Error(`unknown request ${JSON.stringify(value)}`);
}

// Everything is loaded: from now on, this thread splits what it is sent.
parentPort!.postMessage({ kind: "ready" } satisfies GateAnswer);
