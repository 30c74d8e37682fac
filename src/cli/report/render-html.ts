// The report page: one HTML file that needs nothing but itself. No script at all
// (the summary, the charts and every drill-down link work as plain HTML), and a
// Content-Security-Policy that forbids scripts and every request, so that even
// journal text that escaped its escaping could neither run nor call out.
import { barChartSvg, type BarRow } from "./charts-svg.js";
import { escapeHtml, escapeName } from "./escape-html.js";
import { PAGE_STYLE } from "./page-style.js";
import { PageLinks } from "./page-links.js";
import type { LossTable, ReportData } from "./report-data.js";
import { renderItems } from "./render-items.js";
import { renderReplay } from "./render-replay.js";
import type { Tallied } from "./tally.js";

/** Conversations listed in the summary, the most blocked first. */
const MAX_CONVERSATION_ROWS = 50;

const POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** Blocked verdicts name their reason; a line that gave no item is counted under "error". */
const REASON_ORDER = ["namespaced", "not_function_call", "status", "arguments_type", "arguments_parse", "arguments_schema", "unknown_tool", "ok", "error"];

export interface RenderOptions {
  /** The command line that made the report, for the page to say how to see what it left out. */
  command: string;
}

export function renderHtml(data: ReportData, options: RenderOptions): string {
  const links = new PageLinks(data);
  const drills = new Drills(links, data.sources);
  const title = `orbridge report: ${data.sources.join(", ")}`;
  const sections = [
    section("summary", "Summary", summary(data, drills)),
    section("verdicts", "Verdicts", verdicts(data, drills)),
    section("losses", "Losses", losses(data.reading, "reading", drills) + (data.writing ? losses(data.writing, "writing", drills) : "")),
    section("errors", "Lines that gave no item", errors(data)),
    ...(data.replay ? [section("replay", "Origin versus replay", renderReplay(data.replay, links, data.sources))] : []),
    section("drill-down", "Lines behind each count", drills.html()),
    section("conversation", "Conversation", renderItems(data, links, options.command)),
  ];
  const nav = ["summary", "verdicts", "losses", "errors", ...(data.replay ? ["replay"] : []), "drill-down", "conversation"].map((id) => `<a href="#${id}">${id.replace("-", " ")}</a>`).join("");
  return (
    `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="${POLICY}">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="color-scheme" content="light dark">\n<title>${escapeHtml(title)}</title>\n<style>${PAGE_STYLE}</style>\n</head>\n<body>\n` +
    `<header><h1>orbridge report</h1><p>Journal: ${data.sources.map((source) => `<code>${escapeHtml(source)}</code>`).join(", ")}${settingsText(data)}</p><nav>${nav}</nav></header>\n` +
    `${sections.join("\n")}\n</body>\n</html>\n`
  );
}

function settingsText(data: ReportData): string {
  const parts: string[] = [];
  if (data.settings.schema !== undefined) parts.push(`schema <code>${escapeHtml(data.settings.schema)}</code>`);
  if (data.settings.tools !== undefined) parts.push(`tools <code>${escapeHtml(data.settings.tools)}</code>`);
  if (data.settings.target !== undefined) parts.push(`replay target <code>${escapeHtml(data.settings.target)}</code>`);
  if (data.settings.to !== undefined) parts.push(`losses written to <code>${escapeHtml(data.settings.to)}</code>`);
  return parts.length === 0 ? "" : `; ${parts.join("; ")}`;
}

function section(id: string, heading: string, body: string): string {
  return `<section id="${id}"><h2>${heading}</h2>\n${body}\n</section>`;
}

