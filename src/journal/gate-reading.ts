// How the gate reads a journal, in every place that normalizes for it (one
// thread, the worker of `gate --jobs`, each conversation, the library's
// gateJournal): a JSON object of no known kind becomes an item its type blocks,
// no loss is built that it never reads, and a record that writes a call no item
// stands for is an error. Kept apart from the normalizer, so that a module can
// name it without loading the normalizer at start-up.
import type { NormalizeOptions } from "./normalize.js";

export const GATE_READING = { unknownObjects: "item", leftBehind: false, refuseUnreadCalls: true, answersForGate: true } as const satisfies NormalizeOptions;
