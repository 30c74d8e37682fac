// Start times of every export, as nanoseconds, so that spans of any store sort alike.

/** Nanoseconds since the epoch: from decimal text or a number of `unit`, or from an ISO 8601 date. */
export function startTime(value: unknown, unit: "ns" | "us"): bigint {
  const scale = unit === "ns" ? 1n : 1000n;
  if (typeof value === "number" && Number.isFinite(value)) return BigInt(Math.round(value)) * scale;
  if (typeof value === "string") {
    if (/^[0-9]+$/.test(value)) return BigInt(value) * scale;
    // A time with no zone is UTC: Langfuse's exports write "2024-05-29 13:46:19.963000",
    // other exporters "2024-05-29T13:46:19.963". Date would read either as the
    // machine's local time, and spans of mixed forms would sort by where they are read.
    const iso = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/.test(value) ? `${value.replace(" ", "T")}Z` : value;
    const millis = Date.parse(iso);
    if (!Number.isNaN(millis)) {
      // Digits past the millisecond, which Date drops.
      const fraction = /\.\d{3}(\d{1,6})/.exec(value)?.[1] ?? "";
      return BigInt(millis) * 1_000_000n + BigInt(fraction.padEnd(6, "0") || "0");
    }
  }
  return 0n;
}
