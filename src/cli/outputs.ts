// The files a run writes: `--out` (stdout without it) and `--report`, opened only
// when neither names an input, put in place only when the whole run succeeded,
// and discarded on any error, so no file is partial.
import type { Writable } from "node:stream";
import { atomicFileOutput, stdoutOutput, type JournalOutput } from "../journal/write.js";
import { checkOutputIsNotInput } from "./inputs.js";
import type { Progress } from "./progress.js";
import { ReportWriter } from "./report.js";

/** Opens the output (a file for `--out`, else stdout) and the `--report` file, if any. */
export function openOutputs(outPath: string | undefined, reportPath: string | undefined, sources: readonly string[], stdout: Writable): { output: JournalOutput; report?: ReportWriter } {
  if (outPath !== undefined) checkOutputIsNotInput("--out", outPath, sources);
  if (reportPath !== undefined) checkOutputIsNotInput("--report", reportPath, sources);
  return { output: outPath ? atomicFileOutput(outPath) : stdoutOutput(stdout), ...(reportPath ? { report: new ReportWriter(reportPath) } : {}) };
}

interface PendingOutput {
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export async function writeThenCommit(outputs: ReadonlyArray<PendingOutput | undefined>, progress: Progress, work: () => Promise<void>): Promise<void> {
  try {
    await work();
    progress.done();
    for (const output of outputs) await output?.commit();
  } catch (error) {
    progress.done();
    for (const output of outputs) await output?.abort();
    throw error;
  }
}
