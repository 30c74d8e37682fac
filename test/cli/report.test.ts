// `orbridge report`: the page's counts are gate's, every line is counted once,
// journal text stays text, and usage errors get one line and exit 2.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { runOrbridge } from "../support/run-cli.js";
import { generateConversations, interleave, journalText, TOOLS } from "../support/interleaved-journal.js";
import { scratchFolder } from "../support/scratch.js";

const EXAMPLES = "golden/examples";

/** The numbers of the summary tiles, by their data-count key. */
function tiles(html: string): Record<string, number> {
  return Object.fromEntries([...html.matchAll(/data-count="([a-z-]+)">(\d+)</g)].map((match) => [match[1], Number(match[2])]));
}

function textOf(html: string, id: string): string {
  const match = new RegExp(`id="${id}">(.*?)</p>`).exec(html);
  return (match?.[1] ?? "").replace(/<[^>]+>/g, "");
}

// The first run loads the gate, Ajv and the models: on a busy machine that takes seconds.
describe("the counts", { timeout: 60_000 }, () => {
  test.each([
    ["the sales report, with a schema", ["--schema", `${EXAMPLES}/sales-report.schema.json`, `${EXAMPLES}/sales-report.jsonl`]],
    ["the mixed journal, with a tools file", ["--tools", `${EXAMPLES}/sales-tools.json`, `${EXAMPLES}/mixed.jsonl`]],
    ["the mixed journal, for chat-completions", ["--tools", `${EXAMPLES}/sales-tools.json`, "--for", "chat-completions", `${EXAMPLES}/mixed.jsonl`]],
    // A provider's target is judged by its profile, which the page's gate must be handed as gate's is.
    ...["anthropic", "gemini", "bedrock", "deepseek", "mistral"].map((target): [string, string[]] => [`the mixed journal, for ${target}`, ["--tools", `${EXAMPLES}/sales-tools.json`, "--for", target, `${EXAMPLES}/mixed.jsonl`]]),
  ])("%s: the summary on stderr is gate's, and the page's numbers are gate --summary json's", async (_, args) => {
    const gate = await runOrbridge(["gate", ...args]);
    const summary = JSON.parse((await runOrbridge(["gate", "--summary", "json", ...args])).stderr) as Record<string, unknown>;
    const report = await runOrbridge(["report", ...args]);
    expect(report.code).toBe(0);
    expect(report.stderr).toEqual(gate.stderr);
    const shown = tiles(report.stdout);
    const rows = (attribute: string) => Object.fromEntries([...report.stdout.matchAll(new RegExp(`<tr ${attribute}="([a-z_]+)"><td><code>[a-z_]+</code></td><td class="n"><a href="#[^"]+">(\\d+)</a>`, "g"))].map((match) => [match[1], Number(match[2])]));
    expect({ lines: shown["lines-read"], items: shown.items, errors: shown.errors, blocked: shown.blocked, blocked_by: rows("data-blocked-by"), findings: rows("data-finding") }).toEqual(summary);
    expect(shown.passed).toEqual(shown.items + shown.errors - shown.blocked);
  });

  test("a stored log's call that holds a number a double rounds is a blocked line, as gate reads it, and is not shown passed", async () => {
    const tools = join(scratchFolder("report"), "tools.json");
    writeFileSync(tools, JSON.stringify([{ type: "function", function: { name: "set_level", parameters: { type: "object", properties: { level: { type: "number", maximum: 1 } } } } }]));
    const trace = `{"trace":{"id":"T"},"observations":[{"id":"g1","traceId":"T","type":"GENERATION","name":"chat","startTime":"2025-08-28T07:32:30.306Z","input":[{"role":"user","content":"x"}],"output":{"role":"assistant","content":"","tool_calls":[{"id":"call_1","type":"function","function":{"name":"set_level","arguments":{"level":1.0000000000000001}}}]}}]}\n`;
    const gate = await runOrbridge(["gate", "--tools", tools, "-"], trace);
    const report = await runOrbridge(["report", "--tools", tools, "-"], trace);
    expect(report.stderr).toEqual(gate.stderr);
    expect(report.stderr.split("\n").slice(-3)).toEqual(["read 2 lines: 1 item, 1 error; 1 blocked", "  blocked by: error 1", ""]);
    expect(tiles(report.stdout)).toEqual({ "lines-read": 2, records: 2, conversations: 1, items: 1, errors: 1, passed: 1, blocked: 1, losses: 0 });
    expect(report.stdout).not.toContain("<code>function_call</code>");
  });

  test("the sales report: every number of the summary, and the page says they add up", async () => {
    const report = await runOrbridge(["report", "--schema", `${EXAMPLES}/sales-report.schema.json`, `${EXAMPLES}/sales-report.jsonl`]);
    expect(tiles(report.stdout)).toEqual({ "lines-read": 8, records: 8, conversations: 1, items: 8, errors: 0, passed: 3, blocked: 5, losses: 0 });
    expect(textOf(report.stdout, "lines-add-up")).toEqual("8 lines read = 8 responses_item (responses): the rows add up to the lines read.");
    expect(textOf(report.stdout, "verdicts-add-up")).toEqual("8 items + 0 lines that gave no item = 8 verdicts = 3 passed + 5 blocked: every verdict is counted once, by its reason below.");
  });

  test("blank lines, a line that is not JSON and a Chat stream are each counted once, and the rows add up", async () => {
    const folder = scratchFolder("report");
    const journal = join(folder, "journal.jsonl");
    writeFileSync(
      journal,
      [
        '{"role":"user","content":"weather?"}',
        "",
        '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\\"city\\""}}]}}]}',
        '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":":\\"Oslo\\"}"}}]},"finish_reason":"tool_calls"}]}',
        "{not json",
        "",
      ].join("\n"),
    );
    const gate = await runOrbridge(["gate", journal]);
    const report = await runOrbridge(["report", journal]);
    expect(report.stderr).toEqual(gate.stderr);
    expect(report.stderr).toEqual("read 5 lines: 2 items, 1 error; 2 blocked\n  blocked by: error 1, status 1\n  findings: incomplete_not_last 1\n");
    expect(textOf(report.stdout, "lines-add-up")).toEqual("5 lines read = 2 chat_chunk (chat) + 1 blank line + 1 chat_message (chat) + 1 not JSON: the rows add up to the lines read.");
    expect(textOf(report.stdout, "verdicts-add-up")).toEqual("2 items + 1 lines that gave no item = 3 verdicts = 1 passed + 2 blocked: every verdict is counted once, by its reason below.");
  });
});

