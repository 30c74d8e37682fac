// Runs every case of golden/gemini/ (its README describes the files). The kind
// of a case is read from its files: a recorded stream (`stream.sse`,
// `chunks.jsonl`) is a stream case; a case of items alone (`items.json` without
// `gemini.json` as its source, named `items-…`) goes items → gemini; otherwise
// the shape of gemini.json says it: `contents` a request body, `candidates` or
// `promptFeedback` a response.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { bodyToRequest } from "../../../adapters/gemini/body-to-request.js";
import { generateContentToResponse } from "../../../adapters/gemini/generate-content-to-response.js";
import { itemsToContents } from "../../../adapters/gemini/items-to-contents.js";
import { contentsToItems } from "../../../adapters/gemini/contents-to-items.js";
import { requestToBody } from "../../../adapters/gemini/request-to-body.js";
import { responseToGenerateContent } from "../../../adapters/gemini/response-to-generate-content.js";
import { GeminiStreamAssembler, type GeminiAssembledResponse } from "../../../adapters/gemini/stream.js";
import type { Converted } from "../../../src/models/loss.js";
import type { CanonicalItem } from "../../../src/models/open-responses.js";
import { replayGate } from "../../../src/gate/replay-gate.js";
import { withoutNeutralFields } from "../../support/response-neutrals.js";

const GOLDEN = fileURLToPath(new URL("../../../golden/gemini/", import.meta.url));
type Json = Record<string, unknown>;
type Kind = "request" | "response" | "items" | "stream";

const read = (name: string, file: string): unknown => JSON.parse(readFileSync(join(GOLDEN, name, file), "utf8"));
const has = (name: string, file: string) => existsSync(join(GOLDEN, name, file));

function kindOf(name: string): Kind {
  if (has(name, "stream.sse") || has(name, "chunks.jsonl")) return "stream";
  if (name.startsWith("items-")) return "items";
  return Array.isArray((read(name, "gemini.json") as Json).contents) ? "request" : "response";
}

export function geminiToItems(kind: Kind, gemini: unknown): Converted<unknown> {
  return kind === "request" ? requestToBody({ request: gemini }) : generateContentToResponse({ response: gemini });
}

export function itemsToGemini(kind: Kind, items: unknown): Converted<unknown> {
  if (kind === "request") return bodyToRequest({ body: items as never });
  if (kind === "response") return responseToGenerateContent({ response: items as never });
  return itemsToContents({ items: items as CanonicalItem[] });
}

/** Chunks of a stream case, each with the line it starts on. */
export function chunksOf(name: string): Array<{ line: number; chunk: unknown }> {
  if (has(name, "chunks.jsonl")) {
    return readFileSync(join(GOLDEN, name, "chunks.jsonl"), "utf8").split("\n").flatMap((line, index) => (line.trim() === "" ? [] : [{ line: index + 1, chunk: JSON.parse(line) as unknown }]));
  }
  return readFileSync(join(GOLDEN, name, "stream.sse"), "utf8").split(/\r?\n/).flatMap((line, index) => (line.startsWith("data:") ? [{ line: index + 1, chunk: JSON.parse(line.slice(5)) as unknown }] : []));
}

export function assemble(name: string): GeminiAssembledResponse[] {
  const assembler = new GeminiStreamAssembler({ response: true });
  const assembled = [...chunksOf(name).flatMap(({ line, chunk }) => assembler.push(chunk, line)), ...assembler.finish()];
  return assembled.map((response) => ({
    ...response,
    losses: withoutNeutralFields(response.losses),
    ...(response.record ? { record: () => ({ value: response.record!().value, losses: withoutNeutralFields(response.record!().losses) }) } : {}),
  }));
}

const cases = existsSync(GOLDEN) ? readdirSync(GOLDEN).filter((name) => !name.includes(".")) : [];
const losses = (name: string) => (has(name, "losses.json") ? (read(name, "losses.json") as Json) : {});
const byKind = (kind: Kind) => cases.filter((name) => kindOf(name) === kind);

describe("the golden cases", () => {
  test("are there, of every kind", () => {
    expect((["request", "response", "items", "stream"] as const).map((kind) => byKind(kind).length > 0)).toEqual([true, true, true, true]);
  });
});

describe.each([...byKind("request"), ...byKind("response")])("%s", (name) => {
  const kind = kindOf(name);
  const gemini = read(name, "gemini.json");

  test("gemini → items gives items.json", () => {
    expect(geminiToItems(kind, gemini).value).toEqual(read(name, "items.json"));
  });

  test("gemini → items reports its losses", () => {
    expect(withoutNeutralFields(geminiToItems(kind, gemini).losses)).toEqual(losses(name).gemini_to_items ?? []);
  });

  test("items → gemini gives gemini.json back exactly, thought signatures byte for byte", () => {
    const back = itemsToGemini(kind, read(name, "items.json"));
    expect(back.value).toEqual(gemini);
    expect(back.losses).toEqual(losses(name).items_to_gemini ?? []);
  });
});

describe.each(byKind("items"))("%s", (name) => {
  test("items → gemini gives gemini.json", () => {
    expect(itemsToGemini("items", read(name, "items.json")).value).toEqual(read(name, "gemini.json"));
  });

  test("items → gemini reports its losses", () => {
    expect(itemsToGemini("items", read(name, "items.json")).losses).toEqual(losses(name).items_to_gemini ?? []);
  });

  test("gemini → items gives items-roundtrip.json", () => {
    expect(contentsToItems(read(name, "gemini.json") as never).value).toEqual(read(name, "items-roundtrip.json"));
  });
});

describe.each(byKind("stream"))("%s", (name) => {
  test("assembles to assembled.json, losses and lines included", () => {
    expect(assemble(name).map(({ response: _response, record: _record, merged: _merged, ...rest }) => rest)).toEqual(read(name, "assembled.json"));
  });

  test("is written by convert as record.json: the response object, and the values of earlier chunks it does not hold reported", () => {
    expect(assemble(name).map((response) => response.record?.())).toEqual(read(name, "record.json"));
  });

  test("amounts to response.json, the non-streamed response", () => {
    expect(assemble(name).map((response) => response.response)).toEqual(read(name, "response.json"));
  });
});

describe("what the gate makes of the golden calls", () => {
  const schema = { type: "object", additionalProperties: false, required: ["region"], properties: { region: { type: "string", enum: ["apac", "emea", "amer"] } } };
  const outputOf = (name: string) => (read(name, "items.json") as Json).output as Json[];

  test("a call of the second candidate is gated like any other", () => {
    const calls = outputOf("response-two-candidates-call-in-second").filter((item) => item.type === "function_call");
    expect(calls.map((call) => replayGate(call, schema).reason)).toEqual(["ok"]);
  });

  test("a call cut by MAX_TOKENS is blocked", () => {
    const calls = outputOf("response-max-tokens-cut-call").filter((item) => item.type === "function_call");
    expect(calls.map((call) => replayGate(call, schema).reason)).toEqual(["status"]);
  });

  test("a call still coming in pieces when the stream was cut is blocked", () => {
    const calls = (read("stream-cut-mid-partial-args", "assembled.json") as Json[]).flatMap((response) => (response.items as Json[]).filter((item) => item.type === "function_call"));
    expect(calls.map((call) => replayGate(call, { type: "object" }).reason)).toEqual(["status", "status", "status"]);
  });
});
