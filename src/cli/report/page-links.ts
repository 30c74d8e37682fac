// Where a place of the journal is on the page: its item in the conversation view,
// its line's error, or its line's first shown item. Anchors are made of numbers
// only, so no journal text ever reaches an id or a link.
import { placeKey, type ReportData } from "./report-data.js";
import type { Place } from "./tally.js";

export function itemAnchor(place: Place): string {
  return `item-${placeKey(place)}`;
}

export function errorAnchor(place: Place): string {
  return `error-${place.source}-${place.line}`;
}

export function lineAnchor(place: Place): string {
  return `line-${place.source}-${place.line}`;
}

export class PageLinks {
  private readonly items = new Set<string>();
  private readonly lines = new Set<string>();
  private readonly errors = new Set<string>();

  constructor(data: ReportData) {
    for (const shown of data.items.shown) {
      this.items.add(placeKey(shown.place));
      this.lines.add(lineAnchor(shown.place));
    }
    for (const error of data.errors.shown) this.errors.add(errorAnchor(error.place));
  }

  /** The anchor of a place, or undefined when the page does not hold it. */
  hrefOf(place: Place): string | undefined {
    if (this.items.has(placeKey(place))) return `#${itemAnchor(place)}`;
    if (this.errors.has(errorAnchor(place))) return `#${errorAnchor(place)}`;
    if (this.lines.has(lineAnchor(place))) return `#${lineAnchor(place)}`;
    return undefined;
  }

  /** Whether the line's first shown item is the one at `place`: it then carries the line's anchor. */
  opensLine(place: Place, seen: Set<string>): boolean {
    const anchor = lineAnchor(place);
    if (seen.has(anchor)) return false;
    seen.add(anchor);
    return true;
  }
}
