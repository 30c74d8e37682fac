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
import { gunzipSync } from "node:zlib";
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
  /** Recorded bodies the reader could not make a journal line of, each said: none is left out unsaid. */
  unread: string[];
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

/** A body's text: a string, or bytes (gzip-compressed or not) kept as `!!binary`. */
function bodyText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (!(value instanceof Uint8Array)) return undefined;
  const bytes = value[0] === 0x1f && value[1] === 0x8b ? gunzipSync(value) : value;
  return Buffer.from(bytes).toString("utf8");
}

/**
 * A recorded HTTP body as journal lines: JSON (parsed by the cassette or as text)
 * on one line, SSE text as it is; or why it gives none.
 */
function bodyLines(message: Node | undefined): { lines: string[] } | { unread: string } {
  const parsed = child(message, "parsed_body");
  if (parsed) return { lines: [yamlToJson(parsed)] };
  const body = child(message, "body") ?? child(message, "content");
  const scalar = isScalar(body) ? body : isScalar(child(body, "string")) ? child(body, "string") : undefined;
  // No body, or a null one (a GET): nothing to read.
  if (body === undefined || (isScalar(scalar) && scalar.value === null) || (isScalar(body) && body.value === null)) return { lines: [] };
  const text = bodyText(isScalar(scalar) ? scalar.value : undefined);
  if (text === undefined) return { unread: "a body the reader cannot take as text" };
  if (text.trim() === "") return { lines: [] };
  if (isSse(text)) return { lines: text.split("\n").filter((line, index, lines) => index < lines.length - 1 || line !== "") };
  try {
    JSON.parse(text);
    return { lines: [compactJson(text)] };
  } catch {
    return { unread: `a body that is neither JSON nor SSE: ${JSON.stringify(text.slice(0, 60))}` };
  }
}

/** The status code of a recorded response, when the cassette keeps one. */
function statusOf(response: Node | undefined): number | undefined {
  const status = child(response, "status");
  const code = isScalar(status) ? status.value : isScalar(child(status, "code")) ? (child(status, "code") as { value: unknown }).value : undefined;
  return typeof code === "number" ? code : undefined;
}

function cassetteJournal(text: string): { journal: string; streamed: boolean; unread: string[] } {
  const document = parseDocument(text, { customTags: ["binary"] });
  const interactions = child(document.contents as Node, "interactions");
  const lines: string[] = [];
  const unread: string[] = [];
  let streamed = false;
  (isSeq(interactions) ? interactions.items : []).forEach((interaction, index) => {
    const responseNode = child(interaction as Node, "response");
    const status = statusOf(responseNode);
    // A failed HTTP exchange (a 4xx or 5xx answer) holds no conversation.
    if (status !== undefined && (status < 200 || status > 299)) return;
    const request = bodyLines(child(interaction as Node, "request"));
    const response = bodyLines(responseNode);
    if ("unread" in request) unread.push(`interaction ${index} request: ${request.unread}`);
    if ("unread" in response) unread.push(`interaction ${index} response: ${response.unread}`);
    const requestLines = "lines" in request ? request.lines : [];
    const responseLines = "lines" in response ? response.lines : [];
    if (requestLines.length === 1 && responseLines.length === 1) {
      lines.push(`{"request":${requestLines[0]},"response":${responseLines[0]}}`);
      return;
    }
    streamed ||= responseLines.length > 1;
    lines.push(...requestLines, ...responseLines);
  });
  return { journal: lines.map((line) => line + "\n").join(""), streamed, unread };
}

function fileJournal(text: string): { journal: string; streamed: boolean; unread: string[] } {
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    return { journal: text.endsWith("\n") ? text : text + "\n", streamed: true, unread: [] };
  }
  // A cassette kept as JSON (VCR's JSON serializer) reads as the YAML one: JSON is YAML.
  if (typeof whole === "object" && whole !== null && Array.isArray((whole as { interactions?: unknown }).interactions)) return cassetteJournal(text);
  return { journal: compactJson(text) + "\n", streamed: false, unread: [] };
}

/** One recording file as a journal: a cassette by its extension (or its `interactions`), any other file by its content. */
export function journalOf(path: string, text: string): { journal: string; streamed: boolean; unread: string[] } {
  return path.endsWith(".yaml") || path.endsWith(".yml") ? cassetteJournal(text) : fileJournal(text);
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
    const { journal, streamed, unread } = journalOf(path, text);
    const stem = file.replace(/(\.chunks)?\.(txt|json|yaml|yml|sse)$/, "").replace(/\.sse$/, "");
    recordings.push({ file, family, journal, stem, streamed, unread });
  }
  return recordings;
}
