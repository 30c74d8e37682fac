// Trace and span ids as the bytes they stand for. OTLP and Jaeger write them as
// hex, which a collector reads without regard to case (`AAAA…01` and `aaaa…01`
// are one span), and SDK span dicts as hex with a `0x`: such ids are compared in
// lower case, so that two spellings of one id are one id.

export function idText(id: unknown): string {
  const text = String(id);
  return /^(?:0[xX])?[0-9a-fA-F]+$/.test(text) ? text.toLowerCase() : text;
}
