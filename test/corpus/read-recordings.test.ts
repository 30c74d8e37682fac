// How the corpus check reads a recording it has never seen: each cassette
// interaction a journal line (or a request line and its SSE text), numbers as
// the cassette wrote them, compressed bodies read, failed exchanges left out,
// and whatever it cannot read named.
import { describe, expect, test } from "vitest";
import { journalOf } from "./read-recordings.js";

// A completion answering "Paris.", gzip-compressed and base64-encoded as VCR keeps binary bodies.
const gzippedCompletion =
  "H4sIAAAAAAAAAy2NwQrCMBAF/+Wd06Lgxf0K7yISk7VdSbIhuweh9N+l4HWGYTZIBiGt0VPtZboiQF8fTv6nc9LaC7toQ0AaHJ0z6BxQNXMBYek+XfSQq0piA903SMv8BZ0CKpvFhUEbhhYGIZqJeWx+NNqc2zG7xSE2Yw94SxNbn4OjaQPBXDv2x/4DD1x7vawAAAA=";

const cassette = `interactions:
- request:
    method: POST
    parsed_body:
      messages:
      - content: Which city governs France?
        role: user
      model: gpt-4o
      temperature: 1.0
    uri: https://api.example.test/v1/chat/completions
  response:
    body:
      string: !!binary |
        ${gzippedCompletion}
    status:
      code: 200
- request:
    method: POST
    parsed_body:
      model: gpt-4o
    uri: https://api.example.test/v1/chat/completions
  response:
    body:
      string: '{"error":{"message":"rate limited"}}'
    status:
      code: 429
- request:
    body: '{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"And Spain?"}]}'
    method: POST
    uri: https://api.example.test/v1/chat/completions
  response:
    body:
      string: "data: {\\"id\\":\\"chatcmpl-10\\",\\"object\\":\\"chat.completion.chunk\\",\\"choices\\":[]}\\n\\ndata: [DONE]\\n\\n"
    status:
      code: 200
`;

describe("a VCR cassette", () => {
  test("gives an exchange line per stored answer, a request line and its SSE text per streamed one, and leaves out the failed exchange", () => {
    expect(journalOf("x.yaml", cassette)).toEqual({
      journal:
        '{"request":{"messages":[{"content":"Which city governs France?","role":"user"}],"model":"gpt-4o","temperature":1.0},' +
        '"response":{"id":"chatcmpl-9","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"Paris."},"finish_reason":"stop"}]}}\n' +
        '{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"And Spain?"}]}\n' +
        'data: {"id":"chatcmpl-10","object":"chat.completion.chunk","choices":[]}\n' +
        "\n" +
        "data: [DONE]\n" +
        "\n",
      streamed: true,
      unread: [],
    });
  });

  test("kept as JSON, reads as the YAML one", () => {
    const json = JSON.stringify({ interactions: [{ request: { body: '{"model":"gpt-4o","temperature":0.0}' }, response: { body: { string: '{"id":"resp_1","object":"response","output":[]}' } } }] });
    expect(journalOf("x.json", json)).toEqual({
      journal: '{"request":{"model":"gpt-4o","temperature":0.0},"response":{"id":"resp_1","object":"response","output":[]}}\n',
      streamed: false,
      unread: [],
    });
  });

  test("names a body it cannot read instead of leaving it out", () => {
    const unreadable = cassette.replace(/string: '\{"error".*'/, "string: 'plain words'").replace("code: 429", "code: 200");
    expect(journalOf("x.yaml", unreadable).unread).toEqual(['interaction 1 response: a body that is neither JSON nor SSE: "plain words"']);
  });
});

describe("a fixture file", () => {
  test("of one JSON value is one line, its literals as written", () => {
    expect(journalOf("x.json", '{\n  "object": "response",\n  "temperature": 1.0\n}\n')).toEqual({ journal: '{"object":"response","temperature":1.0}\n', streamed: false, unread: [] });
  });

  test("of JSON lines stays as it is", () => {
    expect(journalOf("x.chunks.txt", '{"a":1}\n{"b":2.50}')).toEqual({ journal: '{"a":1}\n{"b":2.50}\n', streamed: true, unread: [] });
  });
});
