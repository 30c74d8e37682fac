// The shape every command file exports.
import type { CommandIO, ExitCode } from "./io.js";

export type CommandName = "normalize" | "convert" | "gate" | "diff" | "schema";

export interface Command {
  name: CommandName;
  /** The whole `--help` text. */
  help: string;
  run(argv: readonly string[], io: CommandIO): Promise<ExitCode>;
}
