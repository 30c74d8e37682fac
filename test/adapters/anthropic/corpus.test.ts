// Runs the Anthropic converters on every recording in
// ../shared/corpus/providers/anthropic/: each recorded request body and response
// goes to the canonical form and back, and each recorded stream is assembled and
// its message goes the same way. What comes back is the record less the paths
// its losses drop; texts, tool names, call ids, argument values and signatures
// come back whole. The corpus is not part of a clone, so without it these tests
// are skipped and say so.
//
// The cassettes are YAML, read with a YAML parser. A request Mirascope stored
// as the JSON text sent is checked against its recorded content-length;
// pydantic-ai stores the parsed body, whose bytes are not the ones sent.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { parse as parseYaml } from "yaml";
import { bodyToRequest } from "../../../adapters/anthropic/body-to-request.js";
import { messageToResponse } from "../../../adapters/anthropic/message-to-response.js";
import { messagesToItems } from "../../../adapters/anthropic/messages-to-items.js";
import { messageSchema, requestBodySchema, streamEventSchema } from "../../../adapters/anthropic/models.js";
import { isAnthropicRequestBody, isAnthropicResponse, isAnthropicStreamEvent } from "../../../adapters/anthropic/recognise.js";
import { requestToBody } from "../../../adapters/anthropic/request-to-body.js";
import { responseToMessage } from "../../../adapters/anthropic/response-to-message.js";
import { AnthropicStreamAssembler, type AnthropicAssembledResponse } from "../../../adapters/anthropic/stream.js";
import { SseParser } from "../../../src/journal/sse.js";
import type { Loss } from "../../../src/models/loss.js";
import type { CanonicalItem } from "../../../src/models/open-responses.js";
import { withoutPaths } from "../../support/json-pointer.js";
import { specErrors } from "../../support/spec-validator.js";

const CORPUS = fileURLToPath(new URL("../../../../shared/corpus/providers/anthropic/", import.meta.url));
const present = existsSync(CORPUS);
if (!present) console.warn(`anthropic corpus: ${CORPUS} is absent; the recorded Anthropic traffic is not run`);

type Json = Record<string, unknown>;

interface Recorded<T> {
  label: string;
  value: T;
}

interface Stream {
  label: string;
  /** Each event with the line it starts on in the recorded text. */
  events: Array<{ line: number; event: unknown }>;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function sseEvents(text: string): Stream["events"] {
  const parser = new SseParser();
  const events: Stream["events"] = [];
  const take = (found: ReturnType<SseParser["push"]>) => found.forEach((event) => events.push({ line: event.line, event: JSON.parse(event.data) }));
  text.split("\n").forEach((line, index) => take(parser.push(line, index + 1)));
  take(parser.finish());
  return events;
}

function readCorpus() {
  const files: string[] = [];
  const requests: Array<Recorded<Json> & { sent?: string; contentLength?: number }> = [];
  const responses: Array<Recorded<Json>> = [];
  const streams: Stream[] = [];
  if (!present) return { files, requests, responses, streams };
  for (const path of filesUnder(CORPUS).filter((file) => !file.endsWith(".md"))) {
    const file = relative(CORPUS, path);
    files.push(file);
    const text = readFileSync(path, "utf8");
    if (path.endsWith(".yaml")) {
      const cassette = parseYaml(text) as { interactions: Array<{ request: Json; response: Json }> };
      cassette.interactions.forEach(({ request, response }, index) => {
        const label = `${file} #${index}`;
        const length = (request.headers as Json | undefined)?.["content-length"];
        if (typeof request.body === "string") {
          requests.push({ label, value: JSON.parse(request.body) as Json, sent: request.body, contentLength: Array.isArray(length) ? Number(length[0]) : undefined });
        } else requests.push({ label, value: request.parsed_body as Json });
        const body = response.body as Json | undefined;
        if (response.parsed_body) responses.push({ label, value: response.parsed_body as Json });
        else if (typeof body?.string === "string") streams.push({ label, events: sseEvents(body.string) });
      });
    } else {
      // One SSE data object per line, without event names (vercel/ai's chunk files).
      const events = text.split("\n").flatMap((line, index) => (line.trim() === "" ? [] : [{ line: index + 1, event: JSON.parse(line) as unknown }]));
      streams.push({ label: file, events });
    }
  }
  return { files, requests, responses, streams };
}

// ---------------------------------------------------------------- what must come back

/** The texts, tool names, call ids, inputs and opaque values of an Anthropic record, in order. */
function essentials(value: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    const fields = node as Json;
    switch (fields.type) {
      case "text":
        found.push(`text ${String(fields.text)}`);
        break;
      case "tool_use":
      case "server_tool_use":
        found.push(`call ${String(fields.id)} ${String(fields.name)} ${JSON.stringify(fields.input)}`);
        break;
      case "tool_result":
        found.push(`result ${String(fields.tool_use_id)}`);
        break;
      case "thinking":
        found.push(`thinking ${String(fields.thinking)} ${String(fields.signature)}`);
        break;
      case "redacted_thinking":
        found.push(`redacted ${String(fields.data)}`);
        break;
    }
    if (typeof fields.name === "string" && (fields.input_schema !== undefined || /_\d{8}$/.test(String(fields.type)))) found.push(`tool ${fields.name}`);
    // Members in name order: where a key stands in its object is not what must survive.
    Object.keys(fields).sort().forEach((key) => walk(fields[key]));
  };
  walk(value);
  if (typeof (value as Json).system === "string") found.push(`system ${String((value as Json).system)}`);
  return found;
}

