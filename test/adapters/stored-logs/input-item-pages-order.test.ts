// The input items of a response listed over several pages are read in the
// order the API listed them, found by the recorded cursors (the page asked for
// with no cursor, then each page asked for after the last_id of the one before),
// whatever order the recording holds the pages in; where the cursors do not
// say it, the order recorded is taken, and that is said.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { runOrbridge } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const LISTING = "https://api.openai.com/v1/responses/resp_1/input_items?limit=2";

// Newest first, as the API lists them: delete_file (call_2) ran after list_files (call_1).
const NEWEST = [
  { type: "function_call_output", id: "fco_2", call_id: "call_2", output: "deleted" },
  { type: "function_call", id: "fc_2", call_id: "call_2", name: "delete_file", arguments: '{"path":"/tmp/a.txt"}', status: "completed" },
];
const OLDEST = [
  { type: "function_call_output", id: "fco_1", call_id: "call_1", output: "a.txt" },
  { type: "function_call", id: "fc_1", call_id: "call_1", name: "list_files", arguments: "{}", status: "completed" },
];

const entry = (uri: string, data: unknown[], hasMore: boolean) => ({
  RequestUri: uri,
  RequestMethod: "GET",
  StatusCode: 200,
  ResponseBody: { object: "list", data, first_id: (data[0] as { id: string }).id, last_id: (data[data.length - 1] as { id: string }).id, has_more: hasMore },
});
const FIRST_PAGE = entry(LISTING, NEWEST, true);
const NEXT_PAGE = entry(`${LISTING}&after=fc_2`, OLDEST, false);

const ids = (reading: ReturnType<(typeof READERS)["openai-list"]["read"]>) => reading.records.map(({ record }) => (record as { id: string }).id);
const ordersAssumed = (reading: ReturnType<(typeof READERS)["openai-list"]["read"]>) => reading.losses.filter((loss) => loss.code === "order_assumed").map(({ path, detail }) => [path, detail]);

describe("pages of input items", () => {
  it("recorded in the order listed: oldest item first", () => {
    const reading = READERS["openai-list"].read({ Entries: [FIRST_PAGE, NEXT_PAGE] });
    expect(ids(reading)).toEqual(["fc_1", "fco_1", "fc_2", "fco_2"]);
    expect(ordersAssumed(reading)).toEqual([]);
  });

  it("recorded the next page first: chained by their cursors, oldest item first all the same", () => {
    const reading = READERS["openai-list"].read({ Entries: [NEXT_PAGE, FIRST_PAGE] });
    expect(ids(reading)).toEqual(["fc_1", "fco_1", "fc_2", "fco_2"]);
    expect(ordersAssumed(reading)).toEqual([]);
  });

  it("listed oldest first (order=asc), recorded the next page first: chained the same way", () => {
    const first = entry(`${LISTING}&order=asc`, [...OLDEST].reverse(), true);
    const next = entry(`${LISTING}&order=asc&after=fco_1`, [...NEWEST].reverse(), false);
    const reading = READERS["openai-list"].read({ Entries: [next, first] });
    expect(ids(reading)).toEqual(["fc_1", "fco_1", "fc_2", "fco_2"]);
    expect(ordersAssumed(reading)).toEqual([]);
  });

  const UNCHAINED = [
    ["with no recorded requests", [FIRST_PAGE.ResponseBody, NEXT_PAGE.ResponseBody]],
    ["two pages asked for with no cursor", { Entries: [FIRST_PAGE, entry(LISTING, OLDEST, false)] }],
    ["a page asked for after an id no page ends with", { Entries: [FIRST_PAGE, entry(`${LISTING}&after=fc_9`, OLDEST, false)] }],
    ["of two orders", { Entries: [FIRST_PAGE, entry(`${LISTING}&order=asc&after=fc_2`, OLDEST, false)] }],
  ] as const;

  for (const [how, document] of UNCHAINED) {
    it(`whose cursors do not chain them (${how}): read in the order recorded, and said`, () => {
      const reading = READERS["openai-list"].read(document);
      expect(ids(reading)).toEqual(["fc_1", "fco_1", "fc_2", "fco_2"]);
      const said = ordersAssumed(reading).filter(([, detail]) => detail.includes("do not chain"));
      expect(said).toEqual([[Array.isArray(document) ? "/0" : "/Entries/0", `the 2 pages of input items${Array.isArray(document) ? "" : ' of "resp_1"'} do not chain by their recorded cursors (a first page asked for with no cursor, each next one asked for after the last_id of the one before): read in the order recorded, which may not be the order listed`]]);
    });
  }
});

describe("pages of input items whose cursor leads back to a page already read", () => {
  it("are read in the order recorded, every item kept, and said", () => {
    const loop = entry(`${LISTING}&after=fc_2`, [OLDEST[0]!, NEWEST[1]!], true);
    const last = entry(`${LISTING}&after=fc_0`, [OLDEST[1]!], false);
    const reading = READERS["openai-list"].read({ Entries: [FIRST_PAGE, loop, last] });
    expect(ids(reading)).toEqual(["fc_1", "fco_1", "fc_2", "fco_2"]);
    expect(ordersAssumed(reading).map(([path, detail]) => [path, detail.split(" (")[0]])).toEqual([["/Entries/0", 'the 3 pages of input items of "resp_1" do not chain by their recorded cursors']]);
  });
});

describe("a page that says more follow", () => {
  it("with no page asked for after its last_id, but one asked for after an id that begins with it, is said to miss its next page", () => {
    const other = entry(`${LISTING}&after=fc_20`, OLDEST, false);
    const reading = READERS["openai-list"].read({ Entries: [FIRST_PAGE, other] });
    expect(reading.losses.filter((loss) => loss.code === "page_missing")).toEqual([{ path: "/Entries/0/ResponseBody/has_more", code: "page_missing", detail: 'the page says more follow after "fc_2", and the next page is not in the document' }]);
  });
});

describe("normalize on pages recorded out of order", () => {
  it("writes the calls in the order they were made", async () => {
    const file = join(scratchFolder("input-item-pages"), "recording.json");
    writeFileSync(file, JSON.stringify({ Entries: [NEXT_PAGE, FIRST_PAGE] }));
    const result = await runOrbridge(["normalize", file]);
    expect(result.code).toBe(0);
    const records = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { type: string; call_id: string });
    expect(records.map(({ type, call_id }) => `${type} ${call_id}`)).toEqual(["function_call call_1", "function_call_output call_1", "function_call call_2", "function_call_output call_2"]);
    expect(result.stderr).not.toMatch(/order_assumed/);
  });
});
