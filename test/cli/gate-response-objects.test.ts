// An Open Responses response object says more of its calls than its output
// items: whether the response finished, and the tool_choice and tools of the
// request it answers, which it repeats. A call the response itself says did not
// finish, or was not allowed, is blocked, as the same call in a request and its
// stream would be.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("gate-response-objects");
const tools = join(folder, "tools.json");
writeFileSync(tools, JSON.stringify([{ type: "function", name: "get_weather", parameters: { type: "object" } }, { type: "function", name: "delete_all", parameters: { type: "object" } }]));

const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "delete_all", arguments: "{}", status: "completed" };
const response = (fields: Record<string, unknown>) => JSON.stringify({ id: "resp_1", object: "response", created_at: 1, status: "completed", model: "m", ...fields, output: [call] }) + "\n";

interface Verdict {
  reason: string;
  blocked_by?: string;
  blocked: boolean;
  detail: string;
  findings: Array<{ code: string; detail: string }>;
}

async function verdict(fields: Record<string, unknown>): Promise<Verdict> {
  const run = await runOrbridge(["gate", "--tools", tools, "--format", "json", "-"], response(fields));
  return JSON.parse(run.stdout.trimEnd().split("\n")[0]!) as Verdict;
}

describe("a response object whose status says its calls did not finish", { timeout: 30_000 }, () => {
  test.each([
    [{ status: "in_progress" }],
    [{ status: "queued" }],
    [{ status: "incomplete", incomplete_details: { reason: "content_filter" } }],
    [{ status: "completed", error: { code: "server_error", message: "The server had an error." } }],
    [{ status: "incomplete", incomplete_details: { reason: "CONTENT_FILTER" } }],
    [{ status: "incomplete", incomplete_details: "content_filter" }],
    [{ status: "completed", incomplete_details: { reason: "content_filter" } }],
    [{ status: "completed", incomplete_details: { reason: "max_output_tokens" } }],
    [{ status: "completed", incomplete_details: {} }],
  ])("%j: its completed call is blocked as incomplete", async (fields) => {
    expect(await verdict(fields)).toMatchObject({ reason: "status", blocked: true, detail: 'status is "incomplete"; only "completed" may run' });
  });

  test.each([[{ status: "completed" }], [{ status: "completed", incomplete_details: null }], [{ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }]])("%j: a call it completed runs", async (fields) => {
    expect(await verdict(fields)).toMatchObject({ reason: "ok", blocked: false });
  });
});

