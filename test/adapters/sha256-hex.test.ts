// The ids the converters make are hashed by Node's one-shot digest where it has
// one: it must give the hex a Hash object gives, for every text a record can
// hold, lone surrogates among them.
import { createHash } from "node:crypto";
import { expect, test } from "vitest";
import { sha256Hex } from "../../adapters/sha256-hex.js";

test.each(["", "chatcmpl-1\u00000", "é北京😀", "a\ud800b", "\udc00", "\ud800\ud800", "x".repeat(100_000)])("sha256Hex of %j is the hex digest of its UTF-8 bytes", (text) => {
  expect(sha256Hex(text)).toBe(createHash("sha256").update(text).digest("hex"));
});
