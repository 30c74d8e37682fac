// Server-sent events, read the way the HTML standard's event-stream parser reads
// them, one line at a time so that a recording of any length is never held whole.
//
// | line                | effect                                                   |
// |---------------------|----------------------------------------------------------|
// | `:…`                | a comment, ignored                                       |
// | `data: value`       | appends `value` to the event's data ("\n" between lines) |
// | `event: name`       | names the event (the last one wins)                      |
// | `id:`, `retry:`     | ignored: a recording is never reconnected                |
// | `field` (no colon)  | the field with an empty value                            |
// | blank line          | dispatches the event, if it has data or a name           |
//
// One space after the colon belongs to the framing, not to the value. An event
// that the recording ends before its blank line is discarded by SSE readers
// (the standard's parser and the providers' SDKs alike): it is given, marked
// `unended`, so that the reader says so rather than read what they do not. A
// line that could not be read while an event is being read (or just before
// one) is marked on that event, `unreadAt`: its data is not what they read. An
// event with a name and no data, which the standard's parser discards, is
// dispatched by the OpenAI SDKs with empty data, at which they throw: it is
// given, marked `dataless`, so that the reader says so. openai-python also
// dispatches, at a blank line, an event with neither data nor name when it
// holds an event id (which it keeps from event to event, as the standard
// does, until a `[DONE]` ends what it reads) or a retry: it reads that empty
// data as JSON and throws, where openai-node and the standard skip it. Such
// an event is given, marked `emptyDispatch`, so that the reader says so.

/** Whether a journal line is SSE framing (`data:`, `event:`, `id:`, `retry:` or a `:` comment) rather than JSON. */
export function isSseFraming(text: string): boolean {
  return /^(data|event|id|retry):/.test(text) || text.startsWith(":");
}

export interface SseEvent {
  /** The `event:` field, when the event had one. */
  event?: string;
  /** The data lines joined with "\n"; `[DONE]` stays as it is. */
  data: string;
  /** 1-based journal line of the first field of the event. */
  line: number;
  /** Whether the stream ended before the blank line that dispatches the event. */
  unended?: boolean;
  /** A line of the event, or just before it, that could not be read. */
  unreadAt?: number;
  /** Whether the event had a name and no data line: the SDKs read its data, "", as JSON and throw. */
  dataless?: boolean;
  /**
   * An event only openai-python dispatches, at this blank line: no data and no
   * name, but the event id it keeps (from the `id` field on `line`) or a
   * retry of this event; it reads the empty data as JSON and throws.
   */
  emptyDispatch?: { field: "id" | "retry"; line: number };
}

/** A retry value openai-python's `int()` reads: Unicode decimal digits, a sign, underscores between digits, white space around. */
const PYTHON_INT = /^\s*[+-]?\p{Nd}+(?:_\p{Nd}+)*\s*$/u;

export class SseParser {
  private event: string | undefined;
  private data: string[] = [];
  private firstLine = 0;
  private started = false;
  private unreadAt: number | undefined;
  /** The line of the `id` field openai-python holds as its last event id, when one is non-empty. */
  private keptIdAt: number | undefined;
  /** The line of a `retry` field of the event being read that openai-python takes. */
  private retryAt: number | undefined;

  /** One line of the stream, without its line ending; returns the events it completes. */
  push(line: string, lineNumber: number): SseEvent[] {
    if (!this.started) {
      this.started = true;
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    }
    // The reader ends lines at "\n" (taking a "\r" before it, and one at the end
    // of the source, as part of the ending); any other carriage return is a line
    // ending to SSE. So a line given with a final "\r" was followed by an empty
    // line ("data: x\r\r\n"): the blank line that dispatches the event.
    if (line.includes("\r")) {
      const parts = line.split(/\r\n?/);
      const events: SseEvent[] = [];
      for (const part of parts) events.push(...this.pushLine(part, lineNumber));
      return events;
    }
    return this.pushLine(line, lineNumber);
  }

  /** A line the journal could not read (not UTF-8, too long): it may have been a field of the event being read, or of the next. */
  unread(lineNumber: number): void {
    this.unreadAt ??= lineNumber;
  }

  /** End of the stream: the event still being read, if it has data, marked unended. */
  finish(): SseEvent[] {
    const events = this.dispatch(0).filter((event) => event.dataless !== true && event.emptyDispatch === undefined);
    for (const event of events) event.unended = true;
    return events;
  }

  private pushLine(line: string, lineNumber: number): SseEvent[] {
    if (line === "") return this.dispatch(lineNumber);
    if (line.charCodeAt(0) === 0x3a /* ":" */) return [];
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (this.firstLine === 0) this.firstLine = lineNumber;
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    // openai-python keeps an id without a NUL (an empty one is none to it), and a retry its int() reads.
    else if (field === "id" && !value.includes("\0")) this.keptIdAt = value === "" ? undefined : lineNumber;
    else if (field === "retry" && PYTHON_INT.test(value)) this.retryAt = lineNumber;
    return [];
  }

  /** The event a blank line on `blankLine` dispatches (0: the end of the stream). */
  private dispatch(blankLine: number): SseEvent[] {
    const event = this.event;
    const data = this.data;
    const line = this.firstLine;
    const unreadAt = this.unreadAt;
    const retryAt = this.retryAt;
    this.event = undefined;
    this.data = [];
    this.firstLine = 0;
    this.unreadAt = undefined;
    this.retryAt = undefined;
    const named = event !== undefined && event !== "";
    if (data.length === 0) {
      if (named) return [{ event, data: "", line, dataless: true }];
      const keptIdAt = this.keptIdAt;
      if (keptIdAt === undefined && retryAt === undefined) return [];
      const emptyDispatch = retryAt !== undefined ? { field: "retry" as const, line: retryAt } : { field: "id" as const, line: keptIdAt! };
      return [{ data: "", line: blankLine, emptyDispatch }];
    }
    // openai-python stops reading at `[DONE]`: an id it held is not held by what it reads next.
    if (data[0]!.startsWith("[DONE]")) this.keptIdAt = undefined;
    const dispatched: SseEvent = { data: data.length === 1 ? data[0] : data.join("\n"), line };
    if (named) dispatched.event = event;
    if (unreadAt !== undefined) dispatched.unreadAt = unreadAt;
    return [dispatched];
  }
}
