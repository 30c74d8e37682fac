// Origin versus replay: the differences `orbridge diff` finds, counted by code,
// then each side by side, the field that differs marked.
import type { ItemPlace } from "../../diff.js";
import { escapeHtml, escapeName } from "./escape-html.js";
import { jsonHtml } from "./json-html.js";
import type { PageLinks } from "./page-links.js";
import type { ReplayDiff } from "./report-data.js";
import { sideKey } from "./replay-diff.js";

/** Conversations listed with their differences, the most first. */
const MAX_CONVERSATION_ROWS = 50;

export function renderReplay(diff: ReplayDiff, links: PageLinks, sources: readonly string[]): string {
  // Each code's count leads to its first difference shown.
  const firstOf = (code: string) => diff.shown.findIndex((difference) => difference.code === code);
  const rows = diff.byCode
    .map((entry) => {
      const first = firstOf(entry.key);
      return `<tr><td><code>${escapeHtml(entry.key)}</code></td><td class="n">${first === -1 ? entry.count : `<a href="#difference-${first}">${entry.count}</a>`}</td></tr>`;
    })
    .join("");
  const summary =
    `<p>Replay <code>${escapeHtml(diff.source)}</code> against the journal: <strong data-count="differences">${diff.total}</strong> ${diff.total === 1 ? "difference" : "differences"}` +
    `${diff.replayErrors > 0 ? `; ${diff.replayErrors} replay ${diff.replayErrors === 1 ? "line" : "lines"} could not be read` : ""}.</p>` +
    (rows === "" ? "" : `<table><thead><tr><th>difference</th><th class="n">count</th></tr></thead><tbody>${rows}</tbody></table>`);
  const conversationRows = (diff.byConversation ?? [])
    .slice(0, MAX_CONVERSATION_ROWS)
    // A key is journal text: written as the summary's table writes it, so that "c1\u200b" never reads as "c1".
    .map((entry) => `<tr><td><code>${escapeName(entry.key)}</code></td><td class="n">${entry.count}</td></tr>`)
    .join("");
  const perConversation = conversationRows === "" ? "" : `<table id="differences-by-conversation"><thead><tr><th>conversation</th><th class="n">differences</th></tr></thead><tbody>${conversationRows}</tbody></table>`;
  const notes = diff.notes.map((note) => `<li>from origin line ${note.origin.line} and replay line ${note.replay.line}: ${escapeName(note.detail)}</li>`).join("");
  const pairs = diff.shown
    .map((difference, index) => {
      const origin = difference.origin;
      const replay = difference.replay;
      const originHref = origin === undefined ? undefined : links.hrefOf({ source: Math.max(0, sources.indexOf(origin.source ?? sources[0])), line: origin.line, index: origin.index });
      const originTitle = origin === undefined ? "origin: none" : originHref === undefined ? `origin ${placeText(origin)}` : `<a href="${originHref}">origin ${placeText(origin)}</a>`;
      const replayTitle = replay === undefined ? "replay: none" : `replay ${placeText(replay)}`;
      const side = (place: ItemPlace | undefined, item: unknown) => {
        if (place === undefined) return `<pre class="muted">(no item)</pre>`;
        return item === undefined ? `<pre class="muted">(item not kept for this view)</pre>` : `<pre>${jsonHtml(item, difference.path)}</pre>`;
      };
      const originEntry = origin === undefined ? undefined : diff.originItems.get(sideKey(origin));
      const conversation = originEntry?.conversation === undefined ? "" : ` <span class="muted">in conversation <code>${escapeName(originEntry.conversation)}</code></span>`;
      return (
        `<div class="difference" id="difference-${index}"><p><code>${escapeHtml(difference.code)}</code>${conversation}: ${escapeName(difference.detail)}</p>` +
        `<div class="pair"><div><h4>${originTitle}</h4>${side(origin, originEntry?.item)}</div><div><h4>${replayTitle}</h4>${side(replay, replay === undefined ? undefined : diff.replayItems.get(sideKey(replay)))}</div></div></div>`
      );
    })
    .join("\n");
  const more = diff.total > diff.shown.length ? `<p>The first ${diff.shown.length} differences are shown; <code>orbridge diff</code> lists all ${diff.total}.</p>` : "";
  return `${summary}${perConversation}${notes === "" ? "" : `<p>Stretches lined up by position (their differences may be false):</p><ul>${notes}</ul>`}${more}${pairs}`;
}

function placeText(place: ItemPlace): string {
  return `line ${place.line}${place.index > 0 ? `.${place.index}` : ""}`;
}
