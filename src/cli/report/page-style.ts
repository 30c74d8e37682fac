// The page's one stylesheet, inline: system fonts only (nothing to fetch), colours
// as variables that the dark scheme redefines, so charts and text follow it. A
// name, id or key is shown in <code> with its spaces as they are: collapsed,
// call_id "call  1" read as "call 1", another call's.
export const PAGE_STYLE = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --panel: #f6f8fa;
  --passed: #1a7f37; --blocked: #cf222e; --neutral: #0969da; --mark: #fff8c5; --link: #0969da; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --panel: #161b22;
    --passed: #3fb950; --blocked: #f85149; --neutral: #58a6ff; --mark: #5a4a00; --link: #58a6ff; }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 4rem; background: var(--bg); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
a { color: var(--link); }
h1 { margin: 0.5rem 0; font-size: 1.6rem; }
h2 { margin-top: 2.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
nav a { margin-right: 1rem; }
.muted { color: var(--muted); }
.balance { padding: 0.5rem 0.75rem; border-left: 4px solid var(--passed); background: var(--panel); }
.balance.off { border-left-color: var(--blocked); }
dl.counts { display: grid; grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); gap: 0.5rem; margin: 1rem 0; }
dl.counts div { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.75rem; }
dl.counts dt { color: var(--muted); font-size: 0.85rem; }
dl.counts dd { margin: 0; font-size: 1.5rem; font-variant-numeric: tabular-nums; }
table { border-collapse: collapse; margin: 0.75rem 0; }
th, td { border-bottom: 1px solid var(--line); padding: 0.25rem 0.75rem; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.85rem; }
code { white-space: pre-wrap; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem; overflow-x: auto; white-space: pre-wrap; word-break: break-word; }
mark { background: var(--mark); color: inherit; outline: 2px solid var(--blocked); }
svg.chart { max-width: 100%; height: auto; display: block; margin: 0.5rem 0; }
svg.chart .label, svg.chart .value { fill: var(--fg); font: 12px system-ui, sans-serif; }
svg.chart .bar.passed { fill: var(--passed); }
svg.chart .bar.blocked { fill: var(--blocked); }
svg.chart .bar.neutral { fill: var(--neutral); }
.pass { color: var(--passed); font-weight: 600; }
.blocked { color: var(--blocked); font-weight: 600; }
.drill { margin: 1rem 0; padding: 0.25rem 0.75rem; border: 1px solid var(--line); border-radius: 6px; }
.drill ul { columns: 3 14rem; }
article.item { border: 1px solid var(--line); border-left: 4px solid var(--line); border-radius: 6px; margin: 0.75rem 0; padding: 0.5rem 0.75rem; }
article.item.is-blocked { border-left-color: var(--blocked); }
article.item.is-passed { border-left-color: var(--passed); }
article.item header { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; align-items: baseline; }
article:target, .drill:target, li:target { outline: 3px solid var(--neutral); outline-offset: 2px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 0.75rem; }
.legend span::before { content: ""; display: inline-block; width: 0.8em; height: 0.8em; margin: 0 0.3em 0 0.8em; vertical-align: -0.05em; }
.legend .passed::before { background: var(--passed); }
.legend .blocked::before { background: var(--blocked); }
.pair h4 { margin: 0.25rem 0; }
`;
