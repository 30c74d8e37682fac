// Runs chat → items → chat on every Chat Completions history of the recordings in
// ../shared/corpus (the `messages` of each recorded request, and each recorded
// completion's message), expecting the history back up to the losses reported.
// "Up to" also covers the two rules that rewrite without losing: fields holding
// null or [] carry nothing and are not written back, and tool-only content
// (null, "" or absent) comes back as null. The corpus is not part of a clone, so
// without it these tests are skipped and say so.
//
// The cassettes are YAML, read with a YAML parser; what it reads is checked
// against each request's recorded content-length: the JSON must have that many bytes.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { parse as parseYaml } from "yaml";
import { itemsToMessages } from "../../../adapters/chat-completions/items-to-messages.js";
import { messagesToItems } from "../../../adapters/chat-completions/messages-to-items.js";
import type { ChatFinishReason, ChatMessage } from "../../../src/models/chat-completions.js";
import { withoutPaths } from "../../support/json-pointer.js";
import { specErrors } from "../../support/spec-validator.js";

const CORPUS = fileURLToPath(new URL("../../../../shared/corpus/", import.meta.url));
const present = existsSync(CORPUS);
if (!present) console.warn(`corpus-histories: ${CORPUS} is absent; the recorded histories are not run`);

interface History {
  label: string;
  messages: ChatMessage[];
  finishReason?: ChatFinishReason | null;
}

interface RecordedBody {
  label: string;
  contentLength: number;
  body: unknown;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

type Json = Record<string, unknown>;

function completionHistories(label: string, completion: Json): History[] {
  const choices = Array.isArray(completion.choices) ? (completion.choices as Json[]) : [];
  return choices.map((choice, index) => ({
    label: `${label} choice ${index}`,
    messages: [choice.message as ChatMessage],
    finishReason: choice.finish_reason as ChatFinishReason | null,
  }));
}

function readCorpus(): { histories: History[]; bodies: RecordedBody[] } {
  const histories: History[] = [];
  const bodies: RecordedBody[] = [];
  if (!present) return { histories, bodies };
  // The other envelopes' cassettes (providers/) and trace exports (traces/) hold no Chat history.
  const chatRecordings = readdirSync(CORPUS).filter((name) => name !== "providers" && name !== "traces" && statSync(join(CORPUS, name)).isDirectory());
  for (const path of chatRecordings.flatMap((name) => filesUnder(join(CORPUS, name)))) {
    const file = relative(CORPUS, path);
    if (path.endsWith(".yaml")) {
      const cassette = parseYaml(readFileSync(path, "utf8")) as { interactions: Array<{ request: Json; response: Json }> };
      cassette.interactions.forEach(({ request, response }, index) => {
        const label = `${file} #${index}`;
        const length = (request.headers as Json | undefined)?.["content-length"];
        if (Array.isArray(length)) bodies.push({ label, contentLength: Number(length[0]), body: request.parsed_body });
        if (!String(request.uri).endsWith("/chat/completions")) return;
        histories.push({ label: `${label} request`, messages: (request.parsed_body as Json).messages as ChatMessage[] });
        if (response.parsed_body) histories.push(...completionHistories(`${label} response`, response.parsed_body as Json));
      });
    } else if (path.endsWith(".json")) {
      const record = JSON.parse(readFileSync(path, "utf8")) as Json;
      if (record.object === "chat.completion") histories.push(...completionHistories(file, record));
    }
  }
  return { histories, bodies };
}

// ---------------------------------------------------------------- expected round trip

/** A message without the fields that carry nothing, as the converters write it back. */
function withoutEmptyFields(message: unknown): unknown {
  const kept: Json = {};
  const fields = message as Json;
  const toolOnly = Array.isArray(fields.tool_calls) && fields.tool_calls.length > 0;
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || (Array.isArray(value) && value.length === 0)) continue;
    if (key === "content" && value === "" && toolOnly) continue;
    kept[key] = value;
  }
  return kept;
}

// ---------------------------------------------------------------- the reader



// ---------------------------------------------------------------- the tests

const { histories, bodies } = readCorpus();

describe("corpus recordings", () => {
  test.skipIf(!present)(present ? "hold chat histories to run" : "skipped: ../shared/corpus is absent", () => {
    expect(histories.length).toBeGreaterThanOrEqual(7);
  });

  test.skipIf(!present).each(bodies.map((body) => [body.label, body] as const))("the reader reads %s to its recorded content-length", (_label, { body, contentLength }) => {
    expect(Buffer.byteLength(JSON.stringify(body))).toBe(contentLength);
  });
});

const labelled = histories.map((history) => [history.label, history] as const);

describe.skipIf(!present)("corpus chat histories", () => {
  test.each(labelled)("%s: chat → items → chat gives the history back, up to its losses", (_label, { messages, finishReason }) => {
    const converted = messagesToItems({ messages, finishReason });
    const back = itemsToMessages({ items: converted.value });
    const expected = (withoutPaths(messages, converted.losses) as unknown[]).map(withoutEmptyFields);
    expect(back.value.map(withoutEmptyFields)).toStrictEqual(expected);
  });

  test.each(labelled)("%s: the items validate against ItemParam", (_label, { messages, finishReason }) => {
    const items = messagesToItems({ messages, finishReason }).value;
    expect(items.flatMap((item, index) => specErrors("ItemParam", item).map((error) => `/${index}${error}`))).toEqual([]);
  });

  test.each(labelled)("%s: the way back, to DeepSeek's reasoning dialect, loses nothing", (_label, { messages, finishReason }) => {
    const items = messagesToItems({ messages, finishReason }).value;
    expect(itemsToMessages({ items, reasoningField: "reasoning_content" }).losses).toEqual([]);
  });
});
