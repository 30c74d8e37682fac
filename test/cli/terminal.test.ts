// What a terminal user sees besides the output: the progress line and colour.
import { PassThrough } from "node:stream";
import { describe, expect, test } from "vitest";
import { progressFor } from "../../src/cli/progress.js";
import { styleFor } from "../../src/cli/style.js";

function terminal(isTTY: boolean): { stream: PassThrough & { isTTY?: boolean }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY });
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

const journal = "golden/examples/mixed.jsonl";

describe("the progress line", () => {
  test("is drawn on a terminal while a file is read, and cleared at the end", () => {
    const { stream, text } = terminal(true);
    const progress = progressFor([journal], stream, {});
    progress.tick(101, 1);
    progress.done();
    expect(text()).toMatch(/^\r\[#*\.*\] +\d+%  1 line(  \d+ lines\/s)?\r\x1b\[2K$/);
  });
  test("says how many records the gate has blocked so far", () => {
    const { stream, text } = terminal(true);
    const progress = progressFor([journal], stream, {});
    progress.tick(101, 1, 3);
    expect(text()).toMatch(/^\r\[#*\.*\] +\d+%  1 line, 3 blocked(  \d+ lines\/s)?$/);
  });
  test("with NO_COLOR, writes no escape sequence: the line is cleared with spaces", () => {
    const { stream, text } = terminal(true);
    const progress = progressFor([journal], stream, { NO_COLOR: "1" });
    progress.tick(101, 1);
    progress.done();
    const drawn = text().split("\r")[1]!;
    expect(text()).toBe(`\r${drawn}\r${" ".repeat(drawn.length)}\r`);
    expect(text()).not.toContain("\x1b");
  });
  test("is not drawn when stderr is not a terminal", () => {
    const { stream, text } = terminal(false);
    const progress = progressFor([journal], stream);
    progress.tick(101, 1);
    progress.done();
    expect(text()).toBe("");
  });
  test("is not drawn for stdin, whose size is unknown", () => {
    const { stream, text } = terminal(true);
    const progress = progressFor(["-"], stream);
    progress.tick(101, 1);
    progress.done();
    expect(text()).toBe("");
  });
});

describe("colour", () => {
  test("marks blocked and passed items on a terminal", () => {
    const style = styleFor(terminal(true).stream, {});
    expect([style.blocked("BLOCKED"), style.passed("pass")]).toEqual(["\x1b[31mBLOCKED\x1b[39m", "\x1b[32mpass\x1b[39m"]);
  });
  test("is off when NO_COLOR is set, and off the terminal", () => {
    expect(styleFor(terminal(true).stream, { NO_COLOR: "1" }).blocked("BLOCKED")).toBe("BLOCKED");
    expect(styleFor(terminal(false).stream, {}).blocked("BLOCKED")).toBe("BLOCKED");
  });
});
