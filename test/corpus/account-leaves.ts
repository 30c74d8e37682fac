// "Nothing dropped or changed without a report", as a check: every leaf of every
// input record (its JSON Pointer and literal) is either in the output unchanged
// (a number with the very text it had) or named, by its path or a prefix of it,
// in a report entry for its line. What is neither is returned, so that a test
// can say which leaf of which line went missing.
import { SseParser, isSseFraming } from "../../src/journal/sse.js";
import { leavesOf, type Leaf } from "./exact-json.js";

export interface ReportEntry {
  line: number;
  path: string;
  code: string;
  detail: string;
}

export interface InputRecord {
  line: number;
  /** A Chat chunk or an Open Responses event: its text may be a fragment of an output string. */
  streamed: boolean;
  leaves: Leaf[];
}

export interface Unaccounted {
  line: number;
  path: string;
  value: string;
}

/** The records of a journal of JSON lines and raw SSE text, each with the line the commands report it on. */
export function inputRecords(journal: string): InputRecord[] {
  const records: InputRecord[] = [];
  const parser = new SseParser();
  const take = (data: string, line: number, sse = false) => {
    if (data === "[DONE]") return;
    const leaves = leavesOf(data);
    records.push({ line, streamed: sse || isStreamed(leaves), leaves });
  };
  const lines = journal.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((text, index) => {
    const line = index + 1;
    if (isSseFraming(text) || text.trim() === "") {
      for (const event of parser.push(text, line)) take(event.data, event.line, true);
      return;
    }
    for (const event of parser.finish()) take(event.data, event.line, true);
    take(text, line);
  });
  for (const event of parser.finish()) take(event.data, event.line, true);
  return records;
}

function isStreamed(leaves: Leaf[]): boolean {
  const top = (name: string) => leaves.find((leaf) => leaf.path === `/${name}`)?.value;
  const object = top("object");
  const type = top("type");
  return object === "chat.completion.chunk" || (object === "" && leaves.some((leaf) => leaf.path.startsWith("/choices") || leaf.path === "/choices")) || (type !== undefined && (type.startsWith("response.") || type.startsWith("message_") || type.startsWith("content_block_")));
}

/**
 * Fields a stream spends on putting its pieces together: which choice, which call,
 * which item and part a fragment goes to, and in what order. They are the stream's
 * framing, not values of the conversation, and no whole record repeats them.
 */
const FRAMING = [
  /^\/choices\/\d+\/delta\/tool_calls\/\d+\/index$/,
  /^\/(sequence_number|output_index|content_index|summary_index|item_id|index)$/,
];

/**
 * A discriminator names the kind of a value, and each envelope spells its kinds
 * its own way (`tool_use`, `function_call`); what the value holds is checked leaf
 * by leaf. A null carries nothing, and the converters leave it out.
 */
function carriesNothing(leaf: Leaf): boolean {
  if (leaf.kind === "null" || leaf.kind === "empty_array" || leaf.kind === "empty_object") return true;
  if (/\/(type|object)$/.test(leaf.path)) return true;
  // Who speaks: a call and a tool's answer are items of their own type, and a
  // message's role is checked with its text (recordings.test.ts, essentials).
  if (/\/role$/.test(leaf.path)) return true;
  // A turn that ended as it should is what the items' "completed" status says.
  return /\/(finish_reason|stop_reason)$/.test(leaf.path) && ["stop", "tool_calls", "end_turn", "tool_use"].includes(leaf.value);
}

/** The last token of a pointer that is not an array index: the field a value belongs to. */
function fieldOf(path: string): string {
  const tokens = path.split("/");
  // A provider's field carried under its slug (`anthropic:is_error`) is the same field.
  for (let i = tokens.length - 1; i > 0; i--) if (!/^\d+$/.test(tokens[i])) return tokens[i].replace(/^[a-z0-9_.-]+:/i, "");
  return "";
}

