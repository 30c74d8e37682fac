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

// `import … from "x"`, `export … from "x"` and `import "x"`, over several lines if
// need be, with either quote and with import attributes after the specifier.
const STATIC_IMPORT = /^(?:(?:import|export)\s+([^;]*?)\s*\bfrom\s*|import\s*)(["'])([^"']+)\2[^;\n]*;/gm;
// Any statement that names a module, read or not: each must be one STATIC_IMPORT reads.
const NAMES_A_MODULE = /^(?:import|export)\b[^;]*?(?:\bfrom\s*["']|^import\s*["']|\brequire\s*\()/gm;

function loadedBy(entry: string): Loaded {
  const loaded: Loaded = { files: new Set(), packages: new Set() };
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (loaded.files.has(file)) continue;
    loaded.files.add(file);
    for (const specifier of valueImports(file, readFileSync(join(root, file), "utf8"))) {
      if (specifier.startsWith("node:")) continue;
      if (specifier.startsWith(".")) pending.push(sourceOf(file, specifier));
      else loaded.packages.add(packageName(specifier));
    }
  }
  return loaded;
}

/** The modules a source file imports in a way the built code keeps; a statement naming a module that cannot be read fails. */
function valueImports(file: string, text: string): string[] {
  const specifiers: string[] = [];
  const read = new Set<number>();
  for (const match of text.matchAll(STATIC_IMPORT)) {
    read.add(match.index);
    const [, clause, , specifier] = match;
    if (clause === undefined || !isTypeOnly(clause)) specifiers.push(specifier);
  }
  for (const statement of text.matchAll(NAMES_A_MODULE)) {
    if (!read.has(statement.index)) throw new Error(`${file}: cannot read the import at line ${text.slice(0, statement.index).split("\n").length}`);
  }
  return specifiers;
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

  test("what it loads as it runs brings Zod only with the replay targets, for --for", () => {
    // gate-jobs.ts loads the one-thread gate's halves and the verdicts when it needs them;
    // the library's JournalGate, which loads the targets at once, is not among them.
    const onDemand = [...readFileSync(join(root, "src/cli/gate-jobs.ts"), "utf8").matchAll(/\bimport\("(\.[^"]+)"\)/g)].map((match) => sourceOf("src/cli/gate-jobs.ts", match[1]));
    expect(onDemand).toEqual(expect.arrayContaining(["src/gate/gate-halves.ts", "src/gate/prepared-gate.ts", "src/gate/targets.ts"]));
    for (const file of onDemand.filter((file) => file !== "src/gate/targets.ts")) {
      const { files, packages } = loadedBy(file);
      expect(packages, file).not.toContain("zod");
      expect(files, file).not.toContain("src/gate/targets.ts");
      expect(files, file).not.toContain("src/gate/gate-journal.ts");
    }
    expect(loadedBy("src/gate/targets.ts").packages).toContain("zod");
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
    // An import of eight lines (request-to-body.ts, of tools.ts).
    expect(loadedBy("adapters/chat-completions/request-to-body.ts").files).toContain("adapters/chat-completions/tools.ts");
  });

  test("reads every form of a static import, keeps those the build keeps, and refuses what it cannot read", () => {
    const text = [
      `import type { Loss } from "./loss.js";`,
      `import { type Loss, type LossCode } from "./types-only.js";`,
      `import { pointer, type Loss } from "./json-pointer.js";`,
      `import * as chat from './chat.js';`,
      `import data from "./data.json" with { type: "json" };`,
      `import "./side-effect.js";`,
      `export * from "./everything.js";`,
      `export { type Target } from "./names.js";`,
      `import {\n  a,\n  b,\n} from "./several-lines.js";`,
      `export const x = 1;`,
    ].join("\n");
    expect(valueImports("example.ts", text)).toEqual(["./json-pointer.js", "./chat.js", "./data.json", "./side-effect.js", "./everything.js", "./several-lines.js"]);
    expect(() => valueImports("example.ts", `export const x = 1;\nimport x = require("./old.js");\n`)).toThrow("example.ts: cannot read the import at line 2");
    expect(() => valueImports("example.ts", `import { a } from "./no-semicolon.js"\n`)).toThrow("cannot read the import at line 1");
  });
});
