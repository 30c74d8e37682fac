// `convert --to anthropic|bedrock`, record after record: a call_id the target's
// grammar rejects is rewritten, and the rewrite of one record is never the id of
// a call of another, whichever comes first, loose items and whole responses
// alike, so that gating the converted journal judges each call as the source's.
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { JournalConverter } from "../../src/cli/journal-converter.js";

const hex = (id: string, length = 8) => createHash("sha256").update(id).digest("hex").slice(0, length);
const rewrite = `a_b_${hex("a.b")}`;
const call = (callId: string, args: string) => ({ type: "function_call", call_id: callId, name: "lookup", arguments: args, status: "completed" });
const output = (callId: string, text: string) => ({ type: "function_call_output", call_id: callId, output: text });
const next = { type: "message", role: "user", content: "next" };

/** The journal converted to `target`: the tool_use and toolUse ids written, in order, and the losses at a call_id. */
function converted(records: readonly unknown[], target: "anthropic" | "bedrock") {
  const converter = new JournalConverter(target);
  const emitted = [...records.flatMap((record, index) => converter.push({ source: "-", line: index + 1, text: JSON.stringify(record) })), ...converter.finish()];
  const ids = emitted
    .flatMap((one) => one.records)
    .flatMap((record) => messageContent(record))
    .flatMap((block) => {
      const fields = block as { type?: string; id?: string; toolUse?: { toolUseId: string } };
      if (fields.type === "tool_use") return [fields.id!];
      return fields.toolUse ? [fields.toolUse.toolUseId] : [];
    });
  const losses = emitted.flatMap((one) => one.losses).filter((loss) => loss.path === "/call_id");
  return { ids, losses };
}

/** The blocks of a loose message, an Anthropic message or a Converse response. */
function messageContent(record: unknown): unknown[] {
  const fields = record as { content?: unknown[]; output?: { message: { content: unknown[] } } };
  return fields.content ?? fields.output?.message.content ?? [];
}

describe.each(["anthropic", "bedrock"] as const)("loose items to %s", (target) => {
  test("a call whose id a rewrite of an earlier turn wrote gets an id of its own, reported", () => {
    const { ids, losses } = converted([call("a.b", '{"q":1}'), output("a.b", "one"), next, call(rewrite, '{"q":2}'), output(rewrite, "two")], target);
    const own = `${rewrite}_${hex(rewrite)}`;
    expect(ids).toEqual([rewrite, own]);
    const clash = `call_id "${rewrite}" is what "a.b" was written as: written as "${own}", for the call and its result alike`;
    expect(losses.filter((loss) => loss.line >= 4)).toEqual([
      { line: 4, path: "/call_id", code: "form_changed", detail: clash },
      { line: 5, path: "/call_id", code: "form_changed", detail: clash },
    ]);
  });

  test("a rewrite takes no id a call of an earlier turn has", () => {
    const { ids } = converted([call(rewrite, '{"q":1}'), output(rewrite, "one"), next, call("a.b", '{"q":2}'), output("a.b", "two")], target);
    expect(ids).toEqual([rewrite, `a_b_${hex("a.b", 12)}`]);
  });
});

describe.each(["anthropic", "bedrock"] as const)("response objects and loose outputs to %s", (target) => {
  const response = (id: string, callId: string, args: string) => ({ id, object: "response", created_at: 1, status: "completed", model: "m", output: [{ id: `fc_${id}`, type: "function_call", status: "completed", call_id: callId, name: "lookup", arguments: args }] });

  test("a response's call whose id a rewrite of an earlier response wrote, and its output on a later line, share one id of their own", () => {
    const { ids, losses } = converted([response("r1", "a.b", '{"q":1}'), output("a.b", "one"), response("r2", rewrite, '{"q":2}'), output(rewrite, "two")], target);
    const own = `${rewrite}_${hex(rewrite)}`;
    expect(ids).toEqual([rewrite, own]);
    const clash = `call_id "${rewrite}" is what "a.b" was written as: written as "${own}", for the call and its result alike`;
    expect(losses.filter((loss) => loss.line === 4 && loss.code === "form_changed")).toEqual([{ line: 4, path: "/call_id", code: "form_changed", detail: clash }]);
  });
});