describe("journal text stays text", () => {
  const hostile = [
    { type: "message", role: "user", content: "</script><script>document.title='owned'</script>" },
    { type: "function_call", id: "fc_1", call_id: '" onmouseover="document.title=1', name: "javascript:alert(1)", status: "completed", arguments: '{"q":"</pre><img src=x onerror=alert(1)>"}' },
    { type: "x\"><svg onload=alert(1)>", id: "weird" },
    { type: "\u202eko ssap\u202c", id: "turned" },
  ];

  test("no tag, attribute or link comes from the journal; the words are on the page, escaped", async () => {
    const folder = scratchFolder("report");
    const journal = join(folder, "hostile.jsonl");
    writeFileSync(journal, hostile.map((record) => JSON.stringify(record)).join("\n") + "\n");
    const report = await runOrbridge(["report", journal]);
    const html = report.stdout;
    expect(report.code).toBe(0);
    expect([html.includes("<script"), html.includes("<img"), html.includes("<svg onload"), html.includes('onmouseover="'), html.includes('href="javascript')]).toEqual([false, false, false, false, false]);
    // No text of the journal turns the page's own words around.
    expect(/[\u202a-\u202e\u2066-\u2069]/.test(html)).toBe(false);
    expect(html).toContain("<code>\\u202eko ssap\\u202c</code>");
    expect([
      html.includes("&lt;/script&gt;&lt;script&gt;document.title=&#39;owned&#39;&lt;/script&gt;"),
      html.includes("<code>javascript:alert(1)</code>"),
      html.includes("&quot; onmouseover=&quot;document.title=1"),
      html.includes("&lt;/pre&gt;&lt;img src=x onerror=alert(1)&gt;"),
    ]).toEqual([true, true, true, true]);
  });

  test("a loss at a member the journal named, spaces and tags included, is one row of its own, escaped", async () => {
    const folder = scratchFolder("report");
    const journal = join(folder, "bodies.jsonl");
    writeFileSync(journal, JSON.stringify({ model: "m", "</b>  x": 1, messages: [{ role: "user", content: "hi" }] }) + "\n");
    const report = await runOrbridge(["report", journal]);
    expect(report.stdout).toMatch(/<tr><td><code>\/&lt;~1b&gt;  x<\/code><\/td><td><code>left_behind<\/code><\/td><td class="n"><a href="#drill-path-reading-\d+">1<\/a><\/td><\/tr>/);
    expect(report.stdout).toMatch(/<tr><td><code>\/model<\/code><\/td><td><code>left_behind<\/code><\/td><td class="n"><a href="#drill-path-reading-\d+">1<\/a><\/td><\/tr>/);
  });

  test("a name or call_id that differs by a character that does not show is written with its escape, never as the other call's", async () => {
    const folder = scratchFolder("report");
    const journal = join(folder, "lookalike.jsonl");
    const call = (name: string, callId: string) => ({ type: "function_call", id: "fc_1", call_id: callId, name, status: "completed", arguments: "{}" });
    writeFileSync(journal, [call("delete_file", "call_1"), call("delete_file\u200b", "call_1\u200f"), { type: "function_call_output", call_id: "call_1\u200f", output: "done" }].map((record) => JSON.stringify(record)).join("\n") + "\n");
    const html = (await runOrbridge(["report", journal])).stdout;
    expect(html).toContain("calls <code>delete_file\\u200b</code> with call_id <code>call_1\\u200f</code>");
    expect(html).toContain("the call <code>call_1\\u200f</code>");
    expect(html).toContain("<tr><td><code>delete_file\\u200b</code></td>");
    expect(/[\u200b\u200f]/.test(html)).toBe(false);
  });

  test("a conversation key that differs by a character that does not show is written with its escape in the replay's table too", async () => {
    const folder = scratchFolder("report");
    const call = (conversation: string, id: string, region: string) => JSON.stringify({ conversation_id: conversation, type: "function_call", id: `fc_${id}`, call_id: `call_${id}`, name: "get_latest_sales_report", status: "completed", arguments: JSON.stringify({ region }) });
    const origin = join(folder, "origin.jsonl");
    const replay = join(folder, "replay.jsonl");
    writeFileSync(origin, `${call("c1", "1", "apac")}\n${call("c1\u200b", "2", "apac")}\n`);
    writeFileSync(replay, `${call("c1", "1", "apac")}\n${call("c1\u200b", "2", "emea")}\n`);
    const html = (await runOrbridge(["report", "--conversation", "/conversation_id", "--replay", replay, origin])).stdout;
    expect(/<table id="differences-by-conversation">.*?<tbody>(.*?)<\/tbody>/.exec(html)?.[1]).toEqual('<tr><td><code>&quot;c1\\u200b&quot;</code></td><td class="n">1</td></tr>');
  });

  test("the page forbids scripts and every request, whatever it holds", async () => {
    const report = await runOrbridge(["report", `${EXAMPLES}/sales-report.jsonl`]);
    expect(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(report.stdout)?.[1]).toEqual("default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'");
  });
});

