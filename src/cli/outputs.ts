// The end of a run that writes files: every output is put in place only when the
// whole run succeeded; on any error every one is discarded, so no file is partial.
import type { Progress } from "./progress.js";

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
