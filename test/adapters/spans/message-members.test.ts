// A message's members that no item holds (a participant's name, a refusal,
// LangChain's id and metadata) are reported left_behind at their places; and a
// Responses request body ({input, instructions}) is read as its items and its
// system prompt, not taken for one message with no content.
import { describe, expect, test } from "vitest";
import { readMessages } from "../../../adapters/spans/read-messages.js";
import type { ReaderLoss } from "../../../adapters/stored-log/reading.js";

describe("a message's members", () => {
  test("those no item holds are reported; empty ones and a tool message's name are not", () => {
    const losses: ReaderLoss[] = [];
    const read = readMessages(
      [
        { role: "user", name: "ana", content: "Weather in Oslo?" },
        { role: "assistant", content: null, refusal: "I cannot help with that.", tool_calls: [] },
        { type: "ai", content: "Rainy.", id: "run-1", additional_kwargs: { tool_calls: [], refusal: "partly" }, response_metadata: { model_name: "gpt-4o" }, invalid_tool_calls: [], name: null },
        { role: "tool", name: "get_weather", tool_call_id: "c1", content: "rainy" },
      ],
      "/in",
      "input",
      losses,
      "s1",
    );
    expect(read.items.map(({ item }) => item)).toEqual([
      { type: "message", role: "user", content: "Weather in Oslo?" },
      { type: "message", role: "assistant", content: "Rainy." },
      { type: "function_call_output", call_id: "c1", output: "rainy" },
    ]);
    expect(losses).toEqual([
      { path: "/in/0/name", code: "left_behind", detail: "name of the message is in no item", span: "s1" },
      { path: "/in/1/refusal", code: "left_behind", detail: "refusal of the message is in no item", span: "s1" },
      { path: "/in/2/id", code: "left_behind", detail: "id of the message is in no item", span: "s1" },
      { path: "/in/2/additional_kwargs/refusal", code: "left_behind", detail: "additional_kwargs.refusal of the message is in no item", span: "s1" },
      { path: "/in/2/response_metadata", code: "left_behind", detail: "response_metadata of the message is in no item", span: "s1" },
    ]);
  });
});

describe("a Responses request body", () => {
  test("gives its input items and its instructions as the system prompt", () => {
    const losses: ReaderLoss[] = [];
    const read = readMessages({ model: "gpt-4o", instructions: "Be brief.", input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] }, { type: "function_call", call_id: "c1", name: "f", arguments: "{}" }] }, "/in", "input", losses);
    expect({ items: read.items, instructions: read.instructions, losses }).toEqual({
      items: [
        { item: { type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] }, path: "/in/input/0" },
        { item: { type: "function_call", call_id: "c1", name: "f", arguments: "{}" }, path: "/in/input/1" },
      ],
      instructions: { item: { type: "message", role: "system", content: "Be brief." }, path: "/in/instructions" },
      losses: [{ path: "/in/model", code: "left_behind", detail: "model of the request is in no item" }],
    });
  });
});
