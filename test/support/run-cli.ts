// Runs a command line in-process with in-memory streams and returns what a user
// would see: stdout, stderr and the exit code.
import { PassThrough, Readable } from "node:stream";
import { runCli } from "../../src/cli/run.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `stdin`: its text, or a stream (one that stands for a file descriptor, say). */
export async function runOrbridge(argv: string[], stdin: string | Readable = "", env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on("data", (chunk: Buffer) => out.push(chunk));
  stderr.on("data", (chunk: Buffer) => err.push(chunk));
  const code = await runCli(argv, { stdin: typeof stdin === "string" ? Readable.from([stdin]) : stdin, stdout, stderr, env });
  return { code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
}
