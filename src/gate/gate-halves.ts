// The journal gate's two halves, one after the other in one thread: the tools in
// force prepare each record, then the verdicts and checks gate it. Neither half
// loads Zod, nor does this module, so the `gate` command can run them in one
// thread without the replay targets; JournalGate builds on it for the library.
import type { GateInput } from "./gate-journal.js";
import type { GateRecord, PreparedGate } from "./prepared-gate.js";
import type { ToolsInForce } from "./tools-in-force.js";

export class GateHalves {
  constructor(
    private readonly tools: ToolsInForce,
    private readonly gate: PreparedGate,
  ) {}

  /** The items of one record; returns the records whose findings are final. */
  push(input: GateInput): GateRecord[] {
    return this.gate.push(this.tools.prepare(input));
  }

  /** A line that gave no item (not JSON, unreadable): blocked, since nothing on it was checked. */
  error(source: string | undefined, line: number, detail: string): GateRecord[] {
    return this.gate.error(source, line, detail);
  }

  finish(): GateRecord[] {
    return this.gate.finish();
  }
}
