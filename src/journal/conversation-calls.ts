// The function each call of a conversation names, by call_id, for the results
// that come on later lines: an Anthropic `tool_result` and a Bedrock `toolResult`
// carry only their call's id, where a target that needs the name (a Gemini
// `functionResponse`) is written from the call on an earlier line. Loose Chat
// messages meet the same need in one run of lines; loose envelope messages come
// one a line, so the conversation keeps the names.
//
// Memory stays bounded: past MAX_CALLS names the oldest is forgotten, and a
// result of its call then gets no name, which whoever writes it reports.
import { BoundedMap } from "../models/bounded-map.js";

export const MAX_CALLS = 100_000;

export interface CallName {
  name: string;
  /** The line of the call that named it. */
  line: number;
}

export class ConversationCalls {
  private readonly names = new BoundedMap<string, CallName>(MAX_CALLS);

  /** A call met on `line`; the first call of an id names it, as the gate pairs an output with the first call of its id. */
  call(callId: string, name: string, line: number): void {
    if (!this.names.has(callId)) this.names.set(callId, { name, line });
  }

  /** The name the call of `callId` gave, and its line; undefined when no call of it was met. */
  nameOf(callId: string): CallName | undefined {
    return this.names.get(callId);
  }
}
