// chat → items → bedrock → items → chat, on every message history of the Chat
// golden cases: the texts, call ids, tool names, argument values and tool
// results come back, and a refusal, which Bedrock cannot replay, is reported.
// Bedrock has no system turn and wants user and assistant to alternate: system
// texts come back first, as one, and two messages of one role in a row come back
// as one holding both texts; each such change is reported.
// Arguments are compared as JSON values (Bedrock holds an object, not its
// text); text that is not JSON comes back as it was; "" comes back as {}, which
// is reported.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { itemsToMessages as chatFromItems } from "../../../adapters/chat-completions/items-to-messages.js";
import { messagesToItems as chatToItems } from "../../../adapters/chat-completions/messages-to-items.js";
import { itemsToMessages } from "../../../adapters/bedrock/items-to-messages.js";
import { messagesToItems } from "../../../adapters/bedrock/messages-to-items.js";
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
    // An empty text is no text here, as for the other envelopes' comparison.
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

/**
 * The texts of a Chat history as Bedrock's shape leaves them: the system texts
 * lead, as one; a text whose message directly follows a message of the same
 * role that had a text shares that message, and comes back joined to it.
 */
function inBedrockShape(messages: readonly ChatMessage[]): Array<[string, string]> {
  const { texts } = facts(messages);
  const system = texts.filter(([role]) => role === "system").map(([, text]) => text);
  const shaped: Array<[string, string]> = system.length > 0 ? [["system", system.join("")]] : [];
  let rank = 0;
  let previous: { role: string; text: boolean } | undefined;
  for (const message of messages as Json[]) {
    const role = message.role === "developer" ? "system" : String(message.role);
    const entry = texts[rank];
    const hasText = entry !== undefined && entry[0] === role && facts([message as ChatMessage]).texts.length > 0;
    if (hasText) rank += 1;
    if (role === "system") continue;
    if (hasText && previous?.role === role && previous.text) shaped[shaped.length - 1][1] += entry[1];
    else if (hasText) shaped.push([role, entry[1]]);
    previous = { role, text: hasText };
  }
  return shaped;
}

function roundTrip(chat: ChatMessage[]) {
  const items = chatToItems({ messages: chat });
  const bedrock = itemsToMessages({ items: items.value });
  const back = messagesToItems(bedrock.value);
  const final = chatFromItems({ items: back.value });
  return { first: chatFromItems({ items: items.value }).value, bedrock, back, final: final.value };
}

describe.each(histories)("chat golden history %s", (_name, chat) => {
  test("keeps its texts, calls and tool results through Bedrock", () => {
    const { first, final } = roundTrip(chat);
    // The reference is what Chat itself gives back without Bedrock between:
    // what the Chat adapter already loses is not Bedrock's to keep.
    expect(facts(final)).toEqual({ ...facts(first), texts: inBedrockShape(first) });
  });

  test("a message joined to the one before it, or a system message moved up, is never unreported", () => {
    const { first, bedrock } = roundTrip(chat);
    const reshaped = JSON.stringify(inBedrockShape(first)) !== JSON.stringify(facts(first).texts);
    const reported = bedrock.losses.some((loss) => loss.code === "reordered" || (loss.code === "form_changed" && loss.detail.startsWith("joined")));
    expect(reported || !reshaped).toBe(true);
  });

  const refuses = (messages: readonly ChatMessage[]) =>
    (messages as Json[]).some((message) => typeof message.refusal === "string" || (Array.isArray(message.content) && message.content.some((part: Json) => part.type === "refusal")));

  test.skipIf(!refuses(chat))("a refusal, which Bedrock cannot replay, is reported", () => {
    const { bedrock } = roundTrip(chat);
    expect(bedrock.losses.filter((loss) => loss.code === "unsupported_part" && loss.detail.includes("refusal"))).not.toEqual([]);
  });
});

describe("the chat golden histories", () => {
  test("are there to run", () => {
    expect(histories.length).toBeGreaterThanOrEqual(30);
  });

  test("Bedrock reads back, with no loss, what its writer wrote of them", () => {
    const reported = histories.flatMap(([name, chat]) => roundTrip(chat).back.losses.map((loss) => `${name}: ${loss.path} ${loss.code}`));
    // Arguments that were never an object are written as their text, which comes back as it was: reported both ways.
    expect(reported.every((line) => line.endsWith("/input form_changed"))).toBe(true);
  });
});

describe("Bedrock's items, written for Chat", () => {
  const bedrockGolden = (name: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../../golden/bedrock/${name}/items.json`, import.meta.url)), "utf8")) as Json;

  test("a tool result's error status is reported by the Chat writer, never forwarded", () => {
    const body = bedrockGolden("request-tool-result-error");
    const converted = chatFromItems({ items: body.input as never });
    expect(converted.losses.filter((loss) => loss.path.endsWith("/bedrock:status")).map((loss) => [loss.path, loss.code])).toEqual([["/4/bedrock:status", "provider_extension"]]);
    expect(JSON.stringify(converted.value)).not.toContain("bedrock:");
  });

  test("reasoning and server tool blocks are reported by the Chat writer, never forwarded", () => {
    const items = (bedrockGolden("request-code-interpreter-replay").input as Json[]);
    const converted = chatFromItems({ items: items as never });
    expect(converted.losses.filter((loss) => /^\/[23]$/.test(loss.path)).map((loss) => [loss.path, loss.code])).toEqual([
      ["/2", "unsupported_item"],
      ["/3", "unsupported_item"],
    ]);
    const thinking = bedrockGolden("request-thinking-tool-round-trip").input as Json[];
    const written = chatFromItems({ items: thinking as never });
    expect(JSON.stringify(written.value)).not.toContain((thinking[1] as Json).encrypted_content as string);
    expect(written.losses.some((loss) => loss.path === "/1")).toBe(true);
  });
});
