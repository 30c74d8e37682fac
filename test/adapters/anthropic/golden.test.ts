// Runs every case of golden/anthropic/ (its README describes the files). The kind
// of a case is read from its files: a recorded stream (`stream.sse`,
// `events.jsonl`) is a stream case; otherwise the shape of anthropic.json says
// it: `type: "message"` a response, a `model` a request body, `{system?,
// messages}` a conversation.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { bodyToRequest } from "../../../adapters/anthropic/body-to-request.js";
import { itemsToMessages } from "../../../adapters/anthropic/items-to-messages.js";
import { messageToResponse } from "../../../adapters/anthropic/message-to-response.js";
import { messagesToItems } from "../../../adapters/anthropic/messages-to-items.js";
import { conversationSchema, messageSchema, requestBodySchema, streamEventSchema } from "../../../adapters/anthropic/models.js";
import { requestToBody } from "../../../adapters/anthropic/request-to-body.js";
import { responseToMessage } from "../../../adapters/anthropic/response-to-message.js";
import { AnthropicStreamAssembler, type AnthropicAssembledResponse } from "../../../adapters/anthropic/stream.js";
import { SseParser } from "../../../src/journal/sse.js";
import type { Converted, Loss } from "../../../src/models/loss.js";
import { resolve, tokensOf, withoutPaths } from "../../support/json-pointer.js";
import { specErrors } from "../../support/spec-validator.js";
import { streamRecordTests } from "../../support/stream-record-tests.js";
import { withoutNeutralFields } from "../../support/response-neutrals.js";

const GOLDEN = fileURLToPath(new URL("../../../golden/anthropic/", import.meta.url));
const CASE_FILES = [
  "anthropic.json",
  "items.json",
  "losses.json",
  "options.json",
  "anthropic-roundtrip.json",
  "items-roundtrip.json",
  "spec-errors.json",
  "stream.sse",
  "events.jsonl",
  "assembled.json",
  "message.json",
  "record.json",
];

type Direction = "anthropic_to_items" | "items_to_anthropic";
type Kind = "messages" | "request" | "response";
type Json = Record<string, unknown>;

interface Adapter {
  toItems(anthropic: unknown, options: Json): Converted<unknown>;
  toAnthropic(items: unknown, options: Json): Converted<unknown>;
  /** The Zod model anthropic.json follows. */
  model: z.ZodType;
  /** Errors of what anthropic → items gives against the project's copy of the spec; extension items and tools are not the spec's to judge. */
  specErrors(value: unknown): string[];
}

const ITEM_COMPONENTS: Record<string, string> = {
  function_call: "FunctionCallItemParam",
  function_call_output: "FunctionCallOutputItemParam",
  reasoning: "ReasoningItemParam",
  "message/user": "UserMessageItemParam",
  "message/system": "SystemMessageItemParam",
  "message/developer": "DeveloperMessageItemParam",
  "message/assistant": "AssistantMessageItemParam",
};

const isExtension = (value: unknown) => typeof (value as Json | null)?.type === "string" && ((value as Json).type as string).includes(":");
const portable = (values: unknown) => (Array.isArray(values) ? values.filter((value) => !isExtension(value)) : values);

function itemSpecErrors(items: unknown[]): string[] {
  return items.flatMap((item, index) => {
    if (isExtension(item)) return [];
    const { type, role } = item as Json;
    const component = ITEM_COMPONENTS[type === "message" ? `message/${String(role)}` : String(type)] ?? "ItemParam";
    return specErrors(component, item).map((error) => `/${index}${error}`);
  });
}

const ADAPTERS: Record<Kind, Adapter> = {
  messages: {
    toItems: (anthropic, options) => messagesToItems({ ...options, ...(anthropic as Json) } as never),
    toAnthropic: (items, options) => itemsToMessages({ ...options, items: items as never }),
    model: conversationSchema,
    specErrors: (items) => itemSpecErrors(items as unknown[]),
  },
  request: {
    toItems: (anthropic, options) => requestToBody({ ...options, request: anthropic as never }),
    toAnthropic: (body, options) => bodyToRequest({ ...options, body: body as never }),
    model: requestBodySchema,
    specErrors: (body) => {
      const fields = body as Json;
      const slugged = Object.keys(fields).filter((key) => key.includes(":"));
      const checked = { ...fields, input: portable(fields.input), tools: portable(fields.tools) };
      for (const key of slugged) delete (checked as Json)[key];
      if (fields.tools === undefined) delete (checked as Json).tools;
      return [...specErrors("CreateResponseBody", checked), ...itemSpecErrors(Array.isArray(fields.input) ? fields.input : []).map((error) => `/input${error}`)];
    },
  },
  response: {
    toItems: (anthropic, options) => messageToResponse({ ...options, message: anthropic as never }),
    toAnthropic: (response, options) => responseToMessage({ ...options, response: response as never }),
    model: messageSchema,
    specErrors: (response) => specErrors("ResponseResource", { ...(response as Json), output: portable((response as Json).output) }),
  },
};

