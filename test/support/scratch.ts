// Temporary folders for tests that write files; each is removed when its test file ends.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];
afterAll(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});

export function scratchFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), `orbridge-${prefix}-`));
  made.push(folder);
  return folder;
}
