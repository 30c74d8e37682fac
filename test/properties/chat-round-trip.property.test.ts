// Generated Chat conversations survive chat -> items -> chat unchanged and without
// losses, and every item they become is a valid Open Responses ItemParam.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { itemsToMessages } from "../../adapters/chat-completions/items-to-messages.js";
import { messagesToItems } from "../../adapters/chat-completions/messages-to-items.js";
import type { ChatMessage } from "../../src/models/chat-completions.js";
import { specErrors } from "../support/spec-validator.js";

type Message = Record<string, unknown>;

const text = fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 });
const content = fc.oneof(text, fc.array(text.map((t) => ({ type: "text", text: t })), { minLength: 1, maxLength: 3 }));
const toolName = fc.constantFrom("get_latest_sales_report", "lookup_weather", "send_reminder");
// Arguments are copied byte for byte, whatever they hold.
const argumentsText = fc.oneof(fc.json({ maxDepth: 2 }), fc.constantFrom("{\"region\":\"apac\"}", "", "{\"region\":\"apac\"", " {} "));

/**
 * A turn: a user message, then an assistant answer, with tool calls and their
 * tool messages or not. Every content is a string or text parts, and keeps its form.
 */
const turn = fc.tuple(
  content,
  fc.oneof(
    content.map((answer): Message[] => [{ role: "assistant", content: answer }]),
    fc.tuple(fc.option(content, { nil: null }), fc.array(fc.tuple(toolName, argumentsText, content), { minLength: 1, maxLength: 3 })).map(([answer, calls]): Message[] => [
      { role: "assistant", content: answer, tool_calls: calls.map(([name, args], i) => ({ id: `call_${i}`, type: "function", function: { name, arguments: args } })) },
      ...calls.map(([, , output], i) => ({ role: "tool", tool_call_id: `call_${i}`, content: output })),
    ]),
  ),
);

const conversation = fc.tuple(fc.option(fc.tuple(fc.constantFrom("system", "developer"), content), { nil: undefined }), fc.array(turn, { minLength: 1, maxLength: 4 })).map(([instructions, turns]) => {
  const messages: Message[] = instructions ? [{ role: instructions[0], content: instructions[1] }] : [];
  turns.forEach(([user, answer], t) => {
    messages.push({ role: "user", content: user });
    // Call ids are unique in the conversation, as a provider gives them.
    for (const message of answer) {
      const renamed = structuredClone(message);
      if (Array.isArray(renamed.tool_calls)) for (const toolCall of renamed.tool_calls as Message[]) toolCall.id = `${String(toolCall.id)}_${t}`;
      if (typeof renamed.tool_call_id === "string") renamed.tool_call_id = `${renamed.tool_call_id}_${t}`;
      messages.push(renamed);
    }
  });
  return messages;
});

describe("Chat conversations through Open Responses items", () => {
  test("come back unchanged, without losses, and every item is an ItemParam", () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const before = structuredClone(messages);
        const items = messagesToItems({ messages: messages as ChatMessage[] });
        expect(items.losses).toEqual([]);
        for (const item of items.value) expect(specErrors("ItemParam", item), JSON.stringify(item)).toEqual([]);
        const back = itemsToMessages({ items: items.value });
        expect(back.losses).toEqual([]);
        expect(back.value).toEqual(before);
        expect(messages).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });
});
