// The last line of defence against prototype pollution: the members of the
// prototypes every object and array inherits from, taken when a command starts
// and compared before each batch of verdicts is written (gate), or every so many
// lines and at the end (normalize, convert). A journal that managed to add or
// replace one could change what any record seems to hold (a `status` that every
// item inherits), so the command then stops, with nothing more written, rather
// than go on in a process it can no longer trust. The readers set own members
// only; this guard is there for the one that someday does not.
import { StoppedRun } from "./io.js";

const GUARDED: ReadonlyArray<[string, object]> = [
  ["Object.prototype", Object.prototype],
  ["Array.prototype", Array.prototype],
  ["Function.prototype", Function.prototype],
];

/** Lines between two checks of a command that writes line by line: a check costs what reading a few lines does. */
const LINES_PER_CHECK = 1_024;

export class PrototypeGuard {
  private readonly members = GUARDED.map(([, prototype]) => membersOf(prototype));
  private lines = 0;

  /** One more line read: checks once every LINES_PER_CHECK lines. */
  tick(): void {
    if (++this.lines % LINES_PER_CHECK === 0) this.check();
  }

  /** Throws when a guarded prototype gained, lost or changed a member since the guard was made. */
  check(): void {
    GUARDED.forEach(([name, prototype], index) => {
      const before = this.members[index]!;
      const now = membersOf(prototype);
      const changed = [...new Set([...before.keys(), ...now.keys()])].find((key) => before.get(key) !== now.get(key));
      if (changed !== undefined) throw new StoppedRun(`a line of the journal changed ${name} (its member ${String(changed)}): the run stops, as nothing more this process writes could be trusted`);
    });
  }
}

function membersOf(prototype: object): Map<string | symbol, unknown> {
  const members = new Map<string | symbol, unknown>();
  for (const key of Reflect.ownKeys(prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key)!;
    members.set(key, "value" in descriptor ? descriptor.value : descriptor.get);
  }
  return members;
}
