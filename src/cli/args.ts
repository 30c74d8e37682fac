// Command-line parsing shared by every command: long options with or without a
// value, `--opt=value`, `--` to end options, `-` for stdin. Problems are returned,
// one plain line each, so the entry can print them and exit 2.
import type { Writable } from "node:stream";
import { UsageError, write } from "./io.js";
export interface OptionSpec {
  /** Takes a value (`--schema FILE`); otherwise a flag. */
  value?: boolean;
  /** Allowed values, when the set is closed. */
  choices?: readonly string[];
  /** May be given more than once; values accumulate. */
  repeat?: boolean;
}

export interface ParsedArgs {
  options: Record<string, string | string[] | true>;
  operands: string[];
  problems: string[];
}

export function parseArgs(argv: readonly string[], spec: Record<string, OptionSpec>): ParsedArgs {
  const options: ParsedArgs["options"] = {};
  const operands: string[] = [];
  const problems: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      operands.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      operands.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = (equals === -1 ? arg : arg.slice(0, equals)).replace(/^--?/, "");
    const option = spec[name];
    if (!option || !arg.startsWith("--") && name !== "h") {
      problems.push(`unknown option: ${arg}`);
      continue;
    }
    if (!option.value) {
      if (equals !== -1) problems.push(`--${name} takes no value`);
      else options[name] = true;
      continue;
    }
    let value: string | undefined;
    if (equals !== -1) value = arg.slice(equals + 1);
    else if (i + 1 < argv.length) value = argv[++i];
    if (value === undefined) {
      problems.push(`--${name} needs a value`);
      continue;
    }
    if (option.choices && !option.choices.includes(value)) {
      problems.push(`--${name} must be one of ${option.choices.join(", ")} (got "${value}")`);
      continue;
    }
    if (option.repeat) {
      const previous = options[name];
      options[name] = Array.isArray(previous) ? [...previous, value] : [value];
    } else {
      options[name] = value;
    }
  }
  return { options, operands, problems };
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.options[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * A command's arguments, with `-h`/`--help` understood: `undefined` when help was
 * asked for (it is then written to stdout), a usage error for anything unknown.
 */
export async function commandArgs(argv: readonly string[], spec: Record<string, OptionSpec>, help: string, stdout: Writable): Promise<ParsedArgs | undefined> {
  const args = parseArgs(argv, { ...spec, help: {}, h: {} });
  if (args.options.help || args.options.h) {
    await write(stdout, help);
    return undefined;
  }
  if (args.problems.length > 0) throw new UsageError(args.problems.join("\n"));
  return args;
}
