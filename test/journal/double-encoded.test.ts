// Arguments encoded twice are decoded only when asked, once, and each repair said.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { innerArguments, repairDoubleEncoded } from "../../src/journal/double-encoded.js";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const twice = JSON.stringify(JSON.stringify({ city: "Paris" }));

describe("innerArguments", () => {
  test("gives the JSON text inside a JSON string that holds an object or an array", () => {
    expect([innerArguments(twice), innerArguments(JSON.stringify("[1,2]"))]).toEqual(['{"city":"Paris"}', "[1,2]"]);
  });
  test("leaves arguments encoded once, strings of other text, and JSON text of a scalar", () => {
    expect([innerArguments('{"city":"Paris"}'), innerArguments('"Paris"'), innerArguments(JSON.stringify("42")), innerArguments('"{not json}"'), innerArguments('"{\\"a\\":')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("repairDoubleEncoded", () => {
  test("decodes function_call items and Chat tool calls wherever they sit in a record, each repair at its path", () => {
    const record = {
      messages: [{ role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: twice } }] }],
      input: [{ type: "function_call", call_id: "call_2", name: "weather", arguments: twice }, { type: "function_call", call_id: "call_3", name: "weather", arguments: '{"city":"Oslo"}' }],
    };
    expect(repairDoubleEncoded(record)).toEqual([
      { path: "/messages/0/tool_calls/0/function/arguments", code: "repaired", detail: "arguments were encoded twice (a JSON string holding JSON text): decoded once" },
      { path: "/input/0/arguments", code: "repaired", detail: "arguments were encoded twice (a JSON string holding JSON text): decoded once" },
    ]);
    expect([record.messages[0].tool_calls[0].function.arguments, record.input[0].arguments, record.input[1].arguments]).toEqual(['{"city":"Paris"}', '{"city":"Paris"}', '{"city":"Oslo"}']);
  });
});

describe("--repair double-encoded from the CLI", { timeout: 30_000 }, () => {
  const call = { type: "function_call", call_id: "call_1", name: "weather", arguments: twice, status: "completed" };
  const line = JSON.stringify(call) + "\n";

  test("without it, normalize and convert write the arguments byte for byte", async () => {
    expect((await runOrbridge(["normalize"], line)).stdout).toBe(line);
    const chat = await runOrbridge(["convert", "--to", "chat"], line);
    expect(JSON.parse(chat.stdout).tool_calls[0].function.arguments).toBe(twice);
  });

  test("normalize decodes them once and reports the repair on its line", async () => {
    const report = join(scratchFolder("double-encoded"), "report.jsonl");
    const result = await runOrbridge(["normalize", "--repair", "double-encoded", "--report", report], line);
    expect(result).toEqual({
      code: 0,
      stdout: JSON.stringify({ ...call, arguments: '{"city":"Paris"}' }) + "\n",
      stderr: "read 1 line, 1 record: 1 emitted (1 item), 0 reported; 0 losses, 1 call repaired\n",
    });
    expect(readFileSync(report, "utf8")).toBe(
      '{"line":1,"path":"/arguments","code":"repaired","detail":"item 0: arguments were encoded twice (a JSON string holding JSON text): decoded once"}\n',
    );
  });

  test("convert decodes them once in the records it writes", async () => {
    const result = await runOrbridge(["convert", "--to", "chat", "--repair", "double-encoded"], line);
    expect(JSON.parse(result.stdout).tool_calls[0].function.arguments).toBe('{"city":"Paris"}');
    expect(result.stderr).toBe("read 1 line: 1 record, 0 errors; 0 losses, 1 call repaired\n");
  });

  test("the gate blocks the call and says double-encoded; repaired, it passes", async () => {
    const schema = join(scratchFolder("double-encoded-schema"), "schema.json");
    writeFileSync(schema, JSON.stringify({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }));
    const before = await runOrbridge(["gate", "--schema", schema, "--format", "json"], line);
    const repaired = (await runOrbridge(["normalize", "--repair", "double-encoded"], line)).stdout;
    const after = await runOrbridge(["gate", "--schema", schema, "--format", "json"], repaired);
    expect([JSON.parse(before.stdout).reason, JSON.parse(after.stdout).reason]).toEqual(["arguments_schema", "ok"]);
    expect(JSON.parse(before.stdout).detail).toBe(
      "arguments are double-encoded (a JSON string holding JSON text; normalize --repair double-encoded decodes them once): arguments must be object",
    );
  });
});
