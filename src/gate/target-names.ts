// The names of the replay targets (targets.ts), in a file of their own: a command
// that only reads `--for` knows them without loading the checks and their models.
export const TARGETS = ["open-responses", "openai-responses", "chat-completions", "strict", "adjacent", "anthropic", "gemini", "bedrock", "deepseek", "mistral"] as const;
export type Target = (typeof TARGETS)[number];

/** The targets that are a provider, known only by the profile their caller hands over. */
export const PROFILE_TARGETS: readonly Target[] = ["anthropic", "gemini", "bedrock", "deepseek", "mistral"];

export function isTarget(value: string): value is Target {
  return (TARGETS as readonly string[]).includes(value);
}

/** Throws a TypeError that lists the targets when `value` is not one: a caller's typo is not "an unhandled case". */
export function assertTarget(value: unknown): asserts value is Target {
  if (typeof value !== "string" || !isTarget(value)) throw new TypeError(`unknown target ${JSON.stringify(value) ?? String(value)}: one of ${TARGETS.join(", ")}`);
}
