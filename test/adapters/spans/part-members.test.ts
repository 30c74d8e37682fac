// A part's members that no item holds (a call's provider options, a part's own
// metadata) are reported left_behind at their places; the members the item
// holds, and a result's tool name (which pairs it with its call), are not.
import { describe, expect, test } from "vitest";
import { readMessages } from "../../../adapters/spans/read-messages.js";
import type { ReaderLoss } from "../../../adapters/stored-log/reading.js";

describe("a part's members", () => {
  test("those no item holds are reported", () => {
    const losses: ReaderLoss[] = [];
    const read = readMessages(
      [
        { role: "user", parts: [{ type: "text", content: "Weather in Oslo?", annotations: [{ source: "kb" }] }] },
        { role: "assistant", parts: [{ type: "tool_call", id: "c1", name: "get_weather", arguments: { city: "Oslo" }, server: "weather-mcp" }] },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "c2", toolName: "get_time", input: "{}", providerOptions: { openai: { itemId: "fc_1" } } }] },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "c2", toolName: "get_time", output: { type: "text", value: "noon" } }] },
      ],
      "/in",
      "input",
      losses,
      "s1",
    );
    expect(read.items.map(({ item }) => item.type)).toEqual(["message", "function_call", "function_call", "function_call_output"]);
    expect(losses.filter((loss) => loss.code === "left_behind")).toEqual([
      { path: "/in/0/parts/0/annotations", code: "left_behind", detail: "annotations of the text part is in no item", span: "s1" },
      { path: "/in/1/parts/0/server", code: "left_behind", detail: "server of the tool_call part is in no item", span: "s1" },
      { path: "/in/2/content/0/providerOptions", code: "left_behind", detail: "providerOptions of the tool-call part is in no item", span: "s1" },
    ]);
  });
});
