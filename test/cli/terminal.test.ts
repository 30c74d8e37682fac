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
    const progress = progressFor([journal], stream);
    progress.tick(101, 1);
    progress.done();
    expect(text()).toMatch(/^\r\[#*\.*\] +\d+%  1 lines\r\x1b\[2K$/);
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
