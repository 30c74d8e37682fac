// The parts of the report page, each on its own: escaping, the JSON view with its
// marked value, the charts, the bounded tallies, the line kinds and the collector.
import { describe, expect, test } from "vitest";
import { barChartSvg } from "../../src/cli/report/charts-svg.js";
import { classifyLine, lineClassKey } from "../../src/cli/report/classify-line.js";
import { generalPath, ReportCollector } from "../../src/cli/report/collect.js";
import { escapeHtml } from "../../src/cli/report/escape-html.js";
import { jsonHtml } from "../../src/cli/report/json-html.js";
import { failingPointers } from "../../src/cli/report/render-items.js";
import { PLACES_PER_KEY, Tally } from "../../src/cli/report/tally.js";

describe("escapeHtml", () => {
  test("turns every character that could open a tag or close an attribute into an entity", () => {
    expect(escapeHtml(`</script><a href='javascript:x' title="y">&amp;`)).toEqual("&lt;/script&gt;&lt;a href=&#39;javascript:x&#39; title=&quot;y&quot;&gt;&amp;amp;");
  });

  test("writes each bidirectional embedding, override and isolate as its escape, and keeps other text", () => {
    expect(escapeHtml("\u202eko ssap\u202c \u2066x\u2069 \u202a\u202b\u202d\u2067\u2068 \u05d0\u200f\n")).toEqual("\\u202eko ssap\\u202c \\u2066x\\u2069 \\u202a\\u202b\\u202d\\u2067\\u2068 \u05d0\u200f\n");
  });
});

describe("jsonHtml", () => {
  test("pretty-prints with two spaces and marks the value at the pointer", () => {
    expect(jsonHtml({ region: "global", limit: [1, { a: null }] }, "/region")).toEqual('{\n  &quot;region&quot;: <mark>&quot;global&quot;</mark>,\n  &quot;limit&quot;: [\n    1,\n    {\n      &quot;a&quot;: null\n    }\n  ]\n}');
  });
  test("a pointer token with / or ~ is escaped as RFC 6901 writes it", () => {
    expect(jsonHtml({ "a/b": 1, "c~d": 2 }, "/c~0d")).toEqual("{\n  &quot;a/b&quot;: 1,\n  &quot;c~d&quot;: <mark>2</mark>\n}");
  });
  test("the empty pointer marks the whole value; text inside strings stays escaped", () => {
    expect(jsonHtml("</script>", "")).toEqual("<mark>&quot;&lt;/script&gt;&quot;</mark>");
  });
  test("a name or string holding a character that does not show is written with its escape, the same JSON value", () => {
    const value = { "region\u200b": "1\u200b2", note: "a\u2028b\u202ec\u0085", deep: "x\ufeff" };
    const html = jsonHtml(value);
    expect(html).toEqual("{\n  &quot;region\\u200b&quot;: &quot;1\\u200b2&quot;,\n  &quot;note&quot;: &quot;a\\u2028b\\u202ec\\u0085&quot;,\n  &quot;deep&quot;: &quot;x\\ufeff&quot;\n}");
    expect(JSON.parse(html.replace(/&quot;/g, '"'))).toEqual(value);
  });
  test("a value nested past 40 levels is written on one line, not recursed into", () => {
    let value: unknown = 0;
    for (let i = 0; i < 1000; i++) value = [value];
    const html = jsonHtml(value);
    expect(html.split("\n").length).toEqual(81);
  });
});

describe("failingPointers", () => {
  test("reads the pointer of the first value a schema error names", () => {
    expect([
      failingPointers('arguments/region must be equal to one of the allowed values ("apac", "emea", "amer")', { region: "global" }),
      failingPointers("arguments must have required property 'region'", {}),
      failingPointers("schema work exceeded 2000 steps", {}),
    ]).toEqual([new Set(["/region"]), new Set([""]), new Set()]);
  });

  test("a member name with spaces: every reading that names a value, so the refused one is marked", () => {
    const parsed = { to: "acct-ok", "to x": "acct-EVIL", list: [1, 2] };
    expect(failingPointers("arguments/to x must be equal to constant", parsed)).toEqual(new Set(["/to", "/to x"]));
    expect(failingPointers("arguments/list/1 must be string", parsed)).toEqual(new Set(["/list/1"]));
    expect(failingPointers("arguments/list/7 must be string", parsed)).toEqual(new Set());
  });

  test("a name the parsed value inherits is no value of it", () => {
    expect(failingPointers("arguments/constructor must be string", {})).toEqual(new Set());
  });
});

