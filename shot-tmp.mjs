import { chromium } from "playwright-core";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
await page.emulateMedia({ colorScheme: "dark" });
await page.goto("file://" + process.argv[2] + "#" + process.argv[4]);
await page.screenshot({ path: process.argv[3], fullPage: false });
await browser.close();
