// Runs the Gemini converters on every recording in
// ../shared/corpus/providers/gemini/: each recorded request body and response
// goes to the canonical form and back and comes back whole (thought signatures
// byte for byte, snake_case written as it was read), and each recorded stream is
// assembled into the response its chunks amount to. The corpus is not part of a
// clone, so without it these tests are skipped and say so.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { parse as parseYaml } from "yaml";
import { bodyToRequest } from "../../../adapters/gemini/body-to-request.js";
import { generateContentToResponse } from "../../../adapters/gemini/generate-content-to-response.js";
import { requestBodySchema, responseSchema, streamChunkSchema } from "../../../adapters/gemini/models.js";
import { isGeminiRequestBody, isGeminiResponse, isGeminiStreamChunk } from "../../../adapters/gemini/recognise.js";
import { requestToBody } from "../../../adapters/gemini/request-to-body.js";
import { responseToGenerateContent } from "../../../adapters/gemini/response-to-generate-content.js";
import { GeminiStreamAssembler, type GeminiAssembledResponse } from "../../../adapters/gemini/stream.js";
import type { CanonicalItem } from "../../../src/models/open-responses.js";
import { specErrors } from "../../support/spec-validator.js";

const CORPUS = fileURLToPath(new URL("../../../../shared/corpus/providers/gemini/", import.meta.url));
const present = existsSync(CORPUS);
if (!present) console.warn(`gemini corpus: ${CORPUS} is absent; the recorded Gemini traffic is not run`);

