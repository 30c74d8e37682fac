// Runs chat → items → chat on every Chat Completions history of the recordings in
// ../shared/corpus (the `messages` of each recorded request, and each recorded
// completion's message), expecting the history back up to the losses reported.
// "Up to" also covers the two rules that rewrite without losing: fields holding
// null or [] carry nothing and are not written back, and tool-only content
// (null, "" or absent) comes back as null. The corpus is not part of a clone, so
// without it these tests are skipped and say so.
//
// The cassettes are YAML; a small reader below reads the block style VCR writes,
// rather than a YAML dependency. It is checked against each request's recorded
// content-length: the JSON it reads must have that many bytes.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
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
  for (const path of filesUnder(CORPUS)) {
    const file = relative(CORPUS, path);
    if (path.endsWith(".yaml")) {
      const cassette = readCassetteYaml(readFileSync(path, "utf8")) as { interactions: Array<{ request: Json; response: Json }> };
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

/**
 * Reads the block-style YAML that VCR cassettes are written in: block mappings
 * and sequences, plain, single- and double-quoted scalars (folded over lines),
 * literal block scalars, and the empty flow collections `{}` and `[]`. Anything
 * else throws, so a cassette it cannot read fails the test instead of being misread.
 */
function readCassetteYaml(text: string): unknown {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  let pos = 0;

  const indentOf = (line: string) => line.length - line.trimStart().length;
  const isBlank = (line: string) => line.trim() === "" || line.trimStart().startsWith("#");
  const skipBlank = () => {
    while (pos < lines.length && isBlank(lines[pos])) pos++;
  };
  const isSequenceEntry = (body: string) => body === "-" || body.startsWith("- ");
  const keyMatch = (body: string) => /^([^\s'"#\-{[][^:]*?|-[^\s:][^:]*?):(?: +|$)/.exec(body);

  function block(minIndent: number): unknown {
    skipBlank();
    if (pos >= lines.length) return null;
    const indent = indentOf(lines[pos]);
    if (indent < minIndent) return null;
    const body = lines[pos].slice(indent);
    if (isSequenceEntry(body)) return sequence(indent);
    if (keyMatch(body)) return mapping(indent);
    return scalar(indent, body);
  }

  function sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    for (;;) {
      skipBlank();
      if (pos >= lines.length || indentOf(lines[pos]) !== indent) return items;
      const body = lines[pos].slice(indent);
      if (!isSequenceEntry(body)) return items;
      const rest = body.slice(1).trimStart();
      if (rest === "") {
        pos++;
        items.push(block(indent + 1));
      } else {
        const restIndent = indent + body.length - rest.length;
        // The entry's first line reads as if the dash were a space.
        lines[pos] = " ".repeat(restIndent) + rest;
        items.push(keyMatch(rest) ? mapping(restIndent) : scalar(indent, rest));
      }
    }
  }

  function mapping(indent: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    for (;;) {
      skipBlank();
      if (pos >= lines.length || indentOf(lines[pos]) !== indent) return map;
      const body = lines[pos].slice(indent);
      const match = keyMatch(body);
      if (!match || isSequenceEntry(body)) return map;
      const key = match[1];
      const rest = body.slice(match[0].length);
      if (rest === "") {
        pos++;
        skipBlank();
        const next = pos < lines.length ? lines[pos] : "";
        const nextIndent = indentOf(next);
        if (pos < lines.length && nextIndent === indent && isSequenceEntry(next.slice(indent))) map[key] = sequence(indent);
        else map[key] = nextIndent > indent ? block(indent + 1) : null;
      } else {
        map[key] = scalar(indent, rest);
      }
    }
  }

  /** A scalar starting at `first` on line `pos`; continuation lines are indented more than `parentIndent`. */
  function scalar(parentIndent: number, first: string): unknown {
    if (first.startsWith("|") || first.startsWith(">")) return blockScalar(parentIndent, first);
    if (first.startsWith('"') || first.startsWith("'")) return quoted(first);
    const parts = [first.trimEnd()];
    pos++;
    while (pos < lines.length && (lines[pos].trim() === "" || indentOf(lines[pos]) > parentIndent)) {
      if (lines[pos].trim() === "" && !continues(parentIndent)) break;
      parts.push(lines[pos].trim());
      pos++;
    }
    return resolvePlain(fold(parts));
  }

  /** After blank lines, whether a plain scalar goes on (a more indented line follows). */
  function continues(parentIndent: number): boolean {
    let look = pos;
    while (look < lines.length && lines[look].trim() === "") look++;
    return look < lines.length && indentOf(lines[look]) > parentIndent;
  }

  function fold(parts: string[]): string {
    let out = "";
    let breaks = 0;
    parts.forEach((part, index) => {
      if (index > 0 && part === "") {
        breaks++;
        return;
      }
      if (index > 0) out += breaks > 0 ? "\n".repeat(breaks) : " ";
      breaks = 0;
      out += part;
    });
    return out;
  }

  function quoted(first: string): string {
    const quote = first[0];
    let source = first;
    let out = "";
    let rawSpaces = 0;
    let escapedBreak = false;
    let i = 1;
    for (;;) {
      if (i >= source.length) {
        // The scalar goes on on the next line: fold the line break.
        out = out.slice(0, out.length - rawSpaces);
        rawSpaces = 0;
        pos++;
        if (pos >= lines.length) throw new Error("unterminated quoted scalar");
        let breaks = 0;
        while (pos < lines.length && lines[pos].trim() === "") {
          breaks++;
          pos++;
        }
        source = lines[pos].trimStart();
        i = 0;
        if (!escapedBreak) out += breaks > 0 ? "\n".repeat(breaks) : " ";
        escapedBreak = false;
        continue;
      }
      const c = source[i];
      if (c === quote) {
        if (quote === "'" && source[i + 1] === "'") {
          out += "'";
          rawSpaces = 0;
          i += 2;
          continue;
        }
        if (source.slice(i + 1).trim() !== "") throw new Error(`unexpected text after a quoted scalar: ${source}`);
        pos++;
        return out;
      }
      if (quote === '"' && c === "\\") {
        const next = source[i + 1];
        if (next === undefined) {
          // An escaped line break joins the lines with nothing between them.
          escapedBreak = true;
          i++;
          continue;
        }
        const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", "/": "/", " ": " ", "0": "\u0000", b: "\b", f: "\f", e: "\u001b" };
        if (next in simple) {
          out += simple[next];
          i += 2;
        } else if (next === "u" || next === "x" || next === "U") {
          const width = next === "x" ? 2 : next === "u" ? 4 : 8;
          out += String.fromCodePoint(parseInt(source.slice(i + 2, i + 2 + width), 16));
          i += 2 + width;
        } else throw new Error(`unknown escape \\${next}`);
        rawSpaces = 0;
        continue;
      }
      out += c;
      rawSpaces = c === " " || c === "\t" ? rawSpaces + 1 : 0;
      i++;
    }
  }

  function blockScalar(parentIndent: number, header: string): string {
    const match = /^([|>])([+-]?)\s*$/.exec(header);
    if (!match) throw new Error(`unsupported block scalar header: ${header}`);
    const [, style, chomp] = match;
    pos++;
    const collected: string[] = [];
    let contentIndent = -1;
    while (pos < lines.length) {
      const line = lines[pos];
      if (line.trim() === "") {
        collected.push("");
        pos++;
        continue;
      }
      const indent = indentOf(line);
      if (contentIndent === -1) contentIndent = indent;
      if (indent < contentIndent || indent <= parentIndent) break;
      collected.push(line.slice(contentIndent));
      pos++;
    }
    let trailing = 0;
    while (collected.length > 0 && collected[collected.length - 1] === "") {
      collected.pop();
      trailing++;
    }
    if (style === ">") throw new Error("folded block scalars are not used by the cassettes");
    const body = collected.join("\n");
    if (chomp === "-") return body;
    if (chomp === "+") return body + "\n".repeat(trailing + 1);
    return body === "" ? "" : body + "\n";
  }

  function resolvePlain(value: string): unknown {
    if (value === "null" || value === "~" || value === "") return null;
    if (value === "true") return true;
    if (value === "false") return false;
    if (value === "{}") return {};
    if (value === "[]") return [];
    if (/^-?\d+$/.test(value)) return Number(value);
    if (/^-?\d+\.\d*([eE][+-]?\d+)?$/.test(value)) return Number(value);
    if (value.startsWith("{") || value.startsWith("[")) throw new Error(`flow collections are not read: ${value}`);
    return value;
  }

  const document = block(0);
  skipBlank();
  // A document end marker may close the file.
  if (pos < lines.length && lines[pos] === "...") {
    pos++;
    skipBlank();
  }
  if (pos < lines.length) throw new Error(`unread YAML from line ${pos + 1}: ${lines[pos]}`);
  return document;
}


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

  test.each(labelled)("%s: the way back loses nothing", (_label, { messages, finishReason }) => {
    const items = messagesToItems({ messages, finishReason }).value;
    expect(itemsToMessages({ items }).losses).toEqual([]);
  });
});
