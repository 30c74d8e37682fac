// The calls still waiting for their output, in call order. A journal of calls
// that no output answers and no message passes by (a log of calls alone) keeps
// every one of them waiting to its end, so each is kept in a few parallel arrays
// of what its finding will say and what tells its turn: no object per call and no
// Map entry, which the collector would copy again and again for as long as the
// call waits.
import type { Provenance } from "../models/journal-item.js";

/** A call taken out of the waiting calls: what its `missing_output` finding says. */
export interface PassedCall {
  callId: string;
  name: string | undefined;
  line: number;
  /** Its input ("" when the journal names none). */
  source: string;
}

const MAX_SHARED_NAMES = 4_096;

export class WaitingCalls {
  /** `undefined` where a call was answered since the arrays were last compacted. */
  private callIds: (string | undefined)[] = [];
  private names: (string | undefined)[] = [];
  private lines: number[] = [];
  /** What tells a call's turn beside its line: its input, and its response's id (`undefined`: of no response). */
  private sources: string[] = [];
  private responses: (string | undefined)[] = [];
  private live = 0;
  /** Tool names met, so that the calls waiting share one string a name rather than each keeping the copy its line parsed. */
  private readonly knownNames = new Map<string, string>();

  get size(): number {
    return this.live;
  }

  /** Adds a call; returns its position, which `answer` takes and which stays good until the next `passBy`. */
  add(callId: string, name: string | undefined, provenance: Provenance): number {
    this.callIds.push(callId);
    this.names.push(name === undefined ? undefined : this.shared(name));
    this.lines.push(provenance.line);
    this.sources.push(provenance.source ?? "");
    this.responses.push(turnResponse(provenance));
    this.live += 1;
    return this.callIds.length - 1;
  }

  /** The call at `position` got its output, if it is `callId`'s (a position comes from a fingerprint, which two call_ids may share). */
  answer(position: number, callId: string): void {
    if (this.callIds[position] !== callId) return;
    this.callIds[position] = undefined;
    this.live -= 1;
    if (this.live === 0) this.clear();
  }

  /**
   * Takes out, in call order, every call that is not of the turn of `provenance`
   * (every call, when `keepTurn` is false) and not in `alternatives`; the calls
   * that stay move to the front, and `moved` tells each its new position.
   */
  passBy(provenance: Provenance, keepTurn: boolean, moved: (callId: string, position: number) => void, alternatives?: ReadonlySet<string>): PassedCall[] {
    const passed: PassedCall[] = [];
    const source = provenance.source ?? "";
    const response = turnResponse(provenance);
    let kept = 0;
    for (let at = 0; at < this.callIds.length; at += 1) {
      const callId = this.callIds[at];
      if (callId === undefined) continue;
      if ((keepTurn && this.lines[at] === provenance.line && this.sources[at] === source && this.responses[at] === response) || alternatives?.has(callId) === true) {
        if (kept !== at) {
          this.callIds[kept] = callId;
          this.names[kept] = this.names[at];
          this.lines[kept] = this.lines[at]!;
          this.sources[kept] = this.sources[at]!;
          this.responses[kept] = this.responses[at];
          moved(callId, kept);
        }
        kept += 1;
      } else {
        passed.push({ callId, name: this.names[at], line: this.lines[at]!, source: this.sources[at]! });
      }
    }
    this.live = kept;
    this.truncate(kept);
    return passed;
  }

  private shared(name: string): string {
    const known = this.knownNames.get(name);
    if (known !== undefined) return known;
    // A journal may name any number of tools: past a few thousand, a name is kept as it came.
    if (this.knownNames.size < MAX_SHARED_NAMES) this.knownNames.set(name, name);
    return name;
  }

  private clear(): void {
    this.truncate(0);
  }

  private truncate(length: number): void {
    this.callIds.length = length;
    this.names.length = length;
    this.lines.length = length;
    this.sources.length = length;
    this.responses.length = length;
  }
}

/** Two items are of one turn when they share line and input, and both are of no response or of responses with one id. */
function turnResponse(provenance: Provenance): string | undefined {
  return provenance.response === undefined ? undefined : (provenance.response.id ?? "");
}
