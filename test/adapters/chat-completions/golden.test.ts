// Runs every case of golden/chat-completions/ (its README describes the files).
// The kind of a case is read from the shape of its chat.json: an array is a
// message history, an object with `messages` a request body, a `chat.completion`
// a completion. The adapters of a kind are loaded only when a case of it exists.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import type { Converted, Loss } from "../../../src/models/loss.js";
import { resolve, tokensOf, withoutPaths } from "../../support/json-pointer.js";
import { specErrors } from "../../support/spec-validator.js";
import { withoutNeutralFields } from "../../support/response-neutrals.js";

const GOLDEN = fileURLToPath(new URL("../../../golden/chat-completions/", import.meta.url));
const CASE_FILES = [
  "chat.json",
  "responses.json",
  "losses.json",
  "options.json",
  "chat-roundtrip.json",
  "responses-roundtrip.json",
  "spec-errors.json",
  "README.md",
];

type Direction = "chat_to_responses" | "responses_to_chat";
type Kind = "messages" | "request" | "completion";

interface Adapter {
  toResponses(chat: unknown, options: Record<string, unknown>): Converted<unknown>;
  toChat(responses: unknown, options: Record<string, unknown>): Converted<unknown>;
  specErrors(value: unknown): string[];
}

interface GoldenCase {
  name: string;
  kind: Kind;
  chat: unknown;
  responses: unknown;
  losses: Record<Direction, Loss[]>;
  options: Record<Direction, Record<string, unknown>>;
  /** What chat → responses gives. */
  responsesFromChat: unknown;
  /** What responses → chat gives, and what chat → responses → chat gives. */
  chatBack: unknown;
  /** What responses → chat → responses gives. */
  responsesBack: unknown;
  specErrors: string[];
  files: string[];
}

function readJson(dir: string, file: string): unknown {
  return JSON.parse(readFileSync(join(dir, file), "utf8"));
}

function kindOf(chat: unknown): Kind {
  if (Array.isArray(chat)) return "messages";
  if (typeof chat === "object" && chat !== null && (chat as { object?: unknown }).object === "chat.completion") return "completion";
  if (typeof chat === "object" && chat !== null && Array.isArray((chat as { messages?: unknown }).messages)) return "request";
  throw new Error("chat.json is neither a message array, a request body nor a chat.completion");
}

/** A loss that writes its value anyway (moved, or as the source has it though the target rejects it) removes nothing from the round trip. */
function removesItsPath(loss: Loss): boolean {
  // A value synthesized for the target (an item id a completion lacks) adds, and removes nothing of the source.
  return loss.code !== "reordered" && loss.code !== "target_rejects" && !isSynthesizedItemId(loss);
}

/** An output item id the conversion derived, reported at its place in the output. */
function isSynthesizedItemId(loss: Pick<Loss, "code" | "path">): boolean {
  return loss.code === "synthesized" && /^\/output\/\d+\/id$/.test(loss.path);
}

function loadCase(name: string): GoldenCase {
  const dir = join(GOLDEN, name);
  const files = readdirSync(dir);
  const optional = (file: string) => (files.includes(file) ? readJson(dir, file) : undefined);
  const chat = readJson(dir, "chat.json");
  const responses = readJson(dir, "responses.json");
  const losses = (optional("losses.json") ?? {}) as Partial<Record<Direction, Loss[]>>;
  const options = (optional("options.json") ?? {}) as Partial<Record<Direction, Record<string, unknown>>>;
  const declared = {
    chat_to_responses: losses.chat_to_responses ?? [],
    responses_to_chat: losses.responses_to_chat ?? [],
  };
  const chatBack = optional("chat-roundtrip.json") ?? withoutPaths(chat, declared.chat_to_responses.filter(removesItsPath));
  const responsesBack = optional("responses-roundtrip.json") ?? withoutPaths(responses, declared.responses_to_chat.filter(removesItsPath));
  // A case that loses or normalizes something of chat.json has chat.json for its source:
  // responses.json is then exactly what it converts to, whatever the round trip of
  // responses.json gives.
  const chatIsSource = files.includes("chat-roundtrip.json") || declared.chat_to_responses.some(removesItsPath);
  return {
    name,
    kind: kindOf(chat),
    chat,
    responses,
    losses: declared,
    options: { chat_to_responses: options.chat_to_responses ?? {}, responses_to_chat: options.responses_to_chat ?? {} },
    responsesFromChat: chatIsSource ? withoutPaths(responses, declared.responses_to_chat.filter(removesItsPath)) : responsesBack,
    chatBack,
    responsesBack,
    specErrors: (optional("spec-errors.json") ?? []) as string[],
    files,
  };
}

const adapters = new Map<Kind, Promise<Adapter>>();
function adapterFor(kind: Kind): Promise<Adapter> {
  let adapter = adapters.get(kind);
  if (!adapter) {
    adapter = loadAdapter(kind);
    adapters.set(kind, adapter);
  }
  return adapter;
}