describe("generalPath", () => {
  test("writes array positions as * and leaves names alone", () => {
    expect([generalPath("/messages/3/content/0"), generalPath("/model"), generalPath(""), generalPath("/choices/10"), generalPath("/a/01")]).toEqual(["/messages/*/content/*", "/model", "", "/choices/*", "/a/01"]);
  });
});

describe("Tally", () => {
  test("keeps the first places of each key and counts the rest", () => {
    const tally = new Tally();
    for (let line = 1; line <= PLACES_PER_KEY + 5; line++) tally.add("status", { source: 0, line, index: 0 });
    tally.add("namespaced", { source: 0, line: 99, index: 1 });
    const [status, namespaced] = tally.sorted();
    expect({ key: status.key, count: status.count, kept: status.places.length, last: status.places.at(-1) }).toEqual({ key: "status", count: PLACES_PER_KEY + 5, kept: PLACES_PER_KEY, last: { source: 0, line: PLACES_PER_KEY, index: 0 } });
    expect(namespaced).toEqual({ key: "namespaced", count: 1, places: [{ source: 0, line: 99, index: 1 }] });
  });
  test("past its bound, a new key is counted as overflow and the total still holds every count", () => {
    const tally = new Tally(2);
    for (const key of ["/a", "/b", "/c", "/a", "/d"]) tally.add(key);
    expect({ keys: tally.sorted().map((entry) => [entry.key, entry.count]), overflow: tally.overflow, total: tally.total() }).toEqual({
      keys: [["/a", 2], ["/b", 1]],
      overflow: 2,
      total: 5,
    });
  });
});

describe("classifyLine", () => {
  test("names each line by what it is: blank, not read, not JSON, SSE framing, a record by kind and envelope", () => {
    const lines = [
      "",
      " \t",
      '{"role":"user","content":"hi"}',
      '{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}',
      '{"object":"chat.completion.chunk","choices":[]}',
      '{"request":{"messages":[]},"response":{"object":"chat.completion","choices":[]}}',
      "data: {}",
      "{not json",
      "42",
    ];
    const keys = lines.map((text, index) => lineClassKey(classifyLine({ source: "-", line: index + 1, text })));
    keys.push(lineClassKey(classifyLine({ source: "-", line: 10, text: "line 10 is longer than 5 bytes", error: "line 10 is longer than 5 bytes" })));
    expect(keys).toEqual([
      "blank line",
      "blank line",
      "chat_message (chat)",
      "responses_item (responses)",
      "chat_chunk (chat)",
      "exchange (exchange)",
      "SSE framing",
      "not JSON",
      "unknown (-)",
      "line not read",
    ]);
  });
});

describe("barChartSvg", () => {
  test("draws one bar per segment, labels and totals as text, a title and description for screen readers", () => {
    const svg = barChartSvg({
      id: "c",
      title: "Verdicts",
      rows: [
        { label: "status", segments: [{ value: 2, tone: "blocked" }, { value: 0, tone: "passed" }], href: "#drill-1" },
        { label: "<ok>", segments: [{ value: 1, tone: "passed" }] },
      ],
    });
    expect(svg).toEqual(
      '<svg class="chart" id="c" role="img" aria-labelledby="c-title c-desc" viewBox="0 0 680 56" width="680" height="56" xmlns="http://www.w3.org/2000/svg">' +
        '<title id="c-title">Verdicts</title><desc id="c-desc">status: 2 blocked; &lt;ok&gt;: 1 passed</desc>' +
        '<a href="#drill-1"><text class="label" x="212" y="16" text-anchor="end" dominant-baseline="middle">status</text><rect class="bar blocked" x="220.0" y="8" width="390.0" height="16"><title>status: 2 blocked</title></rect><text class="value" x="616.0" y="16" dominant-baseline="middle">2</text></a>' +
        '<g><text class="label" x="212" y="40" text-anchor="end" dominant-baseline="middle">&lt;ok&gt;</text><rect class="bar passed" x="220.0" y="32" width="195.0" height="16"><title>&lt;ok&gt;: 1 passed</title></rect><text class="value" x="421.0" y="40" dominant-baseline="middle">1</text></g></svg>',
    );
  });
});

