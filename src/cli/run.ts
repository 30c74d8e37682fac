// Dispatches a command line to its command and turns a usage error into its one
// line on stderr and exit 2. Returns the exit code; only main.ts exits.
import type { Command, CommandName } from "./command.js";
import { convertCommand } from "./convert.js";
import { diffCommand } from "./diff.js";
import { gateCommand } from "./gate.js";
import { normalizeCommand } from "./normalize.js";
import { UsageError, write, type CommandIO, type ExitCode } from "./io.js";
import { schemaCommand } from "./schema.js";

export const COMMANDS: Record<CommandName, Command> = {
  normalize: normalizeCommand,
  convert: convertCommand,
  gate: gateCommand,
  diff: diffCommand,
  schema: schemaCommand,
};

const usage = () => `Usage: orbridge COMMAND [OPTIONS] [FILE...|-]

Moves LLM conversation journals between Chat Completions and Open Responses,
and refuses to replay a tool call that is not safe to replay.

Commands:
${Object.values(COMMANDS)
  .map((command) => `  ${command.name.padEnd(10)} ${command.summary}`)
  .join("\n")}

Run "orbridge COMMAND --help" for a command's options and examples.
`;

export async function runCli(argv: readonly string[], io: CommandIO): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    await write(name === undefined ? io.stderr : io.stdout, usage());
    return name === undefined ? 2 : 0;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    await write(io.stderr, `orbridge: unknown command "${name}" (orbridge --help lists them)\n`);
    return 2;
  }
  try {
    return await COMMANDS[name as CommandName].run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      for (const line of error.message.split("\n")) await write(io.stderr, `orbridge ${name}: ${line}\n`);
      return 2;
    }
    throw error;
  }
}
