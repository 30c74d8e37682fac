#!/usr/bin/env node
// The executable entry: the one place that exits the process.
import { runCli } from "./run.js";

runCli(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`orbridge: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(2);
  },
);