describe("ReportCollector", () => {
  test("counts lines by kind, verdicts by reason, findings, blocked calls per tool and keeps the items with their verdicts", () => {
    const collector = new ReportCollector({ sources: ["j.jsonl"], itemsFrom: 1, maxItems: 10, settingsShown: {} });
    const lines = [
      '{"type":"function_call","id":"fc_1","call_id":"c1","name":"lookup","status":"in_progress","arguments":"{}"}',
      "",
      "{oops",
      '{"type":"function_call_output","call_id":"c9","output":"x"}',
    ];
    lines.forEach((text, index) => collector.pushLine({ source: "j.jsonl", line: index + 1, text }));
    const data = collector.finish();
    const call = { type: "function_call", id: "fc_1", call_id: "c1", name: "lookup", status: "in_progress", arguments: "{}" };
    expect({ ...data, items: { total: data.items.total, inView: data.items.inView, shown: data.items.shown.map(({ verdict, ...rest }) => ({ ...rest, reason: verdict?.reason, blocked: verdict?.blocked })) } }).toEqual({
      sources: ["j.jsonl"],
      settings: { target: undefined, to: undefined, itemsFrom: 1, maxItems: 10 },
      linesRead: 4,
      lineKinds: [
        { key: "responses_item (responses)", count: 2, places: [{ source: 0, line: 1, index: 0 }, { source: 0, line: 4, index: 0 }] },
        { key: "blank line", count: 1, places: [{ source: 0, line: 2, index: 0 }] },
        { key: "not JSON", count: 1, places: [{ source: 0, line: 3, index: 0 }] },
      ],
      verdicts: { items: 2, errors: 1, passed: 0, blocked: 3 },
      passedByReason: [],
      blockedByReason: [
        { key: "error", count: 1, places: [{ source: 0, line: 3, index: 0 }] },
        { key: "not_function_call", count: 1, places: [{ source: 0, line: 4, index: 0 }] },
        { key: "status", count: 1, places: [{ source: 0, line: 1, index: 0 }] },
      ],
      blockedBy: [
        { key: "error", count: 1, places: [{ source: 0, line: 3, index: 0 }] },
        { key: "orphan_output", count: 1, places: [{ source: 0, line: 4, index: 0 }] },
        { key: "status", count: 1, places: [{ source: 0, line: 1, index: 0 }] },
      ],
      findings: [
        { key: "orphan_output", count: 1, places: [{ source: 0, line: 4, index: 0 }] },
      ],
      blockedByTool: [{ key: "lookup", count: 1, places: [{ source: 0, line: 1, index: 0 }] }],
      errors: { shown: [{ place: { source: 0, line: 3, index: 0 }, detail: expect.stringMatching(/^line is not JSON: /) }], total: 1 },
      reading: { label: "reading into the canonical form", byCode: [], byPath: [], pathOverflow: 0, total: 0 },
      conversations: { count: 1, reopened: 0, verdicts: [], blocked: [], overflow: 0 },
      items: {
        total: 2,
        inView: 2,
        shown: [
          { ordinal: 1, place: { source: 0, line: 1, index: 0 }, envelope: "responses", item: call, reason: "status", blocked: true },
          { ordinal: 2, place: { source: 0, line: 4, index: 0 }, envelope: "responses", item: { type: "function_call_output", call_id: "c9", output: "x" }, reason: "not_function_call", blocked: true },
        ],
      },
    });
  });

  test("counts reading losses by code and by path, and with a target envelope what writing in it loses", () => {
    const collector = new ReportCollector({ sources: ["-"], to: "anthropic", itemsFrom: 1, maxItems: 0, settingsShown: {} });
    collector.pushLine({ source: "-", line: 1, text: '{"model":"m","messages":[{"role":"user","content":"hi"}]}' });
    collector.pushLine({ source: "-", line: 2, text: '{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"hello"}]}' });
    const data = collector.finish();
    expect({ reading: data.reading, writing: data.writing, shown: data.items.shown, total: data.items.total }).toEqual({
      reading: {
        label: "reading into the canonical form",
        byCode: [{ key: "left_behind", count: 1, places: [{ source: 0, line: 1, index: 0 }] }],
        byPath: [{ key: '["/model","left_behind"]', count: 1, places: [{ source: 0, line: 1, index: 0 }] }],
        pathOverflow: 0,
        total: 1,
      },
      writing: {
        label: "writing anthropic",
        byCode: [{ key: "unsupported_field", count: 1, places: [{ source: 0, line: 2, index: 0 }] }],
        byPath: [{ key: '["/*/id","unsupported_field"]', count: 1, places: [{ source: 0, line: 2, index: 0 }] }],
        pathOverflow: 0,
        total: 1,
      },
      shown: [],
      total: 2,
    });
  });
});