describe("the conversation view", () => {
  test("embeds a window of items and says how to see the others", async () => {
    const report = await runOrbridge(["report", "--max-items", "3", "--items-from", "2", `${EXAMPLES}/sales-report.jsonl`]);
    expect(textOf(report.stdout, "items-window")).toEqual(`Items 2–4 of 8 are shown; 5 are counted in the summary but left out of this view. To see them, run orbridge report ${EXAMPLES}/sales-report.jsonl --items-from 5 --max-items 3.`);
    expect([...report.stdout.matchAll(/<article class="item[^"]*" id="([^"]+)"/g)].map((match) => match[1])).toEqual(["item-0-2-0", "item-0-3-0", "item-0-4-0"]);
  });

  test("a schema error marks the value it names, and an output links to its call", async () => {
    const report = await runOrbridge(["report", "--schema", `${EXAMPLES}/sales-report.schema.json`, `${EXAMPLES}/sales-report.jsonl`]);
    expect(report.stdout).toContain("&quot;region&quot;: <mark>&quot;global&quot;</mark>");
    expect(report.stdout).toContain('answers <a href="#item-0-2-0">the call <code>call_123</code></a> (line 2)');
  });

  test("arguments that JSON.parse would show otherwise are shown as written; a refused member whose name has a space is marked", async () => {
    const folder = scratchFolder("report");
    const journal = join(folder, "written.jsonl");
    const schema = join(folder, "schema.json");
    const call = (callId: string, args: string) => JSON.stringify({ type: "function_call", id: `fc_${callId}`, call_id: callId, name: "pay", status: "completed", arguments: args });
    writeFileSync(journal, [call("c1", '{"amount":9007199254740993}'), call("c2", '{"amount": 1.0}'), call("c3", '{"to":"acct-ok","to x":"acct-EVIL"}'), call("c4", '{"amount": 12}')].join("\n") + "\n");
    writeFileSync(schema, JSON.stringify({ type: "object", properties: { amount: {}, to: { type: "string" }, "to x": { const: "acct-ok" } } }));
    const report = await runOrbridge(["report", "--schema", schema, journal]);
    const article = (callId: string) => new RegExp(`<article[^>]*>(?:(?!</article>).)*?<code>${callId}</code>(?:(?!</article>).)*</article>`, "s").exec(report.stdout)?.[0] ?? "";
    expect(article("c1")).toContain("<pre>{&quot;amount&quot;:9007199254740993}</pre>");
    expect(article("c1")).not.toContain("9007199254740992");
    expect(article("c2")).toContain("<pre>{&quot;amount&quot;: 1.0}</pre>");
    expect(article("c3")).toContain("&quot;to x&quot;: <mark>&quot;acct-EVIL&quot;</mark>");
    // Spacing alone changes nothing of what the tool gets: pretty-printed.
    expect(article("c4")).toContain("<pre>{\n  &quot;amount&quot;: 12\n}</pre>");
  });

  test("arguments shown as written keep their line breaks and write a character that does not show as its escape", async () => {
    const folder = scratchFolder("report");
    const journal = join(folder, "invisible.jsonl");
    const call = (callId: string, args: string) => JSON.stringify({ type: "function_call", id: `fc_${callId}`, call_id: callId, name: "pay", status: "completed", arguments: args });
    writeFileSync(journal, [call("c1", '{"to":"acct 1\u200b2",\n\t"amount": 1.0}'), call("c2", '{"to":"acct 1\u2060\u00a02"')].join("\n") + "\n");
    const report = await runOrbridge(["report", journal]);
    const article = (callId: string) => new RegExp(`<article[^>]*>(?:(?!</article>).)*?<code>${callId}</code>(?:(?!</article>).)*</article>`, "s").exec(report.stdout)?.[0] ?? "";
    expect(article("c1")).toContain("<pre>{&quot;to&quot;:&quot;acct 1\\u200b2&quot;,\n\t&quot;amount&quot;: 1.0}</pre>");
    expect(article("c2")).toContain("<pre><mark>{&quot;to&quot;:&quot;acct 1\\u2060\\u00a02&quot;</mark></pre>");
    expect(/[\u200b\u2060\u00a0]/.test(report.stdout)).toBe(false);
  });

  test("a blocked reason's count leads to its list, and the list to the item", async () => {
    const report = await runOrbridge(["report", "--schema", `${EXAMPLES}/sales-report.schema.json`, `${EXAMPLES}/sales-report.jsonl`]);
    const row = /<tr><td><code>arguments_schema<\/code><\/td><td class="n">0<\/td><td class="n"><a href="#([^"]+)">1<\/a><\/td><\/tr>/.exec(report.stdout);
    const list = new RegExp(`<div class="drill" id="${row![1]}">(.*?)</div>`).exec(report.stdout);
    expect(list?.[1]).toEqual('<h3>blocked <code>arguments_schema</code>: 1</h3><ul><li><a href="#item-0-3-0">line 3</a></li></ul>');
  });
});

