// The official JSON-Schema-Test-Suite (draft 2020-12, the required files and
// optional/ecmascript-regex.json) through the gate's compile path, counted per
// file next to plain Ajv: valid values that pass, invalid values that are
// blocked, invalid values given ok (false ok) and valid values blocked (false
// block). No invalid value may get ok; every valid value passes, except the
// refusals listed here on purpose. These files run as the gate runs by default,
// with `format` an annotation, as 2020-12 says; the optional/format files run
// with formats asserted (`gate --assert-formats`) and are held to half the rule:
// no invalid value may get ok, while valid values blocked are counted (a format
// the gate has no checker for refuses its schema; IDNA A-labels in a hostname
// and an apostrophe in a URI template, which the RFC grammars leave out, block).
//
// The suite is not part of the project. It is read from the folder named by
// JSON_SCHEMA_TEST_SUITE, or taken from a git mirror of it when one is present;
// without either the tests are skipped, and say so.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import * as addFormatsModule from "ajv-formats";
import { afterAll, describe, expect, test } from "vitest";
import { SchemaCache } from "../../src/gate/schema.js";
import { compileEvaluator, type FormatEntry } from "../../src/gate/schema-evaluator.js";
import { runWithinBudget } from "../../src/gate/schema-work.js";

const MIRROR = process.env.JSON_SCHEMA_TEST_SUITE_MIRROR ?? "/work/.mirror/json-schema-org+JSON-Schema-Test-Suite/repo";
const DRAFT = "tests/draft2020-12";
const addFormats = (addFormatsModule as unknown as { default: (ajv: Ajv2020) => Ajv2020 }).default;

interface SuiteCase {
  description: string;
  data: unknown;
  valid: boolean;
}
interface SuiteGroup {
  description: string;
  schema: Record<string, unknown> | boolean;
  tests: SuiteCase[];
}

