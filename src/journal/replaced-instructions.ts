// A request that replays the conversation under other instructions than it
// began with (leading system or developer messages the conversation's differ
// from, or that repeat such a request's) gives no new item for them: they say
// what the model is to do from that request on, where the conversation's items
// are what was said, in order. Emitted as items, they would stand after the
// last call as if said between it and its output. So they are left behind,
// each reported at the field of the record it comes from.
//
// | record                   | the instructions come from                        |
// |--------------------------|---------------------------------------------------|
// | Chat request body        | `messages/<i>`, one message each                   |
// | Open Responses body      | `instructions`, then `input/<i>`                   |
// | an envelope's request    | its system field (`system`, `systemInstruction`)   |
// | {request, response}      | the request's, under `request`                     |
import type { AdapterName, JournalEnvelopes } from "../../adapters/index.js";
import type { Loss } from "../models/loss.js";
import { detectEnvelopeRecord, isPlainObject, type RecordKind } from "./detect.js";

const DETAIL = "instructions other than those the conversation began with, under which the request replays it: what the model is to do from this request on, not a turn of the conversation, so no item";

/** A left_behind loss for each of the `count` leading items of a request that are instructions replacing the conversation's. */
export function replacedInstructionsLosses(record: Record<string, unknown>, kind: RecordKind, count: number, envelopes: JournalEnvelopes, envelope?: AdapterName, at = ""): Loss[] {
  switch (kind) {
    case "chat_request":
      return Array.from({ length: count }, (_, index) => leftBehind(`${at}/messages/${index}`));
    case "responses_request": {
      const fromInstructions = typeof record.instructions === "string" ? 1 : 0;
      return Array.from({ length: count }, (_, index) => leftBehind(index < fromInstructions ? `${at}/instructions` : `${at}/input/${index - fromInstructions}`));
    }
    case "envelope_request":
      return count > 0 && envelope !== undefined ? [leftBehind(`${at}/${envelopes[envelope].fields.system}`)] : [];
    case "exchange": {
      const request = record.request;
      if (!isPlainObject(request)) return [];
      const detected = detectEnvelopeRecord(request);
      return replacedInstructionsLosses(request, detected.kind, count, envelopes, detected.envelope, `${at}/request`);
    }
    // Only a request carries the conversation so far.
    case "chat_chunk":
    case "chat_completion":
    case "response":
    case "responses_event":
    case "responses_item":
    case "chat_message":
    case "envelope_message":
    case "envelope_response":
    case "envelope_event":
    case "unknown":
      return [];
    default: {
      const unhandled: never = kind;
      return unhandled;
    }
  }
}

function leftBehind(path: string): Loss {
  return { path, code: "left_behind", detail: DETAIL };
}