describe("conversations gated apart", { timeout: 60_000 }, () => {
  const folder = scratchFolder("report");
  const journal = join(folder, "interleaved.jsonl");
  const tools = join(folder, "tools.json");
  writeFileSync(journal, journalText(interleave(generateConversations({ seed: 7, conversations: 40, numericKeys: true }), 6, 8)));
  writeFileSync(tools, JSON.stringify(TOOLS));

  test.each([[[]], [["--max-open-conversations", "3"]], [["--for", "mistral"]], [["--for", "anthropic"]]])("%j: the summary line is gate --conversation's, conversations and reopened ones included", async (extra) => {
    const args = ["--tools", tools, "--conversation", "/conversation_id", ...extra, journal];
    const gate = await runOrbridge(["gate", ...args]);
    const report = await runOrbridge(["report", ...args]);
    expect(report.stderr).toEqual(gate.stderr);
    expect(report.stderr).toMatch(/; 40 conversations/);
    expect(tiles(report.stdout).conversations).toEqual(40);
  });

  test("the table lists each conversation with its verdicts and blocked items, the most blocked first", async () => {
    const report = await runOrbridge(["report", "--tools", tools, "--conversation", "/conversation_id", journal]);
    const rows = [...report.stdout.matchAll(/<tr><td><code>([^<]+)<\/code><\/td><td class="n"><a href="#drill-conversation-\d+">(\d+)<\/a><\/td><td class="n">(?:<a [^>]+>)?(\d+)/g)].map((match) => [match[1], Number(match[2]), Number(match[3])]);
    const gate = await runOrbridge(["gate", "--tools", tools, "--conversation", "/conversation_id", "--format", "json", journal]);
    const expected = new Map<string, [number, number]>();
    for (const line of gate.stdout.trim().split("\n")) {
      const record = JSON.parse(line) as { conversation: string | number; blocked: boolean };
      const key = escapeText(JSON.stringify(record.conversation));
      const [verdicts, blocked] = expected.get(key) ?? [0, 0];
      expected.set(key, [verdicts + 1, blocked + (record.blocked ? 1 : 0)]);
    }
    expect(new Set(rows.map(([key, verdicts, blocked]) => JSON.stringify([key, verdicts, blocked])))).toEqual(new Set([...expected].map(([key, [verdicts, blocked]]) => JSON.stringify([key, verdicts, blocked]))));
    const blockedColumn = rows.map((row) => row[2] as number);
    expect(blockedColumn).toEqual([...blockedColumn].sort((a, b) => b - a));
  });

  test("with --replay, the differences are diff's, each told by the conversation of its origin line", async () => {
    const lines = readFileSync(journal, "utf8").trimEnd().split("\n");
    const replay = join(folder, "replay.jsonl");
    writeFileSync(replay, lines.filter((_, index) => index !== 40 && index !== 41 && index !== 200).join("\n") + "\n");
    const diff = await runOrbridge(["diff", "--format", "json", journal, replay]);
    const differences = diff.stdout.trim().split("\n").map((line) => JSON.parse(line) as { origin?: { line: number } });
    const expected = new Map<string, number>();
    for (const difference of differences) {
      const key = difference.origin === undefined ? "(none)" : escapeText(JSON.stringify((JSON.parse(lines[difference.origin.line - 1]) as { conversation_id: string | number }).conversation_id));
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    const report = await runOrbridge(["report", "--tools", tools, "--conversation", "/conversation_id", "--replay", replay, journal]);
    expect(report.stderr.split("\n")[0]).toEqual(`read 362 lines: 281 items, 0 errors; 17 blocked; 40 conversations; ${differences.length} ${differences.length === 1 ? "difference" : "differences"} with the replay`);
    const table = /<table id="differences-by-conversation">(.*?)<\/table>/.exec(report.stdout)![1];
    const rows = [...table.matchAll(/<tr><td><code>([^<]+)<\/code><\/td><td class="n">(\d+)<\/td><\/tr>/g)].map((match) => [match[1], Number(match[2])]);
    expect(new Map(rows as [string, number][])).toEqual(expected);
    expect(differences.length).toBeGreaterThan(0);
  });

  test("--show shows one conversation's items, whatever its key looks like", async () => {
    for (const show of ["conv-7-2", '"conv-7-2"']) {
      const report = await runOrbridge(["report", "--tools", tools, "--conversation", "/conversation_id", "--show", show, journal]);
      expect([...report.stdout.matchAll(/<h3>conversation <code>([^<]+)<\/code><\/h3>/g)].map((match) => match[1])).toEqual(["&quot;conv-7-2&quot;"]);
      expect(textOf(report.stdout, "items-window")).toEqual("8 of the conversation's 8 items are shown (items 5–25 of the journal's 281).");
    }
  });

  test("--show 17 shows the conversation of the number 17, not the conversation of the string \"17\"", async () => {
    const folder = scratchFolder("report");
    const call = (conversation: string | number, callId: string, region: string) => JSON.stringify({ conversation_id: conversation, type: "function_call", call_id: callId, name: "get_latest_sales_report", status: "completed", arguments: JSON.stringify({ region }) });
    // One input may not key conversations by both: a replayer that groups by the key's text takes them for one.
    const numbered = join(folder, "numbered.jsonl");
    writeFileSync(numbered, `${call(17, "call_1", "apac")}\n`);
    const texted = join(folder, "texted.jsonl");
    writeFileSync(texted, `${call("17", "call_2", "global")}\n`);
    const headings = async (show: string, input: string) => {
      const report = await runOrbridge(["report", "--tools", tools, "--conversation", "/conversation_id", "--show", show, input]);
      return [...report.stdout.matchAll(/<h3>conversation <code>([^<]+)<\/code><\/h3>/g)].map((match) => match[1]);
    };
    expect(await headings("17", numbered)).toEqual(["17"]);
    expect(await headings("17", texted)).toEqual([]);
    expect(await headings('"17"', texted)).toEqual(["&quot;17&quot;"]);
    expect(await headings('"17"', numbered)).toEqual([]);
  });

  test("each conversation's heading gives the command that shows it alone, its key quoted so that a shell runs nothing of it", async () => {
    const hostile = join(folder, "hostile-keys.jsonl");
    const marker = join(folder, "ran");
    const keys = [`$(touch ${marker})`, `it's \`touch ${marker}\``];
    writeFileSync(hostile, keys.map((key, index) => JSON.stringify({ conversation_id: key, type: "message", role: "user", content: `hello ${index}` })).join("\n") + "\n");
    const report = await runOrbridge(["report", "--conversation", "/conversation_id", hostile]);
    const commands = [...report.stdout.matchAll(/<p class="muted">Alone: <code>([^<]+)<\/code><\/p>/g)].map((match) => unescapeText(match[1]!));
    expect(commands).toHaveLength(2);
    for (const [index, command] of commands.entries()) {
      // The words a POSIX shell reads from the command, printed one per line by the shell itself.
      const words = execFileSync("sh", ["-c", `printf '%s\\n' ${command.replace(/^orbridge report /, "")}`], { encoding: "utf8" }).split("\n").slice(0, -1);
      expect(words.slice(-2)).toEqual(["--show", JSON.stringify(keys[index])]);
    }
    expect(existsSync(marker)).toBe(false);
  });
});

function unescapeText(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

describe("origin versus replay", () => {
  test("the differences of diff, counted and side by side", async () => {
    const diff = await runOrbridge(["diff", `${EXAMPLES}/origin.jsonl`, `${EXAMPLES}/replay.jsonl`]);
    const report = await runOrbridge(["report", "--tools", `${EXAMPLES}/sales-tools.json`, "--replay", `${EXAMPLES}/replay.jsonl`, `${EXAMPLES}/origin.jsonl`]);
    expect(diff.stderr).toEqual("1 difference\n");
    expect(report.stderr).toEqual("read 3 lines: 3 items, 0 errors; 0 blocked; 1 difference with the replay\n");
    expect(tiles(report.stdout).differences).toEqual(1);
    expect(report.stdout).toContain('<tr><td><code>call_id_mismatch</code></td><td class="n"><a href="#difference-0">1</a></td></tr>');
    expect(report.stdout).toContain('<div class="difference" id="difference-0"><p><code>call_id_mismatch</code>: ');
    expect(report.stdout).toContain("&quot;call_id&quot;: <mark>&quot;call_emea99&quot;</mark>");
  });
});

describe("the README", () => {
  test("shows the report of the shipped example with the summary line it prints", async () => {
    const readme = readFileSync("README.md", "utf8");
    const command = "npx orbridge report --schema golden/examples/sales-report.schema.json --out report.html golden/examples/sales-report.jsonl";
    const block = "```sh\n" + command + "\n```\n\n```\n";
    const at = readme.indexOf(block);
    expect(at).toBeGreaterThan(-1);
    const start = at + block.length;
    const folder = scratchFolder("report");
    const args = command.split(" ").slice(2).map((arg) => (arg === "report.html" ? join(folder, arg) : arg));
    const result = await runOrbridge(args);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 0, stdout: "", stderr: readme.slice(start, readme.indexOf("```\n", start)) });
  });
});

