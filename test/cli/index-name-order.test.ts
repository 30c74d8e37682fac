// An object whose members JSON.parse reorders (names that are array indices
// come first) is written in that order by convert and normalize, and each such
// object is reported at its place in the record, unless the record left it out.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("index-name-order");
const detail = "the object's member names that are array indices (digits alone) are written first, in ascending order, as JSON.parse reads them: its members are written in another order than the line wrote them";

async function run(argv: string[], line: string): Promise<{ stdout: string; stderr: string; report: unknown[] }> {
  const report = join(folder, `report-${Math.random().toString(36).slice(2)}.jsonl`);
  const result = await runOrbridge([...argv, "--report", report], `${line}\n`);
  const lines = readFileSync(report, "utf8").split("\n").filter((text) => text !== "");
  return { stdout: result.stdout, stderr: result.stderr, report: lines.map((text) => JSON.parse(text) as unknown) };
}

const body =
  '{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"b":{"type":"string"},"1":{"type":"string","enum":[{"z":0,"0":"a"}]}}}}}],"metadata":{"10":"x","2":"y"}}';

describe("a Chat request body", { timeout: 30_000 }, () => {
  test("convert --to chat writes its reordered objects as JSON.parse orders them, and reports each", async () => {
    const result = await run(["convert", "--to", "chat"], body);
    expect(result.stdout).toBe(
      '{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"1":{"type":"string","enum":[{"0":"a","z":0}]},"b":{"type":"string"}}}}}],"metadata":{"2":"y","10":"x"}}\n',
    );
    expect(result.report).toEqual([
      { line: 1, path: "/tools/0/function/parameters/properties", code: "form_changed", detail },
      { line: 1, path: "/tools/0/function/parameters/properties/1/enum/0", code: "form_changed", detail },
      { line: 1, path: "/metadata", code: "form_changed", detail },
    ]);
    expect(result.stderr).toBe("read 1 line: 1 record, 0 errors; 3 losses\n");
  });

  test("normalize leaves its tools and metadata behind, and says nothing of their order", async () => {
    const result = await run(["normalize"], body);
    expect(result.stdout).toBe('{"type":"message","role":"user","content":"hi"}\n');
    expect(result.report.map((loss) => (loss as { code: string }).code)).toEqual(["left_behind", "left_behind", "left_behind"]);
  });
});

describe("an item or a message holding such an object", { timeout: 30_000 }, () => {
  test("normalize reports an extension member of a call written in another order", async () => {
    const item = '{"type":"function_call","call_id":"c1","name":"f","arguments":"{\\"b\\":1,\\"1\\":2}","status":"completed","acme:meta":{"z":1,"0":2}}';
    const result = await run(["normalize"], item);
    // The arguments text is copied byte for byte: only the object of the record is reordered.
    expect(result.stdout).toBe('{"type":"function_call","call_id":"c1","name":"f","arguments":"{\\"b\\":1,\\"1\\":2}","status":"completed","acme:meta":{"0":2,"z":1}}\n');
    expect(result.report).toEqual([{ line: 1, path: "/acme:meta", code: "form_changed", detail }]);
  });

  test("an Anthropic call's input written back as Anthropic is reported at the input", async () => {
    const message = '{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"f","input":{"b":1,"1":2}}]}';
    const result = await run(["convert", "--to", "anthropic"], message);
    expect(result.stdout).toBe('{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"f","input":{"1":2,"b":1}}]}\n');
    expect(result.report).toEqual([{ line: 1, path: "/content/0/input", code: "form_changed", detail }]);
  });

  test("a line whose objects keep their order reports nothing", async () => {
    const message = '{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"f","input":{"1":2,"b":1}}]}';
    const result = await run(["convert", "--to", "anthropic"], message);
    expect(result.stdout).toBe(`${message}\n`);
    expect(result.report).toEqual([]);
  });
});
