// chat → items → anthropic → items → chat, on every message history of the Chat
// golden cases: the texts, call ids, tool names, argument values and tool
// results come back, and a refusal, which Anthropic cannot replay, is reported.
// Arguments are compared as JSON values (Anthropic holds an object, not its
// text); text that is not JSON comes back as it was; "" comes back as {}, which
// is reported.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { itemsToMessages as chatFromItems } from "../../../adapters/chat-completions/items-to-messages.js";
import { messagesToItems as chatToItems } from "../../../adapters/chat-completions/messages-to-items.js";
import { itemsToMessages } from "../../../adapters/anthropic/items-to-messages.js";
import { messagesToItems } from "../../../adapters/anthropic/messages-to-items.js";
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
  const results = new Map<string, string[]>();
  for (const message of messages as Json[]) {
    const role = String(message.role);
    const content = message.content;
    const pieces = typeof content === "string" ? [content] : Array.isArray(content) ? content.flatMap((part: Json) => (typeof part.text === "string" ? [part.text] : [])) : [];
    if (role === "tool") {
      results.set(String(message.tool_call_id), [...(results.get(String(message.tool_call_id)) ?? []), pieces.join("")]);
      continue;
    }
    // An empty text is no text: Anthropic writes none beside a turn's calls.
    const text = pieces.join("");
    if (text !== "") texts.push([role === "developer" ? "system" : role, text]);
    for (const call of (Array.isArray(message.tool_calls) ? message.tool_calls : []) as Json[]) {
      const fn = (call.function ?? {}) as Json;
      calls.push([String(call.id), String(fn.name), argumentValue(fn.arguments)]);
    }
  }
  return { texts, calls, results: Object.fromEntries(results) };
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
  const anthropic = itemsToMessages({ items: items.value });
  const back = messagesToItems(anthropic.value);
  const final = chatFromItems({ items: back.value });
  return { first: chatFromItems({ items: items.value }).value, anthropic, back, final: final.value };
}

describe.each(histories)("chat golden history %s", (_name, chat) => {
  test("keeps its texts, calls and tool results through Anthropic", () => {
    const { first, final } = roundTrip(chat);
    // The reference is what Chat itself gives back without Anthropic between:
    // what the Chat adapter already loses is not Anthropic's to keep.
    expect(facts(final)).toEqual(facts(first));
  });

  const refuses = (messages: readonly ChatMessage[]) =>
    (messages as Json[]).some((message) => typeof message.refusal === "string" || (Array.isArray(message.content) && message.content.some((part: Json) => part.type === "refusal")));

  test.skipIf(!refuses(chat))("a refusal, which Anthropic cannot replay, is reported", () => {
    const { anthropic } = roundTrip(chat);
    expect(anthropic.losses.filter((loss) => loss.code === "unsupported_part" && loss.detail.includes("refusal"))).not.toEqual([]);
  });
});

describe("the chat golden histories", () => {
  test("are there to run", () => {
    expect(histories.length).toBeGreaterThanOrEqual(30);
  });

  test("Anthropic reads back, with no loss, what its writer wrote of them", () => {
    const reported = histories.flatMap(([name, chat]) => roundTrip(chat).back.losses.map((loss) => `${name}: ${loss.path} ${loss.code}`));
    // Arguments that were never an object are written as their text, which comes back as it was: reported both ways.
    // An object input has no text: the arguments read back are its JSON text, said synthesized.
    expect(reported.filter((line) => !line.endsWith("/input form_changed") && !line.endsWith("/input synthesized"))).toEqual([]);
  });
});

describe("Anthropic's items, written for Chat", () => {
  const anthropicGolden = (name: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../../golden/anthropic/${name}/items.json`, import.meta.url)), "utf8")) as Json;

  test("is_error, cache_control and caller are reported by the Chat writer, never forwarded", () => {
    const converted = chatFromItems({ items: anthropicGolden("messages-tool-result-is-error") as never });
    expect(converted.losses.filter((loss) => loss.path.endsWith("/anthropic:is_error")).map((loss) => [loss.path, loss.code])).toEqual([
      ["/3/anthropic:is_error", "provider_extension"],
      ["/6/anthropic:is_error", "provider_extension"],
      ["/9/anthropic:is_error", "provider_extension"],
    ]);
    expect(JSON.stringify(converted.value)).not.toContain("anthropic:");
  });

  test("thinking and server tool blocks are reported by the Chat writer, never forwarded", () => {
    const items = anthropicGolden("messages-web-search-replay") as unknown as Json[];
    const converted = chatFromItems({ items: items as never });
    expect(converted.losses.filter((loss) => /^\/[1-3]$/.test(loss.path)).map((loss) => [loss.path, loss.code])).toEqual([
      ["/1", "unsupported_item"],
      ["/2", "unsupported_item"],
      ["/3", "unsupported_item"],
    ]);
    expect(JSON.stringify(converted.value)).not.toContain((items[1] as Json).encrypted_content as string);
  });
});
