// The conversation view: the canonical items in journal order, each with its
// source line and verdict. A call shows its arguments pretty-printed, with the
// value a schema refused marked, or as written when JSON.parse would show them
// otherwise; an output links to its call by call_id.
import type { GateRecord } from "../../gate/prepared-gate.js";
import { escapeHtml, escapeName, escapeWritten } from "./escape-html.js";
import { compactJson } from "../../journal/document-texts.js";
import { holdsPointer } from "../../journal/json-pointer.js";
import { jsonHtml } from "./json-html.js";
import { shellQuoted } from "./shell-quote.js";
import { itemAnchor, lineAnchor, PageLinks } from "./page-links.js";
import type { ReportData, ShownItem } from "./report-data.js";

export function renderItems(data: ReportData, links: PageLinks, command: string): string {
  const { total, inView, shown } = data.items;
  const calls = new Map<string, ShownItem>();
  for (const entry of shown) {
    const item = fieldsOf(entry.item);
    if (item.type === "function_call" && typeof item.call_id === "string" && !calls.has(callKey(entry.conversation, item.call_id))) calls.set(callKey(entry.conversation, item.call_id), entry);
  }
  const seenLines = new Set<string>();
  const first = shown.length > 0 ? shown[0].ordinal : 0;
  const last = shown.length > 0 ? shown[shown.length - 1].ordinal : 0;
  const leftOut = inView - shown.length;
  const shownText = data.conversations.show === undefined ? `Items ${first}–${last} of ${total} are shown` : `${shown.length} of the conversation's ${inView} items are shown (items ${first}–${last} of the journal's ${total})`;
  const window =
    inView === 0
      ? `<p id="items-window">${total === 0 ? "The journal gave no item." : "No item is in this view."}</p>`
      : `<p id="items-window">${shownText}${leftOut > 0 ? `; ${leftOut} ${leftOut === 1 ? "is" : "are"} counted in the summary but left out of this view. To see them, run <code>${escapeHtml(command)} --items-from ${shown.length === 0 ? 1 : last + 1} --max-items ${data.settings.maxItems}</code>` : ""}.</p>`;
  const { pointer, show } = data.conversations;
  if (pointer === undefined) {
    const articles = shown.map((entry) => article(entry, links, calls, seenLines, data.sources)).join("\n");
    return `<p>The whole input is one conversation, as <code>orbridge gate</code> reads it without <code>--conversation</code>.</p>\n${window}\n${articles}`;
  }
  // Interleaved in the journal, the items are shown conversation by conversation, each in journal order.
  const groups = new Map<string, ShownItem[]>();
  for (const entry of shown) {
    const key = entry.conversation ?? "";
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
  }
  const which =
    show === undefined
      ? `<p>To see one conversation whole, run the command under its heading.</p>`
      : `<p>Only conversation <code>${escapeHtml(show)}</code> is shown${groups.size === 0 ? ", and no item of the journal belongs to it" : ""}.</p>`;
  // The command is given whole, the key quoted for the shell: a key is journal text, and pasted between quotes of the reader's own it could run.
  const showCommand = (key: string) => (show === undefined ? `\n<p class="muted">Alone: <code>${escapeHtml(`${command} --show ${shellQuoted(key)}`)}</code></p>` : "");
  const sections = [...groups].map(([key, entries]) => `<h3>conversation <code>${escapeName(key)}</code></h3>${showCommand(key)}\n${entries.map((entry) => article(entry, links, calls, seenLines, data.sources)).join("\n")}`).join("\n");
  return `${which}\n${window}\n${sections}`;
}

function article(entry: ShownItem, links: PageLinks, calls: Map<string, ShownItem>, seenLines: Set<string>, sources: readonly string[]): string {
  const item = fieldsOf(entry.item);
  const verdict = entry.verdict;
  const state = verdict === undefined ? "" : verdict.blocked ? " is-blocked" : " is-passed";
  const lineMark = links.opensLine(entry.place, seenLines) ? `<span id="${lineAnchor(entry.place)}"></span>` : "";
  const where = `${sources.length > 1 ? `${escapeHtml(sources[entry.place.source] ?? "")}:` : ""}line ${entry.place.line}${entry.place.index > 0 ? `.${entry.place.index}` : ""}`;
  const type = typeof item.type === "string" ? item.type : "(no type)";
  const header = `<header>${lineMark}<strong>#${entry.ordinal}</strong> <span>${where}</span> <code>${escapeName(type)}</code>${typeof item.role === "string" ? ` <span>${escapeName(item.role)}</span>` : ""} <span class="muted">${escapeHtml(entry.envelope)}</span></header>`;
  return `<article class="item${state}" id="${itemAnchor(entry.place)}">${header}${verdictHtml(verdict)}${body(item, entry.conversation, verdict, links, calls)}</article>`;
}

