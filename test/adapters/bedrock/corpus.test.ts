// Runs the Bedrock converters on every recording in
// ../shared/corpus/providers/bedrock/: each recorded request body and Converse
// response goes to the canonical form and back, and each recorded
// ConverseStream (AWS event-stream bytes, base64 in the cassette) is decoded
// frame by frame, CRCs checked, assembled, and its response goes the same way.
// What comes back is the record less the paths its losses drop; texts, tool
// names, call ids, inputs, signatures and redacted content come back whole. The
// corpus is not part of a clone, so without it these tests are skipped and say so.
//
// The cassettes are YAML, read with a YAML parser; a request body is the JSON
// text boto3 sent, checked against its recorded content-length.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { parse as parseYaml } from "yaml";
import { bodyToRequest } from "../../../adapters/bedrock/body-to-request.js";
import { converseToResponse } from "../../../adapters/bedrock/converse-to-response.js";
import { decodeEventStream, eventOfFrame } from "../../../adapters/bedrock/event-stream.js";
import { messagesToItems } from "../../../adapters/bedrock/messages-to-items.js";
import { requestBodySchema, responseSchema, streamEventSchema } from "../../../adapters/bedrock/models.js";
import { isBedrockRequestBody, isBedrockResponse, isBedrockStreamEvent } from "../../../adapters/bedrock/recognise.js";
import { requestToBody } from "../../../adapters/bedrock/request-to-body.js";
import { responseToConverse } from "../../../adapters/bedrock/response-to-converse.js";
import { BedrockStreamAssembler, type BedrockAssembledResponse } from "../../../adapters/bedrock/stream.js";
import type { Loss } from "../../../src/models/loss.js";
import type { CanonicalItem } from "../../../src/models/open-responses.js";
import { withoutPaths } from "../../support/json-pointer.js";
import { specErrors } from "../../support/spec-validator.js";

const CORPUS = fileURLToPath(new URL("../../../../shared/corpus/providers/bedrock/", import.meta.url));
const present = existsSync(CORPUS);
if (!present) console.warn(`bedrock corpus: ${CORPUS} is absent; the recorded Bedrock traffic is not run`);

type Json = Record<string, unknown>;

interface Recorded<T> {
  label: string;
  value: T;
  /** The model id, from the request URL: Bedrock bodies do not name it. */
  model: string;
}

interface Stream {
  label: string;
  model: string;
  /** Each event with its frame's rank, from 1, standing for the line a JSON-lines journal would give it. */
  events: Array<{ line: number; event: unknown }>;
  /** Bytes after the last whole frame. */
  rest: number;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function modelOf(uri: unknown): string {
  const match = /\/model\/([^/]+)\/converse/.exec(String(uri));
  return match ? decodeURIComponent(match[1]) : "";
}

function readCorpus() {
  const files: string[] = [];
  const requests: Array<Recorded<Json> & { sent: string; contentLength?: number }> = [];
  const responses: Array<Recorded<Json>> = [];
  const streams: Stream[] = [];
  if (!present) return { files, requests, responses, streams };
  for (const path of filesUnder(CORPUS).filter((file) => file.endsWith(".yaml"))) {
    const file = relative(CORPUS, path);
    files.push(file);
    const cassette = parseYaml(readFileSync(path, "utf8")) as { interactions: Array<{ request: Json; response: Json }> };
    cassette.interactions.forEach(({ request, response }, index) => {
      const label = `${file} #${index}`;
      const model = modelOf(request.uri);
      const headers = (request.headers ?? {}) as Json;
      const length = headers["content-length"] ?? headers["Content-Length"];
      const sent = String(request.body);
      requests.push({ label, model, value: JSON.parse(sent) as Json, sent, contentLength: Array.isArray(length) ? Number(length[0]) : undefined });
      const body = response.body as Json | undefined;
      if (response.parsed_body) responses.push({ label, model, value: response.parsed_body as Json });
      else if (body?.string !== undefined) {
        // The YAML parser gives a `!!binary` block as bytes; a plain string would be its base64.
        const raw = body.string;
        const bytes = raw instanceof Uint8Array ? raw : Buffer.from(String(raw), "base64");
        const decoded = decodeEventStream({ bytes });
        streams.push({ label, model, events: decoded.frames.map((frame, rank) => ({ line: rank + 1, event: eventOfFrame(frame) })), rest: decoded.rest });
      }
    });
  }
  return { files, requests, responses, streams };
}

// ---------------------------------------------------------------- what must come back

/** The texts, tool names, call ids, inputs and opaque values of a Bedrock record, in order. */
function essentials(value: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    const fields = node as Json;
    if (typeof fields.text === "string") found.push(`text ${fields.text}`);
    if (typeof fields.toolUseId === "string") found.push(`${"input" in fields ? "call" : "result"} ${fields.toolUseId} ${String(fields.name)} ${JSON.stringify(fields.input)}`);
    if (typeof fields.signature === "string") found.push(`signature ${fields.signature}`);
    if (typeof fields.redactedContent === "string") found.push(`redacted ${fields.redactedContent}`);
    if (typeof fields.bytes === "string") found.push(`bytes ${fields.bytes}`);
    if (fields.json !== undefined && !("inputSchema" in fields)) found.push(`json ${JSON.stringify(fields.json)}`);
    if (typeof fields.name === "string" && isRecordLike(fields.inputSchema)) found.push(`tool ${fields.name}`);
    // Members in name order: where a key stands in its object is not what must survive.
    Object.keys(fields).sort().forEach((key) => walk(fields[key]));
  };
  walk(value);
  return found;
}

