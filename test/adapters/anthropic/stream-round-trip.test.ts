// A recorded Anthropic stream and the request that replays it, from the command
// line: to Open Responses and back to Anthropic, the way back gives the items
// the journal gives (its thinking, server tool blocks and calls read as items,
// the model kept), and the replayed request is still the conversation so far.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test, vi } from "vitest";
import { runOrbridge } from "../../support/run-cli.js";

// Each test runs four commands; a machine shared with other runs may take a while.
vi.setConfig({ testTimeout: 60_000 });

const golden = (name: string) => readFileSync(fileURLToPath(new URL(`../../../golden/anthropic/${name}/stream.sse`, import.meta.url)), "utf8");
const lines = (text: string) => text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Record<string, unknown>);
/**
 * Items as a comparison sees them: arguments as JSON values (an input object
 * keeps no spacing); the id and a message's status aside, which a stored
 * message's items have as output items and the items a stream rebuilds do not.
 */
const comparable = (items: Array<Record<string, unknown>>) =>
  items.map(({ id: _id, ...item }) => {
    if (item.type === "function_call") return { ...item, arguments: JSON.parse(item.arguments as string) as unknown };
    if (item.type !== "message") return item;
    const { status: _status, ...message } = item;
    return message;
  });

async function there(journal: string, to: string): Promise<string> {
  const result = await runOrbridge(["convert", "--to", to], journal);
  expect(result.code).toBe(0);
  return result.stdout;
}

async function itemsOf(journal: string): Promise<{ items: Array<Record<string, unknown>>; summary: string }> {
  const result = await runOrbridge(["normalize"], journal);
  expect(result.code).toBe(0);
  return { items: lines(result.stdout), summary: result.stderr.replace(/;.*$/s, "") };
}

describe("a stream there and back", () => {
  test.each(["stream-thinking", "stream-code-execution"])("%s: its reasoning, server tool blocks and texts come back as the same items, with the model that wrote them", async (name) => {
    const journal = golden(name);
    const back = await there(await there(journal, "responses"), "anthropic");
    const [message] = lines(back);
    expect(message).toMatchObject({ type: "message", model: JSON.parse(/"model":("[^"]+")/.exec(journal)![1]!) as string });
    const [before, after] = [await itemsOf(journal), await itemsOf(back)];
    expect(comparable(after.items)).toEqual(comparable(before.items));
  });

  test("a streamed call, and the request that replays it with its input re-serialized: the same items back, the history not counted twice", async () => {
    const stream = golden("stream-parallel-tools");
    const replay = {
      model: "claude-sonnet-4-20250514",
      max_tokens: 1024,
      messages: [
        { role: "user", content: "Fetch the secrets for both passwords." },
        {
          role: "assistant",
          content: [
            { type: "text", text: "I'll fetch both secrets at once." },
            { type: "tool_use", id: "toolu_015cUijgET79LXjgeYQerN2h", name: "secret_retrieval_tool", input: { password: "mellon" } },
            { type: "tool_use", id: "toolu_01XZTimPexA7h3EVKesnKt5T", name: "secret_retrieval_tool", input: { password: "radiance" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_015cUijgET79LXjgeYQerN2h", content: "The door opens." },
            { type: "tool_result", tool_use_id: "toolu_01XZTimPexA7h3EVKesnKt5T", content: "The lamp is lit." },
          ],
        },
      ],
    };
    const journal = `${JSON.stringify(replay.messages[0])}\n${stream}${JSON.stringify(replay)}\n`;
    const back = await there(await there(journal, "responses"), "anthropic");
    const [before, after] = [await itemsOf(journal), await itemsOf(back)];
    expect(comparable(after.items)).toEqual(comparable(before.items));
    // The user's message, the text and the two calls are the conversation so far.
    expect(before.summary).toBe("read 71 lines, 3 records: 3 emitted (6 items, 4 repeated items skipped), 0 reported");
    expect(after.summary).toBe("read 3 lines, 3 records: 3 emitted (6 items, 4 repeated items skipped), 0 reported");
    expect(after.items.filter((item) => item.type === "function_call").map((item) => [item.call_id, item.arguments])).toEqual([
      ["toolu_015cUijgET79LXjgeYQerN2h", '{"password":"mellon"}'],
      ["toolu_01XZTimPexA7h3EVKesnKt5T", '{"password":"radiance"}'],
    ]);
  });
});

describe("a stream with a line that cannot be read", () => {
  test("converts with no completed call: the response and its calls incomplete", async () => {
    const stream = golden("stream-parallel-tools").split("\n");
    // A data line between the two calls' fragments, cut in the middle.
    const at = stream.findIndex((line) => line.includes('"type":"content_block_stop"'));
    const journal = [...stream.slice(0, at), "data: {\"type\":\"content_blo", ...stream.slice(at)].join("\n");
    const result = await runOrbridge(["convert", "--to", "responses"], journal);
    const [response] = lines(result.stdout);
    expect([response!.status, (response!.output as Array<Record<string, unknown>>).map((item) => [item.type, item.status])]).toEqual([
      "incomplete",
      [
        ["message", "completed"],
        ["function_call", "incomplete"],
        ["function_call", "incomplete"],
      ],
    ]);
  });
});