function summary(data: ReportData, drills: Drills): string {
  const { items, errors, passed, blocked } = data.verdicts;
  const lineTotal = sum(data.lineKinds);
  const blank = data.lineKinds.find((entry) => entry.key === "blank line")?.count ?? 0;
  const linesAddUp = lineTotal === data.linesRead;
  const verdictsAddUp = items + errors === passed + blocked && sum(data.passedByReason) + sum(data.blockedByReason) === items + errors;
  const counts = [
    ["lines-read", "lines read", data.linesRead],
    ["records", "records", data.linesRead - blank],
    ["conversations", "conversations", data.conversations.count],
    ["items", "items", items],
    ["errors", "errors", errors],
    ["passed", "passed", passed],
    ["blocked", "blocked", blocked],
    ["losses", "losses", data.reading.total + (data.writing?.total ?? 0)],
  ] as const;
  const tiles = counts.map(([key, label, value]) => `<div><dt>${label}</dt><dd data-count="${key}">${value}</dd></div>`).join("");
  const lineBalance = `${data.linesRead} lines read = ${data.lineKinds.map((entry) => `${entry.count} ${escapeHtml(entry.key)}`).join(" + ") || "0"}`;
  const verdictBalance = `${items} items + ${errors} lines that gave no item = ${items + errors} verdicts = ${passed} passed + ${blocked} blocked`;
  const rows = data.lineKinds.map((entry) => `<tr><td>${escapeHtml(entry.key)}</td><td class="n">${drills.link(entry, "line kind", "kind")}</td></tr>`).join("");
  return (
    `<dl class="counts">${tiles}</dl>\n` +
    `<p class="balance${linesAddUp ? "" : " off"}" id="lines-add-up">${lineBalance}: ${linesAddUp ? "the rows add up to the lines read" : "the rows do NOT add up to the lines read"}.</p>\n` +
    `<p class="balance${verdictsAddUp ? "" : " off"}" id="verdicts-add-up">${verdictBalance}: ${verdictsAddUp ? "every verdict is counted once, by its reason below" : "the verdicts do NOT add up"}.</p>\n` +
    `<p class="muted">These are the counts <code>orbridge gate</code> prints on the same journal with the same options (<code>read N lines: N items, N errors; N blocked</code>). A record is a line that is not blank; a record may give several items (a request body, a response) or none (a stream chunk, whose response comes with the stream's last line).</p>\n` +
    `<table><thead><tr><th>line kind (envelope)</th><th class="n">lines</th></tr></thead><tbody>${rows}</tbody></table>` +
    conversations(data, drills)
  );
}