describe("outputs and usage", () => {
  test("--out writes the page to a file and nothing to stdout", async () => {
    const folder = scratchFolder("report");
    const out = join(folder, "report.html");
    const result = await runOrbridge(["report", "--schema", `${EXAMPLES}/sales-report.schema.json`, "--out", out, `${EXAMPLES}/sales-report.jsonl`]);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 0,
      stdout: "",
      stderr: "read 8 lines: 8 items, 0 errors; 5 blocked\n  blocked by: arguments_parse 1, arguments_schema 1, arguments_type 1, namespaced 1, status 1\n",
    });
    expect(readFileSync(out, "utf8").startsWith("<!doctype html>\n")).toBe(true);
  });

  test.each([
    [["--schema", "a.json", "--tools", "b.json", "j.jsonl"], "orbridge report: give --schema or --tools, not both\n"],
    [["--max-items", "0", `${EXAMPLES}/sales-report.jsonl`], 'orbridge report: --max-items must be a positive whole number (got "0")\n'],
    [["--to", "xml", `${EXAMPLES}/sales-report.jsonl`], 'orbridge report: --to must be one of responses, chat, anthropic, gemini, bedrock (got "xml")\n'],
    [["--show", "c-1", `${EXAMPLES}/sales-report.jsonl`], "orbridge report: --show names a conversation: it goes with --conversation POINTER\n"],
    [["--conversation", "", `${EXAMPLES}/sales-report.jsonl`], 'orbridge report: --conversation must point to a member of each record, as /conversation_id, not to the whole record ("")\n'],
    [["missing.jsonl"], "orbridge report: cannot read missing.jsonl: no such file or not readable\n"],
    [["--out", `${EXAMPLES}/sales-report.jsonl`, `${EXAMPLES}/sales-report.jsonl`], `orbridge report: --out ${EXAMPLES}/sales-report.jsonl is also an input; inputs are never overwritten\n`],
  ])("%j: one line on stderr, exit 2", async (args, stderr) => {
    expect(await runOrbridge(["report", ...args])).toEqual({ code: 2, stdout: "", stderr });
  });

  test("without --out, a terminal on stdout is refused: the page is HTML", async () => {
    const terminal = Object.assign(new PassThrough(), { isTTY: true });
    const stderr = new PassThrough();
    const said: Buffer[] = [];
    stderr.on("data", (chunk: Buffer) => said.push(chunk));
    const code = await runCli(["report", `${EXAMPLES}/sales-report.jsonl`], { stdin: Readable.from([""]), stdout: terminal, stderr, env: {} });
    expect({ code, stderr: Buffer.concat(said).toString("utf8"), written: terminal.read() }).toEqual({ code: 2, stderr: "orbridge report: the page is HTML: give --out FILE, or redirect standard output to a file\n", written: null });
  });

  test("--help teaches the command, on stdout, exit 0", async () => {
    const result = await runOrbridge(["report", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toEqual("Usage: orbridge report [--schema FILE | --tools FILE] [--for TARGET] [--to ENVELOPE]");
  });
});
