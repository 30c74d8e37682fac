// GenAI events of older conventions written as one attribute, the JSON text of
// their list: pydantic-ai's first instrumentation (`events`, on its chat spans,
// in its "attributes" mode, Logfire's default). Each event's body is a message:
//
// | event                                              | message                                      |
// |----------------------------------------------------|----------------------------------------------|
// | `gen_ai.system.message`, `gen_ai.user.message`, `gen_ai.assistant.message` | `{role, content, tool_calls}` as written: the request's history |
// | `gen_ai.tool.message` (`{role: "tool", id, content}`) | a tool message: `id` is the call it answers (`tool_call_id`) |
// | `gen_ai.choice` (`{index, message, finish_reason}`) | the answer: its `message`, with its finish reason |
//
// The event's own bookkeeping (`event.name`, `gen_ai.message.index`,
// `gen_ai.system`, a choice's `index`) is no part of a message. A list that
// holds anything else (a choice with a member beside its message, bookkeeping
// that is an object) is of no form read here.
import { isPlainObject } from "../../src/models/json-value.js";
import type { Side } from "./read-messages.js";

const BOOKKEEPING = new Set(["event.name", "gen_ai.message.index", "gen_ai.system"]);
const MESSAGE_EVENTS = new Set(["gen_ai.system.message", "gen_ai.user.message", "gen_ai.assistant.message", "gen_ai.tool.message", "gen_ai.choice"]);

export interface EventMessage {
  message: Record<string, unknown>;
  /** Where the event stands in the list, as a JSON Pointer into its JSON text. */
  at: string;
  /** A choice's `index`, as written (undefined where it writes none). */
  choice?: unknown;
}

/**
 * How many answers the choices of the events are, where more than one: choices
 * of one index are one answer written in several events (pydantic-ai writes
 * each of its response's events as a choice of index 0); choices of several
 * indices, or any without one, are the several answers `n` asked for,
 * alternatives a conversation goes on from one of.
 */
export function alternativeChoices(messages: readonly EventMessage[]): number | undefined {
  const choices = messages.filter((message) => "choice" in message);
  if (choices.length < 2) return undefined;
  const first = choices[0]!.choice;
  return first !== undefined && choices.every(({ choice }) => choice === first) ? undefined : choices.length;
}

/** A choice's members besides its bookkeeping: only its message is read from it. */
const CHOICE_MEMBERS = new Set(["index", "message", "finish_reason"]);

/**
 * Whether the event is one of the message events, with bookkeeping that is
 * bookkeeping (a name, a number) and, for a choice, nothing beside its message:
 * what is dropped as no part of a message must hold none, or a call beside the
 * choice's message (its own `tool_calls`) would pass unread.
 */
function isMessageEvent(event: unknown): boolean {
  if (!isPlainObject(event) || typeof event["event.name"] !== "string" || !MESSAGE_EVENTS.has(event["event.name"])) return false;
  const choice = event["event.name"] === "gen_ai.choice";
  return Object.entries(event).every(([key, value]) => (BOOKKEEPING.has(key) ? value === null || typeof value !== "object" : !choice || CHOICE_MEMBERS.has(key)));
}

/** The messages of one side the events hold (the answer's choices, or the request's messages), or undefined for a list of no such form. */
export function genAiEventMessages(events: unknown, side: Side): EventMessage[] | undefined {
  if (!Array.isArray(events) || events.length === 0) return undefined;
  if (!events.every(isMessageEvent)) return undefined;
  const messages: EventMessage[] = [];
  (events as Array<Record<string, unknown>>).forEach((event, index) => {
    const choice = event["event.name"] === "gen_ai.choice";
    if (choice !== (side === "output")) return;
    if (choice) {
      const { message, finish_reason: finishReason } = event;
      // A choice whose message is no object is said by the reading of the message itself.
      const body = isPlainObject(message) ? message : { content: message };
      messages.push({ message: { role: "assistant", ...body, ...(finishReason === undefined ? {} : { finish_reason: finishReason }) }, at: `/${index}/message`, choice: event.index });
      return;
    }
    const message: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(event)) if (!BOOKKEEPING.has(key)) message[key] = value;
    if (event["event.name"] === "gen_ai.tool.message" && message.tool_call_id === undefined && message.id !== undefined) {
      const { id, ...rest } = message;
      messages.push({ message: { ...rest, tool_call_id: id }, at: `/${index}` });
      return;
    }
    messages.push({ message, at: `/${index}` });
  });
  return messages;
}
