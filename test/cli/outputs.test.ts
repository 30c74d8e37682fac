// Outputs that would destroy an input or another output are refused before
// anything is read or opened, with one line on stderr and exit 2; the files are
// left as they were. Paths are tried in-process; the standard streams, which only
// a process of its own has, in a spawned one.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const journalText = readFileSync("golden/examples/mixed.jsonl", "utf8");
let count = 0;

/** A folder of its own holding a copy of the mixed journal. */
function setUp(): { folder: string; journal: string } {
  const folder = join(scratchFolder("outputs"), `case-${++count}`);
  mkdirSync(folder);
  const journal = join(folder, "journal.jsonl");
  writeFileSync(journal, journalText);
  return { folder, journal };
}

const refused = (command: string, message: string) => ({ code: 2, stdout: "", stderr: `orbridge ${command}: ${message}\n` });

describe("--out and --report naming one file", () => {
  test("by the same path: refused, and nothing is written", async () => {
    const { folder, journal } = setUp();
    const out = join(folder, "out.jsonl");
    expect(await runOrbridge(["normalize", "--out", out, "--report", out, journal])).toEqual(
      refused("normalize", `--report ${out} is the same file as --out ${out}; each output needs a file of its own`),
    );
    expect(readdirSync(folder)).toEqual(["journal.jsonl"]);
  });

  test("by another spelling of a file that does not exist yet", async () => {
    const { folder, journal } = setUp();
    const out = join(folder, "out.jsonl");
    const report = `${folder}/../${folder.split("/").pop()!}/out.jsonl`;
    expect(await runOrbridge(["convert", "--to", "chat", "--out", out, "--report", report, journal])).toEqual(
      refused("convert", `--report ${report} is the same file as --out ${out}; each output needs a file of its own`),
    );
  });

  test("through a symbolic link: refused, and the file keeps its content", async () => {
    const { folder, journal } = setUp();
    const out = join(folder, "out.jsonl");
    writeFileSync(out, "kept\n");
    const link = join(folder, "link.jsonl");
    symlinkSync(out, link);
    expect(await runOrbridge(["normalize", "--out", out, "--report", link, journal])).toEqual(
      refused("normalize", `--report ${link} is the same file as --out ${out}; each output needs a file of its own`),
    );
    expect(readFileSync(out, "utf8")).toBe("kept\n");
    expect(readdirSync(folder).sort()).toEqual(["journal.jsonl", "link.jsonl", "out.jsonl"]);
  });

  test("through a hard link", async () => {
    const { folder, journal } = setUp();
    const out = join(folder, "out.jsonl");
    writeFileSync(out, "kept\n");
    const hard = join(folder, "hard.jsonl");
    linkSync(out, hard);
    expect(await runOrbridge(["normalize", "--out", hard, "--report", out, journal])).toEqual(
      refused("normalize", `--report ${out} is the same file as --out ${hard}; each output needs a file of its own`),
    );
    expect(readFileSync(out, "utf8")).toBe("kept\n");
  });

  test("both /dev/null: allowed, a device takes any number of outputs", async () => {
    const { journal } = setUp();
    const run = await runOrbridge(["normalize", "--out", "/dev/null", "--report", "/dev/null", journal]);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: "" });
  });
});

describe("an output that is an input", () => {
  test("by a hard link: refused, and the input kept", async () => {
    const { folder, journal } = setUp();
    const hard = join(folder, "also-journal.jsonl");
    linkSync(journal, hard);
    expect(await runOrbridge(["normalize", "--report", hard, journal])).toEqual(refused("normalize", `--report ${hard} is also an input; inputs are never overwritten`));
    expect(readFileSync(journal, "utf8")).toBe(journalText);
  });
});

describe("an output where no file can be written", () => {
  test("a directory", async () => {
    const { folder, journal } = setUp();
    expect(await runOrbridge(["normalize", "--out", folder, journal])).toEqual(refused("normalize", `--out ${folder} is a directory`));
  });

  test("a folder that does not exist", async () => {
    const { folder, journal } = setUp();
    const out = join(folder, "missing", "out.jsonl");
    expect(await runOrbridge(["convert", "--to", "chat", "--report", out, journal])).toEqual(
      refused("convert", `cannot write --report ${out}: there is no folder ${join(folder, "missing")}`),
    );
  });

  test("a path through a file", async () => {
    const { journal } = setUp();
    const out = join(journal, "out.jsonl");
    expect(await runOrbridge(["normalize", "--out", out, journal])).toEqual(refused("normalize", `cannot write --out ${out}: a part of its path is not a folder`));
  });

  test("an empty name", async () => {
    const { journal } = setUp();
    expect(await runOrbridge(["normalize", "--out", "", journal])).toEqual(refused("normalize", "--out needs a file name"));
  });
});

