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
    for (let index = 0; index < GUARDED.length; index++) {
      const [name, prototype] = GUARDED[index]!;
      const changed = changedMember(this.members[index]!, prototype);
      if (changed !== undefined) throw new StoppedRun(`a line of the journal changed ${name} (its member ${String(changed)}): the run stops, as nothing more this process writes could be trusted`);
    }
  }
}

/** What a prototype holds, member by member in the order its keys come: each key, then its value, getter and setter. */
function membersOf(prototype: object): unknown[] {
  const members: unknown[] = [];
  for (const key of Reflect.ownKeys(prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key)!;
    members.push(key, descriptor.value, descriptor.get, descriptor.set);
  }
  return members;
}

/**
 * The first member that differs from `before`, or `undefined`. A check runs
 * every batch of every run, so it compares in place: keys keep their order
 * while no member is added or removed, and any change of order is a change.
 */
function changedMember(before: readonly unknown[], prototype: object): string | symbol | undefined {
  const keys = Reflect.ownKeys(prototype);
  for (let at = 0; at < keys.length; at++) {
    const key = keys[at]!;
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key)!;
    const base = 4 * at;
    // A key out of place: the one gone when it is no more, else the one that came.
    if (before[base] !== key) return base < before.length && !keys.includes(before[base] as string | symbol) ? (before[base] as string | symbol) : key;
    if (before[base + 1] !== descriptor.value || before[base + 2] !== descriptor.get || before[base + 3] !== descriptor.set) return key;
  }
  // Fewer keys than before: the first one gone.
  return 4 * keys.length < before.length ? (before[4 * keys.length] as string | symbol) : undefined;
}
