// The gate's JSON lines are written field by field, for speed; each must be
// exactly what JSON.stringify makes of the record.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { blockedBy, GateOutput, jsonLine } from "../../src/cli/gate-output.js";
import type { GateRecord } from "../../src/gate/gate-journal.js";
import { FINDING_CODES } from "../../src/gate/journal-checks.js";
import { GATE_REASONS } from "../../src/gate/replay-gate.js";

const text = fc.string({ unit: "binary", maxLength: 30 });
const finding = fc.record(
  { code: fc.constantFrom(...FINDING_CODES), detail: text, path: text, related_line: fc.integer({ min: 1, max: 2 ** 40 }) },
  { requiredKeys: ["code", "detail"] },
);
const record: fc.Arbitrary<GateRecord> = fc
  .record(
    {
      source: text,
      line: fc.integer({ min: 1, max: 2 ** 40 }),
      index: fc.nat(50),
      type: fc.jsonValue(),
      call_id: fc.jsonValue(),
      name: fc.jsonValue(),
      reason: fc.constantFrom(...GATE_REASONS, "error" as const),
      detail: text,
      path: text,
      blocked: fc.boolean(),
      findings: fc.array(finding, { maxLength: 3 }),
    },
    { requiredKeys: ["line", "index", "reason", "detail", "blocked", "findings"] },
  )
  // The keys in the order the gate builds a record: source first when it has one.
  .map(({ source, ...rest }) => (source === undefined ? rest : { source, ...rest }));

/** The record as the JSON line writes it: a finding that blocks an item whose reason does not is named in blocked_by, just before blocked. */
function withBlockedBy(gated: GateRecord): object {
  const by = blockedBy(gated);
  if (by === undefined || by === gated.reason) return gated;
  const { blocked, findings, ...head } = gated;
  return { ...head, blocked_by: by, blocked, findings };
}

describe("a JSON line of the gate", () => {
  test("is JSON.stringify of its record, whatever the record holds", () => {
    fc.assert(
      fc.property(record, (gated) => {
        expect(jsonLine(gated)).toBe(JSON.stringify(withBlockedBy(gated)));
      }),
      { numRuns: 2000 },
    );
  });
  test("stays JSON.stringify of its record past the thousands of short strings whose text it keeps", () => {
    const gated = (detail: string): GateRecord => ({ line: 1, index: 0, type: "function_call", reason: "arguments_schema", detail, path: "/arguments", blocked: true, findings: [] });
    const details = Array.from({ length: 10_000 }, (_, i) => `arguments/region must be one of "apac" \u2028 ${i}`);
    for (const detail of [...details, ...details.reverse()]) expect(jsonLine(gated(detail))).toBe(JSON.stringify(gated(detail)));
  });
  test("leaves out fields that are undefined, as JSON.stringify does", () => {
    const gated: GateRecord = { line: 3, index: 0, type: undefined, call_id: "call_1", name: undefined, reason: "status", detail: 'status is "in_progress"', path: undefined, blocked: true, findings: [] };
    expect(jsonLine(gated)).toBe('{"line":3,"index":0,"call_id":"call_1","reason":"status","detail":"status is \\"in_progress\\"","blocked":true,"findings":[]}');
  });
  test("is what the output gathers, one line each, with the counts", () => {
    const output = new GateOutput("json", false);
    const error: GateRecord = { line: 1, index: 0, reason: "error", detail: "line is not JSON", blocked: true, findings: [] };
    const ok: GateRecord = { line: 2, index: 0, type: "function_call", call_id: "c", name: "f", reason: "ok", detail: "fine", blocked: false, findings: [] };
    output.add([error, ok]);
    expect(output.take()).toEqual({ text: `${JSON.stringify(error)}\n${JSON.stringify(ok)}\n`, items: 1, errors: 1, blocked: 1, blockedBy: { error: 1 }, findings: {} });
    expect(output.take()).toEqual({ text: "", items: 0, errors: 0, blocked: 0, blockedBy: {}, findings: {} });
  });
});

describe("what the output writes and counts", () => {
  const orphan: GateRecord = {
    line: 4,
    index: 0,
    type: "function_call_output",
    call_id: "call_9",
    reason: "not_function_call",
    detail: '"function_call_output" is not a function_call',
    path: "/type",
    blocked: true,
    findings: [{ code: "orphan_output", detail: 'no earlier function_call has the call_id "call_9"' }],
  };
  const passed: GateRecord = { line: 5, index: 0, type: "message", reason: "not_function_call", detail: '"message" is not a function_call', blocked: false, findings: [] };
  const badStatus: GateRecord = { line: 6, index: 0, type: "function_call", call_id: "c", reason: "status", detail: 'status is "in_progress"', blocked: true, findings: [{ code: "missing_output", detail: "no output" }] };

  test("a finding that blocks an item whose own reason does not is its headline, the verdict below", () => {
    const output = new GateOutput("text", false);
    output.add([orphan]);
    expect(output.take().text).toBe(
      'line 4  function_call_output call_9  BLOCKED orphan_output: no earlier function_call has the call_id "call_9"\n    verdict not_function_call: "function_call_output" is not a function_call\n',
    );
  });

  test("--only-blocked writes the blocked records and counts them all, by what blocked them and by finding", () => {
    const output = new GateOutput("json", false, "blocked");
    output.add([orphan, passed, badStatus]);
    expect(output.take()).toEqual({
      text: `${jsonLine(orphan)}\n${jsonLine(badStatus)}\n`,
      items: 3,
      errors: 0,
      blocked: 2,
      blockedBy: { orphan_output: 1, status: 1 },
      findings: { orphan_output: 1, missing_output: 1 },
    });
  });

  test("--quiet writes nothing and still counts", () => {
    const output = new GateOutput("text", false, "none");
    output.add([orphan, passed]);
    expect(output.take()).toEqual({ text: "", items: 2, errors: 0, blocked: 1, blockedBy: { orphan_output: 1 }, findings: { orphan_output: 1 } });
  });
});
