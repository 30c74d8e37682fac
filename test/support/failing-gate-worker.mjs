// Stands in for the worker of `gate --jobs` (src/cli/gate-worker.ts) and fails
// as the journal says: it answers each chunk with no record until a chunk holds
// "THROW" (then it throws) or "EXIT" (then its thread exits with code 3).
import { parentPort } from "node:worker_threads";

parentPort.on("message", (request) => {
  const text = request.kind === "chunk" ? Buffer.from(request.bytes).toString("utf8") : "";
  if (text.includes("THROW")) throw new Error("the normalizer broke");
  if (text.includes("EXIT")) process.exit(3);
  parentPort.postMessage({ kind: "records", lines: 0, transfer: { values: [], schemas: [], forget: [] } });
});