const DROPPING = new Set<Loss["code"]>(["unsupported_field", "unsupported_item", "unsupported_part", "unsupported_tool", "unsupported_tool_call", "provider_extension"]);
const lessDropped = (record: unknown, losses: readonly Loss[]) => withoutPaths(record, losses.filter((loss) => DROPPING.has(loss.code)));

function assemble(events: Stream["events"]): AnthropicAssembledResponse[] {
  const assembler = new AnthropicStreamAssembler({ message: true });
  return [...events.flatMap(({ line, event }) => assembler.push(event, line)), ...assembler.finish()];
}

const portableItemErrors = (items: readonly CanonicalItem[]) =>
  items.flatMap((item, index) => (String(item.type).includes(":") ? [] : specErrors("ItemParam", item).map((error) => `/${index}${error}`)));

// ---------------------------------------------------------------- the tests

const corpus = readCorpus();
const { files, requests, responses, streams } = corpus;
const label = <T extends { label: string }>(records: T[]) => records.map((record) => [record.label, record] as const);

describe("the Anthropic recordings", () => {
  test.skipIf(!present)(
    present ? `are read: ${files.length} files, ${requests.length} request bodies, ${responses.length} responses, ${streams.length} streams of ${streams.reduce((sum, stream) => sum + stream.events.length, 0)} events` : "skipped: ../shared/corpus is absent",
    () => {
      expect(files.length).toBeGreaterThanOrEqual(14);
      expect(requests.length + responses.length + streams.length).toBeGreaterThanOrEqual(59);
    },
  );

  test.skipIf(!present).each(label(requests.filter((request) => request.sent !== undefined)))("%s: the request text has its recorded content-length", (_label, { sent, contentLength }) => {
    expect(Buffer.byteLength(sent!)).toBe(contentLength);
  });
});

describe.skipIf(!present)("recorded request bodies", () => {
  test("are recognised, but for the one a Chat body could be as well, left to Chat", () => {
    expect(requests.filter(({ value }) => !isAnthropicRequestBody(value)).map((request) => request.label)).toEqual(["mirascope-max-tokens-stream/stream.yaml #0"]);
  });

  test.each(label(requests))("%s follows the Anthropic model", (_label, { value }) => {
    expect(requestBodySchema.safeParse(value).error?.issues ?? []).toEqual([]);
  });

  test.each(label(requests))("%s: anthropic → body → anthropic gives it back, less what its losses drop", (_label, { value }) => {
    const body = requestToBody({ request: value as never });
    const back = bodyToRequest({ body: body.value });
    expect(back.value).toStrictEqual(lessDropped(value, body.losses));
    expect(back.losses).toEqual([]);
  });

  test.each(label(requests))("%s: texts, tools, call ids, inputs and signatures come back", (_label, { value }) => {
    const back = bodyToRequest({ body: requestToBody({ request: value as never }).value }).value;
    expect(essentials(back)).toEqual(essentials(value));
  });

  test.each(label(requests))("%s: its items validate against ItemParam, extension items aside", (_label, { value }) => {
    const input = requestToBody({ request: value as never }).value.input as CanonicalItem[];
    expect(portableItemErrors(input)).toEqual([]);
  });
});

describe.skipIf(!present)("recorded responses", () => {
  test.each(label(responses))("%s is recognised and follows the Anthropic model", (_label, { value }) => {
    expect(isAnthropicResponse(value)).toBe(true);
    expect(messageSchema.safeParse(value).error?.issues ?? []).toEqual([]);
  });

  test.each(label(responses))("%s: anthropic → response object → anthropic gives it back, less what its losses drop", (_label, { value }) => {
    const response = messageToResponse({ message: value as never });
    const back = responseToMessage({ response: response.value });
    expect(back.value).toStrictEqual(lessDropped(value, response.losses));
    expect(back.losses).toEqual([]);
    expect(essentials(back.value)).toEqual(essentials(value));
  });

  test.each(label(responses))("%s: the response object validates against ResponseResource, extension items aside", (_label, { value }) => {
    const response = messageToResponse({ message: value as never }).value;
    expect(specErrors("ResponseResource", { ...response, output: response.output.filter((item) => !String(item.type).includes(":")) })).toEqual([]);
  });
});

