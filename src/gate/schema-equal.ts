// JSON text in one canonical form, so that values equal as JSON values
// (models/json-equal.ts) key one entry.

/** JSON text with each object's keys in sorted order: values `jsonEqual` finds equal give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const fields = value as Record<string, unknown>;
  return `{${Object.keys(fields)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(fields[key])}`)
    .join(",")}}`;
}