function verdictHtml(verdict: GateRecord | undefined): string {
  if (verdict === undefined) return "";
  const mark = verdict.blocked ? `<span class="blocked">BLOCKED</span>` : `<span class="pass">pass</span>`;
  const findings = verdict.findings.map((finding) => `<li><code>${escapeHtml(finding.code)}</code>: ${escapeName(finding.detail)}</li>`).join("");
  return `<p class="verdict">${mark} <code>${escapeHtml(verdict.reason)}</code>: ${escapeName(verdict.detail)}</p>${findings === "" ? "" : `<ul class="findings">${findings}</ul>`}`;
}

/** A call_id is one conversation's: two conversations may use the same. */
function callKey(conversation: string | undefined, callId: string): string {
  return `${conversation ?? ""} ${callId}`;
}

function body(item: Record<string, unknown>, conversation: string | undefined, verdict: GateRecord | undefined, links: PageLinks, calls: Map<string, ShownItem>): string {
  switch (item.type) {
    case "message":
      return content(item.content);
    case "function_call":
      return `<p>calls <code>${escapeName(String(item.name ?? "(no name)"))}</code> with call_id <code>${escapeName(String(item.call_id ?? "(none)"))}</code></p>${argumentsHtml(item.arguments, verdict)}`;
    case "function_call_output": {
      const call = typeof item.call_id === "string" ? calls.get(callKey(conversation, item.call_id)) : undefined;
      const href = call === undefined ? undefined : links.hrefOf(call.place);
      const callText = `<code>${escapeName(String(item.call_id ?? "(none)"))}</code>`;
      const to = href === undefined ? `answers call_id ${callText}${call === undefined ? " (its call is not in this view)" : ""}` : `answers <a href="${href}">the call ${callText}</a> (line ${call!.place.line})`;
      return `<p>${to}</p>${content(item.output)}`;
    }
    default:
      // Reasoning, references and extension items are shown whole, as the journal holds them.
      return `<pre>${jsonHtml(item)}</pre>`;
  }
}

/** A message's content or an output: text as text, parts as JSON. */
function content(value: unknown): string {
  if (typeof value === "string") return `<pre>${escapeHtml(value)}</pre>`;
  return `<pre>${jsonHtml(value)}</pre>`;
}

function argumentsHtml(value: unknown, verdict: GateRecord | undefined): string {
  if (typeof value !== "string") return `<p>arguments (not a string):</p><pre>${jsonHtml(value, verdict?.reason === "arguments_type" ? "" : undefined)}</pre>`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return `<p>arguments (as written, not JSON):</p><pre><mark>${escapeWritten(value)}</mark></pre>`;
  }
  // Pretty-printed from the parsed value only when that value writes the same
  // text back: a member named twice, a number a double rounds (2^53 + 1, 1.0, -0)
  // or an escape would otherwise be shown as something the tool does not get.
  if (JSON.stringify(parsed) !== compactJson(value)) return `<p>arguments (as written: read as JSON they would be shown otherwise, as a name given twice, a rounded number or an escape):</p><pre>${escapeWritten(value)}</pre>`;
  const marked = verdict?.reason === "arguments_schema" ? failingPointers(verdict.detail, parsed) : undefined;
  return `<p>arguments:</p><pre>${jsonHtml(parsed, marked)}</pre>`;
}

/**
 * The JSON Pointers a schema error may name ("arguments/region must be…", ""
 * for the whole arguments) that hold a value. The error writes the pointer and
 * then its message after a space, and a member's name may hold spaces: each
 * reading that names a value of the arguments is marked, so the refused value
 * is never the one left unmarked.
 */
export function failingPointers(detail: string, parsed: unknown): Set<string> {
  const pointers = new Set<string>();
  if (!detail.startsWith("arguments")) return pointers;
  const rest = detail.slice("arguments".length);
  if (rest.startsWith(" ")) pointers.add("");
  if (!rest.startsWith("/")) return pointers;
  for (let space = rest.indexOf(" "); space !== -1; space = rest.indexOf(" ", space + 1)) {
    const pointer = rest.slice(0, space);
    if (holdsPointer(parsed, pointer)) pointers.add(pointer);
  }
  return pointers;
}

function fieldsOf(item: unknown): Record<string, unknown> {
  return item !== null && typeof item === "object" && !Array.isArray(item) ? (item as Record<string, unknown>) : {};
}