describe.skipIf(!present)("recorded streams", () => {
  test.each(label(streams))("%s: every event is recognised and follows the Anthropic model", (_label, { events }) => {
    expect(events.filter(({ event }) => !isAnthropicStreamEvent(event) || !streamEventSchema.safeParse(event).success).map(({ line }) => line)).toEqual([]);
  });

  test.each(label(streams))("%s: assembles to one completed response, nothing lost but the message's own fields, every call completed", (_label, { events }) => {
    const assembled = assemble(events);
    // A server tool's input is an object in its item: the spacing of its streamed text is said lost.
    const lost = (response: (typeof assembled)[number]) => response.losses.filter((loss) => loss.code !== "left_behind" && loss.path !== "/delta/partial_json");
    expect(assembled.map((response) => [response.status, lost(response)])).toEqual([[expect.stringMatching(/^(completed|incomplete)$/), []]]);
    expect(assembled[0].losses.filter((loss) => loss.code === "left_behind").map((loss) => loss.path)).toEqual(expect.arrayContaining(["/message/id", "/message/model", "/message/usage", "/delta/stop_reason", "/usage"]));
    const statuses = assembled[0].items.flatMap((item) => (item.type === "function_call" ? [item.status] : []));
    expect(statuses.every((status) => status === "completed")).toBe(true);
  });

  test.each(label(streams))("%s: its message gives the stream's items, arguments compared as JSON", (_label, { events }) => {
    const [response] = assemble(events);
    const twin = response.message!;
    const asJson = (items: readonly CanonicalItem[]) => items.map((item) => (item.type === "function_call" ? { ...item, arguments: JSON.parse(item.arguments) } : item));
    expect(asJson(messagesToItems({ messages: [{ role: "assistant", content: twin.content }], model: twin.model, stopReason: twin.stop_reason }).value)).toEqual(asJson(response.items));
  });

  test.each(label(streams))("%s: its message goes to a response object and back whole", (_label, { events }) => {
    const twin = assemble(events)[0].message!;
    const response = messageToResponse({ message: twin });
    const back = responseToMessage({ response: response.value });
    expect(back.value).toStrictEqual(lessDropped(twin, response.losses));
    expect(essentials(back.value)).toEqual(essentials(twin));
  });

  test.each(label(streams))("%s: the streamed texts, arguments and signatures are those of its events", (_label, { events }) => {
    const [response] = assemble(events);
    const streamed = { text: "", thinking: "", signatures: [] as string[] };
    const blocks = new Map<number, { block: Json; json: string }>();
    for (const { event } of events as Array<{ event: Json }>) {
      const delta = (event.delta ?? {}) as Json;
      if (event.type === "content_block_start") blocks.set(event.index as number, { block: event.content_block as Json, json: "" });
      if (delta.type === "text_delta") streamed.text += String(delta.text);
      if (delta.type === "thinking_delta") streamed.thinking += String(delta.thinking);
      if (delta.type === "signature_delta") streamed.signatures.push(String(delta.signature));
      if (delta.type === "input_json_delta") blocks.get(event.index as number)!.json += String(delta.partial_json);
    }
    const calls = [...blocks.values()].filter(({ block }) => block.type === "tool_use");
    const serverCalls = [...blocks.values()].filter(({ block }) => block.type === "server_tool_use");
    const items = response.items as Json[];
    const ofType = (type: string) => items.filter((item) => item.type === type);
    expect(ofType("message").flatMap((item) => (item.content as Json[]).map((part) => String(part.text))).join("")).toBe(streamed.text);
    expect(ofType("reasoning").flatMap((item) => (item.summary as Json[]).map((part) => String(part.text))).join("")).toBe(streamed.thinking);
    expect(ofType("reasoning").map((item) => item.encrypted_content)).toEqual(streamed.signatures);
    expect(ofType("function_call").map((item) => [item.call_id, item.name, item.arguments])).toEqual(
      calls.map(({ block, json }) => [block.id, block.name, json === "" ? JSON.stringify(block.input) : json]),
    );
    expect(ofType("anthropic:server_tool_use").map((item) => item.input)).toEqual(serverCalls.map(({ block, json }) => (json === "" ? block.input : JSON.parse(json))));
  });
});
