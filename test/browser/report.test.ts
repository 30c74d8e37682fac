// The report page in a real browser: headless Chromium, driven by playwright-core,
// opens the file from disk with the network cut, and the page must make no
// request, show gate's counts with JavaScript off, lead from a reason's count to
// the blocked call, run nothing a hostile journal says, and read in dark mode.
// Without a Chromium on this machine the tests skip, saying so.
import { spawnSync } from "node:child_process";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const EXAMPLES = "golden/examples";
const SALES_ARGS = ["--schema", `${EXAMPLES}/sales-report.schema.json`, `${EXAMPLES}/sales-report.jsonl`];

/** A Chromium to drive: ORBRIDGE_CHROMIUM, or one on PATH (Debian's package installs `chromium`). */
function findChromium(): string | undefined {
  const candidates = [process.env.ORBRIDGE_CHROMIUM, "chromium", "chromium-browser", "google-chrome"].filter((candidate): candidate is string => candidate !== undefined && candidate !== "");
  for (const candidate of candidates) {
    const found = spawnSync("sh", ["-c", 'command -v "$1"', "sh", candidate], { encoding: "utf8" });
    if (found.status === 0 && found.stdout.trim() !== "") return found.stdout.trim();
  }
  return undefined;
}

const executable = findChromium();
const skipNote = executable === undefined ? " (skipped: no Chromium found; apt-get install chromium, or set ORBRIDGE_CHROMIUM)" : "";
if (executable === undefined) console.warn(`the report's browser tests${skipNote}`);