async function loadAdapter(kind: Kind): Promise<Adapter> {
  switch (kind) {
    case "messages": {
      const { messagesToItems } = await import("../../../adapters/chat-completions/messages-to-items.js");
      const { itemsToMessages } = await import("../../../adapters/chat-completions/items-to-messages.js");
      return {
        toResponses: (chat, options) => messagesToItems({ ...options, messages: chat as never }),
        toChat: (responses, options) => itemsToMessages({ ...options, items: responses as never }),
        specErrors: (items) => (items as unknown[]).flatMap((item, index) => itemSpecErrors(item).map((error) => `/${index}${error}`)),
      };
    }
    case "request": {
      const { chatRequestToResponsesBody } = await import("../../../adapters/chat-completions/request-to-body.js");
      const { responsesBodyToChatRequest } = await import("../../../adapters/chat-completions/body-to-request.js");
      return {
        toResponses: (chat, options) => chatRequestToResponsesBody({ ...options, request: chat as never }),
        toChat: (responses, options) => responsesBodyToChatRequest({ ...options, body: responses as never }),
        specErrors: (body) => specErrors("CreateResponseBody", body),
      };
    }
    case "completion": {
      const { chatCompletionToResponse } = await import("../../../adapters/chat-completions/completion-to-response.js");
      const { responseToChatCompletion } = await import("../../../adapters/chat-completions/response-to-completion.js");
      return {
        toResponses: (chat, options) => chatCompletionToResponse({ ...options, completion: chat as never }),
        toChat: (responses, options) => responseToChatCompletion({ ...options, response: responses as never }),
        specErrors: (response) => specErrors("ResponseResource", response),
      };
    }
    default: {
      const unknownKind: never = kind;
      throw new Error(`no adapter for ${String(unknownKind)}`);
    }
  }
}

const ITEM_COMPONENTS: Record<string, string> = {
  function_call: "FunctionCallItemParam",
  function_call_output: "FunctionCallOutputItemParam",
  "message/user": "UserMessageItemParam",
  "message/system": "SystemMessageItemParam",
  "message/developer": "DeveloperMessageItemParam",
  "message/assistant": "AssistantMessageItemParam",
};

/**
 * An item's errors against `ItemParam`. `ItemParam` is a oneOf, whose errors list
 * every member; the errors shown are those of the member the item's type names.
 */
function itemSpecErrors(item: unknown): string[] {
  const errors = specErrors("ItemParam", item);
  if (errors.length === 0) return errors;
  const { type, role } = (item ?? {}) as { type?: unknown; role?: unknown };
  const component = ITEM_COMPONENTS[type === "message" ? `message/${String(role)}` : String(type)];
  const memberErrors = component ? specErrors(component, item) : [];
  return memberErrors.length > 0 ? memberErrors : errors;
}

// ---------------------------------------------------------------- the cases

const caseNames = existsSync(GOLDEN)
  ? readdirSync(GOLDEN, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()
  : [];
const loaded = caseNames.map((name) => {
  try {
    return loadCase(name);
  } catch (error) {
    return { name, error: error as Error };
  }
});
const cases = loaded.filter((golden): golden is GoldenCase => !("error" in golden));

describe("the golden folder", () => {
  test("holds at least 30 message-history cases", () => {
    expect(cases.filter((golden) => golden.kind === "messages").length).toBeGreaterThanOrEqual(30);
  });

  test("holds only cases whose files can be read", () => {
    const unreadable = loaded.flatMap((golden) => ("error" in golden ? [`${golden.name}: ${golden.error.message}`] : []));
    expect(unreadable).toEqual([]);
  });

  test("holds no file the runner does not read", () => {
    const unread = cases.flatMap((golden) => golden.files.filter((file) => !CASE_FILES.includes(file)).map((file) => `${golden.name}/${file}`));
    expect(unread).toEqual([]);
  });
});

describe.each(cases)("golden case $name", (golden) => {
  const toResponses = async (chat: unknown) => (await adapterFor(golden.kind)).toResponses(chat, golden.options.chat_to_responses);
  const toChat = async (responses: unknown) => (await adapterFor(golden.kind)).toChat(responses, golden.options.responses_to_chat);

  test("chat → responses gives responses.json", async () => {
    expect((await toResponses(golden.chat)).value).toStrictEqual(golden.responsesFromChat);
  });

  test("chat → responses reports the declared losses", async () => {
    expect(withoutNeutralFields((await toResponses(golden.chat)).losses)).toStrictEqual(golden.losses.chat_to_responses);
  });

  test("responses → chat gives chat.json", async () => {
    expect((await toChat(golden.responses)).value).toStrictEqual(golden.chatBack);
  });

  test("responses → chat reports the declared losses", async () => {
    expect((await toChat(golden.responses)).losses).toStrictEqual(golden.losses.responses_to_chat);
  });

  test("chat → responses → chat gives the chat back", async () => {
    const items = (await toResponses(golden.chat)).value;
    expect((await toChat(items)).value).toStrictEqual(golden.chatBack);
  });

  test("responses → chat → responses gives the responses back", async () => {
    const chat = (await toChat(golden.responses)).value;
    expect((await toResponses(chat)).value).toStrictEqual(golden.responsesBack);
  });

  test("what chat → responses emits validates against the Open Responses schema", async () => {
    const adapter = await adapterFor(golden.kind);
    expect(adapter.specErrors((await toResponses(golden.chat)).value)).toEqual(golden.specErrors);
  });

  test("every declared loss points into its source, and a synthesized response field into the output where it was written", () => {
    const pointsIn = (source: unknown, output: unknown) => (loss: { path: string; code: string }) =>
      resolve(loss.code === "synthesized" && (loss.path.startsWith("/usage/") || isSynthesizedItemId(loss)) ? output : source, tokensOf(loss.path)).found;
    const dangling = [
      ...golden.losses.chat_to_responses.filter((loss) => !pointsIn(golden.chat, golden.responsesFromChat)(loss)),
      ...golden.losses.responses_to_chat.filter((loss) => !pointsIn(golden.responses, golden.chatBack)(loss)),
    ];
    expect(dangling).toEqual([]);
  });
});
