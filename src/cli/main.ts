#!/usr/bin/env node
// The executable entry: the one place that exits the process.
import { removePendingOutputs } from "../journal/write.js";
import { stopWriting } from "./io.js";
import { runCli } from "./run.js";

// Stopped by a signal, the run leaves no temporary file behind; an `--out` target
// keeps its old content. The exit status follows the shell's 128 + signal number.
// A pipe takes what its reader has room for, so the lines last handed to stdout
// may be written only in part: they are written to their end before the exit
// (an empty write's callback comes after every write before it), so that the
// output ends with a whole line, and nothing after them is. A reader that never
// reads again cannot hold the exit: it comes within half a second whatever the
// pipe took, or at once on a second signal.
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  process.once(signal, () => {
    removePendingOutputs();
    stopWriting();
    if (process.stdout.writableLength === 0) process.exit(code);
    process.once(signal, () => process.exit(code));
    process.stdout.write("", () => process.exit(code));
    setTimeout(() => process.exit(code), 500);
  });
}

// A reader that stops early (`orbridge gate … | head`) closes the pipe: stop
// quietly with status 1, since the journal was not checked to its end.
// Any other failure to write (a full disk, an I/O error) means output was lost
// where nobody chose to stop reading: status 1 would read as an answer ("some
// item blocked"), which a wrapper that lets 1 pass takes for a whole run, so it
// is said in one line and the run stops with status 2.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  // Either way the run is not finished: its files (`--report` beside the items on stdout) are not put in place, nor left half-written.
  removePendingOutputs();
  if (error.code === "EPIPE") process.exit(1);
  process.stderr.write(`orbridge: cannot write standard output: ${error.message}\n`);
  process.exit(2);
});

runCli(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`orbridge: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(2);
  },
);