/** Values too common to be told apart by themselves: they count as kept only under the same field name. */
function isTrivial(leaf: Leaf): boolean {
  return leaf.kind !== "string" && leaf.kind !== "number" ? true : leaf.kind === "number" ? leaf.value.length <= 2 : leaf.value.length <= 1;
}

const covers = (path: string, reported: string) => reported === "" || path === reported || path.startsWith(reported + "/");

/**
 * The leaves of a command's output (JSON lines), less those under a path its
 * report says it synthesized: a value the command made up keeps nothing.
 */
export function outputLeaves(output: string, report: readonly ReportEntry[] = []): Leaf[] {
  const synthesized = report.filter((entry) => entry.code === "synthesized").map((entry) => entry.path);
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => leavesOf(line))
    .filter((leaf) => !synthesized.some((path) => covers(leaf.path, path)));
}

/**
 * The input leaves that are neither in the output nor covered by a report entry.
 * `kept`: the leaves of the output (and of the way back, where a value comes
 * back in its own form); `report`: the command's --report entries, whose
 * `synthesized` entries point into the output and so cover no input leaf.
 */
export function unaccountedLeaves(journal: string, kept: readonly Leaf[], report: readonly ReportEntry[]): Unaccounted[] {
  const output = keptValues(kept);
  const reportedAt = new Map<number, string[]>();
  for (const entry of report) {
    if (entry.code === "synthesized") continue;
    reportedAt.set(entry.line, [...(reportedAt.get(entry.line) ?? []), entry.path]);
  }
  const records = inputRecords(journal);
  const isReported = (record: InputRecord, leaf: Leaf) => (reportedAt.get(record.line) ?? []).some((path) => covers(leaf.path, path));
  // A stream says its id, model, items and text more than once (on each chunk,
  // in snapshots, in fragments and then whole); a value it reports where it says
  // it last, or whole, is reported for each time it says it.
  const reported = keptValues(records.flatMap((record) => record.leaves.filter((leaf) => isReported(record, leaf))));
  // How many more times each streamed value is said: a snapshot (response.created…) is checked where it is said last.
  const later = new Map<string, number>();
  for (const record of records) if (record.streamed) for (const leaf of record.leaves) later.set(`${leaf.path}\u0000${leaf.value}`, (later.get(`${leaf.path}\u0000${leaf.value}`) ?? 0) + 1);
  // A response snapshot (response.created, response.in_progress) is replaced by the next one that says the same field.
  const laterSnapshots = new Map<string, number>();
  for (const record of records) if (record.streamed) for (const leaf of record.leaves) if (leaf.path.startsWith("/response/")) laterSnapshots.set(leaf.path, (laterSnapshots.get(leaf.path) ?? 0) + 1);
  // An output_item.done replaces the item its output_item.added opened, and a
  // terminal response.* event's output replaces both (the service re-encrypts
  // reasoning in between): the last one is checked.
  const itemId = (record: InputRecord) => record.leaves.find((leaf) => leaf.path === "/item/id")?.value;
  const eventType = (record: InputRecord) => record.leaves.find((leaf) => leaf.path === "/type")?.value;
  const idsFrom = (index: number) => new Set(records.slice(index + 1).flatMap((record) => record.leaves.filter((leaf) => leaf.path === "/item/id" || /^\/response\/output\/\d+\/id$/.test(leaf.path)).map((leaf) => leaf.value)));
  const missing: Unaccounted[] = [];
  for (const [index, record] of records.entries()) {
    const type = eventType(record);
    const id = itemId(record);
    const replaced = (type === "response.output_item.added" || type === "response.output_item.done") && id !== undefined && idsFrom(index).has(id);
    const joined = (reportedAt.get(record.line) ?? []).length > 0 && report.some((entry) => entry.line === record.line && entry.code === "form_changed");
    for (const leaf of record.leaves) {
      const key = `${leaf.path}\u0000${leaf.value}`;
      let saidLater = false;
      if (record.streamed) {
        later.set(key, later.get(key)! - 1);
        saidLater = later.get(key)! > 0;
        if (leaf.path.startsWith("/response/")) {
          laterSnapshots.set(leaf.path, laterSnapshots.get(leaf.path)! - 1);
          saidLater ||= laterSnapshots.get(leaf.path)! > 0;
        }
      }
      if (saidLater || (replaced && leaf.path.startsWith("/item/"))) continue;
      // A text merged with others (a completion holds one assistant message), as its line's report says, is part of the joined text.
      if (joined && !record.streamed && leaf.kind === "string" && leaf.value.length > 1 && output.allText.includes(leaf.value)) continue;
      if (isReported(record, leaf) || carriesNothing(leaf) || /\/choices\/\d+\/index$/.test(leaf.path)) continue;
      if (record.streamed) {
        if (FRAMING.some((pattern) => pattern.test(leaf.path))) continue;
        // The state an item or response was in while it streamed, until its last event.
        if (/\/status$/.test(leaf.path) && leaf.value === "in_progress") continue;
        if (isKept(leaf, true, reported)) continue;
      }
      if (isKept(leaf, record.streamed, output)) continue;
      missing.push({ line: record.line, path: leaf.path, value: leaf.value });
    }
  }
  return missing;
}

