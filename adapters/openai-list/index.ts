// OpenAI's stored objects as list pages, read as journals (read-only):
//
// | page (`{object: "list", data, has_more, first_id, last_id}`) of | records                                   |
// |-----------------------------------------------------------------|-------------------------------------------|
// | `chat.completion` objects (`GET /v1/chat/completions`)          | each completion, oldest first (`created`, then id) |
// | stored Chat messages (`GET …/chat/completions/{id}/messages`)   | Chat messages in their order; `content_parts`, when present, is the content (`content` joins it) |
// | Responses input items (`GET /v1/responses/{id}/input_items`)    | the items, oldest first (the API lists newest first unless `order=asc`) |
// | a conversation's items (`GET /v1/conversations/{id}/items`)      | the same, one conversation each          |
//
// A document is one page, an array of pages (a JSONL file's), or a recording of
// HTTP exchanges (`{Entries: [{RequestUri, RequestMethod, StatusCode, ResponseBody}]}`),
// where only `GET`s answered with a page are stored data. Pages of input items
// are taken in the order their recorded cursors chain them, not the order
// recorded; where the cursors do not chain them, that is said. A page that says
// `has_more` with no page after its `last_id` is reported. The same object on two
// pages is read once.
//
// A stored completion keeps what its request said of the tools: a call of its
// answer that the request's `tools` (or legacy `functions`) did not offer, that
// its `tool_choice` (or legacy `function_call`) did not allow, or that comes
// after the first of an answer whose request said `parallel_tool_calls: false`,
// is taken out of the record and reported `conflict`, as the gate blocks it in
// a recorded exchange.
import { jsonValueMeaning } from "../../src/models/json-meaning.js";
import { isPlainObject } from "../../src/models/json-value.js";
import { legacyFunctionCall, refusal, requestLimits, toolsAndFunctions, type CallLimit, type ToolChoice, type ToolsOffered } from "../spans/allowed-calls.js";
import { emptyCounts, type Reading, type ReaderLoss, type StoredLogReader, type StoredRecord, type UnitAccount } from "../stored-log/reading.js";

interface Page {
  body: Record<string, unknown>;
  path: string;
  uri?: string;
  /** The recorded exchange the page is the response of: its request, headers and status are the page's transport too. */
  exchange?: string;
}

function isPage(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && value.object === "list" && Array.isArray(value.data);
}

function isRecording(value: unknown): value is { Entries: unknown[]; Variables?: unknown } {
  return isPlainObject(value) && Array.isArray(value.Entries) && value.Entries.some((entry) => isPlainObject(entry) && typeof entry.RequestUri === "string" && isPage(entry.ResponseBody));
}

function recogniseOne(value: unknown): boolean {
  return isPage(value) || isRecording(value);
}

function collect(document: unknown, path: string, pages: Page[], units: UnitAccount[], losses: ReaderLoss[]): void {
  if (Array.isArray(document)) return document.forEach((entry, index) => collect(entry, `${path}/${index}`, pages, units, losses));
  if (isPage(document)) {
    pages.push({ body: document, path });
    units.push({ path, fate: "page" });
    return;
  }
  if (!isRecording(document)) return;
  if (isPlainObject(document.Variables) && Object.keys(document.Variables).length > 0) losses.push({ path: `${path}/Variables`, code: "left_behind", detail: RECORDING_VARIABLES_DETAIL });
  document.Entries.forEach((entry, index) => {
    const at = `${path}/Entries/${index}`;
    if (isPlainObject(entry) && entry.RequestMethod === "GET" && (entry.StatusCode === undefined || entry.StatusCode === 200) && isPage(entry.ResponseBody)) {
      pages.push({ body: entry.ResponseBody, path: `${at}/ResponseBody`, exchange: at, uri: typeof entry.RequestUri === "string" ? entry.RequestUri : undefined });
      units.push({ path: at, fate: "page" });
    } else units.push({ path: at, fate: "not_stored" });
  });
}

type Kind = "completions" | "messages" | "input_items";

function kindOf(page: Page): Kind | undefined {
  const first = (page.body.data as unknown[]).find(isPlainObject);
  if (page.uri !== undefined) {
    if (/\/chat\/completions\/[^/?]+\/messages/.test(page.uri)) return "messages";
    if (/\/input_items/.test(page.uri) || CONVERSATION_ITEMS.test(page.uri)) return "input_items";
    if (/\/chat\/completions(?:\?|$)/.test(page.uri)) return "completions";
  }
  if (first === undefined) return undefined;
  if (first.object === "chat.completion") return "completions";
  if (typeof first.role === "string" && first.type === undefined) return "messages";
  if (typeof first.type === "string") return "input_items";
  return undefined;
}

