// `orbridge diff ORIGIN REPLAY`: the last look before sending.
import { diffJournalsAsync, type Difference } from "../diff.js";
import type { JournalItem } from "../models/journal-item.js";
import { normalizeJournal } from "../journal/normalize.js";
import { commandArgs, stringOption } from "./args.js";
import type { Command } from "./command.js";
import { checkInputs, inputLines } from "./inputs.js";
import { UsageError, write, type CommandIO, type ExitCode } from "./io.js";

const help = `Usage: orbridge diff ORIGIN REPLAY [--format text|json]

Lines up the items of two journals (by call_id, then by position) and reports
what would make the replay differ from what the origin provider answered:
  type_changed       the item type differs (a function_call that became an
                     extension such as "openai:function_call" is never a call)
  call_id_mismatch   the call_ids differ
  name_changed       the function names differ
  arguments_changed  the arguments differ, byte for byte
  missing_in_replay  an origin item with no counterpart
  extra_in_replay    a replay item with no counterpart
Both journals are normalized first, so either may be in either envelope.

Options:
  --format FORMAT  text (default) or json (one JSON object per difference)
  -h, --help       show this help

Exit status: 0 no difference, 1 some difference (or a line that could not be
read), 2 usage error or unreadable input.

Example:
  orbridge diff golden/examples/origin.jsonl golden/examples/replay.jsonl
`;

export const diffCommand: Command = {
  async run(argv, io) {
    const args = await commandArgs(argv, { format: { value: true, choices: ["text", "json"] } }, help, io.stdout);
    if (!args) return 0;
    if (args.operands.length !== 2) throw new UsageError("diff needs two journals: ORIGIN REPLAY");
    if (args.operands.every((operand) => operand === "-")) throw new UsageError("only one of ORIGIN and REPLAY can be stdin");
    const [origin, replay] = await checkInputs(args.operands);
    const format = stringOption(args, "format") ?? "text";
    const errors = { count: 0 };
    const differences = await diffJournalsAsync(itemsOf(origin, io, errors), itemsOf(replay, io, errors));
    for (const difference of differences) {
      await write(io.stdout, format === "json" ? JSON.stringify(difference) + "\n" : textLine(difference));
    }
    await write(io.stderr, `${differences.length} differences${errors.count > 0 ? `; ${errors.count} lines could not be read` : ""}\n`);
    return (differences.length > 0 || errors.count > 0 ? 1 : 0) as ExitCode;
  },
};

async function* itemsOf(source: string, io: CommandIO, errors: { count: number }): AsyncGenerator<JournalItem> {
  for await (const record of normalizeJournal(inputLines([source], io))) {
    if (record.kind === "error") {
      errors.count += 1;
      await write(io.stderr, `orbridge diff: ${source}:${record.line}: ${record.detail}\n`);
      continue;
    }
    yield* record.items;
  }
}

function textLine(difference: Difference): string {
  const place = (side: Difference["origin"]) => (side ? `line ${side.line}${side.index > 0 ? `.${side.index}` : ""}` : "-");
  return `${difference.code}  origin ${place(difference.origin)}  replay ${place(difference.replay)}  ${difference.detail}\n`;
}
