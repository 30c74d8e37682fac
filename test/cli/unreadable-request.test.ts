// A line that cannot be read and names a request's tool fields may have been a
// request body that narrowed the tools: its choice cannot be known, so no
// function may run after it until the next request body.
import { writeFileSync } from "node:fs";
import { PassThrough, Readable } from "node:stream";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { gatedBatches, type GateJobsOptions } from "../../src/cli/gate-jobs.js";
import { LineSplitter } from "../../src/journal/read.js";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("unreadable-request");
const tools = join(folder, "tools.json");
writeFileSync(tools, JSON.stringify([{ type: "function", function: { name: "t1", parameters: { type: "object" } } }]));

const call = (id: string) => JSON.stringify({ type: "function_call", call_id: id, name: "t1", arguments: "{}", status: "completed" });
const request = (choice: string) => `{"model":"gpt-4o","messages":[{"role":"user","content":"go"}],"tools":[{"type":"function","function":{"name":"t1","parameters":{"type":"object"}}}],${choice}}`;

async function gate(lines: string[], args: string[] = []): Promise<Array<{ line: number; reason: string; detail: string; blocked: boolean }>> {
  const journal = join(folder, `j-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(journal, lines.join("\n") + "\n");
  const run = await runOrbridge(["gate", "--tools", tools, "--format", "json", ...args, journal]);
  return run.stdout.trim().split("\n").map((text) => JSON.parse(text) as { line: number; reason: string; detail: string; blocked: boolean });
}

describe("a line that cannot be read and names a request's tools", () => {
  test.each([
    ["a tool_choice given twice", request('"tool_choice":"none","tool_choice":"auto"')],
    ["another member given twice", request('"tool_choice":"auto","model":"gpt-4o"')],
    ["a request cut short", request('"tool_choice":"none"').slice(0, 80)],
    ["a name given twice, written with escapes", request('"tool\\u005fchoice":"none","tool\\u005fchoice":"auto"')],
    // These two name no other tool field: the tools in force are the file's.
    ["Chat's legacy function_call given twice", '{"model":"gpt-4o","messages":[{"role":"user","content":"go"}],"function_call":"none","function_call":"auto"}'],
    ["a request cut short just after a tool field's name, before its colon", '{"model":"gpt-4o","messages":[{"role":"user","content":"go"}],"tool_choice" '],
    // A reader matching names regardless of case reads these as tool_choice, as a readable line so spelled is read.
    ["a Tool_choice given twice", '{"model":"gpt-4o","messages":[{"role":"user","content":"go"}],"Tool_choice":"none","Tool_choice":"auto"}'],
    ["a request cut short after its TOOL_CHOICE", '{"model":"gpt-4o","messages":[{"role":"user","content":"go"}],"TOOL_CHOICE":"no'],
  ])("%s: the line is an error, and the calls after it are not allowed until the next request body", async (_name, unreadable) => {
    const verdicts = await gate([unreadable, call("call_1"), request('"tool_choice":"auto"'), call("call_2")]);
    const byLine = verdicts.map((verdict) => [verdict.line, verdict.reason, verdict.blocked]);
    expect(byLine).toEqual([
      [1, "error", true],
      [2, "ok", true],
      [3, "not_function_call", false],
      [4, "ok", false],
    ]);
    expect(verdicts[0].detail).toMatch(/; it may be a request body \(it names a request's tools, or was not read at all\), so no function may run until the next request body$/);
  });

  test.each([
    ["full-width letters", "Ｔｏｏｌ＿ｃｈｏｉｃｅ"],
    ["a long s", "toolſ"],
    ["a zero-width space inside", "tool\u200b_choice"],
    ["a zero-width space written as its escape", "tool\\u200b_choice"],
  ])("a tool field spelled with %s and given twice, which a reader folding width reads as a request's: the calls after it are not allowed", async (_name, spelled) => {
    const unreadable = `{"model":"gpt-4o","messages":[{"role":"user","content":"go"}],"${spelled}":"none","${spelled}":"auto"}`;
    const verdicts = await gate([unreadable, call("call_1"), request('"tool_choice":"auto"'), call("call_2")]);
    expect(verdicts.map((verdict) => [verdict.line, verdict.reason, verdict.blocked])).toEqual([
      [1, "error", true],
      [2, "ok", true],
      [3, "not_function_call", false],
      [4, "ok", false],
    ]);
  });

  test("two threads give the same lines: the worker's tools in force take the mark too", async () => {
    const journal = [request('"tool_choice":"auto"'), request('"tool_choice":"none","tool_choice":"auto"'), call("call_1")].join("\n") + "\n";
    const run = async (jobs: 1 | 2) => {
      const io = { stdin: Readable.from([Buffer.from(journal, "utf8")]), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
      const options: GateJobsOptions = { jobs, read: {}, normalize: {}, gate: { omitSource: true }, format: "json", colour: false, workerMinBytes: 0 };
      const out = { text: "", threads: new Set<number>() };
      for await (const batch of gatedBatches(["-"], io, options)) {
        out.text += batch.text;
        out.threads.add(batch.threads);
      }
      return out;
    };
    const [one, two] = [await run(1), await run(2)];
    expect({ one: one.threads, two: two.threads, same: two.text === one.text }).toEqual({ one: new Set([1]), two: new Set([2]), same: true });
    expect(one.text.trimEnd().split("\n").map((line) => (({ line: at, blocked }) => [at, blocked])(JSON.parse(line)))).toEqual([
      [1, false],
      [2, true],
      [3, true],
    ]);
  });

  test("a line that is not UTF-8 restricts as a reader that replaces bad bytes would read it: a request naming its tools does, a message does not", async () => {
    const gateBytes = async (first: Buffer) => {
      const journal = join(folder, `latin1-${Math.random().toString(36).slice(2)}.jsonl`);
      writeFileSync(journal, Buffer.concat([first, Buffer.from("\n" + call("call_1") + "\n")]));
      const run = await runOrbridge(["gate", "--tools", tools, "--format", "json", journal]);
      return run.stdout.trim().split("\n").map((text) => (({ line, blocked }) => [line, blocked])(JSON.parse(text) as { line: number; blocked: boolean }));
    };
    const [head, tail] = request('"tool_choice":"none"').split('"go"');
    expect(await gateBytes(Buffer.concat([Buffer.from(`${head}"g`), Buffer.from([0xff]), Buffer.from(`o"${tail}`)]))).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(await gateBytes(Buffer.concat([Buffer.from('{"role":"user","content":"h'), Buffer.from([0xff]), Buffer.from('i"}')]))).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  test("a line that cannot be read and names no tool field leaves the calls after it as they were: function_call as an item's type is no field", async () => {
    const verdicts = await gate(['{"role":"user","content":"hi","content":"ho"}', '{"type":"function_call","type":"function_call","call_id":"c0","name":"t1","arguments":"{}"}', call("call_1")]);
    expect(verdicts.map((verdict) => [verdict.line, verdict.reason, verdict.blocked])).toEqual([
      [1, "error", true],
      [2, "error", true],
      [3, "ok", false],
    ]);
  });

  describe("with --record, a wrapper line whose record is not where the pointer says", () => {
    // The key pointer reads inside the record.
    const wrapped = (record: string) => `{"message":${record.replace(/^\{/, '{"conversation_id":"A",')}}`;
    const misplaced = '{"conversation_id":"A","messages":{"model":"gpt-4o","messages":[{"role":"user","content":"go"}],"tool_choice":"none"}}';
    const twice = '{"conversation_id":"A","message":{"model":"gpt-4o","messages":[],"tool_choice":"none","tool_choice":"auto"}}';

    test.each([
      ["one that names a request's tools elsewhere in the line", misplaced],
      ["a name given twice in a request's tools", twice],
    ])("%s restricts the calls after it, in one conversation or by key", async (_name, line) => {
      for (const args of [["--record", "/message"], ["--record", "/message", "--conversation", "/conversation_id"]]) {
        const verdicts = await gate([wrapped(call("call_1")), line, wrapped(call("call_2"))], args);
        expect([args.length, verdicts.map((verdict) => [verdict.line, verdict.reason, verdict.blocked])]).toEqual([
          args.length,
          [
            [1, "ok", false],
            [2, "error", true],
            [3, "ok", true],
          ],
        ]);
      }
    });
  });

  describe("a line too long to read", () => {
    const padded = (choice: string) => request(choice).replace('"go"', `"${"go ".repeat(40_000)}"`);

    test("that names a request's tools restricts the calls after it; one that names none does not", async () => {
      const args = ["--max-line-bytes", "1000"];
      const narrowing = await gate([padded('"tool_choice":"none"'), call("call_1"), request('"tool_choice":"auto"'), call("call_2")], args);
      expect(narrowing.map((verdict) => [verdict.line, verdict.reason, verdict.blocked])).toEqual([
        [1, "error", true],
        [2, "ok", true],
        [3, "not_function_call", false],
        [4, "ok", false],
      ]);
      expect(narrowing[0].detail).toMatch(/^line is 120\d{3} bytes, over the limit of 1000 bytes; it was not read; it may be a request body/);
      const message = await gate([JSON.stringify({ role: "user", content: "go ".repeat(40_000) }), call("call_1")], args);
      expect(message.map((verdict) => [verdict.line, verdict.reason, verdict.blocked])).toEqual([
        [1, "error", true],
        [2, "ok", false],
      ]);
    });

    test("a name cut between the pieces the line comes in is found across them, and the \\u escape of an ASCII character counts as one", () => {
      const mayBeRequest = (text: string, pieceBytes: number) => {
        const splitter = new LineSplitter("-", { maxLineBytes: 10 });
        const bytes = Buffer.from(text + "\n");
        const lines = [];
        for (let at = 0; at < bytes.length; at += pieceBytes) lines.push(...splitter.push(bytes.subarray(at, at + pieceBytes)));
        expect(lines.map((line) => line.error !== undefined)).toEqual([true]);
        return lines[0]!.mayBeRequest === true;
      };
      for (const pieceBytes of [1, 2, 3, 7, 12, 4096]) {
        expect([pieceBytes, mayBeRequest('{"model":"m","messages":[],"tool_choice":"none"}', pieceBytes)]).toEqual([pieceBytes, true]);
        expect([pieceBytes, mayBeRequest('{"model":"m","allowedFunctionNames":["t1"]}', pieceBytes)]).toEqual([pieceBytes, true]);
        expect([pieceBytes, mayBeRequest(String.raw`{"model":"m","tool_choice":"none"}`, pieceBytes)]).toEqual([pieceBytes, true]);
        expect([pieceBytes, mayBeRequest('{"role":"user","content":"which tool is best?"}', pieceBytes)]).toEqual([pieceBytes, false]);
        // Python's json escapes every character beyond ASCII: such escapes spell no name.
        expect([pieceBytes, mayBeRequest(String.raw`{"role":"user","content":"caf\u00e9 \u4e2d\u6587 \u00C9t\u00e9"}`, pieceBytes)]).toEqual([pieceBytes, false]);
        expect([pieceBytes, mayBeRequest(String.raw`{"model":"m","\u0074ools":[]}`, pieceBytes)]).toEqual([pieceBytes, true]);
        // Chat's legacy function_call is a request's field as a member, and an item's type as a value.
        expect([pieceBytes, mayBeRequest('{"model":"m","function_call" : "none"}', pieceBytes)]).toEqual([pieceBytes, true]);
        expect([pieceBytes, mayBeRequest('{"type":"function_call","call_id":"c1","arguments":"{}"}', pieceBytes)]).toEqual([pieceBytes, false]);
      }
    });

    test("that names a request's tools as a reader folding case or width reads them restricts the calls after it, as the same line read does", async () => {
      const args = ["--max-line-bytes", "1000"];
      for (const name of ["Tool_choice", "TOOLS", "Allowed_Tools", "toolſ", "Ｔｏｏｌ＿ｃｈｏｉｃｅ", "tool\u200b_choice"]) {
        const body = `{"model":"gpt-4o","messages":[{"role":"user","content":"${"go ".repeat(40_000)}"}],"${name}":"none"}`;
        const verdicts = await gate([body, call("call_1"), request('"tool_choice":"auto"'), call("call_2")], args);
        expect([name, verdicts.map((verdict) => [verdict.line, verdict.reason, verdict.blocked])]).toEqual([
          name,
          [
            [1, "error", true],
            [2, "ok", true],
            [3, "not_function_call", false],
            [4, "ok", false],
          ],
        ]);
      }
    });

    test("a name spelled otherwise and cut between the pieces the line comes in is found across them", () => {
      const mayBeRequest = (text: string, pieceBytes: number) => {
        const splitter = new LineSplitter("-", { maxLineBytes: 10 });
        const bytes = Buffer.from(text + "\n");
        const lines = [];
        for (let at = 0; at < bytes.length; at += pieceBytes) lines.push(...splitter.push(bytes.subarray(at, at + pieceBytes)));
        return lines.map((line) => line.mayBeRequest === true);
      };
      for (const pieceBytes of [1, 2, 3, 5, 7, 4096]) {
        expect([pieceBytes, mayBeRequest('{"model":"m","TOOL_CHOICE":"none"}', pieceBytes)]).toEqual([pieceBytes, [true]]);
        expect([pieceBytes, mayBeRequest('{"model":"m","Ｆｕｎｃｔｉｏｎ＿ｃａｌｌ" : "none"}', pieceBytes)]).toEqual([pieceBytes, [true]]);
        expect([pieceBytes, mayBeRequest(`{"model":"m","t${"\u200b".repeat(30)}ools":[]}`, pieceBytes)]).toEqual([pieceBytes, [true]]);
        // A value is no member: an item's type in other letters names no field.
        expect([pieceBytes, mayBeRequest('{"type":"FUNCTION_CALL","call_id":"c1","arguments":"{}"}', pieceBytes)]).toEqual([pieceBytes, [false]]);
        expect([pieceBytes, mayBeRequest('{"role":"user","content":"which TOOL is best?"}', pieceBytes)]).toEqual([pieceBytes, [false]]);
      }
    });

    test("two threads read it alike", async () => {
      const journal = [request('"tool_choice":"auto"'), padded('"tool_choice":"none"'), call("call_1")].join("\n") + "\n";
      const run = async (jobs: 1 | 2) => {
        const io = { stdin: Readable.from([Buffer.from(journal, "utf8")]), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
        const options: GateJobsOptions = { jobs, read: { maxLineBytes: 1000 }, normalize: {}, gate: { omitSource: true }, format: "json", colour: false, workerMinBytes: 0 };
        let text = "";
        for await (const batch of gatedBatches(["-"], io, options)) text += batch.text;
        return text;
      };
      const [one, two] = [await run(1), await run(2)];
      expect(two).toBe(one);
      expect(one.trimEnd().split("\n").map((line) => (({ line: at, blocked }) => [at, blocked])(JSON.parse(line)))).toEqual([
        [1, false],
        [2, true],
        [3, true],
      ]);
    });
  });
});

// A line read as JSON but of no known kind may hold a request body all the same:
// request bodies batched in an array, one nested in a wrapper of a logger's.
describe("a line of no known kind that names a request's tools", () => {
  const offersNone = request('"tool_choice":"none"');
  const after = (verdicts: Array<{ line: number; reason: string; blocked: boolean }>) => verdicts.map((verdict) => [verdict.line, verdict.reason, verdict.blocked]);

  test("request bodies in an array: the line is an error, and the calls after it are not allowed until the next request body", async () => {
    const verdicts = await gate([`[${offersNone}]`, call("call_1"), request('"tool_choice":"auto"'), call("call_2")]);
    expect(after(verdicts)).toEqual([
      [1, "error", true],
      [2, "ok", true],
      [3, "not_function_call", false],
      [4, "ok", false],
    ]);
    expect(verdicts[0].detail).toBe("record is an array, not a journal record; it may be a request body (it names a request's tools, or was not read at all), so no function may run until the next request body");
  });

  test.each([
    ["a request body under a member of a wrapper", `{"body":${offersNone}}`],
    ["a request without its response", `{"request":${offersNone}}`],
    ["a request body under a log's own wrapper, of a type no one defined", `{"type":"log","body":${offersNone}}`],
  ])("%s: the line is blocked, and the calls after it are not allowed until the next request body", async (_name, unknown) => {
    const verdicts = await gate([unknown, call("call_1"), request('"tool_choice":"auto"'), call("call_2")]);
    expect(after(verdicts)).toEqual([
      [1, "error", true],
      [1, "namespaced", true],
      [2, "ok", true],
      [3, "not_function_call", false],
      [4, "ok", false],
    ]);
    expect(verdicts[0].detail).toBe("line 1: a record of no known kind that names a request's tools below its top level; it may hold a request body, so no function may run until the next request body");
  });

  test("an object of no known kind that names no tool field is gated as it is, and the calls after it run", async () => {
    const verdicts = await gate(['{"event":"retry","attempt":{"n":2}}', call("call_1")]);
    expect(after(verdicts)).toEqual([
      [1, "namespaced", true],
      [2, "ok", false],
    ]);
  });
});
