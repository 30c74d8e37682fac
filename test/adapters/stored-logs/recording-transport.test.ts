// A page read from a recorded HTTP exchange: the request, its headers and the
// status around the page are the page's transport, reported once at the
// exchange (not only at its body), and the recording's variables are reported.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { PAGE_TRANSPORT_DETAIL, RECORDING_VARIABLES_DETAIL } from "../../../adapters/openai-list/index.js";

const recording = {
  Entries: [
    {
      RequestUri: "https://example.test/v1/responses/resp_1/input_items?limit=2",
      RequestMethod: "GET",
      RequestHeaders: { Accept: "application/json", Authorization: "Sanitized" },
      RequestBody: null,
      StatusCode: 200,
      ResponseHeaders: { "openai-version": "2020-10-01", "X-Request-ID": "req_1" },
      ResponseBody: { object: "list", data: [{ id: "msg_1", type: "message", role: "user", content: [{ type: "input_text", text: "Item 1" }] }], first_id: "msg_1", last_id: "msg_1", has_more: false },
    },
  ],
  Variables: { "api-key": "Sanitized" },
};

describe("a page of a recorded exchange", () => {
  test("reports the exchange around the page as its transport, and the recording's variables", () => {
    const reading = READERS["openai-list"].read(recording);
    expect(reading.units).toEqual([{ path: "/Entries/0", fate: "page" }]);
    expect(reading.losses.filter((loss) => loss.code === "left_behind" && (loss.detail === PAGE_TRANSPORT_DETAIL || loss.detail === RECORDING_VARIABLES_DETAIL))).toEqual([
      { path: "/Variables", code: "left_behind", detail: RECORDING_VARIABLES_DETAIL },
      { path: "/Entries/0", code: "left_behind", detail: PAGE_TRANSPORT_DETAIL },
    ]);
  });
});
