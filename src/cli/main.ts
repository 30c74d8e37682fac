#!/usr/bin/env node
// The executable entry: the one place that exits the process.
import { runCli } from "./run.js";

// A reader that stops early (`orbridge gate … | head`) closes the pipe: stop
// quietly with status 1, since the journal was not checked to its end.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(1);
  throw error;
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