/** A conversation's items are listed, paged and ordered as a response's input items are. */
const CONVERSATION_ITEMS = /\/conversations\/([^/?]+)\/items(?:\?|$)/;

/**
 * The completion, response or conversation a page of messages or items belongs
 * to: from its URI, else from its ids (`<completion id>-N`). Pages of two
 * conversations are two listings: taken for one, neither chains by its cursors,
 * and the items of both are read as one conversation.
 */
function ownerOf(page: Page, kind: Kind): string {
  const uri = page.uri ?? "";
  const match = kind === "messages" ? /\/chat\/completions\/([^/?]+)\/messages/.exec(uri) : /\/responses\/([^/?]+)\/input_items/.exec(uri) ?? CONVERSATION_ITEMS.exec(uri);
  if (match) return decodeURIComponent(match[1]);
  const first = (page.body.data as unknown[]).find(isPlainObject);
  const id = typeof first?.id === "string" ? first.id : "";
  return kind === "messages" ? id.replace(/-\d+$/, "") : "";
}

/** Said once for each page: the same words for every page, so that a summary counts them as one. */
export const PAGE_TRANSPORT_DETAIL = "a page's object, first_id, last_id and has_more, and the recorded request around it, are transport of the listing: no record holds them";

/** A recording's variables (the placeholders its secrets were replaced by) belong to the recorder, not to the listing. */
export const RECORDING_VARIABLES_DETAIL = "the recording's Variables are the recorder's placeholders: no record holds them";

export const openaiList: StoredLogReader = {
  name: "openai-list",
  recognise: (document) => (Array.isArray(document) ? document.length > 0 && document.every(recogniseOne) : recogniseOne(document)),
  read(document): Reading {
    const pages: Page[] = [];
    const units: UnitAccount[] = [];
    const losses: ReaderLoss[] = [];
    collect(document, "", pages, units, losses);
    const counts = emptyCounts();
    /**
     * Each object's text by its id: an object seen again the same is a repeat.
     * Objects of one id that say different things (a completion listed on two
     * pages, changed between them) are two versions of one object: a reader that
     * keeps either sees one of them, so none of them is read.
     */
    const seen = new Map<string, string>();
    const differing = new Set<string>();
    const groups = new Map<string, { kind: Kind; owner: string; entries: Entry[]; pages: Page[]; descending: boolean }>();
    for (const page of pages) {
      losses.push({ path: page.exchange ?? page.path, code: "left_behind", detail: PAGE_TRANSPORT_DETAIL });
      const kind = kindOf(page);
      const data = page.body.data as unknown[];
      if (kind === undefined) {
        if (data.length > 0) losses.push({ path: `${page.path}/data`, code: "unreadable", detail: "a page of objects that are neither completions, Chat messages nor input items: not read" });
        continue;
      }
      const owner = ownerOf(page, kind);
      const key = `${kind}\u0000${owner}`;
      const descending = kind === "input_items" ? !/[?&]order=asc\b/.test(page.uri ?? "") : kind === "messages" ? /[?&]order=desc\b/.test(page.uri ?? "") : true;
      if (kind === "input_items" && page.uri === undefined) {
        losses.push({ path: page.path, code: "order_assumed", detail: "a page of input items that does not say its order: read as the API lists them by default, newest first" });
      }
      const group = groups.get(key) ?? { kind, owner, entries: [], pages: [], descending };
      groups.set(key, group);
      group.pages.push(page);
      data.forEach((value, index) => {
        counts.read += 1;
        const path = `${page.path}/data/${index}`;
        if (!isPlainObject(value)) {
          counts.reported += 1;
          losses.push({ path, code: "unreadable", detail: "an element of the page that is not an object: not read" });
          return;
        }
        const id = typeof value.id === "string" ? `${key}\u0000${value.id}` : undefined;
        // Compared by meaning: the same object written with its members in another order is a repeat.
        const text = id === undefined ? undefined : meaningOf(value);
        if (id !== undefined && seen.get(id) === text) {
          counts.repeated += 1;
          return;
        }
        if (id !== undefined && !seen.has(id)) seen.set(id, text!);
        else if (id !== undefined) differing.add(id);
        group.entries.push(id === undefined ? { value, path, page } : { value, path, id, page });
      });
      if (page.body.has_more === true && !hasNextPage(page, pages, key)) {
        const last = page.body.last_id;
        losses.push({ path: `${page.path}/has_more`, code: "page_missing", detail: `the page says more follow${typeof last === "string" ? ` after "${last}"` : ""}, and the next page is not in the document` });
      }
    }
    const records: StoredRecord[] = [];
    for (const group of groups.values()) {
      const entries = group.entries.filter((entry) => {
        if (entry.id === undefined || !differing.has(entry.id)) return true;
        counts.reported += 1;
        losses.push({ path: entry.path, code: "unreadable", detail: `the id ${JSON.stringify(entry.value.id)} is given to objects of the listing that differ: two readers see two objects, so none is read` });
        return false;
      });
      if (group.kind === "completions") {
        entries.sort((a, b) => Number(a.value.created ?? 0) - Number(b.value.created ?? 0) || String(a.value.id).localeCompare(String(b.value.id)));
        for (const { value, path } of entries) {
          const { completion, refused } = allowedCompletion(value, path, losses);
          counts.read += refused;
          counts.reported += refused;
          records.push({ record: completion, conversation: String(value.id ?? ""), path });
        }
      } else if (group.kind === "messages") {
        entries.sort((a, b) => messageIndex(a.value) - messageIndex(b.value));
        for (const { value, path } of entries) records.push({ record: storedMessage(value, path, losses), conversation: group.owner, path });
      } else {
        const listed = inListingOrder(entries, group.pages, group.owner, losses);
        if (group.descending) listed.reverse();
        for (const { value, path } of listed) records.push({ record: value, conversation: group.owner, path });
      }
      counts.emitted += entries.length;
    }
    return { records, losses, units, messages: counts };
  },
};

