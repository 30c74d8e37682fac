// A Chat request asked for two answers (n: 2), each with its own tool calls;
// the application took one, ran its calls and sent the conversation on with
// that choice and its tool messages, then got the final answer. Stored as
// request, completion, request, completion, or streamed (chunks of index 0 and 1).
import { PassThrough, Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { gatedBatches } from "../../src/cli/gate-jobs.js";
import { runOrbridge } from "../support/run-cli.js";

const tools = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false } } }];
const ask = { role: "user", content: "What is the weather in Paris and Lyon?" };
const toolCall = (id: string, city: string) => ({ id, type: "function", function: { name: "get_weather", arguments: JSON.stringify({ city }) } });
// Choice 0 calls for both cities at once, choice 1 for Paris alone.
const answers = [
  { role: "assistant", content: null, tool_calls: [toolCall("call_a1", "Paris"), toolCall("call_a2", "Lyon")] },
  { role: "assistant", content: null, tool_calls: [toolCall("call_b1", "Paris")] },
];
const completion = { id: "chatcmpl-N2", object: "chat.completion", created: 1767225600, model: "gpt-4o-mini", choices: answers.map((message, index) => ({ index, message, finish_reason: "tool_calls" })) };
const chunk = (choice: Record<string, unknown>) => ({ id: "chatcmpl-S2", object: "chat.completion.chunk", created: 1767225600, model: "gpt-4o-mini", choices: [choice] });
const streamed = [
  chunk({ index: 0, delta: { role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_a1", type: "function", function: { name: "get_weather", arguments: "" } }] }, finish_reason: null }),
  chunk({ index: 1, delta: { role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_b1", type: "function", function: { name: "get_weather", arguments: "" } }] }, finish_reason: null }),
  chunk({ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }, { index: 1, id: "call_a2", type: "function", function: { name: "get_weather", arguments: '{"city":"Lyon"}' } }] }, finish_reason: null }),
  chunk({ index: 1, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] }, finish_reason: null }),
  chunk({ index: 0, delta: {}, finish_reason: "tool_calls" }),
  chunk({ index: 1, delta: {}, finish_reason: "tool_calls" }),
];
const result = (id: string) => ({ role: "tool", tool_call_id: id, content: "sunny" });
const final = { id: "chatcmpl-F", object: "chat.completion", created: 1767225601, model: "gpt-4o-mini", choices: [{ index: 0, message: { role: "assistant", content: "Sunny." }, finish_reason: "stop" }] };
const request = (messages: unknown[], stream = false) => ({ model: "gpt-4o-mini", ...(stream ? { stream } : {}), messages, tools });
const lines = (records: unknown[]) => records.map((record) => JSON.stringify(record) + "\n").join("");
const journal = (replayed: unknown[], stream = false) => lines([{ ...request([ask], stream), n: 2 }, ...(stream ? streamed : [completion]), request([ask, ...replayed], stream), final]);

describe("gate: a request that replays one choice of a completion of two", { timeout: 30_000 }, () => {
  const calls = (first: string, second: string) => [
    'line 1  message -  pass not_function_call: "message" is not a function_call',
    `line ${first}  function_call call_a1  pass ok: completed call with arguments valid for its schema`,
    `line ${first}.1  function_call call_a2  pass ok: completed call with arguments valid for its schema`,
    `line ${second}  function_call call_b1  pass ok: completed call with arguments valid for its schema`,
  ];

  test("the second choice with its tool message: only the tool message is new, and the first choice's calls are owed no output", async () => {
    expect(await runOrbridge(["gate", "-"], journal([answers[1], result("call_b1")]))).toEqual({
      code: 0,
      stdout: [...calls("2", "2.2"), 'line 3.2  function_call_output call_b1  pass not_function_call: "function_call_output" is not a function_call', 'line 4  message -  pass not_function_call: "message" is not a function_call', ""].join("\n"),
      stderr: "read 4 lines: 6 items, 0 errors; 0 blocked\n",
    });
  });

  test("the first choice with its tool messages, as a completion of that one choice gives it", async () => {
    const outputs = ['line 3.3  function_call_output call_a1  pass not_function_call: "function_call_output" is not a function_call', 'line 3.4  function_call_output call_a2  pass not_function_call: "function_call_output" is not a function_call', 'line 4  message -  pass not_function_call: "message" is not a function_call'];
    expect(await runOrbridge(["gate", "-"], journal([answers[0], result("call_a1"), result("call_a2")]))).toEqual({
      code: 0,
      stdout: [...calls("2", "2.2"), ...outputs, ""].join("\n"),
      stderr: "read 4 lines: 7 items, 0 errors; 0 blocked\n",
    });
    const one = lines([request([ask]), { ...completion, choices: completion.choices.slice(0, 1) }, request([ask, answers[0], result("call_a1"), result("call_a2")]), final]);
    expect(await runOrbridge(["gate", "-"], one)).toEqual({ code: 0, stdout: [...calls("2", "").slice(0, 3), ...outputs, ""].join("\n"), stderr: "read 4 lines: 6 items, 0 errors; 0 blocked\n" });
  });

  test("streamed, each choice a response of its own: the same", async () => {
    expect(await runOrbridge(["gate", "-"], journal([answers[1], result("call_b1")], true))).toEqual({
      code: 0,
      stdout: [...calls("6", "7"), 'line 8.2  function_call_output call_b1  pass not_function_call: "function_call_output" is not a function_call', 'line 9  message -  pass not_function_call: "message" is not a function_call', ""].join("\n"),
      stderr: "read 9 lines: 6 items, 0 errors; 0 blocked\n",
    });
  });

  test("an assistant message that holds calls of both choices is no replay: its calls are judged again", async () => {
    const mixed = { role: "assistant", content: null, tool_calls: [toolCall("call_a1", "Paris"), toolCall("call_b1", "Paris")] };
    const { code, stdout } = await runOrbridge(["gate", "--only-blocked", "-"], journal([mixed, result("call_a1"), result("call_b1")]));
    expect({ code, stdout: stdout.split("\n").filter((line) => line.startsWith("line ")) }).toEqual({
      code: 1,
      stdout: [
        "line 3  message -  BLOCKED missing_output: the call \"call_a1\" (get_weather) on line 2 has no function_call_output before this user message",
        "line 3.1  function_call call_a1  BLOCKED duplicate_call_id: the call_id \"call_a1\" was already used by the call of line 2",
        "line 3.2  function_call call_b1  BLOCKED duplicate_call_id: the call_id \"call_b1\" was already used by the call of line 2",
        "line 3.3  function_call_output call_a1  BLOCKED output_for_blocked_call: its call_id \"call_a1\" names more than one call (the first on line 2): which one it answers is not known, so none may get an output",
        "line 3.4  function_call_output call_b1  BLOCKED output_for_blocked_call: its call_id \"call_b1\" names more than one call (the first on line 2): which one it answers is not known, so none may get an output",
      ],
    });
  });

  test("a choice replayed with other arguments, or without one of its calls, is no replay either", async () => {
    for (const replayed of [
      [{ ...answers[1], tool_calls: [toolCall("call_b1", "Nice")] }, result("call_b1")],
      [{ ...answers[0], tool_calls: [toolCall("call_a1", "Paris")] }, result("call_a1")],
    ]) {
      const { code, stdout } = await runOrbridge(["gate", "--only-blocked", "-"], journal(replayed));
      expect(code).toBe(1);
      expect(stdout).toMatch(/^line 3\.1  function_call call_[ab]1  BLOCKED duplicate_call_id/m);
    }
  });
});

/** The gate's text in `jobs` threads, the second one started whatever the journal's size, and how many threads each batch had. */
async function gatedIn(jobs: 1 | 2, text: string): Promise<{ text: string; threads: number[] }> {
  const io = { stdin: Readable.from([Buffer.from(text)]), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
  let out = "";
  const threads = new Set<number>();
  for await (const batch of gatedBatches(["-"], io, { jobs, read: {}, normalize: {}, gate: { schema: true, omitSource: true }, format: "text", colour: false, workerMinBytes: 0 })) {
    out += batch.text;
    threads.add(batch.threads);
  }
  return { text: out, threads: [...threads] };
}

describe("gate: an output for a call of a choice the replay did not take", { timeout: 30_000 }, () => {
  const orphan = (line: string) => [
    `line ${line}  function_call_output call_b1  BLOCKED orphan_output: the call "call_b1" of line 2 is of a choice its conversation went on without (a request replayed another choice of its completion): no call of the conversation has the call_id`,
    '    verdict not_function_call: "function_call_output" is not a function_call',
  ];

  test("in the request that replays the other choice: the tool message answers no call of the conversation it sends", async () => {
    expect(await runOrbridge(["gate", "--only-blocked", "-"], journal([answers[0], result("call_a1"), result("call_a2"), result("call_b1")]))).toEqual({
      code: 1,
      stdout: [...orphan("3.5"), ""].join("\n"),
      stderr: "read 4 lines: 8 items, 0 errors; 1 blocked\n  blocked by: orphan_output 1\n  findings: orphan_output 1\n",
    });
  });

  test("on a later line of its own: the same", async () => {
    const later = journal([answers[0], result("call_a1"), result("call_a2")]) + lines([result("call_b1")]);
    expect(await runOrbridge(["gate", "--only-blocked", "-"], later)).toEqual({
      code: 1,
      stdout: [...orphan("5"), ""].join("\n"),
      stderr: "read 5 lines: 8 items, 0 errors; 1 blocked\n  blocked by: orphan_output 1\n  findings: orphan_output 1\n",
    });
  });

  test("in two threads, as in one", async () => {
    const text = journal([answers[0], result("call_a1"), result("call_a2"), result("call_b1")]);
    const [one, two] = [await gatedIn(1, text), await gatedIn(2, text)];
    expect([one.threads, two.threads]).toEqual([[1], [2]]);
    expect(two.text).toBe(one.text);
    expect(two.text).toContain(orphan("3.5")[0]);
  });
});

describe("gate: a completion of two whose first choice calls a tool and whose second answers in text", { timeout: 30_000 }, () => {
  const said = { role: "assistant", content: "Sunny in both." };
  const calling = { role: "assistant", content: null, tool_calls: [toolCall("call_a1", "Paris")] };
  const mixed = { ...completion, choices: [{ index: 0, message: calling, finish_reason: "tool_calls" }, { index: 1, message: said, finish_reason: "stop" }] };
  const mixedStream = [
    chunk({ index: 0, delta: { role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_a1", type: "function", function: { name: "get_weather", arguments: "" } }] }, finish_reason: null }),
    chunk({ index: 1, delta: { role: "assistant", content: "Sunny" }, finish_reason: null }),
    chunk({ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] }, finish_reason: null }),
    chunk({ index: 1, delta: { content: " in both." }, finish_reason: null }),
    chunk({ index: 0, delta: {}, finish_reason: "tool_calls" }),
    chunk({ index: 1, delta: {}, finish_reason: "stop" }),
  ];
  const asked = { ...request([ask]), n: 2 };
  const pass = (place: string, type: string, callId = "-") => `line ${place}  ${type} ${callId}  pass not_function_call: "${type}" is not a function_call`;
  const ok = (place: string) => `line ${place}  function_call call_a1  pass ok: completed call with arguments valid for its schema`;

  test("alone: the text of the second choice is no turn after the first choice's call", async () => {
    expect(await runOrbridge(["gate", "-"], lines([asked, mixed]))).toEqual({
      code: 0,
      stdout: [pass("1", "message"), ok("2"), pass("2.1", "message"), ""].join("\n"),
      stderr: "read 2 lines: 3 items, 0 errors; 0 blocked\n",
    });
  });

  test("streamed, the second choice a record of its own: the same", async () => {
    expect(await runOrbridge(["gate", "-"], lines([{ ...asked, stream: true }, ...mixedStream]))).toEqual({
      code: 0,
      stdout: [pass("1", "message"), ok("6"), pass("7", "message"), ""].join("\n"),
      stderr: "read 7 lines: 3 items, 0 errors; 0 blocked\n",
    });
  });

  test("a request that goes on from the first choice with its tool message: the call is answered", async () => {
    expect(await runOrbridge(["gate", "-"], lines([asked, mixed, request([ask, calling, result("call_a1")]), final]))).toEqual({
      code: 0,
      stdout: [pass("1", "message"), ok("2"), pass("2.1", "message"), pass("3.2", "function_call_output", "call_a1"), pass("4", "message"), ""].join("\n"),
      stderr: "read 4 lines: 5 items, 0 errors; 0 blocked\n",
    });
  });

  test("a request that goes on from the first choice without its tool message still owes the call its output, in one thread and in two", async () => {
    const text = lines([asked, mixed, request([ask, calling, { role: "user", content: "And Lyon?" }])]);
    const missing = [
      'line 3.2  message -  BLOCKED missing_output: the call "call_a1" (get_weather) on line 2 has no function_call_output before this user message',
      '    verdict not_function_call: "message" is not a function_call',
    ];
    expect(await runOrbridge(["gate", "-"], text)).toEqual({
      code: 1,
      stdout: [pass("1", "message"), ok("2"), pass("2.1", "message"), ...missing, ""].join("\n"),
      stderr: "read 3 lines: 4 items, 0 errors; 1 blocked\n  blocked by: missing_output 1\n  findings: missing_output 1\n",
    });
    const streamed = lines([{ ...asked, stream: true }, ...mixedStream, request([ask, calling, { role: "user", content: "And Lyon?" }])]);
    const [one, two] = [await gatedIn(1, streamed), await gatedIn(2, streamed)];
    expect([one.threads, two.threads]).toEqual([[1], [2]]);
    expect(two.text).toBe(one.text);
    expect(one.text).toBe([pass("1", "message"), ok("6"), pass("7", "message"), ...missing.map((line) => line.replace("line 3.2", "line 8.2").replace("on line 2", "on line 6")), ""].join("\n"));
  });

  test("a request that goes on from the second choice owes the first choice's call nothing", async () => {
    expect(await runOrbridge(["gate", "-"], lines([asked, mixed, request([ask, said, { role: "user", content: "Thanks." }])]))).toEqual({
      code: 0,
      stdout: [pass("1", "message"), ok("2"), pass("2.1", "message"), pass("3.2", "message"), ""].join("\n"),
      stderr: "read 3 lines: 4 items, 0 errors; 0 blocked\n",
    });
  });

  test("a request that goes on from the second choice and carries the first choice's call and an output for it: both blocked", async () => {
    const { code, stdout } = await runOrbridge(["gate", "--only-blocked", "-"], lines([asked, mixed, request([ask, said, calling, result("call_a1")])]));
    expect({ code, stdout: stdout.split("\n").filter((line) => line.startsWith("line ")) }).toEqual({
      code: 1,
      stdout: [
        'line 3.2  function_call call_a1  BLOCKED duplicate_call_id: the call_id "call_a1" was already used by the call of line 2',
        'line 3.3  function_call_output call_a1  BLOCKED orphan_output: the call "call_a1" of line 2 is of a choice its conversation went on without (a request replayed another choice of its completion): no call of the conversation has the call_id',
      ],
    });
  });
});
