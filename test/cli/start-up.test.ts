// What a command loads as it starts: each module's static imports that stay in the
// built code (not type-only), followed from source file to source file. On a small
// journal start-up is most of a run, and its heavy parts are Zod with the models
// (about 0.15 s) and Ajv (about 0.1 s): a command loads them only when it uses them.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

interface Loaded {
  /** Source files, relative to the project root. */
  files: Set<string>;
  /** Packages, by name. */
  packages: Set<string>;
}

// `import … from "x"`, `export … from "x"` and `import "x"`, over several lines if need be.
const STATIC_IMPORT = /^\s*(?:(import|export)\s+([^;]*?)\s+from\s+|import\s+)"([^"]+)";/gm;

function loadedBy(entry: string): Loaded {
  const loaded: Loaded = { files: new Set(), packages: new Set() };
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (loaded.files.has(file)) continue;
    loaded.files.add(file);
    for (const match of readFileSync(join(root, file), "utf8").matchAll(STATIC_IMPORT)) {
      const [, , clause, specifier] = match;
      if (clause !== undefined && isTypeOnly(clause)) continue;
      if (specifier.startsWith("node:")) continue;
      if (specifier.startsWith(".")) pending.push(sourceOf(file, specifier));
      else loaded.packages.add(packageName(specifier));
    }
  }
  return loaded;
}

/** Whether TypeScript drops the statement from the built code: `import type`, or braces holding only `type` names. */
function isTypeOnly(clause: string): boolean {
  if (/^type\s/.test(clause)) return true;
  const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
  if (!braces) return false;
  const names = braces[1]
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return names.length > 0 && names.every((name) => name.startsWith("type "));
}

function sourceOf(importer: string, specifier: string): string {
  const file = relative(root, resolve(root, dirname(importer), specifier.replace(/\.js$/, ".ts")));
  if (!existsSync(join(root, file))) throw new Error(`${importer} imports ${specifier}, which is not a source file`);
  return file;
}

function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

const MODELS = ["src/models/open-responses.ts", "src/models/chat-completions.ts", "src/models/loss.ts"];

describe("the entry", () => {
  test("loads no command: the command named on the line loads when it runs", () => {
    const { files } = loadedBy("src/cli/main.ts");
    for (const command of ["normalize", "convert", "gate", "diff", "schema"]) expect(files).not.toContain(`src/cli/${command}.ts`);
    expect(files).toContain("src/cli/run.ts");
  });
});

describe("gate", () => {
  test("loads neither Zod nor the models: only a replay target (--for) needs them, and loads them then", () => {
    const { files, packages } = loadedBy("src/cli/gate.ts");
    expect(packages).not.toContain("zod");
    for (const model of MODELS) expect(files).not.toContain(model);
    expect(files).not.toContain("src/gate/targets.ts");
    expect(files).toContain("src/cli/gate-jobs.ts");
  });

  test("its worker thread loads neither Ajv nor Zod: it normalizes, and gives no verdict", () => {
    const { files, packages } = loadedBy("src/cli/gate-worker.ts");
    expect(packages).not.toContain("ajv");
    expect(packages).not.toContain("zod");
    expect(files).not.toContain("src/gate/schema.ts");
    expect(files).toContain("src/journal/normalize.ts");
  });

  test("the verdicts load Ajv", () => {
    expect(loadedBy("src/gate/prepared-gate.ts").packages).toContain("ajv");
  });
});

describe("the reading of imports", () => {
  test("follows imports written over several lines, and skips those TypeScript drops", () => {
    // convert validates request bodies and completions with the models.
    const { files, packages } = loadedBy("src/cli/convert.ts");
    expect(packages).toContain("zod");
    expect(files).toContain("src/models/chat-completions.ts");
    expect(isTypeOnly("type { Loss }")).toBe(true);
    expect(isTypeOnly("{ type Loss, type LossCode }")).toBe(true);
    expect(isTypeOnly("{ pointer, type Loss }")).toBe(false);
    expect(isTypeOnly("* as chat")).toBe(false);
  });
});