function isRecordLike(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const DROPPING = new Set<Loss["code"]>(["unsupported_field", "unsupported_item", "unsupported_part", "unsupported_tool", "unsupported_tool_call", "provider_extension"]);
const lessDropped = (record: unknown, losses: readonly Loss[]) => withoutPaths(record, losses.filter((loss) => DROPPING.has(loss.code)));

function assemble(stream: Stream): BedrockAssembledResponse[] {
  const assembler = new BedrockStreamAssembler({ message: true, model: stream.model });
  return [...stream.events.flatMap(({ line, event }) => assembler.push(event, line)), ...assembler.finish()];
}

const portableItemErrors = (items: readonly CanonicalItem[]) =>
  items.flatMap((item, index) => (String(item.type).includes(":") ? [] : specErrors("ItemParam", item).map((error) => `/${index}${error}`)));

// ---------------------------------------------------------------- the tests

const { files, requests, responses, streams } = readCorpus();
const label = <T extends { label: string }>(records: T[]) => records.map((record) => [record.label, record] as const);

describe("the Bedrock recordings", () => {
  test.skipIf(!present)(
    present ? `are read: ${files.length} files, ${requests.length} request bodies, ${responses.length} responses, ${streams.length} streams of ${streams.reduce((sum, stream) => sum + stream.events.length, 0)} events` : "skipped: ../shared/corpus is absent",
    () => {
      expect(files.length).toBeGreaterThanOrEqual(10);
      expect(requests.length).toBe(responses.length + streams.length);
      expect(responses.length + streams.length).toBeGreaterThanOrEqual(16);
    },
  );

  test.skipIf(!present).each(label(requests.filter((request) => request.contentLength !== undefined)))("%s: the request text has its recorded content-length", (_label, { sent, contentLength }) => {
    expect(Buffer.byteLength(sent)).toBe(contentLength);
  });
});

describe.skipIf(!present)("recorded request bodies", () => {
  test.each(label(requests))("%s is recognised and follows the Bedrock model", (_label, { value }) => {
    expect(isBedrockRequestBody(value)).toBe(true);
    expect(requestBodySchema.safeParse(value).error?.issues ?? []).toEqual([]);
  });

  test.each(label(requests))("%s: bedrock → body → bedrock gives it back, less what its losses drop", (_label, { value }) => {
    const body = requestToBody({ request: value as never });
    const back = bodyToRequest({ body: body.value });
    expect(back.value).toStrictEqual(lessDropped(value, body.losses));
    expect(back.losses).toEqual([]);
  });

  test.each(label(requests))("%s: texts, tools, call ids, inputs, signatures and bytes come back", (_label, { value }) => {
    const back = bodyToRequest({ body: requestToBody({ request: value as never }).value }).value;
    expect(essentials(back)).toEqual(essentials(value));
  });

  test.each(label(requests))("%s: its items validate against ItemParam, extension items aside", (_label, { value }) => {
    const input = requestToBody({ request: value as never }).value.input as CanonicalItem[];
    expect(portableItemErrors(input)).toEqual([]);
  });
});

describe.skipIf(!present)("recorded responses", () => {
  test.each(label(responses))("%s is recognised and follows the Bedrock model", (_label, { value }) => {
    expect(isBedrockResponse(value)).toBe(true);
    expect(responseSchema.safeParse(value).error?.issues ?? []).toEqual([]);
  });

  test.each(label(responses))("%s: bedrock → response object → bedrock gives it back, less what its losses drop", (_label, { value, model }) => {
    const response = converseToResponse({ response: value as never, model });
    const back = responseToConverse({ response: response.value, model });
    expect(back.value).toStrictEqual(lessDropped(value, response.losses));
    expect(back.losses).toEqual([]);
    expect(essentials(back.value)).toEqual(essentials(value));
  });

  test.each(label(responses))("%s: the response object validates against ResponseResource, extension items aside", (_label, { value, model }) => {
    const response = converseToResponse({ response: value as never, model }).value;
    expect(specErrors("ResponseResource", { ...response, output: response.output.filter((item) => !String(item.type).includes(":")) })).toEqual([]);
  });
});

describe.skipIf(!present)("recorded streams", () => {
  test.each(label(streams))("%s: every frame is whole, and every event is recognised and follows the Bedrock model", (_label, stream) => {
    expect(stream.rest).toBe(0);
    expect(stream.events.filter(({ event }) => !isBedrockStreamEvent(event) || !streamEventSchema.safeParse(event).success).map(({ line }) => line)).toEqual([]);
  });

  test.each(label(streams))("%s: assembles to one completed response, nothing lost but the response's own fields (usage, metrics) left behind where they were said, every call completed", (_label, stream) => {
    const assembled = assemble(stream);
    expect(assembled.map((response) => response.status)).toEqual(["completed"]);
    const lines = new Map(stream.events.map(({ line, event }) => [line, event as Record<string, Record<string, unknown>>]));
    for (const loss of assembled[0].losses) {
      expect(loss).toMatchObject({ code: "left_behind", path: expect.stringMatching(/^\/(metadata|messageStop)\/[A-Za-z]+$/) });
      const [, event, field] = loss.path.split("/");
      expect(lines.get(loss.line)?.[event!]?.[field!]).toBeDefined();
    }
    expect(assembled[0].losses.map((loss) => loss.path.split("/")[2])).toContain("usage");
    const statuses = assembled[0].items.flatMap((item) => (item.type === "function_call" ? [item.status] : []));
    expect(statuses.every((status) => status === "completed")).toBe(true);
  });

  test.each(label(streams))("%s: its response gives the stream's items, arguments compared as JSON", (_label, stream) => {
    const [response] = assemble(stream);
    const twin = response.message!;
    const asJson = (items: readonly CanonicalItem[]) => items.map((item) => (item.type === "function_call" ? { ...item, arguments: JSON.parse(item.arguments) } : item));
    expect(asJson(messagesToItems({ messages: [twin.output.message], model: stream.model, stopReason: twin.stopReason }).value)).toEqual(asJson(response.items));
  });

  test.each(label(streams))("%s: its response goes to a response object and back whole", (_label, stream) => {
    const twin = assemble(stream)[0].message!;
    const response = converseToResponse({ response: twin, model: stream.model });
    const back = responseToConverse({ response: response.value });
    expect(back.value).toStrictEqual(lessDropped(twin, response.losses));
    expect(essentials(back.value)).toEqual(essentials(twin));
  });

  test.each(label(streams))("%s: the streamed texts, arguments and signatures are those of its events", (_label, stream) => {
    const [response] = assemble(stream);
    const streamed = { text: "", reasoning: "", signatures: [] as string[] };
    const calls = new Map<number, { start: Json; json: string }>();
    for (const { event } of stream.events as Array<{ event: Json }>) {
      const start = event.contentBlockStart as Json | undefined;
      const delta = ((event.contentBlockDelta as Json | undefined)?.delta ?? {}) as Json;
      const index = ((event.contentBlockDelta ?? event.contentBlockStart ?? {}) as Json).contentBlockIndex as number;
      if (start && isRecordLike((start.start as Json).toolUse)) calls.set(index, { start: (start.start as Json).toolUse as Json, json: "" });
      if (typeof delta.text === "string") streamed.text += delta.text;
      const reasoning = (delta.reasoningContent ?? {}) as Json;
      if (typeof reasoning.text === "string") streamed.reasoning += reasoning.text;
      if (typeof reasoning.signature === "string") streamed.signatures.push(reasoning.signature);
      if (isRecordLike(delta.toolUse)) calls.get(index)!.json += String((delta.toolUse as Json).input);
    }
    const items = response.items as Json[];
    const ofType = (type: string) => items.filter((item) => item.type === type);
    const texts = ofType("message").map((item) => (typeof item.content === "string" ? item.content : (item.content as Json[]).map((part) => String(part.text)).join("")));
    expect(texts.join("")).toBe(streamed.text);
    expect(ofType("reasoning").flatMap((item) => (item.summary as Json[]).map((part) => String(part.text))).join("")).toBe(streamed.reasoning);
    expect(ofType("reasoning").map((item) => item.encrypted_content)).toEqual(streamed.signatures);
    expect(ofType("function_call").map((item) => [item.call_id, item.name, item.arguments])).toEqual([...calls.values()].map(({ start, json }) => [start.toolUseId, start.name, json]));
  });
});