function readJson(dir: string, file: string): unknown {
  return JSON.parse(readFileSync(join(dir, file), "utf8"));
}

function kindOf(anthropic: unknown): Kind {
  const fields = (anthropic ?? {}) as Json;
  if (fields.type === "message") return "response";
  if ("model" in fields || "max_tokens" in fields) return "request";
  if (Array.isArray(fields.messages)) return "messages";
  throw new Error("anthropic.json is neither a conversation, a request body nor a response");
}

interface GoldenCase {
  name: string;
  kind: Kind;
  anthropic: unknown;
  items: unknown;
  losses: Record<Direction, Loss[]>;
  options: Record<Direction, Json>;
  /** What anthropic → items gives. */
  itemsFromAnthropic: unknown;
  /** What items → anthropic gives. */
  anthropicFromItems: unknown;
  /** What anthropic → items → anthropic gives. */
  anthropicBack: unknown;
  /** What items → anthropic → items gives. */
  itemsBack: unknown;
  specErrors: string[];
}

interface StreamCase {
  name: string;
  /** Each event with the journal line it starts on. */
  events: Array<{ line: number; event: unknown }>;
  assembled: unknown;
  message?: unknown;
  record: unknown;
}

/** Codes of losses that drop what they point at: a round trip gives the source back less those paths. */
const DROPPING = new Set<Loss["code"]>(["unsupported_field", "unsupported_item", "unsupported_part", "unsupported_tool", "unsupported_tool_call", "provider_extension"]);
const dropped = (losses: readonly Loss[]) => losses.filter((loss) => DROPPING.has(loss.code));

function loadCase(name: string, dir: string, files: string[]): GoldenCase {
  const optional = (file: string) => (files.includes(file) ? readJson(dir, file) : undefined);
  const anthropic = readJson(dir, "anthropic.json");
  const items = readJson(dir, "items.json");
  const losses = (optional("losses.json") ?? {}) as Partial<Record<Direction, Loss[]>>;
  const options = (optional("options.json") ?? {}) as Partial<Record<Direction, Json>>;
  const declared = { anthropic_to_items: losses.anthropic_to_items ?? [], items_to_anthropic: losses.items_to_anthropic ?? [] };
  const anthropicBack = optional("anthropic-roundtrip.json") ?? withoutPaths(anthropic, dropped(declared.anthropic_to_items));
  const itemsBack = optional("items-roundtrip.json") ?? withoutPaths(items, dropped(declared.items_to_anthropic));
  // items.json is the source when only the items' round trip has a file of its
  // own: anthropic.json is then exactly what it converts to.
  const itemsAreSource = files.includes("items-roundtrip.json") && !files.includes("anthropic-roundtrip.json");
  return {
    name,
    kind: kindOf(anthropic),
    anthropic,
    items,
    losses: declared,
    options: { anthropic_to_items: options.anthropic_to_items ?? {}, items_to_anthropic: options.items_to_anthropic ?? {} },
    itemsFromAnthropic: itemsAreSource ? itemsBack : items,
    anthropicFromItems: itemsAreSource ? anthropic : anthropicBack,
    anthropicBack: itemsAreSource ? anthropic : anthropicBack,
    itemsBack,
    specErrors: (optional("spec-errors.json") ?? []) as string[],
  };
}

function loadStream(name: string, dir: string, files: string[]): StreamCase {
  const events: StreamCase["events"] = [];
  if (files.includes("stream.sse")) {
    const parser = new SseParser();
    const lines = readFileSync(join(dir, "stream.sse"), "utf8").split("\n");
    lines.forEach((line, index) => parser.push(line, index + 1).forEach((event) => events.push({ line: event.line, event: JSON.parse(event.data) })));
    parser.finish().forEach((event) => events.push({ line: event.line, event: JSON.parse(event.data) }));
  } else {
    readFileSync(join(dir, "events.jsonl"), "utf8").split("\n").forEach((line, index) => {
      if (line.trim() !== "") events.push({ line: index + 1, event: JSON.parse(line) });
    });
  }
  return { name, events, assembled: readJson(dir, "assembled.json"), message: files.includes("message.json") ? readJson(dir, "message.json") : undefined, record: readJson(dir, "record.json") };
}

function assemble(events: StreamCase["events"]): AnthropicAssembledResponse[] {
  const assembler = new AnthropicStreamAssembler({ message: true });
  return [...events.flatMap(({ line, event }) => assembler.push(event, line)), ...assembler.finish()];
}

// ---------------------------------------------------------------- the cases

