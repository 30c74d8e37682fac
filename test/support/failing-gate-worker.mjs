// Stands in for the worker of `gate --jobs` (src/cli/gate-worker.ts) and fails
// as the journal says: it answers each chunk or batch of lines with no record until one holds
// "THROW" (then it throws), "EXIT" (then its thread exits with code 3) or
// "UNREADABLE" (then it answers with a value nested deeper than the receiving
// thread can read, as an item of a hostile journal can be), and then answers on.
import { parentPort } from "node:worker_threads";

parentPort.on("message", (request) => {
  const text = request.kind === "lines" ? request.lines.texts.join("\n") : request.kind === "chunk" ? Buffer.from(request.bytes).toString("utf8") : "";
  if (text.includes("THROW")) throw new Error("the normalizer broke");
  if (text.includes("EXIT")) process.exit(3);
  if (text.includes("UNREADABLE")) {
    let deep = [];
    for (let depth = 0; depth < 5_000; depth++) deep = [deep];
    parentPort.postMessage({ kind: "records", lines: 0, transfer: { values: [deep], schemas: [], forget: [] } });
    return;
  }
  parentPort.postMessage({ kind: "records", lines: 0, transfer: { values: [], schemas: [], forget: [] } });
});
