// Generated request bodies of Open Responses and Chat, their messages' text a
// string or parts (one or several, of any role), converted to every other
// envelope and back: each message comes back with its text in the form it had
// and the same words, or a loss of one of the two steps names the message (or
// the body's instructions). Bodies of Gemini and Bedrock, whose text is parts
// only, go to each other and back with nothing said of their text.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const folder = mkdtempSync(join(tmpdir(), "orbridge-message-text-form-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface ReportEntry {
  line: number;
  path: string;
  code: string;
  detail: string;
}

async function convert(record: unknown, to: string): Promise<{ record: Record<string, unknown>; report: ReportEntry[] }> {
  const input = join(folder, `${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(input, JSON.stringify(record) + "\n");
  const result = await runOrbridge(["convert", "--to", to, "--report", `${input}.report`, input]);
  expect(result.code, result.stderr).toBe(0);
  const report = readFileSync(`${input}.report`, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as ReportEntry);
  return { record: JSON.parse(result.stdout) as Record<string, unknown>, report };
}

const words = fc.constantFrom("Weather in Oslo?", "", "line\u2028two", "\ud800", "Be brief.", "  spaced  ");
/** A message's text: a string, or text parts (one or two). */
const text = fc.oneof(words, fc.array(words, { minLength: 1, maxLength: 2 }).map((parts) => parts.map((part) => ({ text: part }))));

type Text = string | Array<{ text: string }>;
interface Message {
  role: "system" | "developer" | "user" | "assistant";
  text: Text;
}

/** A conversation: leading instructions, then turns that alternate and begin with the user. */
const conversation = fc.record({
  system: fc.array(fc.tuple(fc.constantFrom<"system" | "developer">("system", "developer"), text), { maxLength: 2 }),
  turns: fc.array(text, { minLength: 1, maxLength: 3 }),
});

function messagesOf({ system, turns }: { system: Array<[Message["role"], Text]>; turns: Text[] }): Message[] {
  return [...system.map(([role, words]) => ({ role, text: words })), ...turns.map((words, index): Message => ({ role: index % 2 === 0 ? "user" : "assistant", text: words }))];
}

function responsesBody(messages: Message[]): Record<string, unknown> {
  const partType = (role: Message["role"]) => (role === "assistant" ? "output_text" : "input_text");
  return { model: "m", input: messages.map(({ role, text: words }) => ({ type: "message", role, content: typeof words === "string" ? words : words.map((part) => ({ type: partType(role), text: part.text })) })) };
}

function chatBody(messages: Message[]): Record<string, unknown> {
  return { model: "m", messages: messages.map(({ role, text: words }) => ({ role, content: typeof words === "string" ? words : words.map((part) => ({ type: "text", text: part.text })) })) };
}

/** Each message's role and text as a body of the envelope holds them: the string, or the texts of its parts. */
function textsOf(body: Record<string, unknown>, envelope: "responses" | "chat"): Array<[string, string | string[]]> {
  const list = (envelope === "responses" ? body.input : body.messages) as Array<Record<string, unknown>>;
  const leading = envelope === "responses" && typeof body.instructions === "string" ? [["instructions", body.instructions] as [string, string]] : [];
  return [...leading, ...list.map((message): [string, string | string[]] => [String(message.role), typeof message.content === "string" ? message.content : (message.content as Array<{ text: string }>).map((part) => part.text)])];
}

const TARGETS = ["anthropic", "gemini", "bedrock", "chat", "responses"] as const;

describe("message text through every envelope and back", () => {
  test("comes back in the form it had, or a loss says where it changed", async () => {
    await fc.assert(
      fc.asyncProperty(conversation, fc.constantFrom("responses", "chat"), fc.constantFrom(...TARGETS), async (generated, source, through) => {
        if (through === source) return;
        const messages = messagesOf(generated);
        const body = source === "responses" ? responsesBody(messages) : chatBody(messages);
        const there = await convert(body, through);
        const back = await convert(there.record, source);
        const before = textsOf(body, source);
        const after = textsOf(back.record, source);
        const said = [...there.report, ...back.report].filter((entry) => entry.code !== "synthesized");
        const field = source === "responses" ? "input" : "messages";
        // A message is named by its own path, the body's list of messages, the system prompt a target keeps apart, or the instructions.
        const names = (index: number) => said.some((entry) => entry.path === "" || entry.path === `/${field}` || entry.path.startsWith(`/${field}/${index}`) || /^\/(instructions|system|systemInstruction)/.test(entry.path));
        const detail = JSON.stringify({ source, through, body, there: there.record, back: back.record, said });
        if (after.length !== before.length) return void expect(said.length, `messages added or dropped unsaid: ${detail}`).toBeGreaterThan(0);
        before.forEach((message, index) => {
          if (JSON.stringify(message) !== JSON.stringify(after[index])) expect(names(index), `message ${index} changed unsaid: ${detail}`).toBe(true);
        });
      }),
      { numRuns: 60, seed: 20261207 },
    );
  }, 120_000);

  test("Gemini and Bedrock bodies go to each other and back with nothing said of their text", async () => {
    await fc.assert(
      fc.asyncProperty(conversation, fc.constantFrom("gemini", "bedrock"), async (generated, source) => {
        const messages = messagesOf({ system: generated.system.slice(0, 1), turns: generated.turns });
        const parts = (words: Text) => (typeof words === "string" ? [{ text: words }] : words);
        const system = messages.filter((message) => message.role === "system" || message.role === "developer").flatMap((message) => parts(message.text));
        const turns = messages.filter((message) => message.role === "user" || message.role === "assistant");
        const body =
          source === "gemini"
            ? { ...(system.length > 0 ? { systemInstruction: { parts: system } } : {}), contents: turns.map((message) => ({ role: message.role === "user" ? "user" : "model", parts: parts(message.text) })) }
            : { ...(system.length > 0 ? { system } : {}), messages: turns.map((message) => ({ role: message.role, content: parts(message.text) })) };
        const there = await convert(body, source === "gemini" ? "bedrock" : "gemini");
        const back = await convert(there.record, source);
        const detail = JSON.stringify({ body, there, back });
        expect([...there.report, ...back.report], detail).toEqual([]);
        expect(back.record, detail).toEqual(body);
      }),
      { numRuns: 30, seed: 20261207 },
    );
  }, 120_000);
});