/** An object of a page, with its place. */
interface Entry {
  value: Record<string, unknown>;
  path: string;
  id?: string;
  page: Page;
}

/**
 * The items of a listing's pages in the order the API listed them, which is
 * not the order a recording or an export may hold the pages in: the page asked
 * for with no cursor, then each page asked for `after` the `last_id` of the one
 * before. Where the recorded requests do not say it (a page with no recorded
 * request, two first pages, a page that follows none, pages of two orders), the
 * pages are taken in the order recorded, and that is said.
 */
function inListingOrder(entries: readonly Entry[], pages: readonly Page[], owner: string, losses: ReaderLoss[]): Entry[] {
  if (pages.length < 2) return [...entries];
  const chain = chainedPages(pages);
  if (chain === undefined) {
    losses.push({ path: pages[0]!.exchange ?? pages[0]!.path, code: "order_assumed", detail: `the ${pages.length} pages of input items${owner === "" ? "" : ` of "${owner}"`} do not chain by their recorded cursors (a first page asked for with no cursor, each next one asked for after the last_id of the one before): read in the order recorded, which may not be the order listed` });
    return [...entries];
  }
  return chain.flatMap((page) => entries.filter((entry) => entry.page === page));
}

/** The pages, each after the one whose last_id it was asked for after; `undefined` when their recorded requests do not chain them one way. */
function chainedPages(pages: readonly Page[]): Page[] | undefined {
  const cursors = pages.map((page) => ({ page, after: queryValue(page.uri, "after"), order: queryValue(page.uri, "order") ?? "desc" }));
  if (cursors.some(({ page }) => page.uri === undefined || queryValue(page.uri, "before") !== undefined)) return undefined;
  if (new Set(cursors.map(({ order }) => order)).size > 1) return undefined;
  const firsts = cursors.filter(({ after }) => after === undefined);
  if (firsts.length !== 1) return undefined;
  const chain = [firsts[0]!.page];
  while (chain.length < pages.length) {
    const last = chain[chain.length - 1]!.body.last_id;
    const next = cursors.filter(({ after }) => typeof last === "string" && after === last);
    // A page that would come twice (a cursor that leads back) chains nothing: a page left out would lose its items.
    if (next.length !== 1 || chain.includes(next[0]!.page)) return undefined;
    chain.push(next[0]!.page);
  }
  return chain;
}

/** A query parameter of a recorded request's URI, decoded where it decodes; `undefined` when it has none. */
function queryValue(uri: string | undefined, name: string): string | undefined {
  const match = uri === undefined ? null : new RegExp(`[?&]${name}=([^&#]*)`).exec(uri);
  if (match === null) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1];
  }
}

/**
 * Whether the page after `page` is in the document: a recorded request for the
 * objects after its `last_id`, or, where pages carry no request, a later page of
 * the same objects.
 */
