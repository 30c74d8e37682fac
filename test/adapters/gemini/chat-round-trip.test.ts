// chat → items → gemini → items → chat, on every message history of the Chat
// golden cases: the texts, call ids, tool names, argument values and tool
// results come back, and a refusal, which Gemini cannot replay, is reported.
// Arguments and results are compared as JSON values (Gemini holds objects, not
// their text); text that is not JSON comes back as it was; "" arguments come
// back as {}, which is reported.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { itemsToMessages as chatFromItems } from "../../../adapters/chat-completions/items-to-messages.js";
import { messagesToItems as chatToItems } from "../../../adapters/chat-completions/messages-to-items.js";
import { itemsToContents } from "../../../adapters/gemini/items-to-contents.js";
import { contentsToItems } from "../../../adapters/gemini/contents-to-items.js";
import type { ChatMessage } from "../../../src/models/chat-completions.js";

const GOLDEN = fileURLToPath(new URL("../../../golden/chat-completions/", import.meta.url));
type Json = Record<string, unknown>;

const histories = (existsSync(GOLDEN) ? readdirSync(GOLDEN) : [])
  .filter((name) => existsSync(join(GOLDEN, name, "chat.json")))
  .map((name) => [name, JSON.parse(readFileSync(join(GOLDEN, name, "chat.json"), "utf8")) as unknown] as const)
  .filter((entry): entry is readonly [string, ChatMessage[]] => Array.isArray(entry[1]));

/** What must survive, read from a Chat history: each message's texts, the calls, the tool results. */
function facts(messages: readonly ChatMessage[]) {
  const texts: Array<[string, string]> = [];
  const calls: Array<[string, string, unknown]> = [];
  const results = new Map<string, unknown[]>();
  for (const message of messages as Json[]) {
    const role = String(message.role);
    const content = message.content;
    const pieces = typeof content === "string" ? [content] : Array.isArray(content) ? content.flatMap((part: Json) => (typeof part.text === "string" ? [part.text] : [])) : [];
    if (role === "tool") {
      results.set(String(message.tool_call_id), [...(results.get(String(message.tool_call_id)) ?? []), resultValue(pieces.join(""))]);
      continue;
    }
    // An empty text is no text.
    const text = pieces.join("");
    if (text !== "") texts.push([role === "developer" ? "system" : role, text]);
    for (const call of (Array.isArray(message.tool_calls) ? message.tool_calls : []) as Json[]) {
      const fn = (call.function ?? {}) as Json;
      calls.push([String(call.id), String(fn.name), argumentValue(fn.arguments)]);
    }
  }
  return { texts, calls, results: Object.fromEntries(results) };
}

/** A result that is the text of a JSON object comes back as that object, its spacing not kept. */
function resultValue(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : text;
  } catch {
    return text;
  }
}

function argumentValue(args: unknown): unknown {
  if (typeof args !== "string") return args;
  if (args === "") return {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function roundTrip(chat: ChatMessage[]) {
  const items = chatToItems({ messages: chat });
  const gemini = itemsToContents({ items: items.value });
  const back = contentsToItems(gemini.value);
  const final = chatFromItems({ items: back.value });
  return { first: chatFromItems({ items: items.value }).value, gemini, back, final: final.value };
}

/** A system message after the conversation started, which Gemini takes as a user turn, reported. */
const lateSystem = (messages: readonly ChatMessage[]) => {
  const first = (messages as Json[]).findIndex((message) => message.role !== "system" && message.role !== "developer");
  return first !== -1 && (messages as Json[]).slice(first).some((message) => message.role === "system" || message.role === "developer");
};

describe.each(histories)("chat golden history %s", (_name, chat) => {
  test.skipIf(lateSystem(chat))("keeps its texts, calls and tool results through Gemini", () => {
    const { first, final } = roundTrip(chat);
    // The reference is what Chat itself gives back without Gemini between:
    // what the Chat adapter already loses is not Gemini's to keep.
    expect(facts(final)).toEqual(facts(first));
  });

  const refuses = (messages: readonly ChatMessage[]) =>
    (messages as Json[]).some((message) => typeof message.refusal === "string" || (Array.isArray(message.content) && message.content.some((part: Json) => part.type === "refusal")));

  test.skipIf(!refuses(chat))("a refusal, which Gemini cannot replay, is reported", () => {
    const { gemini } = roundTrip(chat);
    expect(gemini.losses.filter((loss) => loss.code === "unsupported_part" && loss.detail.includes("refusal"))).not.toEqual([]);
  });
});

describe("a system message in the middle of a conversation", () => {
  const late = histories.filter(([, chat]) => lateSystem(chat));

  test("is there to run", () => {
    expect(late.map(([name]) => name)).toEqual(["system-and-developer-stay-in-place"]);
  });

  test("comes back as a user turn of the same text, and the move is reported", () => {
    const [, chat] = late[0]!;
    const { first, final, gemini } = roundTrip(chat);
    // The texts of the leading instructions stay system; a later system text becomes a user one.
    const leading = facts(first).texts.findIndex(([role]) => role !== "system");
    const asUser = facts(first).texts.map(([role, text], index): [string, string] => [index >= leading && role === "system" ? "user" : role, text]);
    expect(facts(final)).toEqual({ ...facts(first), texts: asUser });
    expect(gemini.losses.filter((loss) => loss.detail.startsWith("Gemini takes instructions only before")).length).toBeGreaterThan(0);
  });
});

describe("the chat golden histories", () => {
  test("are there to run", () => {
    expect(histories.length).toBeGreaterThanOrEqual(30);
  });

  test("Gemini reads back what its writer wrote of them, reporting only arguments that were never an object and results that are JSON text", () => {
    const reported = histories.flatMap(([name, chat]) => roundTrip(chat).back.losses.map((loss) => `${name}: ${loss.path} ${loss.code}`));
    expect(reported.filter((line) => !line.endsWith("/args form_changed") && !line.endsWith("/functionResponse/response form_changed"))).toEqual([]);
  });
});
