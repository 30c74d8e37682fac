// Start times of every export, as nanoseconds, so that spans of any store sort alike.

/** Nanoseconds since the epoch: from decimal text or a number of `unit`, or from an ISO 8601 date. */
export function startTime(value: unknown, unit: "ns" | "us"): bigint {
  const scale = unit === "ns" ? 1n : 1000n;
  if (typeof value === "number" && Number.isFinite(value)) return BigInt(Math.round(value)) * scale;
  if (typeof value === "string") {
    if (/^[0-9]+$/.test(value)) return BigInt(value) * scale;
    const millis = Date.parse(value);
    if (!Number.isNaN(millis)) {
      // Digits past the millisecond, which Date drops.
      const fraction = /\.\d{3}(\d{1,6})/.exec(value)?.[1] ?? "";
      return BigInt(millis) * 1_000_000n + BigInt(fraction.padEnd(6, "0") || "0");
    }
  }
  return 0n;
}
