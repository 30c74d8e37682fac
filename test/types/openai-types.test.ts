// The type-level test, inside `npm test`: tsc checks openai-types.check.ts
// against the `openai` package's own types, and the values it pins are checked
// here to be what the adapters emit and what the spec accepts.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { messagesToItems } from "../../adapters/chat-completions/messages-to-items.js";
import { specErrors } from "../support/spec-validator.js";
import { specAssistant, specImage } from "./openai-types.check.js";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");

function compile(project: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [tsc, "-p", project, "--pretty", "false"], { encoding: "utf8" });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe("adapter outputs against the openai package's types", () => {
  test("the check compiles: Chat outputs assignable, each stricter SDK type pinned by a @ts-expect-error that still fires", () => {
    expect(compile(join(here, "tsconfig.json"))).toEqual({ status: 0, output: "" });
  }, 60_000);
});

describe("the pinned values", () => {
  test("the image part is what a Chat image_url without detail becomes, and the spec accepts it", () => {
    const converted = messagesToItems({ messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: specImage.image_url } }] }] });
    expect(converted.value).toEqual([{ type: "message", role: "user", content: [specImage] }]);
    expect(specErrors("InputImageContentParamAutoParam", specImage)).toEqual([]);
  });

  test("the assistant message is what Chat text parts become, and the spec accepts it without id or status", () => {
    const converted = messagesToItems({ messages: [{ role: "assistant", content: [{ type: "text", text: specAssistant.content[0].text }] }] });
    expect(converted.value).toEqual([specAssistant]);
    expect(specErrors("AssistantMessageItemParam", specAssistant)).toEqual([]);
  });
});
