// A call that says it did not complete is blocked by the gate. Chat, Anthropic,
// Gemini and Bedrock messages have no status for one call: converted there as it
// is, the call read as one that may run, and the converted journal passed the gate.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const lines = (...records: unknown[]) => records.map((record) => JSON.stringify(record) + "\n").join("");
const parse = (text: string) => text.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

const call = (callId: string, region: string, status?: string) => ({ type: "function_call", call_id: callId, name: "sales", arguments: JSON.stringify({ region }), ...(status === undefined ? {} : { status }) });
const output = (callId: string) => ({ type: "function_call_output", call_id: callId, output: "report" });
const SCHEMA = JSON.stringify({ type: "object", required: ["region"], properties: { region: { type: "string" } } });

/** `convert --to TARGET` of `journal`, its report, and the gate's verdicts on what it wrote, by call_id. */
async function convertAndGate(target: string, journal: string) {
  const folder = scratchFolder("unfinished");
  const schema = join(folder, "schema.json");
  const report = join(folder, "report.jsonl");
  writeFileSync(schema, SCHEMA);
  const converted = await runOrbridge(["convert", "--to", target, "--report", report], journal);
  const gated = await runOrbridge(["gate", "--schema", schema, "--format", "json"], converted.stdout);
  const verdicts = parse(gated.stdout).filter((verdict) => verdict.type === "function_call").map((verdict) => [verdict.call_id, verdict.blocked]);
  return { code: converted.code, verdicts, report: parse(readFileSync(report, "utf8")) };
}

describe.each(["chat", "anthropic", "gemini", "bedrock"])("convert --to %s", { timeout: 30_000 }, (target) => {
  test("loose items: an incomplete or in_progress call is left out with its output, each reported on its line; the completed call beside it is written and passes", async () => {
    const journal = lines({ type: "message", role: "user", content: "sales?" }, call("c_done", "apac", "completed"), call("c_cut", "emea", "incomplete"), call("c_open", "amer", "in_progress"), output("c_done"), output("c_cut"));
    const { code, verdicts, report } = await convertAndGate(target, journal);
    expect(code).toBe(0);
    expect(verdicts).toEqual([["c_done", false]]);
    const leftOut = report.filter((loss) => loss.code === "unsupported_item").map((loss) => [loss.line, loss.detail]);
    expect(leftOut).toEqual([
      [3, expect.stringMatching(/^the call "c_cut" is "incomplete": \w+ cannot mark one call unfinished, and written there it would read as a call that may run, so it is left out$/)],
      [4, expect.stringMatching(/^the call "c_open" is "in_progress": /)],
      [6, 'the output answers the call "c_cut", left out as unfinished: it is left out with it'],
    ]);
  });

  test("a loose call with no status is written, and reported: the gate blocks it, the target has no status to say so", async () => {
    const { verdicts, report } = await convertAndGate(target, lines({ type: "message", role: "user", content: "sales?" }, call("c_bare", "apac")));
    expect(verdicts).toEqual([["c_bare", false]]);
    expect(report.filter((loss) => loss.code === "form_changed" && /has no status/.test(String(loss.detail))).map((loss) => loss.line)).toEqual([2]);
  });

  test("a completed response holding an incomplete call is written incomplete: its call stays blocked", async () => {
    const response = { id: "resp_1", object: "response", created_at: 1, status: "completed", model: "m", output: [{ ...call("c_cut", "emea", "incomplete"), id: "fc_1" }] };
    const { verdicts, report } = await convertAndGate(target, lines(response));
    expect(verdicts).toEqual([["c_cut", true]]);
    expect(report).toContainEqual(expect.objectContaining({ line: 1, path: "/output/0/status", code: "form_changed" }));
  });

  test("a completed response holding a call with no status is written incomplete: its call stays blocked", async () => {
    const response = { id: "resp_1", object: "response", created_at: 1, status: "completed", model: "m", output: [{ ...call("c_done", "apac", "completed"), id: "fc_0" }, { ...call("c_bare", "emea"), id: "fc_1" }] };
    const { verdicts, report } = await convertAndGate(target, lines(response));
    // Chat marks every call of a cut response; the others only the last block, which c_bare is.
    expect(verdicts).toEqual([
      ["c_done", target === "chat"],
      ["c_bare", true],
    ]);
    // The status it lacks is no place in the record: the loss points at the record where the target cannot hold the path.
    expect(report).toContainEqual(expect.objectContaining({ line: 1, code: "form_changed", detail: expect.stringMatching(/^the call "c_bare" has no status: /) }));
  });

  test("an unfinished call before others: where only the last block reads as cut, what follows it is left out, reported, so the call stays blocked", async () => {
    const response = { id: "resp_1", object: "response", created_at: 1, status: "completed", model: "m", output: [{ ...call("c_wait", "emea", "in_progress"), id: "fc_0" }, { ...call("c_done", "apac", "completed"), id: "fc_1" }] };
    const { verdicts, report } = await convertAndGate(target, lines(response));
    expect(verdicts).toEqual(target === "chat" ? [["c_wait", true], ["c_done", true]] : [["c_wait", true]]);
    const leftOut = report.filter((loss) => loss.code === "unsupported_item").map((loss) => loss.path);
    expect(leftOut).toEqual(target === "chat" ? [] : ["/output/1"]);
  });

  test("an incomplete response: where only the last block reads as cut, what follows its unfinished call is left out too", async () => {
    const response = { id: "resp_1", object: "response", created_at: 1, status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, model: "m", output: [{ ...call("c_cut", "emea", "incomplete"), id: "fc_0" }, { ...call("c_done", "apac", "completed"), id: "fc_1" }] };
    const { verdicts, report } = await convertAndGate(target, lines(response));
    expect(verdicts).toEqual(target === "chat" ? [["c_cut", true], ["c_done", true]] : [["c_cut", true]]);
    expect(report.filter((loss) => loss.code === "unsupported_item").map((loss) => loss.path)).toEqual(target === "chat" ? [] : ["/output/1"]);
  });

  test("a request body: an incomplete call of its input is left out with its output; a call without status, as recordings replay history, is kept and reported", async () => {
    const body = { model: "m", input: [{ type: "message", role: "user", content: "sales?" }, call("c_cut", "emea", "incomplete"), output("c_cut"), call("c_history", "apac"), output("c_history")] };
    const { verdicts, report } = await convertAndGate(target, lines(body));
    expect(verdicts.map(([callId]) => callId)).toEqual(["c_history"]);
    expect(report.filter((loss) => loss.code === "unsupported_item").map((loss) => loss.path)).toEqual(["/input/1", "/input/2"]);
    // The gate blocks it, the target reads it as a call that may run: kept, since history replays so, and said.
    expect(report.filter((loss) => /has no status/.test(String(loss.detail))).map((loss) => [loss.path, loss.code])).toEqual([["/input/3", "form_changed"]]);
  });

  test("a request body whose history call writes status null, which the spec allows an input item, is kept with its output as one without status", async () => {
    const body = { model: "m", input: [{ type: "message", role: "user", content: "sales?" }, { ...call("c_history", "apac"), status: null }, output("c_history"), { type: "message", role: "user", content: "and emea?" }] };
    const { verdicts, report } = await convertAndGate(target, lines(body));
    expect(verdicts.map(([callId]) => callId)).toEqual(["c_history"]);
    expect(report.filter((loss) => loss.code === "unsupported_item")).toEqual([]);
    expect(report.filter((loss) => /has no status/.test(String(loss.detail))).map((loss) => [loss.path, loss.code])).toEqual([["/input/1", "form_changed"]]);
  });
});
