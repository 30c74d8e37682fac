// How far V8 lets the old generation grow past what a full collection left
// alive before it collects again. On a machine with memory to spare V8 allows up
// to 300%, and a command that streams a journal keeps little alive but its
// tables of ids: at 1M lines that left one thread of `gate` anywhere between 150
// and 196 MB, two threads, with two heaps, between 203 and 233 MB, and `convert
// --to chat` on the blocked bench journal at 202 MB. At 30% a few more
// collections run, which measurably cost no time, and that `convert` peaked at
// 170 MB.
import { setFlagsFromString } from "node:v8";

const HEAP_GROWING_PERCENT = 30;

/** Sets the growth for the whole process: the flag is read at each collection, in this thread and in any worker. */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
