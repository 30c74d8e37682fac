// How the gate reads a journal, in every place that normalizes for it (one
// thread, the worker of `gate --jobs`, each conversation, the library's
// gateJournal): a JSON object of no known kind becomes an item its type blocks,
// no loss is built that it never reads, a record that writes a call no item
// stands for is an error, and so is one nested deeper than MAX_RECORD_DEPTH.
// Kept apart from the normalizer, so that a module can name it without loading
// the normalizer at start-up.
import type { NormalizeOptions } from "./normalize.js";

/**
 * The deepest record the gate reads, in levels of nesting. Read deeper, a record
 * was read until a step that recurses once a level (JSON.stringify of a tool's
 * input, for one) ran out of stack, about 4,100 levels down: a depth that moves
 * with the frames below that step, so that near it the gate's two threads gave a
 * line two answers, a call in one and an error in the other. Far below it, every
 * step finishes in either thread. Python's json reads no deeper than about
 * 1,000 levels either (its recursion limit).
 */
export const MAX_RECORD_DEPTH = 1_000;

export const GATE_READING = { unknownObjects: "item", leftBehind: false, refuseUnreadCalls: true, answersForGate: true, maxDepth: MAX_RECORD_DEPTH } as const satisfies NormalizeOptions;
