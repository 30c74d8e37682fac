// Fail closed through `orbridge gate`: whatever goes wrong inside the gate blocks
// the call it was checking, with the error as detail, and the journal goes on.
import { afterEach, describe, expect, test, vi } from "vitest";
import { SchemaCache, type CompiledSchema } from "../../src/gate/schema.js";
import { call, gateJournal, jsonl, passed, salesSchema, scratchFolder } from "./support.js";

const file = scratchFolder();
afterEach(() => vi.restoreAllMocks());

/** Every schema compiles to `validate`, as if Ajv had produced it. */
function injectValidator(validate: (value: unknown) => boolean): void {
  const compiled = { ok: true, validate: Object.assign(validate, { errors: null }) } as unknown as CompiledSchema;
  vi.spyOn(SchemaCache.prototype, "compile").mockReturnValue(compiled);
}

const blockedBecause = (line: number, callId: string, detail: string) => ({
  line,
  index: 0,
  type: "function_call",
  call_id: callId,
  name: "get_latest_sales_report",
  reason: "arguments_schema",
  detail,
  blocked: true,
  findings: [],
});

describe("a validator that throws", () => {
  test("blocks the call it was checking, and the next calls are still gated", async () => {
    injectValidator((value) => {
      if ((value as { region?: string }).region === "emea") throw new RangeError("Maximum call stack size exceeded");
      return true;
    });
    const run = await gateJournal(file, salesSchema, jsonl(call("call_1", "{\"region\":\"emea\"}"), call("call_2", "{\"region\":\"apac\"}"), { type: "function_call_output", call_id: "call_2", output: "done" }));
    expect(run.verdicts).toEqual([
      blockedBecause(1, "call_1", "the gate could not finish the arguments_schema check: Maximum call stack size exceeded"),
      passed(2, "call_2"),
      { line: 3, index: 0, type: "function_call_output", call_id: "call_2", reason: "not_function_call", detail: "\"function_call_output\" is not a function_call", path: "/type", blocked: false, findings: [] },
    ]);
    expect(run.stderr).toBe("read 3 lines: 3 items, 0 errors; 1 blocked\n  blocked by: arguments_schema 1\n");
    expect(run.code).toBe(1);
  });
  test("that throws something other than an Error still blocks", async () => {
    injectValidator(() => {
      throw "validator state lost";
    });
    const run = await gateJournal(file, salesSchema, jsonl(call("call_1", "{\"region\":\"emea\"}")));
    expect(run.verdicts).toEqual([blockedBecause(1, "call_1", "the gate could not finish the arguments_schema check: validator state lost")]);
    expect(run.code).toBe(1);
  });
  test("a validator that answers nothing blocks", async () => {
    injectValidator((() => undefined) as unknown as (value: unknown) => boolean);
    const run = await gateJournal(file, salesSchema, jsonl(call("call_1", "{\"region\":\"emea\"}")));
    expect(run.verdicts).toEqual([{ ...blockedBecause(1, "call_1", "arguments do not match the tool schema"), path: "/arguments" }]);
    expect(run.code).toBe(1);
  });
});

describe("a compile cache that throws", () => {
  test("blocks every call with the error, and passes no call", async () => {
    vi.spyOn(SchemaCache.prototype, "compile").mockImplementation(() => {
      throw new Error("out of memory compiling the schema");
    });
    const run = await gateJournal(file, salesSchema, jsonl(call("call_1", "{\"region\":\"emea\"}"), call("call_2", "{\"region\":\"apac\"}")));
    expect(run.verdicts).toEqual([
      blockedBecause(1, "call_1", "the gate could not finish the arguments_schema check: out of memory compiling the schema"),
      blockedBecause(2, "call_2", "the gate could not finish the arguments_schema check: out of memory compiling the schema"),
    ]);
    expect(run.stderr).toBe("read 2 lines: 2 items, 0 errors; 2 blocked\n  blocked by: arguments_schema 2\n");
    expect(run.code).toBe(1);
  });
});
