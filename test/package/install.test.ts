// The package as a user installs it: packed, installed into an empty folder,
// and run there. The README's main job and the --help examples that name the
// shipped journals run as written from the package's folder, where
// golden/examples ships.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const built = existsSync(join(root, "dist/src/cli/main.js"));
if (!built) console.warn("the package install test is skipped: dist/ is not built (npm ci builds it)");

function run(command: string, args: string[], cwd: string) {
  return spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, maxBuffer: 64 * 1024 * 1024 });
}

describe.skipIf(!built)("the packed package, installed into an empty folder", { timeout: 300_000 }, () => {
  const folder = mkdtempSync(join(tmpdir(), "orbridge-install-"));
  const packageDir = join(folder, "node_modules", "orbridge");
  const bin = join(folder, "node_modules", ".bin", "orbridge");
  let files: string[] = [];

  beforeAll(() => {
    const packed = run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", folder], root);
    expect(packed.status, packed.stderr).toBe(0);
    const [{ filename, files: listed }] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = listed.map((file) => file.path);
    writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "empty", version: "1.0.0", private: true }));
    const installed = run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", join(folder, filename)], folder);
    expect(installed.status, installed.stderr).toBe(0);
  }, 300_000);

  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  test("ships compiled JavaScript and the example journals, not the sources, tests or TypeScript", () => {
    expect(files).toContain("dist/src/cli/main.js");
    expect(files).toContain("golden/examples/sales-report.jsonl");
    expect(files.filter((file) => /^(src|test|adapters)\//.test(file) || (file.endsWith(".ts") && !file.endsWith(".d.ts")))).toEqual([]);
    expect(readdirSync(join(folder, "node_modules")).filter((name) => ["tsx", "typescript", "esbuild", "vitest"].includes(name))).toEqual([]);
  });

  test("orbridge --version names the package's version", () => {
    const version = run(bin, ["--version"], folder);
    expect([version.status, version.stdout]).toEqual([0, `orbridge ${JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version}\n`]);
  });

  test("the README's main job runs as written in the package's folder, with its output and exit status", () => {
    const result = run(bin, ["gate", "--schema", "golden/examples/sales-report.schema.json", "golden/examples/sales-report.jsonl"], packageDir);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("line 3  function_call call_124  BLOCKED arguments_schema");
    expect(result.stderr).toMatch(/^read 8 lines: 8 items, 0 errors; 5 blocked\n/);
  });

  test.each([
    ["normalize", ["normalize", "golden/examples/mixed.jsonl"], 0],
    ["gate", ["gate", "--schema", "golden/examples/sales-report.schema.json", "golden/examples/sales-report.jsonl"], 1],
    ["diff", ["diff", "golden/examples/origin.jsonl", "golden/examples/replay.jsonl"], 1],
  ] as const)("the %s --help example runs as written from the package's folder", (command, args, status) => {
    const help = run(bin, [command, "--help"], packageDir);
    expect(help.stdout.replace(/\\\n\s+/g, "")).toContain(`orbridge ${args.join(" ")}`);
    const result = run(bin, [...args], packageDir);
    expect([result.status, result.stderr.includes("cannot read")]).toEqual([status, false]);
  });
});