const names = existsSync(GOLDEN) ? readdirSync(GOLDEN, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort() : [];
const loaded = names.map((name) => {
  const dir = join(GOLDEN, name);
  const files = readdirSync(dir);
  try {
    const stream = files.includes("stream.sse") || files.includes("events.jsonl");
    return { name, files, stream, value: stream ? loadStream(name, dir, files) : loadCase(name, dir, files) };
  } catch (error) {
    return { name, files, stream: false, error: error as Error };
  }
});
const cases = loaded.flatMap((golden) => ("value" in golden && !golden.stream ? [golden.value as GoldenCase] : []));
const streams = loaded.flatMap((golden) => ("value" in golden && golden.stream ? [golden.value as StreamCase] : []));

describe("the golden folder", () => {
  test("holds cases of every kind", () => {
    expect(new Set(cases.map((golden) => golden.kind))).toEqual(new Set(["messages", "request", "response"]));
    expect(streams.length).toBeGreaterThanOrEqual(5);
  });

  test("holds only cases whose files can be read", () => {
    expect(loaded.flatMap((golden) => ("error" in golden ? [`${golden.name}: ${golden.error?.message}`] : []))).toEqual([]);
  });

  test("holds no file the runner does not read", () => {
    expect(loaded.flatMap((golden) => golden.files.filter((file) => !CASE_FILES.includes(file)).map((file) => `${golden.name}/${file}`))).toEqual([]);
  });
});

describe.each(cases)("golden case $name", (golden) => {
  const adapter = ADAPTERS[golden.kind];
  const toItems = (anthropic: unknown) => adapter.toItems(anthropic, golden.options.anthropic_to_items);
  const toAnthropic = (items: unknown) => adapter.toAnthropic(items, golden.options.items_to_anthropic);

  test("anthropic.json follows the Anthropic model", () => {
    expect(adapter.model.safeParse(golden.anthropic).error?.issues ?? []).toEqual([]);
  });

  test("anthropic → items gives items.json", () => {
    expect(toItems(golden.anthropic).value).toStrictEqual(golden.itemsFromAnthropic);
  });

  test("anthropic → items reports the declared losses", () => {
    expect(withoutNeutralFields(toItems(golden.anthropic).losses)).toStrictEqual(golden.losses.anthropic_to_items);
  });

  test("items → anthropic gives anthropic.json", () => {
    expect(toAnthropic(golden.items).value).toStrictEqual(golden.anthropicFromItems);
  });

  test("items → anthropic reports the declared losses", () => {
    expect(toAnthropic(golden.items).losses).toStrictEqual(golden.losses.items_to_anthropic);
  });

  test("anthropic → items → anthropic gives anthropic.json back", () => {
    expect(toAnthropic(toItems(golden.anthropic).value).value).toStrictEqual(golden.anthropicBack);
  });

  test("items → anthropic → items gives items.json back", () => {
    expect(toItems(toAnthropic(golden.items).value).value).toStrictEqual(golden.itemsBack);
  });

  test("what anthropic → items gives validates against the Open Responses schema", () => {
    expect(adapter.specErrors(toItems(golden.anthropic).value)).toEqual(golden.specErrors);
  });

  test("every declared loss points into its source, a synthesized value into what it was written in", () => {
    const dangling = [
      ...golden.losses.anthropic_to_items.filter((loss) => !resolve(golden.anthropic, tokensOf(loss.path)).found && !(loss.code === "synthesized" && resolve(golden.items, tokensOf(loss.path)).found)),
      ...golden.losses.items_to_anthropic.filter((loss) => !resolve(golden.items, tokensOf(loss.path)).found),
    ];
    expect(dangling).toEqual([]);
  });
});

describe.each(streams)("golden stream $name", (golden) => {
  test("every event follows the Anthropic model", () => {
    const failing = golden.events.filter(({ event }) => !streamEventSchema.safeParse(event).success).map(({ line }) => line);
    expect(failing).toEqual([]);
  });

  streamRecordTests(golden, assemble);

  test.skipIf(golden.message === undefined)("the message each response amounts to is message.json", () => {
    expect(assemble(golden.events).map((response) => response.message)).toStrictEqual(golden.message);
  });

  test("a finished response and the message it amounts to give the same items, arguments compared as JSON", () => {
    const normalized = (items: unknown[]) => items.map((item) => ((item as Json).type === "function_call" ? { ...(item as Json), arguments: JSON.parse((item as Json).arguments as string) } : item));
    for (const response of assemble(golden.events).filter((response) => response.status === "completed")) {
      const twin = response.message!;
      const items = messagesToItems({ messages: [{ role: "assistant", content: twin.content }], model: twin.model, stopReason: twin.stop_reason }).value;
      expect(normalized(items)).toEqual(normalized(response.items));
    }
  });

  test("the items validate against the Open Responses schema", () => {
    expect(assemble(golden.events).flatMap((response) => itemSpecErrors(response.items))).toEqual([]);
  });

  test("every loss points into the event on its line", () => {
    const byLine = new Map(golden.events.map(({ line, event }) => [line, event]));
    const dangling = assemble(golden.events).flatMap((response) => response.losses.filter((loss) => !byLine.has(loss.line) || !resolve(byLine.get(loss.line), tokensOf(loss.path)).found));
    expect(dangling).toEqual([]);
  });
});
