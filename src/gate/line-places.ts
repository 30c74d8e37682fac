// Where an item stood, kept as one number: `gate a.jsonl b.jsonl` numbers the
// lines of each input from 1, so a line number alone names two places, and a
// finding that points at an earlier item ("the call of line 3") must say which
// input holds it when that is not the item's own. The journal checks keep a
// line in a column of 32 bits a key; an input name beside every key would cost
// far more, so each input's lines are laid after those of the inputs before it
// (its first place follows the last line of the input before) and only where
// each input starts is kept.

export interface LinePlace {
  line: number;
  /** The input; undefined when the journal names none (a library caller's lines). */
  source?: string;
}

export class LinePlaces {
  /** Each input met, in order, with the place its line 0 would have. */
  private readonly starts: Array<{ source: string | undefined; offset: number }> = [];
  /** The highest line met in the last input. */
  private lastLine = 0;

  /** The place of `line` of `source`; inputs come one after another, each read once. */
  place(source: string | undefined, line: number): number {
    const last = this.starts[this.starts.length - 1];
    if (last === undefined || last.source !== source) {
      this.starts.push({ source, offset: last === undefined ? 0 : last.offset + this.lastLine });
      this.lastLine = 0;
    }
    if (line > this.lastLine) this.lastLine = line;
    return this.starts[this.starts.length - 1]!.offset + line;
  }

  /** The line and input of a place `place` gave. */
  lineOf(place: number): LinePlace {
    // The last input whose start lies before the place: lines count from 1.
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]!.offset < place) low = middle;
      else high = middle - 1;
    }
    const start = this.starts[low];
    return start === undefined ? { line: place } : { line: place - start.offset, source: start.source };
  }

  /**
   * A place named in a sentence about an item of `source`: `line 3`, or
   * `line 3 of a.jsonl` when another input holds it; and the finding's fields.
   */
  describe(place: number, source: string | undefined): RelatedLine {
    const { line, source: other } = this.lineOf(place);
    return relatedLine(line, other, source);
  }
}

/** A line named in a finding: its text, and the finding's fields. */
export interface RelatedLine {
  text: string;
  related_line: number;
  related_source?: string;
}

/** `line` of input `other`, named in a sentence about an item of input `source`: with its input only when that is another. */
export function relatedLine(line: number, other: string | undefined, source: string | undefined): RelatedLine {
  if (other === source || other === undefined) return { text: `line ${line}`, related_line: line };
  return { text: `line ${line} of ${other}`, related_line: line, related_source: other };
}
