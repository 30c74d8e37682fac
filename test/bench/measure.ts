// Runs one command as a whole process, its output to /dev/null, and measures its
// wall time and peak resident memory. Peak memory comes from `/usr/bin/time -v`
// (the kernel's own count at exit) when it is installed; otherwise the process's
// `VmHWM` (its high-water mark) is read from /proc while it runs, and the last
// value read before it exits is kept.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";

export interface Measurement {
  wallMs: number;
  /** Peak resident set size in kilobytes; undefined when it could not be read. */
  peakRssKb?: number;
  /** User plus system CPU seconds, when `/usr/bin/time` gave them. */
  cpuSeconds?: number;
  exitCode: number | null;
  /** The last lines the command wrote on stderr. */
  stderrTail: string;
}

const TIME = "/usr/bin/time";

export const memorySource: "time" | "proc" = existsSync(TIME) && spawnSync(TIME, ["-v", "true"]).status === 0 ? "time" : "proc";

export function measure(command: readonly string[], options: { stdoutPath?: string } = {}): Promise<Measurement> {
  const stdout = openSync(options.stdoutPath ?? "/dev/null", "w");
  const argv = memorySource === "time" ? [TIME, "-v", ...command] : [...command];
  const started = process.hrtime.bigint();
  const child = spawn(argv[0], argv.slice(1), { stdio: ["ignore", stdout, "pipe"] });
  closeSync(stdout);
  let stderr = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-20000);
  });
  let sampledKb: number | undefined;
  const sampler =
    memorySource === "proc"
      ? setInterval(() => {
          const kb = readHighWaterMark(child.pid);
          if (kb !== undefined) sampledKb = kb;
        }, 10)
      : undefined;
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (sampler) clearInterval(sampler);
      if (memorySource === "proc") {
        resolve({ wallMs, peakRssKb: sampledKb, exitCode: code, stderrTail: tail(stderr) });
        return;
      }
      const report = parseTimeReport(stderr);
      resolve({ wallMs, peakRssKb: report.peakRssKb, cpuSeconds: report.cpuSeconds, exitCode: report.exitCode ?? code, stderrTail: tail(report.commandStderr) });
    });
  });
}

function readHighWaterMark(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Splits the stderr of `time -v CMD` into the command's own stderr and the report. */
function parseTimeReport(stderr: string): { peakRssKb?: number; cpuSeconds?: number; exitCode?: number; commandStderr: string } {
  const start = stderr.search(/^(Command exited with non-zero status \d+\n)?\tCommand being timed:/m);
  const report = start === -1 ? "" : stderr.slice(start);
  const number = (label: string) => {
    const match = new RegExp(`^\\t${label}: ([0-9.]+)$`, "m").exec(report);
    return match ? Number(match[1]) : undefined;
  };
  const user = number("User time \\(seconds\\)");
  const system = number("System time \\(seconds\\)");
  return {
    peakRssKb: number("Maximum resident set size \\(kbytes\\)"),
    cpuSeconds: user !== undefined && system !== undefined ? user + system : undefined,
    exitCode: number("Exit status"),
    commandStderr: start === -1 ? stderr : stderr.slice(0, start),
  };
}

function tail(text: string): string {
  return text.trimEnd().split("\n").slice(-3).join("\n");
}