/** Conversations gated apart: the ones with the most blocked items first, each count leading to its lines. */
function conversations(data: ReportData, drills: Drills): string {
  const { pointer, verdicts, blocked, overflow, reopened, count } = data.conversations;
  if (pointer === undefined) return `<p class="muted">The whole input is one conversation, as <code>orbridge gate</code> reads it without <code>--conversation</code>.</p>`;
  const blockedOf = new Map(blocked.map((entry) => [entry.key, entry]));
  const ordered = [...verdicts].sort((a, b) => (blockedOf.get(b.key)?.count ?? 0) - (blockedOf.get(a.key)?.count ?? 0) || b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const top = ordered.slice(0, MAX_CONVERSATION_ROWS);
  const rows = top
    .map((entry) => {
      const blockedEntry = blockedOf.get(entry.key);
      return `<tr><td><code>${escapeName(entry.key)}</code></td><td class="n">${drills.link(entry, "verdicts of conversation", "conversation")}</td><td class="n">${blockedEntry ? drills.link(blockedEntry, "blocked in conversation", "conversation-blocked") : "0"}</td></tr>`;
    })
    .join("");
  const left = ordered.length - top.length;
  const notes = [
    `Each conversation is gated apart (key at <code>${escapeHtml(pointer)}</code>), as <code>orbridge gate --conversation</code> gates it.`,
    reopened > 0 ? `${reopened} were reopened after --max-open-conversations closed them, and start afresh.` : "",
    left > 0 ? `${left} more conversations are counted, not listed.` : "",
    overflow > 0 ? `${overflow} verdicts of conversations past the first ${verdicts.length} are counted in the totals only.` : "",
  ].filter((note) => note !== "");
  return `<h3>Conversations: ${count}</h3><p class="muted">${notes.join(" ")}</p><table id="conversations"><thead><tr><th>conversation</th><th class="n">verdicts</th><th class="n">blocked</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function verdicts(data: ReportData, drills: Drills): string {
  const reasons = new Set([...data.passedByReason.map((entry) => entry.key), ...data.blockedByReason.map((entry) => entry.key)]);
  const ordered = [...REASON_ORDER.filter((reason) => reasons.has(reason)), ...[...reasons].filter((reason) => !REASON_ORDER.includes(reason)).sort()];
  const passedOf = (reason: string) => data.passedByReason.find((entry) => entry.key === reason);
  const blockedOf = (reason: string) => data.blockedByReason.find((entry) => entry.key === reason);
  const chartRows: BarRow[] = ordered.map((reason) => {
    const blocked = blockedOf(reason);
    return {
      label: reason,
      segments: [
        { value: blocked?.count ?? 0, tone: "blocked" },
        { value: passedOf(reason)?.count ?? 0, tone: "passed" },
      ],
      href: blocked ? drills.anchor(blocked, "blocked") : undefined,
    };
  });
  const rows = ordered
    .map((reason) => {
      const passed = passedOf(reason);
      const blocked = blockedOf(reason);
      return `<tr><td><code>${reason}</code></td><td class="n">${passed ? drills.link(passed, "passed", "pass") : "0"}</td><td class="n">${blocked ? drills.link(blocked, "blocked", "blocked") : "0"}</td></tr>`;
    })
    .join("");
  const findingRows = data.findings.map((entry) => `<tr data-finding="${escapeHtml(entry.key)}"><td><code>${escapeHtml(entry.key)}</code></td><td class="n">${drills.link(entry, "finding", "finding")}</td></tr>`).join("");
  const blockedByRows = data.blockedBy.map((entry) => `<tr data-blocked-by="${escapeHtml(entry.key)}"><td><code>${escapeHtml(entry.key)}</code></td><td class="n">${drills.link(entry, "blocked by", "blocked-by")}</td></tr>`).join("");
  const toolRows = data.blockedByTool.map((entry) => `<tr><td><code>${escapeName(entry.key)}</code></td><td class="n">${drills.link(entry, "blocked calls of", "tool")}</td></tr>`).join("");
  const toolChart = barChartSvg({
    id: "chart-tools",
    title: "Blocked function calls per tool",
    rows: data.blockedByTool.slice(0, 20).map((entry) => ({ label: entry.key, segments: [{ value: entry.count, tone: "blocked" }], href: drills.anchor(entry, "tool") })),
  });
  return (
    barChartSvg({ id: "chart-reasons", title: "Verdicts by reason: blocked and passed", rows: chartRows }) +
    `<p class="legend muted"><span class="blocked">blocked</span><span class="passed">passed</span></p>` +
    `\n<table id="reasons"><thead><tr><th>reason</th><th class="n">passed</th><th class="n">blocked</th></tr></thead><tbody>${rows}</tbody></table>\n` +
    `<p class="muted">An item that is no call passes as <code>not_function_call</code> unless a finding blocks it; a finding blocks whatever its reason.</p>\n` +
    `<h3>Blocked by</h3>${blockedByRows === "" ? "<p>Nothing was blocked.</p>" : `<p class="muted">Each blocked record once, by what blocked it: its reason, or the finding that blocked an item whose reason does not block, as <code>orbridge gate</code>'s summary counts them (<code>blocked_by</code> in <code>--summary json</code>).</p><table id="blocked-by"><thead><tr><th>blocked by</th><th class="n">records</th></tr></thead><tbody>${blockedByRows}</tbody></table>`}\n` +
    `<h3>Findings</h3>${findingRows === "" ? "<p>No finding.</p>" : `<table id="findings"><thead><tr><th>finding</th><th class="n">items</th></tr></thead><tbody>${findingRows}</tbody></table>`}\n` +
    `<h3>Blocked calls per tool</h3>${toolRows === "" ? "<p>No function call was blocked.</p>" : `${toolChart}<table id="tools"><thead><tr><th>tool</th><th class="n">blocked calls</th></tr></thead><tbody>${toolRows}</tbody></table>`}`
  );
}

function losses(table: LossTable, which: string, drills: Drills): string {
  const heading = `<h3>Losses ${escapeHtml(table.label)}: ${table.total}</h3>`;
  if (table.total === 0) return `${heading}<p>Nothing lost.</p>`;
  const chart = barChartSvg({
    id: `chart-losses-${which}`,
    title: `Losses ${table.label}, by code`,
    rows: table.byCode.map((entry) => ({ label: entry.key, segments: [{ value: entry.count, tone: "neutral" }], href: drills.anchor(entry, `loss-${which}`) })),
  });
  const codeRows = table.byCode.map((entry) => `<tr><td><code>${escapeHtml(entry.key)}</code></td><td class="n">${drills.link(entry, `loss ${which}`, `loss-${which}`)}</td></tr>`).join("");
  const top = table.byPath.slice(0, 25);
  const pathRows = top
    .map((entry) => {
      const [path, code] = JSON.parse(entry.key) as [string, string];
      return `<tr><td><code>${escapeName(path === "" ? '"" (the whole record)' : path)}</code></td><td><code>${escapeHtml(code)}</code></td><td class="n">${drills.link({ ...entry, key: `${code} at ${path}` }, `loss ${which}:`, `path-${which}`)}</td></tr>`;
    })
    .join("");
  const morePaths = table.byPath.length - top.length;
  const rest = morePaths > 0 || table.pathOverflow > 0 ? `<p class="muted">${morePaths > 0 ? `${morePaths} more paths are not listed` : ""}${morePaths > 0 && table.pathOverflow > 0 ? "; " : ""}${table.pathOverflow > 0 ? `${table.pathOverflow} losses at paths past the ${table.byPath.length} kept are counted by code only` : ""}.</p>` : "";
  return (
    `${heading}${chart}<table><thead><tr><th>loss</th><th class="n">count</th></tr></thead><tbody>${codeRows}</tbody></table>` +
    `<h4>Top paths (JSON Pointers into ${which === "reading" ? "the record" : "the items the record gave"}, array positions as <code>*</code>)</h4><table><thead><tr><th>path</th><th>loss</th><th class="n">count</th></tr></thead><tbody>${pathRows}</tbody></table>${rest}`
  );
}

function errors(data: ReportData): string {
  if (data.errors.total === 0) return "<p>Every line that is not blank gave its record.</p>";
  const items = data.errors.shown
    .map((error) => `<li id="error-${error.place.source}-${error.place.line}">${data.sources.length > 1 ? `${escapeHtml(data.sources[error.place.source] ?? "")}:` : ""}line ${error.place.line}: ${escapeName(error.detail)}</li>`)
    .join("");
  const more = data.errors.total > data.errors.shown.length ? `<p>${data.errors.total - data.errors.shown.length} more are counted, not listed.</p>` : "";
  return `<ul>${items}</ul>${more}`;
}

function sum(entries: readonly Tallied[]): number {
  return entries.reduce((total, entry) => total + entry.count, 0);
}

/**
 * The drill-down lists: each count linked to the list of the first lines behind
 * it, each line linked to its item or error. Anchors are numbered, never named
 * after journal text.
 */
class Drills {
  private readonly lists: string[] = [];
  private readonly anchors = new Map<Tallied, string>();

  constructor(
    private readonly links: PageLinks,
    private readonly sources: readonly string[],
  ) {}

  /** The count as a link to its list. */
  link(entry: Tallied, what: string, family: string): string {
    return `<a href="${this.anchor(entry, family, what)}">${entry.count}</a>`;
  }

  anchor(entry: Tallied, family: string, what = family): string {
    const known = this.anchors.get(entry);
    if (known !== undefined) return known;
    const id = `drill-${family}-${this.lists.length}`;
    const anchor = `#${id}`;
    this.anchors.set(entry, anchor);
    const places = entry.places
      .map((place) => {
        const where = `${this.sources.length > 1 ? `${escapeHtml(this.sources[place.source] ?? "")}:` : ""}line ${place.line}${place.index > 0 ? `.${place.index}` : ""}`;
        const href = this.links.hrefOf(place);
        return `<li>${href === undefined ? `${where} <span class="muted">(not in the conversation view)</span>` : `<a href="${href}">${where}</a>`}</li>`;
      })
      .join("");
    const more = entry.count > entry.places.length ? `<p class="muted">The first ${entry.places.length} are listed; ${entry.count - entry.places.length} more are counted.</p>` : "";
    this.lists.push(`<div class="drill" id="${id}"><h3>${escapeHtml(what)} <code>${escapeName(entry.key)}</code>: ${entry.count}</h3><ul>${places}</ul>${more}</div>`);
    return anchor;
  }

  html(): string {
    return this.lists.length === 0 ? "<p>Nothing counted.</p>" : this.lists.join("\n");
  }
}
