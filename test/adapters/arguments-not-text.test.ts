// A call whose arguments are not a text is written as the input as it is, by
// the two envelopes whose calls hold an input; the loss names what it is.
import { describe, expect, test } from "vitest";
import { itemsToMessages as toAnthropic } from "../../adapters/anthropic/items-to-messages.js";
import { itemsToMessages as toBedrock } from "../../adapters/bedrock/items-to-messages.js";
import type { CanonicalItem } from "../../src/models/open-responses.js";

describe.each([
  ["Anthropic", (items: CanonicalItem[]) => toAnthropic({ items }).losses],
  ["Bedrock", (items: CanonicalItem[]) => toBedrock({ items }).losses],
])("%s", (_, losses) => {
  test.each([
    ["an object", { city: "Oslo" }, "an object"],
    ["an array", ["Oslo"], "an array"],
    ["a number", 7, "number 7"],
  ])("arguments that are %s: written as the input, and the loss names what they are", (_, args, named) => {
    const call = { type: "function_call", call_id: "call_1", name: "weather", arguments: args, status: "completed" } as unknown as CanonicalItem;
    expect(losses([call]).filter((loss) => loss.path.endsWith("/arguments")).map((loss) => loss.detail)).toEqual([expect.stringMatching(new RegExp(`^arguments is ${named}, not a JSON text: written as the input as it is`))]);
  });
});
