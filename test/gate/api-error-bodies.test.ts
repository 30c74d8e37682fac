// A logger that writes whatever came back puts a provider's error body on the
// journal line where a response would be. It is blocked as any record without a
// type is, and its verdict says it is the error the request got, with the
// provider's own words.
import { describe, expect, test } from "vitest";
import { replayGate } from "../../src/gate/replay-gate.js";
import { runOrbridge } from "../support/run-cli.js";

const schema = { type: "object" };

describe("an error body alone on its line", () => {
  test("OpenAI's is blocked, its code and message in the detail", () => {
    const body = { error: { message: "Rate limit reached", type: "requests", param: null, code: "rate_limit_exceeded" } };
    expect(replayGate(body, schema)).toEqual({ reason: "namespaced", detail: `the record is a provider's error body (rate_limit_exceeded: "Rate limit reached"), not an item: the request it answers got no response, and no call`, path: "/type" });
  });

  test("OpenAI's with no code names its type", () => {
    const body = { error: { message: "The server had an error", type: "server_error", param: null, code: null } };
    expect(replayGate(body, schema).detail).toBe(`the record is a provider's error body (server_error: "The server had an error"), not an item: the request it answers got no response, and no call`);
  });

  test("Gemini's names its numeric code", () => {
    const body = { error: { code: 429, message: "Resource has been exhausted", status: "RESOURCE_EXHAUSTED" } };
    expect(replayGate(body, schema).detail).toBe(`the record is a provider's error body (429: "Resource has been exhausted"), not an item: the request it answers got no response, and no call`);
  });

  test("Bedrock's, as the AWS JSON protocol, boto3 and the bare HTTP body write it", () => {
    expect(replayGate({ __type: "ThrottlingException", message: "Too many requests" }, schema).detail).toBe(`the record is a provider's error body (ThrottlingException: "Too many requests"), not an item: the request it answers got no response, and no call`);
    expect(replayGate({ Error: { Code: "ValidationException", Message: "Malformed input" }, ResponseMetadata: { HTTPStatusCode: 400 } }, schema).detail).toBe(`the record is a provider's error body (ValidationException: "Malformed input"), not an item: the request it answers got no response, and no call`);
    expect(replayGate({ message: "The security token included in the request is invalid." }, schema).detail).toBe(`the record is a provider's error body ("The security token included in the request is invalid."), not an item: the request it answers got no response, and no call`);
  });

  test("a code that is not a plain token is quoted, its hidden characters shown", () => {
    expect(replayGate({ error: { message: "x", code: "bad\u200bcode" } }, schema).detail).toBe(`the record is a provider's error body ("bad\\u200bcode": "x"), not an item: the request it answers got no response, and no call`);
  });

  test("a typeless record that is no error body still has no type", () => {
    expect(replayGate({ message: "hello", role: "user" }, schema)).toEqual({ reason: "namespaced", detail: "the item has no type", path: "/type" });
    expect(replayGate({ error: "no object" }, schema)).toEqual({ reason: "namespaced", detail: "the item has no type", path: "/type" });
  });
});

describe("an error body in a journal", () => {
  const openAi = { error: { message: "Rate limit reached", type: "requests", param: null, code: "rate_limit_exceeded" } };
  const request = { model: "gpt-4o", messages: [{ role: "user", content: "Weather in Paris?" }] };

  test("the gate blocks the line and says what it is", async () => {
    expect(await runOrbridge(["gate", "-"], JSON.stringify(openAi) + "\n")).toEqual({
      code: 1,
      stdout: `line 1  - -  BLOCKED namespaced: the record is a provider's error body (rate_limit_exceeded: "Rate limit reached"), not an item: the request it answers got no response, and no call\n`,
      stderr: "read 1 line: 1 item, 0 errors; 1 blocked\n  blocked by: namespaced 1\n",
    });
  });

  test("an exchange whose response is one is an error record that says so", async () => {
    expect(await runOrbridge(["gate", "-"], JSON.stringify({ request, response: openAi }) + "\n")).toEqual({
      code: 1,
      stdout: `line 1  - -  BLOCKED error: exchange response is a provider's error body (rate_limit_exceeded: "Rate limit reached"): the request got no response, and no call\n`,
      stderr: "read 1 line: 0 items, 1 error; 1 blocked\n  blocked by: error 1\n",
    });
  });

  test("normalize reports the line as the error body it is", async () => {
    const run = await runOrbridge(["normalize", "-"], JSON.stringify(openAi) + "\n");
    expect(run.code).toBe(1);
    expect(run.stderr.split("\n")[0]).toBe(`orbridge normalize: line 1: record is a provider's error body (rate_limit_exceeded: "Rate limit reached"), not a journal record: the request it answers got no response`);
  });
});