/** The command run as a process of its own, its stdin, stdout and stderr the descriptors given (a pipe for each left out). */
function spawnOrbridge(args: string[], stdio: { stdin?: number; stdout?: number; stderr?: number } = {}) {
  const run = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
    encoding: "utf8",
    stdio: [stdio.stdin ?? "pipe", stdio.stdout ?? "pipe", stdio.stderr ?? "pipe"],
  });
  return { code: run.status, stdout: run.stdout ?? "", stderr: run.stderr ?? "" };
}

function withDescriptor<T>(path: string, flags: string, use: (fd: number) => T): T {
  const fd = openSync(path, flags);
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

describe("standard input that is a file being read", () => {
  test.each(["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"])("--out %s: refused before reading, and the journal kept", (name) => {
    const { journal } = setUp();
    const run = withDescriptor(journal, "r", (stdin) => spawnOrbridge(["normalize", "--out", name], { stdin }));
    expect(run).toEqual(refused("normalize", `--out ${name} is also an input (standard input); inputs are never overwritten`));
    expect(readFileSync(journal, "utf8")).toBe(journalText);
  }, 30_000);

  test("--report /dev/stdin while the journal is read from a file: refused", () => {
    const { folder, journal } = setUp();
    const other = join(folder, "other.jsonl");
    writeFileSync(other, journalText);
    const run = withDescriptor(other, "r", (stdin) => spawnOrbridge(["convert", "--to", "chat", "--report", "/dev/stdin", journal], { stdin }));
    expect(run).toEqual(refused("convert", "--report /dev/stdin is standard input; an output never writes into what the run was given to read"));
    expect(readFileSync(other, "utf8")).toBe(journalText);
  }, 30_000);
});

describe("standard output or standard error that is an input", () => {
  test("gate appending its verdicts to the journal it reads: refused, and the journal kept", () => {
    const { folder, journal } = setUp();
    const schema = join(folder, "schema.json");
    writeFileSync(schema, "true");
    const run = withDescriptor(journal, "a", (stdout) => spawnOrbridge(["gate", "--schema", schema, journal], { stdout }));
    expect(run).toEqual({ code: 2, stdout: "", stderr: `orbridge gate: standard output is also an input (${journal}); inputs are never overwritten\n` });
    expect(readFileSync(journal, "utf8")).toBe(journalText);
  }, 30_000);

  test("normalize reading stdin and appending to the same file: refused", () => {
    const { journal } = setUp();
    const run = withDescriptor(journal, "r", (stdin) => withDescriptor(journal, "a", (stdout) => spawnOrbridge(["normalize"], { stdin, stdout })));
    expect(run).toEqual({ code: 2, stdout: "", stderr: "orbridge normalize: standard output is also an input (standard input); inputs are never overwritten\n" });
    expect(readFileSync(journal, "utf8")).toBe(journalText);
  }, 30_000);

  test("diff with its errors appended to a journal it reads: refused, the refusal the one line written", () => {
    const { folder, journal } = setUp();
    const replay = join(folder, "replay.jsonl");
    writeFileSync(replay, "not json\n");
    const run = withDescriptor(replay, "a", (stderr) => spawnOrbridge(["diff", journal, replay], { stderr }));
    expect(run).toEqual({ code: 2, stdout: "", stderr: "" });
    expect(readFileSync(replay, "utf8")).toBe(`not json\norbridge diff: standard error is also an input (${replay}); inputs are never overwritten\n`);
  }, 30_000);
});

describe("--report on the standard output the items go to", () => {
  test("a file: refused, and the file left as the shell made it", () => {
    const { folder, journal } = setUp();
    const captured = join(folder, "captured.jsonl");
    const run = withDescriptor(captured, "w", (stdout) => spawnOrbridge(["normalize", "--report", "/dev/stdout", journal], { stdout }));
    expect(run).toEqual({ code: 2, stdout: "", stderr: "orbridge normalize: --report /dev/stdout is the standard output the items are written to; each output needs a file of its own\n" });
    expect(readFileSync(captured, "utf8")).toBe("");
  }, 30_000);

  test("with --out elsewhere: allowed, the report on stdout", () => {
    const { folder } = setUp();
    const journal = join(folder, "extension.jsonl");
    writeFileSync(journal, '{"type":"openai:web_search_call","id":"ws_1","status":"completed"}\n');
    const out = join(folder, "messages.jsonl");
    const captured = join(folder, "captured.jsonl");
    const run = withDescriptor(captured, "w", (stdout) => spawnOrbridge(["convert", "--to", "chat", "--out", out, "--report", "/dev/stdout", journal], { stdout }));
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: "" });
    expect(readFileSync(captured, "utf8")).toBe('{"line":1,"path":"","code":"unsupported_item","detail":"an item of type \\"openai:web_search_call\\" has no Chat Completions equivalent"}\n');
  }, 30_000);

  test("a socket (a process spawned with socket pairs): refused, where opening it crashed the run", () => {
    const { folder, journal } = setUp();
    const run = spawnOrbridge(["normalize", "--out", join(folder, "items.jsonl"), "--report", "/dev/stdout", journal]);
    expect(run).toEqual(refused("normalize", "cannot write --report /dev/stdout: it is a socket, which cannot be opened by name"));
  }, 30_000);
});