type Json = Record<string, unknown>;
interface Recorded {
  label: string;
  value: Json;
}
interface Stream {
  label: string;
  chunks: Array<{ line: number; chunk: Json }>;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** `data:` lines of an SSE text, each with its line number. */
function sseChunks(text: string): Array<{ line: number; chunk: Json }> {
  return text.split(/\r?\n/).flatMap((line, index) => (line.startsWith("data:") ? [{ line: index + 1, chunk: JSON.parse(line.slice(5)) as Json }] : []));
}

const requests: Recorded[] = [];
const responses: Recorded[] = [];
const streams: Stream[] = [];
if (present) {
  for (const file of filesUnder(CORPUS)) {
    const name = relative(CORPUS, file);
    if (file.endsWith(".chunks.txt")) {
      const lines = readFileSync(file, "utf8").split("\n");
      streams.push({ label: name, chunks: lines.flatMap((line, index) => (line.trim() === "" ? [] : [{ line: index + 1, chunk: JSON.parse(line) as Json }])) });
    }
    if (!file.endsWith(".yaml")) continue;
    const cassette = parseYaml(readFileSync(file, "utf8")) as { interactions: Array<{ request: Json; response: Json }> };
    cassette.interactions.forEach(({ request, response }, index) => {
      const label = `${name} #${index}`;
      const body = (request.parsed_body ?? JSON.parse(String(request.body))) as Json;
      requests.push({ label, value: body });
      const text = (response.body as Json | undefined)?.string;
      if (response.parsed_body !== undefined) responses.push({ label, value: response.parsed_body as Json });
      else if (typeof text === "string" && /^\s*data:/m.test(text)) streams.push({ label, chunks: sseChunks(text) });
      else if (typeof text === "string") responses.push({ label, value: JSON.parse(text) as Json });
    });
  }
}

const label = <T extends { label: string }>(list: T[]) => list.map((entry) => [entry.label, entry] as const);

function specItemErrors(items: readonly CanonicalItem[]): string[] {
  return items.flatMap((item, index) => (String(item.type).includes(":") ? [] : specErrors("ItemParam", item).map((error) => `/${index}${error}`)));
}

function assemble(chunks: Stream["chunks"]): GeminiAssembledResponse[] {
  const assembler = new GeminiStreamAssembler({ response: true });
  return [...chunks.flatMap(({ line, chunk }) => assembler.push(chunk, line)), ...assembler.finish()];
}

describe("the Gemini recordings", () => {
  test.skipIf(!present)("hold 22 request bodies, 18 responses and 5 streams", () => {
    expect([requests.length, responses.length, streams.length]).toEqual([22, 18, 5]);
  });
});

describe.skipIf(!present)("recorded request bodies", () => {
  test.each(label(requests))("%s is recognised and follows the Gemini model", (_label, { value }) => {
    expect(isGeminiRequestBody(value)).toBe(true);
    expect(requestBodySchema.safeParse(value).error).toBeUndefined();
  });

  test.each(label(requests))("%s: gemini → body → gemini gives it back exactly", (_label, { value }) => {
    const body = requestToBody({ request: value });
    const back = bodyToRequest({ body: body.value });
    expect(back.value).toEqual(value);
    expect(back.losses).toEqual([]);
  });

  test.each(label(requests))("%s: every loss on the way in is a synthesized call id or a call without args, a thought flag or a result written as JSON text", (_label, { value }) => {
    const { losses } = requestToBody({ request: value });
    const expected = (loss: { code: string; path: string }) => loss.code === "synthesized" || (loss.code === "form_changed" && /\/(thought|function_?[rR]esponse\/response)$/.test(loss.path));
    expect(losses.filter((loss) => !expected(loss))).toEqual([]);
  });

  test.each(label(requests))("%s: its items validate against ItemParam, extension items aside", (_label, { value }) => {
    const body = requestToBody({ request: value });
    expect(specItemErrors(body.value.input as CanonicalItem[])).toEqual([]);
  });
});

describe.skipIf(!present)("recorded responses", () => {
  test.each(label(responses))("%s is recognised and follows the Gemini model", (_label, { value }) => {
    expect(isGeminiResponse(value)).toBe(true);
    expect(responseSchema.safeParse(value).error).toBeUndefined();
  });

  test.each(label(responses))("%s: gemini → response object → gemini gives it back exactly", (_label, { value }) => {
    const response = generateContentToResponse({ response: value });
    const back = responseToGenerateContent({ response: response.value });
    expect(back.value).toEqual(value);
    expect(back.losses).toEqual([]);
  });

  test.each(label(responses))("%s: the response object validates against ResponseResource, extension items aside", (_label, { value }) => {
    const { value: response } = generateContentToResponse({ response: value });
    expect(specErrors("ResponseResource", { ...response, output: response.output.filter((item) => !String(item.type).includes(":")) })).toEqual([]);
  });
});

describe.skipIf(!present)("recorded streams", () => {
  test.each(label(streams))("%s: every chunk is recognised and follows the Gemini model", (_label, { chunks }) => {
    expect(chunks.every(({ chunk }) => isGeminiStreamChunk(chunk))).toBe(true);
    expect(chunks.flatMap(({ line, chunk }) => (streamChunkSchema.safeParse(chunk).success ? [] : [line]))).toEqual([]);
  });

  test.each(label(streams))("%s: assembles to one completed response, every call completed; beside what it synthesized, only the response's own fields, the thought flags and the pieces of args are reported", (_label, { chunks }) => {
    const assembled = assemble(chunks);
    expect(assembled.map((response) => response.status)).toEqual(["completed"]);
    expect(assembled[0]!.items.filter((item) => item.type === "function_call").every((item) => (item as Json).status === "completed")).toBe(true);
    const expected = (loss: { code: string; path: string }) =>
      loss.code === "synthesized" || (loss.code === "left_behind" && /^\/([A-Za-z]+|candidates\/\d+\/[A-Za-z]+)$/.test(loss.path)) || (loss.code === "form_changed" && /\/(thought|partialArgs|willContinue)$/.test(loss.path));
    expect(assembled[0]!.losses.filter((loss) => !expected(loss))).toEqual([]);
  });

  test.each(label(streams))("%s: the streamed texts are those of its chunks, joined", (_label, { chunks }) => {
    const streamed = chunks.flatMap(({ chunk }) => ((chunk.candidates as Json[] | undefined) ?? []).flatMap((candidate) => (((candidate.content as Json | undefined)?.parts as Json[] | undefined) ?? []).flatMap((part) => (typeof part.text === "string" && part.thought !== true ? [part.text] : []))));
    const items = assemble(chunks)[0]!.items as Json[];
    const texts = items.flatMap((item) => (item.type === "message" ? (item.content as Json[]).map((part) => part.text as string) : []));
    expect(texts.join("")).toBe(streamed.join(""));
  });

  test.each(label(streams))("%s: the response it amounts to goes to a response object and back whole", (_label, { chunks }) => {
    const { response } = assemble(chunks)[0]!;
    const back = responseToGenerateContent({ response: generateContentToResponse({ response }).value });
    expect(back.value).toEqual(response);
  });
});

describe.skipIf(!present)("a stream with partial args", () => {
  test("the Vertex pieces give each call its whole arguments", () => {
    const stream = streams.find((entry) => entry.label.includes("partial-args"))!;
    const calls = (assemble(stream.chunks)[0]!.items as Json[]).filter((item) => item.type === "function_call").map((item) => [item.name, item.arguments]);
    expect(calls).toEqual([
      ["read_theme", "{}"],
      ["read_screen", '{"id":"A"}'],
      ["read_screen", '{"id":"B"}'],
      ["read_screen", '{"id":"C"}'],
    ]);
  });

  test("cut before its last piece, the call stays in_progress and is reported", () => {
    const stream = streams.find((entry) => entry.label.includes("partial-args"))!;
    const cut = stream.chunks.slice(0, 4);
    const [response] = assemble(cut);
    expect((response!.items as Json[]).filter((item) => item.type === "function_call").map((item) => [item.name, item.status])).toEqual([
      ["read_theme", "in_progress"],
      ["read_screen", "in_progress"],
    ]);
    expect(response!.losses.filter((loss) => loss.code === "form_changed" && !/\/(thought|partialArgs|willContinue)$/.test(loss.path)).map((loss) => [loss.line, loss.path])).toEqual([[3, "/candidates/0/content/parts/0"]]);
  });
});
