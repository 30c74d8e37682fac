// Horizontal bar charts drawn as inline SVG: no script, no library, colours from
// the page's CSS variables so that light and dark mode both read. Each chart
// carries its own text alternative (title and description), and the page puts
// the same numbers in a table beside it.
import { escapeHtml, escapeName } from "./escape-html.js";
import { visibleInLine } from "../../models/quote-visible.js";

export type Tone = "passed" | "blocked" | "neutral";

export interface BarSegment {
  value: number;
  tone: Tone;
}

export interface BarRow {
  label: string;
  segments: BarSegment[];
  /** An anchor of the page (`#reason-status`), built by the page, never from journal text. */
  href?: string;
}

export interface BarChart {
  id: string;
  title: string;
  rows: BarRow[];
}

const WIDTH = 680;
const LABEL_WIDTH = 220;
const VALUE_WIDTH = 70;
const ROW_HEIGHT = 24;
const BAR_HEIGHT = 16;
const MAX_LABEL_CHARACTERS = 30;

export function barChartSvg(chart: BarChart): string {
  const rows = chart.rows;
  const height = Math.max(1, rows.length) * ROW_HEIGHT + 8;
  const largest = Math.max(1, ...rows.map(rowTotal));
  const scale = (WIDTH - LABEL_WIDTH - VALUE_WIDTH) / largest;
  const description = rows.length === 0 ? "nothing to count" : rows.map((row) => `${visibleInLine(row.label)}: ${segmentsText(row)}`).join("; ");
  const body = rows
    .map((row, index) => {
      const y = 4 + index * ROW_HEIGHT;
      let x = LABEL_WIDTH;
      const bars = row.segments
        .filter((segment) => segment.value > 0)
        .map((segment) => {
          const width = Math.max(1, segment.value * scale);
          const bar = `<rect class="bar ${segment.tone}" x="${x.toFixed(1)}" y="${y + (ROW_HEIGHT - BAR_HEIGHT) / 2}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}"><title>${escapeName(row.label)}: ${segment.value} ${escapeHtml(segment.tone)}</title></rect>`;
          x += width;
          return bar;
        })
        .join("");
      const label = `<text class="label" x="${LABEL_WIDTH - 8}" y="${y + ROW_HEIGHT / 2}" text-anchor="end" dominant-baseline="middle">${escapeHtml(shorten(visibleInLine(row.label)))}</text>`;
      const value = `<text class="value" x="${(x + 6).toFixed(1)}" y="${y + ROW_HEIGHT / 2}" dominant-baseline="middle">${rowTotal(row)}</text>`;
      const content = label + bars + value;
      return row.href === undefined ? `<g>${content}</g>` : `<a href="${escapeHtml(row.href)}">${content}</a>`;
    })
    .join("");
  return (
    `<svg class="chart" id="${escapeHtml(chart.id)}" role="img" aria-labelledby="${escapeHtml(chart.id)}-title ${escapeHtml(chart.id)}-desc" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${escapeHtml(chart.id)}-title">${escapeHtml(chart.title)}</title><desc id="${escapeHtml(chart.id)}-desc">${escapeHtml(description)}</desc>${body}</svg>`
  );
}

function rowTotal(row: BarRow): number {
  return row.segments.reduce((sum, segment) => sum + segment.value, 0);
}

function segmentsText(row: BarRow): string {
  const shown = row.segments.filter((segment) => segment.value > 0);
  if (shown.length <= 1) return String(rowTotal(row)) + (shown.length === 1 && shown[0].tone !== "neutral" ? ` ${shown[0].tone}` : "");
  return shown.map((segment) => `${segment.value} ${segment.tone}`).join(", ");
}

function shorten(label: string): string {
  const characters = Array.from(label);
  return characters.length <= MAX_LABEL_CHARACTERS ? label : `${characters.slice(0, MAX_LABEL_CHARACTERS - 1).join("")}…`;
}
