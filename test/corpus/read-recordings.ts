// The recordings of ../shared/corpus as journals a user would hold: a VCR
// cassette becomes one line per non-streamed exchange ({request, response}) and,
// for a streamed one, its request body followed by the raw SSE text it got; a
// raw SSE file stays as it is; a file of JSON lines stays as it is; a file of
// one JSON value becomes one line. Number literals keep the text they were
// recorded with, YAML included (`temperature: 1.0` stays `1.0`), so that the
// checks can tell a re-serialized number from a kept one.
//
// Recordings are found by format, not by name: a new cassette or fixture file
// dropped into the corpus is read the same way.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { isMap, isScalar, isSeq, parseDocument, type Node } from "yaml";
import { compactJson } from "./exact-json.js";

export const CORPUS = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));
export const corpusPresent = existsSync(CORPUS);

/** Chat and Open Responses recordings sit at the top; other envelopes under providers/NAME. */
export type Family = "openai" | "anthropic" | "gemini";

export interface Recording {
  /** The file, relative to the corpus. */
  file: string;
  family: Family;
  /** The journal: JSON lines and raw SSE lines, "\n" after each. */
  journal: string;
  /** The same stem with a streamed and a non-streamed form (`x.chunks.txt` and `x.json`). */
  stem: string;
  streamed: boolean;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A YAML node as JSON text, each number as its source wrote it when that is a JSON number. */
function yamlToJson(node: Node | null | undefined): string {
  if (node === null || node === undefined) return "null";
  if (isMap(node)) {
    return `{${node.items.map((pair) => `${JSON.stringify(String(isScalar(pair.key) ? pair.key.value : pair.key))}:${yamlToJson(pair.value as Node)}`).join(",")}}`;
  }
  if (isSeq(node)) return `[${node.items.map((item) => yamlToJson(item as Node)).join(",")}]`;
  if (isScalar(node)) {
    if (typeof node.value === "number" && typeof node.source === "string" && JSON_NUMBER.test(node.source)) return node.source;
    return JSON.stringify(node.value ?? null);
  }
  throw new Error(`a YAML node of kind ${String(node)} is not JSON`);
}

function child(node: Node | null | undefined, key: string): Node | undefined {
  return isMap(node) ? (node.get(key, true) as Node | undefined) : undefined;
}

const isSse = (text: string) => /^(data|event|id|retry):/m.test(text) && !/^\s*[{[]/.test(text);

/**
 * A recorded HTTP body as journal lines: JSON (parsed by the cassette or as text)
 * on one line, SSE text as it is. Undefined for a body that is neither.
 */
function bodyLines(message: Node | undefined): string[] | undefined {
  const parsed = child(message, "parsed_body");
  if (parsed) return [yamlToJson(parsed)];
  const body = child(message, "body");
  const text = isScalar(body) ? body.value : isScalar(child(body, "string")) ? (child(body, "string") as { value: unknown }).value : undefined;
  if (typeof text !== "string" || text.trim() === "") return undefined;
  if (isSse(text)) return text.split("\n").filter((line, index, lines) => index < lines.length - 1 || line !== "");
  try {
    JSON.parse(text);
    return [compactJson(text)];
  } catch {
    return undefined;
  }
}

function cassetteJournal(text: string): { journal: string; streamed: boolean } {
  const document = parseDocument(text);
  const interactions = child(document.contents as Node, "interactions");
  const lines: string[] = [];
  let streamed = false;
  for (const interaction of isSeq(interactions) ? interactions.items : []) {
    const request = bodyLines(child(interaction as Node, "request"));
    const response = bodyLines(child(interaction as Node, "response"));
    if (request && response && request.length === 1 && response.length === 1) {
      lines.push(`{"request":${request[0]},"response":${response[0]}}`);
      continue;
    }
    streamed ||= (response?.length ?? 0) > 1;
    lines.push(...(request ?? []), ...(response ?? []));
  }
  return { journal: lines.map((line) => line + "\n").join(""), streamed };
}

function fileJournal(text: string): { journal: string; streamed: boolean } {
  try {
    JSON.parse(text);
    return { journal: compactJson(text) + "\n", streamed: false };
  } catch {
    return { journal: text.endsWith("\n") ? text : text + "\n", streamed: true };
  }
}

function familyOf(file: string): Family | undefined {
  const [top, provider] = file.split("/");
  if (top === "traces") return undefined;
  if (top !== "providers") return "openai";
  // Bedrock answers in AWS event-stream bytes, which the cassettes keep base64-encoded: the Bedrock adapter's own corpus test reads them.
  if (provider === "anthropic" || provider === "gemini") return provider;
  return undefined;
}

export function readRecordings(): Recording[] {
  if (!corpusPresent) return [];
  const recordings: Recording[] = [];
  for (const path of filesUnder(CORPUS)) {
    const file = relative(CORPUS, path);
    const family = familyOf(file);
    if (family === undefined || file.endsWith(".md")) continue;
    const text = readFileSync(path, "utf8");
    const { journal, streamed } = path.endsWith(".yaml") || path.endsWith(".yml") ? cassetteJournal(text) : fileJournal(text);
    const stem = file.replace(/(\.chunks)?\.(txt|json|yaml|yml|sse)$/, "").replace(/\.sse$/, "");
    recordings.push({ file, family, journal, stem, streamed });
  }
  return recordings;
}