/** Where the draft 2020-12 tests are, or why they are not there. */
function locateSuite(): { folder: string; cleanup?: () => void } | { missing: string } {
  const given = process.env.JSON_SCHEMA_TEST_SUITE;
  if (given !== undefined && given !== "") {
    const folder = join(given, DRAFT);
    return existsSync(folder) ? { folder } : { missing: `JSON_SCHEMA_TEST_SUITE=${given} has no ${DRAFT}` };
  }
  if (!existsSync(MIRROR)) return { missing: `JSON_SCHEMA_TEST_SUITE is not set and there is no git mirror at ${MIRROR}` };
  const archive = spawnSync("git", ["-C", MIRROR, "archive", "--format=tar", "HEAD", DRAFT], { maxBuffer: 256 * 1024 * 1024 });
  if (archive.status !== 0) return { missing: `git archive of ${MIRROR} failed: ${archive.stderr.toString().trim()}` };
  const root = mkdtempSync(join(tmpdir(), "orbridge-schema-suite-"));
  const untar = spawnSync("tar", ["-x", "-C", root], { input: archive.stdout });
  if (untar.status !== 0) {
    rmSync(root, { recursive: true, force: true });
    return { missing: `tar could not unpack the suite: ${untar.stderr.toString().trim()}` };
  }
  return { folder: join(root, DRAFT), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * Schemas the gate refuses on purpose, so their valid values are blocked too.
 * Each entry names the groups and says why; a refused schema outside this list,
 * or one of these that compiles, fails the test.
 */
const REFUSED_ON_PURPOSE: Array<{ file: string; groups: readonly string[] | "all"; why: string }> = [
  { file: "refRemote.json", groups: "all", why: "a remote $ref is never fetched" },
  {
    file: "dynamicRef.json",
    groups: [
      "strict-tree schema, guards against misspelled properties",
      "tests for implementation dynamic anchor and reference link",
      "$ref and $dynamicAnchor are independent of order - $defs first",
      "$ref and $dynamicAnchor are independent of order - $ref first",
      "$ref to $dynamicRef finds detached $dynamicAnchor",
    ],
    why: "it refers to one of the suite's remote documents, never fetched",
  },
  {
    file: "vocabulary.json",
    groups: ["schema that uses custom metaschema with with no validation vocabulary", "ignore unrecognized optional vocabulary"],
    why: "its $schema is a remote meta-schema, never fetched",
  },
  { file: "properties.json", groups: ["properties whose names are Javascript object property names"], why: "a property named \"__proto__\" cannot be checked" },
  ...["idn-email", "idn-hostname", "iri", "iri-reference", "unknown"].map((format) => ({
    file: `optional/format/${format}.json`,
    groups: "all" as const,
    why: "the gate has no checker for this format, and refuses a schema that asks to assert it",
  })),
];

function refusedOnPurpose(file: string, group: SuiteGroup): { why: string } | undefined {
  return REFUSED_ON_PURPOSE.find((entry) => entry.file === file && (entry.groups === "all" || entry.groups.includes(group.description)));
}

/** The files run with formats asserted. */
const isFormatFile = (file: string) => file.startsWith("optional/format/");

/** Files whose failures are recorded rather than asserted: the pattern engine is being replaced. */
const RECORDED_ONLY = new Set(["optional/ecmascript-regex.json"]);

interface Counts {
  validPass: number;
  invalidBlocked: number;
  falseOk: number;
  falseBlock: number;
}
const zero = (): Counts => ({ validPass: 0, invalidBlocked: 0, falseOk: 0, falseBlock: 0 });

function count(counts: Counts, valid: boolean, passed: boolean): void {
  if (valid && passed) counts.validPass += 1;
  else if (!valid && !passed) counts.invalidBlocked += 1;
  else if (!valid) counts.falseOk += 1;
  else counts.falseBlock += 1;
}

/**
 * Plain Ajv, as a project would set it up (with ajv-formats, asserting formats
 * on the optional/format files only, as the gate does): an error it throws
 * counts as blocked, as it would in a gate.
 */
class PlainAjv {
  private ajv: Ajv2020;

  constructor(private readonly assertFormats: boolean) {
    this.ajv = this.create();
  }

  private create(): Ajv2020 {
    const ajv = new Ajv2020({ strict: false, logger: false, validateFormats: this.assertFormats });
    addFormats(ajv);
    return ajv;
  }

  verdicts(group: SuiteGroup): boolean[] {
    let validate: ((data: unknown) => boolean) | undefined;
    try {
      validate = this.ajv.compile(group.schema);
    } catch (error) {
      // Two groups of a file may use one $id: a fresh instance for the second.
      if (!String((error as Error).message).includes("already exists")) return group.tests.map(() => false);
      this.ajv = this.create();
      try {
        validate = this.ajv.compile(group.schema);
      } catch {
        return group.tests.map(() => false);
      }
    }
    if (typeof group.schema === "object") this.ajv.removeSchema(group.schema);
    return group.tests.map((testCase) => {
      try {
        return validate!(testCase.data) === true;
      } catch {
        return false;
      }
    });
  }
}

const located = locateSuite();

if ("missing" in located) {
  console.log(`JSON-Schema-Test-Suite skipped: ${located.missing}`);
  describe.skip("JSON-Schema-Test-Suite draft 2020-12 through the gate", () => {
    test("needs the suite", () => {});
  });
} else {
  const folder = located.folder;
  const files = [
    ...readdirSync(folder)
      .filter((name) => name.endsWith(".json"))
      .sort(),
    "optional/ecmascript-regex.json",
    ...readdirSync(join(folder, "optional/format"))
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => `optional/format/${name}`),
  ];
  const table: Array<{ file: string; ours: Counts; ajv: Counts; refused: number; recorded: string[] }> = [];

  describe("JSON-Schema-Test-Suite draft 2020-12 through the gate", () => {
    const cache = new SchemaCache();
    const asserting = new SchemaCache(undefined, { assertFormats: true });
    afterAll(() => printTable(table));

    test.each(files)("%s: no invalid value gets ok, and only the listed refusals block a valid one", (file) => {
      const groups = JSON.parse(readFileSync(join(folder, file), "utf8")) as SuiteGroup[];
      const formats = isFormatFile(file);
      const plain = new PlainAjv(formats);
      const row = { file, ours: zero(), ajv: zero(), refused: 0, recorded: [] as string[] };
      const unexpected: string[] = [];
      for (const group of groups) {
        const compiled = (formats ? asserting : cache).compile(group.schema);
        const onPurpose = refusedOnPurpose(file, group);
        if (onPurpose && compiled.ok) unexpected.push(`${group.description}: listed as refused (${onPurpose.why}) but it compiles`);
        if (!onPurpose && !compiled.ok && group.tests.some((testCase) => testCase.valid) && !RECORDED_ONLY.has(file)) {
          unexpected.push(`${group.description}: refused: ${compiled.error}`);
        }
        const plainVerdicts = plain.verdicts(group);
        group.tests.forEach((testCase, i) => {
          const passed = compiled.ok && compiled.validate(testCase.data) === true;
          count(row.ours, testCase.valid, passed);
          count(row.ajv, testCase.valid, plainVerdicts[i]);
          if (!testCase.valid && passed) unexpected.push(`${group.description} / ${testCase.description}: invalid, and got ok`);
          if (!testCase.valid || passed) return;
          if (formats && !onPurpose) return;
          if (onPurpose) row.refused += 1;
          else if (RECORDED_ONLY.has(file)) row.recorded.push(`${group.description} / ${testCase.description}`);
          else unexpected.push(`${group.description} / ${testCase.description}: valid, and blocked`);
        });
      }
      table.push(row);
      expect(unexpected).toEqual([]);
      expect(row.ours.falseOk).toBe(0);
    });
  });

  describeEvaluatorAlone(folder, files);
  // The extracted copy is removed once both describes have read it.
  afterAll(() => located.cleanup?.());
}

/**
 * The project's evaluator on every schema of the suite, not only those the gate
 * sends it: the second check is only worth its place if it is right everywhere.
 */
function describeEvaluatorAlone(folder: string, files: readonly string[]): void {
  describe("JSON-Schema-Test-Suite draft 2020-12 through the project's evaluator alone", () => {
    const ajv = new Ajv2020({ strict: false, logger: false });
    const metaSchema = (uri: string) => (uri.startsWith("https://json-schema.org/draft/2020-12/") ? ajv.getSchema(uri)?.schema : undefined);
    const totals = zero();
    afterAll(() => console.log(`the project's evaluator alone, on the files held to the rule: ${totals.validPass} valid pass, ${totals.invalidBlocked} invalid blocked, ${totals.falseOk} false ok, ${totals.falseBlock} false block`));

    test.each(files.filter((file) => !isFormatFile(file)))("%s", (file) => {
      const groups = JSON.parse(readFileSync(join(folder, file), "utf8")) as SuiteGroup[];
      const unexpected: string[] = [];
      for (const group of groups.filter((candidate) => !refusedOnPurpose(file, candidate))) {
        let validate: ((value: unknown) => boolean) | undefined;
        try {
          validate = runWithinBudget(compileEvaluator(typeof group.schema === "boolean" ? { allOf: [group.schema] } : group.schema, {}, metaSchema));
        } catch (error) {
          unexpected.push(`${group.description}: refused: ${(error as Error).message}`);
          continue;
        }
        for (const testCase of group.tests) {
          const passed = validate(testCase.data);
          count(totals, testCase.valid, passed);
          if (passed !== testCase.valid) unexpected.push(`${group.description} / ${testCase.description}: expected ${testCase.valid ? "valid" : "invalid"}`);
        }
      }
      expect(unexpected).toEqual([]);
    });
  });
}

function printTable(rows: Array<{ file: string; ours: Counts; ajv: Counts; refused: number; recorded: string[] }>): void {
  const held = rows.filter((row) => !isFormatFile(row.file));
  const asserted = rows.filter((row) => isFormatFile(row.file));
  const total = (pick: (row: (typeof rows)[number]) => Counts, among: typeof rows): Counts =>
    among.reduce((sum, row) => {
      const counts = pick(row);
      return { validPass: sum.validPass + counts.validPass, invalidBlocked: sum.invalidBlocked + counts.invalidBlocked, falseOk: sum.falseOk + counts.falseOk, falseBlock: sum.falseBlock + counts.falseBlock };
    }, zero());
  const cells = (counts: Counts) => [counts.validPass, counts.invalidBlocked, counts.falseOk, counts.falseBlock].map((n) => String(n).padStart(5)).join(" ");
  const lines = [
    "JSON-Schema-Test-Suite draft 2020-12: the gate (ours) and plain Ajv",
    "each side: valid values passing, invalid values blocked, false ok, false block",
    `${"file".padEnd(34)} ${"ours".padStart(14).padEnd(23)} | ${"plain Ajv".padStart(16).padEnd(23)} | ours blocked on purpose`,
    ...[...rows]
      .sort((a, b) => a.file.localeCompare(b.file))
      .map((row) => `${row.file.padEnd(34)} ${cells(row.ours)} | ${cells(row.ajv)} | ${row.refused > 0 ? `${row.refused} refused schema` : ""}${isFormatFile(row.file) && row.ours.falseBlock > row.refused ? `${row.ours.falseBlock - row.refused} valid value blocked` : ""}${row.recorded.length > 0 ? `${row.recorded.length} pattern engine` : ""}`),
    `${"total, required and ecmascript-regex".padEnd(34)} ${cells(total((row) => row.ours, held))} | ${cells(total((row) => row.ajv, held))}`,
    `${"total, optional/format (asserted)".padEnd(34)} ${cells(total((row) => row.ours, asserted))} | ${cells(total((row) => row.ajv, asserted))}`,
    ...rows.flatMap((row) => row.recorded.map((name) => `recorded, pattern engine: ${row.file}: ${name}`)),
  ];
  console.log(lines.join("\n"));
}
