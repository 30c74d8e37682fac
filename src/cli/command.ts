// The shape every command file exports. A command prints its own `--help`; its
// name and its line in the list of commands are in the entry's table (run.ts).
import type { CommandIO, ExitCode } from "./io.js";

export type CommandName = "normalize" | "convert" | "gate" | "diff" | "schema" | "restore-ids";

export interface Command {
  run(argv: readonly string[], io: CommandIO): Promise<ExitCode>;
}
