// The worker thread of `gate --jobs`: gives each prepared record its verdicts and
// journal-wide findings, in the order the records come, and hands back the lines
// to write. The thread that started it reads, normalizes and keeps the tools in
// force (gate-jobs.ts).
import { parentPort, workerData } from "node:worker_threads";
import { PreparedGate } from "../gate/gate-journal.js";
import type { Target } from "../gate/targets.js";
import { RecordDecoder, type RecordTransfer } from "../gate/transfer-records.js";
import { GateOutput, type GateFormat, type GateLines } from "./gate-output.js";

/** What the reading thread sends: a batch of records, or the end of the journal. */
export type GateRequest = { kind: "records"; transfer: RecordTransfer } | { kind: "finish" };

export interface GateWorkerOptions {
  sources: readonly string[];
  target?: Target;
  omitSource: boolean;
  format: GateFormat;
  colour: boolean;
}

const options = workerData as GateWorkerOptions;
const gate = new PreparedGate({ target: options.target, omitSource: options.omitSource });
const decoder = new RecordDecoder(options.sources);
const output = new GateOutput(options.format, options.colour);

parentPort!.on("message", (request: GateRequest) => {
  parentPort!.postMessage(answer(request) satisfies GateLines);
});

function answer(request: GateRequest): GateLines {
  switch (request.kind) {
    case "records":
      for (const record of decoder.decode(request.transfer)) output.add(record.kind === "error" ? gate.error(record.source, record.line, record.detail) : gate.push(record));
      return output.take();
    case "finish":
      output.add(gate.finish());
      return output.take();
    default:
      return assertNever(request);
  }
}

function assertNever(value: never): never {
  throw new Error(`unknown request ${JSON.stringify(value)}`);
}
