// Detection, normalize, convert and the gate reach an envelope only through the
// registry (adapters/index.ts): a new envelope is a new folder and one line there.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { chat, ENVELOPE_NAMES, ENVELOPES, RECOGNITION_ORDER } from "../../adapters/index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Files outside the registry that still import an envelope's folder directly:
 * this list can only shrink. The public API re-exports the Chat converters by
 * their own names, as it did before the registry.
 */
const REMAINING_EXCEPTIONS: readonly string[] = ["src/index.ts"];

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every module specifier of a file: static imports and re-exports, dynamic imports. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/g)) found.push(match[1]!);
  for (const match of text.matchAll(/(?:^|\n)\s*import\s*["']([^"']+)["']/g)) found.push(match[1]!);
  for (const match of text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push(match[1]!);
  return found;
}

/** The envelope folder a specifier of `file` reaches into, if any. */
function envelopeFolderOf(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const target = relative(root, join(dirname(file), specifier)).split(sep);
  return target[0] === "adapters" && target.length > 2 ? target[1] : undefined;
}

describe("the registry is the only way to an envelope", () => {
  test("no file of src/ imports an envelope's folder", () => {
    const offenders = typeScriptFiles(join(root, "src")).flatMap((file) =>
      specifiers(readFileSync(file, "utf8"))
        .filter((specifier) => envelopeFolderOf(file, specifier) !== undefined)
        .map((specifier) => `${relative(root, file).split(sep).join("/")} imports ${specifier}`),
    );
    const unexpected = offenders.filter((offender) => !REMAINING_EXCEPTIONS.some((file) => offender.startsWith(file + " ")));
    expect(unexpected).toEqual([]);
  });

  test("the registry imports each envelope by its index.ts alone", () => {
    const file = join(root, "adapters", "index.ts");
    const reached = specifiers(readFileSync(file, "utf8")).filter((specifier) => envelopeFolderOf(file, specifier) !== undefined);
    expect(reached.length).toBeGreaterThan(0);
    expect(reached.filter((specifier) => !/^\.\/[a-z-]+\/index\.js$/.test(specifier))).toEqual([]);
  });

  test("an exception still listed is still an exception", () => {
    for (const file of REMAINING_EXCEPTIONS) {
      const text = readFileSync(join(root, file), "utf8");
      expect(specifiers(text).some((specifier) => envelopeFolderOf(join(root, file), specifier) !== undefined), file).toBe(true);
    }
  });

  test("the specifier reader sees an import into a folder", () => {
    const file = join(root, "src", "journal", "x.ts");
    expect(specifiers('import { a } from "../../adapters/anthropic/stream.js";\nexport type { b } from "../../adapters/index.js";').map((s) => envelopeFolderOf(file, s))).toEqual(["anthropic", undefined]);
  });
});

describe("registered envelopes", () => {
  test("convert --to names them in order: the canonical form, Chat, then the registry's", () => {
    expect(ENVELOPE_NAMES.slice(0, 3)).toEqual(["responses", "chat", "anthropic"]);
  });

  test("each has a name of its own and every part of the contract", () => {
    for (const [name, envelope] of Object.entries(ENVELOPES)) {
      expect(envelope.name).toBe(name);
      for (const recogniser of Object.values(envelope.recognise)) expect(typeof recogniser).toBe("function");
      expect(typeof envelope.assembler().push).toBe("function");
    }
    expect(Object.keys(chat.recognise)).toEqual(["message", "requestBody", "response", "streamEvent"]);
  });

  test("detection asks each of them once", () => {
    expect([...RECOGNITION_ORDER].sort()).toEqual(Object.keys(ENVELOPES).sort());
  });
});
