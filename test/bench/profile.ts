// Reads a V8 CPU profile (`node --cpu-prof`) and tells where the time went: self
// time per function and per source file, the largest first.
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotSpot {
  name: string;
  selfMs: number;
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  functions: HotSpot[];
  files: HotSpot[];
}

export function summarizeProfile(path: string, root: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  let totalUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    totalUs += delta;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + delta);
  }
  const functions = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const file = shortFile(frame.url, root);
    const name = `${frame.functionName || "(anonymous)"} ${file}${frame.url ? `:${frame.lineNumber + 1}` : ""}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
    files.set(file, (files.get(file) ?? 0) + us);
  }
  const rank = (table: Map<string, number>) =>
    [...table.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, selfMs: us / 1000, share: us / totalUs }));
  return { totalMs: totalUs / 1000, functions: rank(functions), files: rank(files) };
}

function shortFile(url: string, root: string): string {
  if (url === "") return "(native/vm)";
  const path = url.replace(/^file:\/\//, "");
  if (path.startsWith(root)) return path.slice(root.length + 1).replace(/^node_modules\//, "~");
  return path.replace(/^node:/, "node:");
}
