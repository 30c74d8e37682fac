// JSON.parse gives the members whose names are array indices first: each
// object of a line whose order that changes is named, and no other.
import { describe, expect, test } from "vitest";
import { LineIndexNameOrders, reorderedObjects } from "../../src/journal/index-name-order.js";

/** What JSON.parse and JSON.stringify make of a text: the order the output writes. */
const rewritten = (text: string) => JSON.stringify(JSON.parse(text));

describe("reorderedObjects", () => {
  test("a text without a name of digits is not walked, and nothing is named", () => {
    expect(reorderedObjects('{"b":1,"a":{"c":"1"},"d":[1,2]}')).toEqual([]);
  });

  test("names that are indices written first, ascending, keep their order", () => {
    const text = '{"1":"a","2":"b","x":{"0":1,"10":2,"y":3}}';
    expect(rewritten(text)).toBe(text);
    expect(reorderedObjects(text)).toEqual([]);
  });

  test("each object JSON.parse reorders is named by its pointer, in the order its first name out of place is written", () => {
    const text = '{"properties":{"b":{"type":"string"},"1":{"type":"string"}},"enum":[{"ok":1},{"2":1,"1":0}],"meta":{"a":{"z":1,"7":2}},"\\u0031":0,"q":1}';
    expect(rewritten(text)).not.toBe(text);
    expect(reorderedObjects(text)).toEqual(["/properties", "/enum/1", "/meta/a", ""]);
  });

  test("a name written with an escape that spells digits is an index too", () => {
    const text = '{"b":1,"\\u0031":2}';
    expect(rewritten(text)).toBe('{"1":2,"b":1}');
    expect(reorderedObjects(text)).toEqual([""]);
  });

  test("digits that are no array index (a leading zero, past 2^32 - 2) keep their place", () => {
    const text = '{"b":1,"01":2,"4294967295":3}';
    expect(rewritten(text)).toBe(text);
    expect(reorderedObjects(text)).toEqual([]);
  });
});

describe("LineIndexNameOrders", () => {
  test("gives a record's lines' losses once, with their lines, but those under a field the record left out", () => {
    const orders = new LineIndexNameOrders();
    orders.read({ line: 1, text: '{"tools":{"b":1,"1":2},"meta":{"b":1,"1":2}}' });
    orders.read({ line: 2, text: '{"b":1,"1":2}' });
    const detail = "the object's member names that are array indices (digits alone) are written first, in ascending order, as JSON.parse reads them: its members are written in another order than the line wrote them";
    expect(orders.take(1, 1, [{ line: 1, path: "/tools", code: "left_behind", detail: "tools are in no item" }])).toEqual([{ line: 1, path: "/meta", code: "form_changed", detail }]);
    expect(orders.take(1, 1, [])).toEqual([]);
    expect(orders.take(1, 2, [])).toEqual([{ line: 2, path: "", code: "form_changed", detail }]);
  });
});