interface Values {
  strings: Set<string>;
  /** Gemini thought signatures as the bytes they write (signatureBytes). */
  signatures: Set<string>;
  numbers: Set<string>;
  byField: Set<string>;
  /** Every string, joined: where a fragment or a value written as JSON text is looked for. */
  allText: string;
}

function keptValues(leaves: readonly Leaf[]): Values {
  const values: Values = { strings: new Set(), signatures: new Set(), numbers: new Set(), byField: new Set(), allText: "" };
  for (const leaf of leaves) {
    // A data URL holds its media type and its base64 data unchanged.
    const dataUrl = leaf.kind === "string" ? /^data:([^;,]*)(?:;[^,]*)?,(.*)$/s.exec(leaf.value) : null;
    if (dataUrl) values.strings.add(dataUrl[1]).add(dataUrl[2]);
    if (leaf.kind === "string") values.strings.add(leaf.value);
    if (leaf.kind === "number") values.numbers.add(leaf.value);
    if (isSignature(leaf)) values.signatures.add(signatureBytes(leaf.value));
    values.byField.add(`${fieldOf(leaf.path)}\u0000${leaf.kind}\u0000${leaf.value}`);
  }
  values.allText = [...values.strings].join("\u0000");
  return values;
}

function isKept(leaf: Leaf, streamed: boolean, output: Values): boolean {
  if (output.byField.has(`${fieldOf(leaf.path)}\u0000${leaf.kind}\u0000${leaf.value}`)) return true;
  // A replay may write a Gemini signature's bytes in base64url (google-genai does): the same bytes kept in base64 keep it.
  if (isSignature(leaf) && output.signatures.has(signatureBytes(leaf.value))) return true;
  if (isTrivial(leaf)) {
    // A fragment of streamed text may be one character, or none.
    return streamed && leaf.kind === "string" && output.allText.includes(leaf.value);
  }
  // A value inside an object written as JSON text (Anthropic's `input` as `arguments`) is in that text.
  const embedded = leaf.kind === "number" ? new RegExp(`[:\\[,]\\s*${leaf.value.replace(/[.+]/g, "\\$&")}\\s*[,}\\]]`).test(output.allText) : output.allText.includes(JSON.stringify(leaf.value));
  if (leaf.kind === "number") return output.numbers.has(leaf.value) || embedded;
  return output.strings.has(leaf.value) || embedded || (streamed && output.allText.includes(leaf.value));
}

function isSignature(leaf: Leaf): boolean {
  return leaf.kind === "string" && /^thought_?signature$/i.test(fieldOf(leaf.path));
}

/** A base64 or base64url text as one spelling of its bytes: standard alphabet, no padding. */
function signatureBytes(text: string): string {
  return text.replace(/=+$/, "").replaceAll("-", "+").replaceAll("_", "/");
}