describe("a response object that repeats its request's tool_choice and tools", { timeout: 30_000 }, () => {
  test.each([
    [{ tool_choice: "none" }, "allows no function"],
    [{ tool_choice: { type: "function", name: "get_weather" } }, 'allows only "get_weather"'],
    [{ tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "get_weather" }] } }, 'allows only "get_weather"'],
    [{ tool_choice: "auto", tools: [{ type: "function", name: "get_weather", parameters: { type: "object" }, strict: false }] }, 'allows only "get_weather"'],
  ])("%j: a call it did not allow is blocked", async (fields, allows) => {
    const gated = await verdict(fields);
    expect(gated).toMatchObject({ reason: "ok", blocked_by: "tool_not_allowed", blocked: true });
    expect(gated.findings.map((finding) => finding.detail)).toEqual([expect.stringMatching(new RegExp(`^"delete_all" is not allowed: .*line 1, the response's own record of its request, ${allows.replace(/"/g, '\\"')}$`))]);
  });

  test.each([[{ Tool_choice: "none" }, "/Tool_choice"], [{ TOOL_CHOICE: "none" }, "/TOOL_CHOICE"], [{ Parallel_tool_calls: false }, "/Parallel_tool_calls"]])(
    "%j, a limit only a reader folding case reads, allows no function and is an error on its line",
    async (fields, path) => {
      const run = await runOrbridge(["gate", "--tools", tools, "--format", "json", "-"], response(fields));
      const [error, gated] = run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Verdict & { type?: string });
      expect(error).toMatchObject({ reason: "error", blocked: true, detail: expect.stringContaining(`"${path}" is read by no envelope`) });
      expect(gated).toMatchObject({ type: "function_call", reason: "ok", blocked_by: "tool_not_allowed", blocked: true });
      expect(gated!.findings.map((finding) => finding.detail)).toEqual([`"delete_all" is not allowed: ${path} of line 1, the response's own record of its request, cannot be read, so it allows no function`]);
      expect(run.code).toBe(1);
    },
  );

  test("what one response says holds for its own calls, not for the next response's", async () => {
    const first = { id: "resp_1", object: "response", created_at: 1, status: "completed", model: "m", tool_choice: { type: "function", name: "get_weather" }, output: [{ ...call, name: "get_weather", call_id: "call_0", id: "fc_0" }] };
    const second = { id: "resp_2", object: "response", created_at: 2, status: "completed", model: "m", tool_choice: "auto", output: [call] };
    const run = await runOrbridge(["gate", "--tools", tools, "--format", "json", "-"], `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
    expect(run.stdout.trimEnd().split("\n").map((line) => (JSON.parse(line) as Verdict).blocked)).toEqual([false, false]);
  });

  test.each([[{ tool_choice: "auto", tools: [] }], [{ tool_choice: null }], [{ tool_choice: "required" }], [{ tool_choice: "auto", tools: [{ type: "function", name: "delete_all", parameters: { type: "object" }, strict: false }] }]])("%j: a call it allowed runs", async (fields) => {
    expect(await verdict(fields)).toMatchObject({ reason: "ok", blocked: false });
  });
});

describe("a streamed response whose response objects repeat its request's tool_choice and tools", { timeout: 30_000 }, () => {
  const second = { ...call, id: "fc_2", call_id: "call_2" };
  const stream = (fields: Record<string, unknown>, calls = [call]) => {
    const object = (status: string, output: unknown[]) => ({ id: "resp_1", object: "response", created_at: 1, status, model: "m", ...fields, output });
    const events = [
      { type: "response.created", response: object("in_progress", []) },
      ...calls.flatMap((item, index) => [
        { type: "response.output_item.added", output_index: index, item: { ...item, arguments: "", status: "in_progress" } },
        { type: "response.function_call_arguments.delta", item_id: item.id, output_index: index, delta: item.arguments },
        { type: "response.output_item.done", output_index: index, item },
      ]),
      { type: "response.completed", response: object("completed", calls) },
    ];
    return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join("");
  };
  const verdicts = async (text: string) => (await runOrbridge(["gate", "--tools", tools, "--format", "json", "-"], text)).stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Verdict);

  test.each([
    [{ tool_choice: "none" }, "allows no function"],
    [{ tool_choice: "auto", tools: [{ type: "function", name: "get_weather", parameters: { type: "object" }, strict: false }] }, 'allows only "get_weather"'],
  ])("%j: a call it did not allow is blocked", async (fields, allows) => {
    const [gated] = await verdicts(stream(fields));
    expect(gated).toMatchObject({ reason: "ok", blocked_by: "tool_not_allowed", blocked: true });
    expect(gated!.findings.map((finding) => finding.detail)).toEqual([`"delete_all" is not allowed: ${allows.startsWith("allows no") ? "tool_choice" : "the tools"} of line 1, the response's own record of its request, ${allows}`]);
  });

  test("parallel_tool_calls false: its second call is blocked", async () => {
    expect((await verdicts(stream({ parallel_tool_calls: false }, [call, second]))).map((gated) => gated.blocked)).toEqual([false, true]);
  });

  test("a stream whose response.created allows no function and whose response.completed allows it blocks the call", async () => {
    const text = stream({ tool_choice: "none" });
    const last = text.lastIndexOf('"tool_choice":"none"');
    const loosened = `${text.slice(0, last)}"tool_choice":"auto"${text.slice(last + '"tool_choice":"none"'.length)}`;
    const run = await runOrbridge(["gate", "--tools", tools, "--format", "json", "-"], loosened);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout.trimEnd().split("\n")[0]!)).toMatchObject({ call_id: "call_1", reason: "status", blocked: true });
  });

  test("a stream whose response allowed the call runs it", async () => {
    expect((await verdicts(stream({ tool_choice: "auto", tools: [], parallel_tool_calls: true }, [call, second]))).map((gated) => gated.blocked)).toEqual([false, false]);
  });
});
