// The items of a conversation (`GET /v1/conversations/{id}/items`) are listed,
// paged and ordered as a response's input items are, and each conversation is
// one listing. Pages of two conversations were taken for one listing without an
// owner: their cursors could not chain them, so a conversation recorded next
// page first was read with a call's output before the call, and the items of
// both were read as one conversation.
import { describe, expect, it } from "vitest";
import { READERS } from "../../../adapters/index.js";

const conversation = (id: string) => `https://api.openai.com/v1/conversations/${id}/items?limit=1`;

const entry = (uri: string, data: Array<Record<string, unknown> & { id: string }>, hasMore: boolean) => ({
  RequestUri: uri,
  RequestMethod: "GET",
  StatusCode: 200,
  ResponseBody: { object: "list", data, first_id: data[0]!.id, last_id: data[data.length - 1]!.id, has_more: hasMore },
});

// Newest first, as the API lists them.
const A_FIRST = entry(conversation("conv_a"), [{ type: "function_call_output", id: "fco_a", call_id: "call_a", output: "deleted" }], true);
const A_NEXT = entry(`${conversation("conv_a")}&after=fco_a`, [
  { type: "function_call", id: "fc_a", call_id: "call_a", name: "delete_file", arguments: '{"path":"old.txt"}', status: "completed" },
  { type: "message", id: "msg_a", role: "user", content: "Delete old.txt" },
], false);
const B_FIRST = entry(conversation("conv_b"), [{ type: "message", id: "msg_b", role: "user", content: "Which day is it?" }], false);

describe("pages of two conversations' items", () => {
  const reading = READERS["openai-list"].read({ Entries: [A_NEXT, A_FIRST, B_FIRST] });

  it("each conversation chained by its own cursors, oldest item first", () => {
    expect(reading.records.map(({ record, conversation }) => [conversation, (record).id])).toEqual([
      ["conv_a", "msg_a"],
      ["conv_a", "fc_a"],
      ["conv_a", "fco_a"],
      ["conv_b", "msg_b"],
    ]);
  });

  it("no order assumed, no page missing", () => {
    expect(reading.losses.filter((loss) => loss.code === "order_assumed" || loss.code === "page_missing")).toEqual([]);
  });
});