function hasNextPage(page: Page, pages: readonly Page[], key: string): boolean {
  const last = page.body.last_id;
  const at = pages.indexOf(page);
  return pages.some((other, index) => {
    if (other === page) return false;
    const kind = kindOf(other);
    if (kind === undefined || `${kind}\u0000${ownerOf(other, kind)}` !== key) return false;
    // The cursor as a whole: a page asked for after "msg_10" is not the one after "msg_1".
    if (other.uri !== undefined) return typeof last === "string" && queryValue(other.uri, "after") === last;
    return page.uri === undefined && index > at;
  });
}

/** An object's meaning, to compare copies; one too deep to write out is unlike any other, so two copies of it are read as differing. */
function meaningOf(value: unknown): string {
  try {
    return jsonValueMeaning(value);
  } catch {
    return `\u0000not compared ${Math.random()}`;
  }
}

function messageIndex(message: Record<string, unknown>): number {
  const match = typeof message.id === "string" ? /-(\d+)$/.exec(message.id) : null;
  return match ? Number(match[1]) : 0;
}

/**
 * A stored Chat message as a Chat message: its `content_parts` are the content it
 * was sent with (`content` joins their text, and drops the images). Its other
 * fields, the store's `id` among them, stay, for normalize to hold or report.
 */
function storedMessage(value: Record<string, unknown>, path: string, losses: ReaderLoss[]): Record<string, unknown> {
  const { content_parts: parts, ...message } = value;
  const id = value.id;
  if (Array.isArray(parts) && parts.length > 0) {
    message.content = parts;
    losses.push({ path: `${path}/content`, code: "form_changed", detail: `the stored message "${String(id)}" holds its content twice: its content_parts are read, the joined content is not` });
  }
  return message;
}

/**
 * The completion with the calls its request did not allow taken out of its
 * answers, each reported `conflict` at its place. Gated as they are, they would
 * pass on their arguments alone.
 */
function allowedCompletion(completion: Record<string, unknown>, path: string, losses: ReaderLoss[]): { completion: Record<string, unknown>; refused: number } {
  const limits = completionLimits(completion, path);
  const oneCall = completion.parallel_tool_calls === false ? `${path}/parallel_tool_calls` : undefined;
  if ((limits.length === 0 && oneCall === undefined) || !Array.isArray(completion.choices)) return { completion, refused: 0 };
  let refused = 0;
  const choices = completion.choices.map((choice: unknown, index: number) => {
    if (!isPlainObject(choice) || !isPlainObject(choice.message)) return choice;
    const message = choice.message;
    const at = `${path}/choices/${index}/message`;
    const kept: Record<string, unknown> = { ...message };
    let calls = 0;
    const refuse = (name: string, where: string) => {
      calls += 1;
      const limit = limits.find(({ names }) => !names.has(name));
      const detail = limit !== undefined ? refusal(name, limit) : calls > 1 && oneCall !== undefined ? `the call of "${name}" is call ${calls} of an answer whose request let it make one (parallel_tool_calls false, at ${oneCall}): not read` : undefined;
      if (detail === undefined) return false;
      losses.push({ path: where, code: "conflict", detail });
      refused += 1;
      return true;
    };
    if (Array.isArray(message.tool_calls)) {
      kept.tool_calls = message.tool_calls.filter((call, position) => !(isPlainObject(call) && isPlainObject(call.function) && refuse(String(call.function.name), `${at}/tool_calls/${position}`)));
      if ((kept.tool_calls as unknown[]).length === 0) delete kept.tool_calls;
    }
    if (isPlainObject(message.function_call) && refuse(String(message.function_call.name), `${at}/function_call`)) delete kept.function_call;
    return { ...choice, message: kept };
  });
  return refused === 0 ? { completion, refused } : { completion: { ...completion, choices }, refused };
}

/** What a stored completion says its request allowed: its tool choice (or legacy function_call), and the tools (or legacy functions) it offered. */
function completionLimits(completion: Record<string, unknown>, path: string): CallLimit[] {
  const present = (field: string) => completion[field] !== undefined && completion[field] !== null;
  const choices: ToolChoice[] = [];
  if (present("tool_choice")) choices.push({ value: completion.tool_choice, path: `${path}/tool_choice` });
  if (present("function_call")) choices.push({ value: legacyFunctionCall(completion.function_call), path: `${path}/function_call` });
  const offered: ToolsOffered[] = present("tools") || present("functions") ? [{ value: toolsAndFunctions(completion.tools, completion.functions), path: `${path}/${present("tools") ? "tools" : "functions"}` }] : [];
  return [...choices.flatMap((choice) => requestLimits(choice, [])), ...requestLimits(undefined, offered)];
}
