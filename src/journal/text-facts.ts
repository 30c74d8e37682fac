// What two checks of every line read of its text alone, before it is parsed:
// the colons after a closing quote, an upper bound of the members it writes
// (duplicate-names.ts), and whether it may write a number its double does not
// stand for (inexact-numbers.ts). With `gate --jobs` the thread that splits the
// lines reads them, and the one that parses and normalizes, which has more to
// do, takes them with each line.
import { colonsAfterClosingQuotes } from "../models/duplicate-names.js";
import { mayHoldInexactValue } from "./inexact-numbers.js";

export interface TextFacts {
  colons: number;
  mayHoldInexact: boolean;
}

export function textFactsOf(text: string): TextFacts {
  return { colons: colonsAfterClosingQuotes(text), mayHoldInexact: mayHoldInexactValue(text) };
}
