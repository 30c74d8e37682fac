// `gate` on a line that the gate passes over (an SSE comment or `id:` field) and
// that Python's str.splitlines, or an SSE reader built on requests' or httpx's
// iter_lines, cuts at a form feed, a vertical tab, NEL, U+2028 or U+2029 into a
// record of its own or an event's data: the gate passed the journal, while such
// a replayer ran a shell call the gate never judged. The line is blocked.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const shellCall = '{"type":"local_shell_call","id":"lsh_1","call_id":"call_9","action":{"type":"exec","command":["rm","-rf","/"]},"status":"completed"}';
const user = '{"role":"user","content":"find my notes"}';
const several = (read: string) =>
  `line holds a vertical tab, form feed, separator control, NEL, U+2028 or U+2029, where Python's str.splitlines (and the iter_lines of requests and httpx) end a line: they read it as 2 lines, ${read}`;

async function gate(journal: string) {
  const run = await runOrbridge(["gate", "--format", "json", "-"], journal);
  return { code: run.code, verdicts: run.stdout.trimEnd().split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("a line the gate passes over, cut where str.splitlines ends a line", () => {
  test("an SSE comment, a form feed and a shell call: an error line, blocked, and the lines after it still gated", async () => {
    expect(await gate(`: keepalive\f${shellCall}\n${user}\n`)).toEqual({
      code: 1,
      verdicts: [
        { line: 1, index: 0, reason: "error", detail: several("1 of them JSON that the gate never judged as a record"), blocked: true, findings: [] },
        { line: 2, index: 0, type: "message", reason: "not_function_call", detail: '"message" is not a function_call', path: "/type", blocked: false, findings: [] },
      ],
    });
  });

  test("an SSE id field, U+2028 and an event's data holding a shell call: an error line, blocked", async () => {
    const event = `data: {"type":"response.output_item.done","output_index":0,"item":${shellCall}}`;
    expect(await gate(`id: 7\u2028${event}\n\n`)).toEqual({
      code: 1,
      verdicts: [{ line: 1, index: 0, reason: "error", detail: several("1 of them SSE data the gate never read"), blocked: true, findings: [] }],
    });
  });
});