describe.skipIf(executable === undefined)(`the report in headless Chromium${skipNote}`, () => {
  const folder = scratchFolder("report-browser");
  const salesPage = join(folder, "sales.html");
  const hostilePage = join(folder, "hostile.html");
  let gateSummary: Record<string, unknown> = {};
  let browser: Browser;

  beforeAll(async () => {
    gateSummary = JSON.parse((await runOrbridge(["gate", "--summary", "json", ...SALES_ARGS])).stderr) as Record<string, unknown>;
    await runOrbridge(["report", "--out", salesPage, ...SALES_ARGS]);
    const hostile = join(folder, "hostile.jsonl");
    writeFileSync(
      hostile,
      [
        { type: "message", role: "user", content: "</script><script>document.title='owned';window.owned=1</script>" },
        { type: "function_call", id: "fc_1", call_id: "\" onmouseover=\"window.owned=2", name: "javascript:window.owned=3", status: "completed", arguments: '{"q":"<img src=x onerror=window.owned=4>"}' },
        { type: "x\"><svg onload=window.owned=5>", id: "odd" },
      ]
        .map((record) => JSON.stringify(record))
        .join("\n") + "\n",
    );
    await runOrbridge(["report", "--out", hostilePage, hostile]);
    browser = await chromium.launch({ executablePath: executable, args: ["--no-sandbox"] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** A page with the network cut: every request is recorded, and any that is not the file itself is refused. */
  async function open(file: string, options: BrowserContextOptions = {}): Promise<{ page: Page; requests: string[]; close(): Promise<void> }> {
    const context = await browser.newContext({ offline: true, ...options });
    const requests: string[] = [];
    await context.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
    const page = await context.newPage();
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href);
    return { page, requests, close: () => context.close() };
  }

  test("opens from disk and makes no request but for itself", async () => {
    const { page, requests, close } = await open(salesPage);
    await page.locator("#conversation").scrollIntoViewIfNeeded();
    expect(requests).toEqual([pathToFileURL(salesPage).href]);
    await close();
  }, 60_000);

  test("with JavaScript off, the summary shows the counts of gate --summary json", async () => {
    const { page, close } = await open(salesPage, { javaScriptEnabled: false });
    const shown: Record<string, number> = {};
    for (const tile of await page.locator("[data-count]").all()) shown[(await tile.getAttribute("data-count"))!] = Number(await tile.textContent());
    const rows = async (attribute: string) => {
      const counts: Record<string, number> = {};
      for (const row of await page.locator(`tr[${attribute}]`).all()) counts[(await row.getAttribute(attribute))!] = Number(await row.locator("td").nth(1).textContent());
      return counts;
    };
    expect({ lines: shown["lines-read"], items: shown.items, errors: shown.errors, blocked: shown.blocked, blocked_by: await rows("data-blocked-by"), findings: await rows("data-finding") }).toEqual(gateSummary);
    expect(await page.locator("#lines-add-up").textContent()).toEqual("8 lines read = 8 responses_item (responses): the rows add up to the lines read.");
    await close();
  }, 60_000);

  test("from a reason's count to the lines behind it, then to the blocked call and its detail", async () => {
    const { page, close } = await open(salesPage, { javaScriptEnabled: false });
    await page.locator("#reasons tr", { hasText: "arguments_schema" }).locator("td").nth(2).locator("a").click();
    const list = page.locator(".drill:target");
    expect(await list.locator("h3").textContent()).toEqual("blocked arguments_schema: 1");
    await list.locator("a", { hasText: "line 3" }).click();
    const item = page.locator("article:target");
    expect(await item.getAttribute("id")).toEqual("item-0-3-0");
    expect(await item.locator(".verdict").textContent()).toEqual('BLOCKED arguments_schema: arguments/region must be equal to one of the allowed values ("apac", "emea", "amer")');
    expect(await item.locator("mark").textContent()).toEqual('"global"');
    // An output leads back to its call.
    await page.locator("#item-0-5-0 a", { hasText: "the call" }).click();
    expect(await page.locator("article:target").getAttribute("id")).toEqual("item-0-2-0");
    expect(await page.locator("article:target .verdict").textContent()).toEqual("pass ok: completed call with arguments valid for its schema");
    await close();
  }, 60_000);

  test("a hostile journal runs no script, opens no dialog and its words stay on the page as text", async () => {
    const { page, requests, close } = await open(hostilePage);
    const dialogs: string[] = [];
    const errors: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    for (const item of await page.locator("article.item").all()) await item.hover();
    const state = await page.evaluate(() => ({ owned: (window as unknown as { owned?: number }).owned, title: document.title, scripts: document.querySelectorAll("script").length, images: document.querySelectorAll("img").length }));
    expect(state).toEqual({ owned: undefined, title: `orbridge report: ${join(folder, "hostile.jsonl")}`, scripts: 0, images: 0 });
    expect(await page.locator("article.item pre").first().textContent()).toEqual("</script><script>document.title='owned';window.owned=1</script>");
    expect({ dialogs, errors, requests }).toEqual({ dialogs: [], errors: [], requests: [pathToFileURL(hostilePage).href] });
    await close();
  }, 60_000);

  test("a call_id that differs from another by a space more reads otherwise: the page does not collapse its spaces", async () => {
    const journal = join(folder, "spaces.jsonl");
    const page = join(folder, "spaces.html");
    const call = (callId: string, region: string) => JSON.stringify({ type: "function_call", call_id: callId, name: "get_latest_sales_report", status: "completed", arguments: JSON.stringify({ region }) });
    writeFileSync(journal, `${call("call 1", "apac")}\n${call("call  1", "global")}\n`);
    await runOrbridge(["report", "--schema", `${EXAMPLES}/sales-report.schema.json`, "--out", page, journal]);
    const { page: shown, close } = await open(page);
    expect(await shown.locator("article.item").evaluateAll((articles) => articles.map((article) => [article.querySelector(".verdict span")?.textContent, (article.querySelectorAll("p")[1] as HTMLElement).innerText]))).toEqual([
      ["pass", "calls get_latest_sales_report with call_id call 1"],
      ["BLOCKED", "calls get_latest_sales_report with call_id call  1"],
    ]);
    await close();
  }, 60_000);

  test("dark mode redraws the page and its charts in the dark scheme", async () => {
    const colours = async (colorScheme: "light" | "dark") => {
      const { page, close } = await open(salesPage, { colorScheme });
      const read = await page.evaluate(() => ({
        background: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(document.body).color,
        blockedBar: getComputedStyle(document.querySelector("#chart-reasons rect.bar.blocked")!).fill,
        label: getComputedStyle(document.querySelector("#chart-reasons text.label")!).fill,
      }));
      if (colorScheme === "light" && process.env.ORBRIDGE_REPORT_SCREENSHOT) {
        // The README's picture of the page, taken here when asked for.
        await page.setViewportSize({ width: 1100, height: 1500 });
        const shot = join(folder, "report.png");
        await page.screenshot({ path: shot });
        copyFileSync(shot, process.env.ORBRIDGE_REPORT_SCREENSHOT);
      }
      await close();
      return read;
    };
    expect({ light: await colours("light"), dark: await colours("dark") }).toEqual({
      light: { background: "rgb(255, 255, 255)", text: "rgb(27, 31, 36)", blockedBar: "rgb(207, 34, 46)", label: "rgb(27, 31, 36)" },
      dark: { background: "rgb(13, 17, 23)", text: "rgb(230, 237, 243)", blockedBar: "rgb(248, 81, 73)", label: "rgb(230, 237, 243)" },
    });
  }, 60_000);
});