describe("standard output that cannot be written", () => {
  // Status 1 is an answer (something blocked), which a wrapper lets pass: a run
  // whose verdicts were lost must not end with it, nor with a stack trace.
  test("a full disk (/dev/full): one line on stderr and status 2, though nothing was blocked", () => {
    const { folder } = setUp();
    const journal = join(folder, "message.jsonl");
    writeFileSync(journal, '{"type":"message","role":"user","content":"hi"}\n');
    const run = withDescriptor("/dev/full", "w", (stdout) => spawnOrbridge(["gate", "--schema", "golden/examples/sales-report.schema.json", journal], { stdout }));
    expect(run).toEqual({ code: 2, stdout: "", stderr: "orbridge: cannot write standard output: ENOSPC: no space left on device, write\n" });
  }, 30_000);

  test("normalize on a full disk: the same", () => {
    const { journal } = setUp();
    const run = withDescriptor("/dev/full", "w", (stdout) => spawnOrbridge(["normalize", journal], { stdout }));
    expect(run).toEqual({ code: 2, stdout: "", stderr: "orbridge: cannot write standard output: ENOSPC: no space left on device, write\n" });
  }, 30_000);
});

describe("an output file that cannot be written", () => {
  // The failure comes after the write that met it was handed on: it must stop the
  // run as a failure of that file, not as an unhandled rejection with its stack.
  test("--report on a full disk (/dev/full): one line naming it, status 2, and --out not written", () => {
    const { folder, journal } = setUp();
    const out = join(folder, "items.jsonl");
    const run = spawnOrbridge(["normalize", "--report", "/dev/full", "--out", out, journal]);
    expect(run).toEqual({ code: 2, stdout: "", stderr: "orbridge normalize: cannot write /dev/full: ENOSPC: no space left on device, write\n" });
    expect(readdirSync(folder)).toEqual(["journal.jsonl"]);
  }, 30_000);

  test("--out on a full disk: the same, where it was called an internal error", async () => {
    const { journal } = setUp();
    expect(await runOrbridge(["convert", "--to", "chat", "--out", "/dev/full", journal])).toEqual({ code: 2, stdout: "", stderr: "orbridge convert: cannot write /dev/full: ENOSPC: no space left on device, write\n" });
  }, 30_000);
});

describe("a reader of stdout that stops early", () => {
  test("normalize --report: status 1, and neither the report nor its temporary file is left", async () => {
    const { folder } = setUp();
    const journal = join(folder, "messages.jsonl");
    writeFileSync(journal, Array.from({ length: 40_000 }, (_, i) => `{"role":"user","content":"message ${i}"}\n`).join(""));
    const report = join(folder, "report.jsonl");
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "normalize", "--report", report, journal], { stdio: ["ignore", "pipe", "ignore"] });
      // As `| head -1` does: the first lines read, the pipe closed.
      child.stdout.once("data", () => child.stdout.destroy());
      child.on("error", reject);
      child.on("close", resolve);
    });
    expect(code).toBe(1);
    expect(readdirSync(folder).sort()).toEqual(["journal.jsonl", "messages.jsonl"]);
  }, 60_000);
});
