// Dispatches a command line to its command and turns a usage error into its one
// line on stderr and exit 2. Returns the exit code; only main.ts exits.
import { readFileSync } from "node:fs";
import type { Command, CommandName } from "./command.js";
import { StoppedRun, UsageError, write, type CommandIO, type ExitCode } from "./io.js";
import { visibleInLine } from "../models/quote-visible.js";
import { OutputFailed } from "../journal/write.js";

// A command's code loads only when it runs: each brings its own dependencies (Ajv,
// Zod and the models, the adapters), and loading all of them would make every run
// pay for every command's start-up. Its one-line summary is here, so that the list
// of commands loads none of them.
const COMMANDS: Record<CommandName, { summary: string; load(): Promise<Command> }> = {
  normalize: { summary: "turn any journal into canonical Open Responses items", load: async () => (await import("./normalize.js")).normalizeCommand },
  convert: { summary: "convert a journal between Chat Completions and Open Responses", load: async () => (await import("./convert.js")).convertCommand },
  gate: { summary: "check that each tool call of a journal is safe to replay", load: async () => (await import("./gate.js")).gateCommand },
  diff: { summary: "compare an origin journal with the journal about to be replayed", load: async () => (await import("./diff.js")).diffCommand },
  schema: { summary: "print the JSON Schema of a model (no name: list the models)", load: async () => (await import("./schema.js")).schemaCommand },
  "restore-ids": { summary: "put back the call ids normalize --for rewrote, from its --id-map", load: async () => (await import("./restore-ids.js")).restoreIdsCommand },
  report: { summary: "write one HTML page that shows a journal's verdicts, losses and conversation", load: async () => (await import("./report.js")).reportCommand },
};

const USAGE = `Usage: orbridge COMMAND [OPTIONS] [FILE...|-]

Moves LLM conversation journals between Chat Completions and Open Responses,
and refuses to replay a tool call that is not safe to replay.

Commands:
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(10)} ${summary}`)
  .join("\n")}

Run "orbridge help COMMAND" (or "orbridge COMMAND --help") for a command's
options and examples; "orbridge --version" prints the version.
`;

/** The package's version, read from its package.json (one level further up once compiled into dist/). */
function packageVersion(): string {
  for (const relative of ["../../package.json", "../../../package.json"]) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(relative, import.meta.url), "utf8")) as { name?: unknown; version?: unknown };
      if (manifest.name === "orbridge" && typeof manifest.version === "string") return manifest.version;
    } catch {
      // Not at this depth: try the next.
    }
  }
  return "unknown";
}

export async function runCli(argv: readonly string[], io: CommandIO): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-V") {
    await write(io.stdout, `orbridge ${packageVersion()}\n`);
    return 0;
  }
  // `help COMMAND` is the command's own --help.
  if (name === "help" && rest.length > 0) return runCli([rest[0], "--help"], io);
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    await write(name === undefined ? io.stderr : io.stdout, USAGE);
    return name === undefined ? 2 : 0;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    await write(io.stderr, `orbridge: unknown command "${name}" (orbridge --help lists them)\n`);
    return 2;
  }
  try {
    const command = await COMMANDS[name as CommandName].load();
    return await command.run(rest, io);
  } catch (error) {
    // Either message may quote the journal (a line that is not JSON, a member's
    // name): on a terminal a carriage return or an escape sequence in it would
    // rub the message out and print a line of its own, so each is shown escaped.
    if (error instanceof StoppedRun || error instanceof OutputFailed) {
      await write(io.stderr, `orbridge ${name}: ${visibleInLine(error.message)}\n`);
      return 2;
    }
    if (error instanceof UsageError) {
      for (const line of error.message.split("\n")) await write(io.stderr, `orbridge ${name}: ${visibleInLine(line)}\n`);
      return 2;
    }
    throw error;
  }
}
