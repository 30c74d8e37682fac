// A span exported again as it was: a collector that retried a delivery, a file
// exporter's batch written twice, two overlapping query answers joined into one
// export. Every reader of the export sees one span there, so it is read once,
// as the first copy, and the others are accounted for as repeats. Two spans of
// one id that say different things are two versions of a span, which
// read-spans.ts does not read (a reader that keeps the first and one that keeps
// the last would see two calls).
import type { Span } from "./read-spans.js";

/** The spans of one trace, the second and later copies of a span that say what its first says taken out. */
export function withoutRepeats(members: readonly Span[]): { kept: Span[]; repeats: Span[] } {
  const copies = new Map<string, Span[]>();
  for (const span of members) {
    const same = copies.get(span.id);
    if (same) same.push(span);
    else copies.set(span.id, [span]);
  }
  const repeats = new Set<Span>();
  for (const same of copies.values()) {
    if (same.length < 2) continue;
    const first = contentOf(same[0]!);
    // Only where every copy says the same: one that differs makes the id one of two spans, all of them.
    const others = same.slice(1);
    if (first !== undefined && others.every((span) => contentOf(span) === first)) for (const span of others) repeats.add(span);
  }
  return { kept: members.filter((span) => !repeats.has(span)), repeats: [...repeats] };
}

/** What a reader takes from the span, without where it stands in the document; `undefined` where it cannot be written out, so that it is like no other. */
function contentOf(span: Span): string | undefined {
  try {
    return JSON.stringify([
      span.name,
      span.parent ?? null,
      span.start.toString(),
      span.type ?? null,
      [...span.attributes.entries()].map(([key, located]) => [key, located.value]),
      // What each entry read two ways holds, not only how many there are: a value written first, which the map no longer holds, is read by whoever keeps the first.
      span.attributes.twice.map(({ key, event, earlier }) => [key, event ?? null, earlier === undefined ? null : earlier.value]),
      [...(span.fields?.entries() ?? [])].map(([key, located]) => [key, located.value]),
      span.input?.value ?? null,
      span.output?.value ?? null,
      // A copy that says its exporter dropped entries is not the whole span another copy is.
      (span.dropped ?? []).map(({ what, count }) => [what, count]),
    ]);
  } catch {
    return undefined;
  }
}
