// Member order that JSON.parse does not keep. ECMAScript orders an object's
// members with the names that are array indices ("0", "17") first, ascending,
// then the others as they were written: `{"b":1,"1":2}` is read as
// `{"1":2,"b":1}`, and every record written from it (JSON.stringify) writes
// that order. A tool schema's properties, an enum of objects, provider
// metadata, an extension item kept opaque or a call's input object would come
// back reordered with nothing said; such an object is named, with its JSON
// Pointer in the record, as a loss of its line, unless the record's conversion
// left the object out (then it is not written at all, and that is said). A
// line without such a name (nearly all) costs one regular-expression test.
import type { JournalLine } from "./read.js";
import type { Loss, LossCode } from "../models/loss.js";
import { pointer } from "../models/json-pointer.js";
import { scanJson } from "../models/json-scan.js";

// A member name of digits alone, or one with an escape that may spell a digit (`"\u0031"`).
const MAY_HOLD_INDEX_NAME = /"[0-9]+"\s*:|\\u003[0-9]/;

/** The largest array index: ECMAScript orders names up to 2^32 − 2 as indices. */
const MAX_INDEX = 2 ** 32 - 2;

function asIndex(name: string): number | undefined {
  if (!/^(?:0|[1-9][0-9]*)$/.test(name)) return undefined;
  const index = Number(name);
  return index <= MAX_INDEX ? index : undefined;
}

/** The JSON Pointer of each object of a JSON text whose members JSON.parse gives in another order than the text writes them, in text order. */
export function reorderedObjects(text: string): string[] {
  if (!MAY_HOLD_INDEX_NAME.test(text)) return [];
  const found: string[] = [];
  // One entry per open container: for an object, the last index name met, whether another name came before it, and whether it is named already.
  const open: Array<{ lastIndex: number; otherName: boolean; named: boolean } | undefined> = [];
  scanJson(text, {
    enter: (isObject) => void open.push(isObject ? { lastIndex: -1, otherName: false, named: false } : undefined),
    leave: () => void open.pop(),
    name: (name, path) => {
      const object = open[open.length - 1]!;
      const index = asIndex(name);
      if (index === undefined) object.otherName = true;
      else if (!object.otherName && index > object.lastIndex) object.lastIndex = index;
      else if (!object.named) {
        object.named = true;
        found.push(pointer(...path.slice(0, -1)));
      }
    },
  });
  return found;
}

/** A loss for each object of a line whose members come back in another order than the line wrote them. */
export function indexNameOrderLosses(line: Pick<JournalLine, "text" | "error">): Loss[] {
  if (line.error !== undefined) return [];
  return reorderedObjects(line.text).map((at) => ({
    path: at,
    code: "form_changed",
    detail: "the object's member names that are array indices (digits alone) are written first, in ascending order, as JSON.parse reads them: its members are written in another order than the line wrote them",
  }));
}

/** Losses that say a value is not written at all: an object under one of their paths is not written reordered either. */
const LEFT_OUT: ReadonlySet<LossCode> = new Set(["unsupported_field", "unsupported_item", "unsupported_part", "unsupported_tool_call", "unsupported_tool", "provider_extension", "left_behind"]);

/**
 * The order losses of a journal's recent lines, by line number, until the
 * record they are converted into is written. Only lines that hold such an
 * object take room, and only the last WINDOW lines' are kept.
 */
export class LineIndexNameOrders {
  static readonly WINDOW = 50_000;
  private readonly lines = new Map<number, Loss[]>();

  read(line: Pick<JournalLine, "line" | "text" | "error">): void {
    const losses = indexNameOrderLosses(line);
    if (losses.length > 0) this.lines.set(line.line, losses);
    for (const first of this.lines.keys()) {
      if (first >= line.line - LineIndexNameOrders.WINDOW) break;
      this.lines.delete(first);
    }
  }

  /**
   * The order losses of lines first to last, each with its line, but those of
   * an object a loss of the record (`recordLosses`, each with its line) says
   * was left out; the lines' losses are let go.
   */
  take(first: number, last: number, recordLosses: ReadonlyArray<Loss & { line: number }>): Array<Loss & { line: number }> {
    if (this.lines.size === 0) return [];
    const taken: Array<Loss & { line: number }> = [];
    for (const [line, losses] of [...this.lines]) {
      if (line < first || line > last) continue;
      this.lines.delete(line);
      const leftOut = recordLosses.filter((loss) => loss.line === line && LEFT_OUT.has(loss.code)).map((loss) => loss.path);
      for (const loss of losses) {
        if (!leftOut.some((path) => loss.path === path || loss.path.startsWith(`${path}/`))) taken.push({ ...loss, line });
      }
    }
    return taken;
  }

  clear(): void {
    this.lines.clear();
  }
}
