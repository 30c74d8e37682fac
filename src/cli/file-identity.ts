// Which file a path or a descriptor stands for, by device and inode, so that every
// name of one file (a symbolic or hard link, /dev/stdin, /dev/fd/0,
// /proc/self/fd/0, a bind mount) is seen as one. Only what holds a journal is
// compared: a regular file, a pipe (writing into it feeds the reader at its other
// end) and a block device. A terminal or /dev/null may be shared by any number of
// streams, and a socket is one channel in both directions.
import { fstatSync, statSync, type BigIntStats } from "node:fs";

export interface FileIdentity {
  dev: bigint;
  ino: bigint;
}

/** The file `path` names, through links; `undefined` when it does not exist or is not of a kind compared. */
export function identityOfPath(path: string): FileIdentity | undefined {
  try {
    return identityOf(statSync(path, { bigint: true, throwIfNoEntry: false }));
  } catch {
    return undefined;
  }
}

/** The file behind an open descriptor. */
export function identityOfDescriptor(fd: number): FileIdentity | undefined {
  try {
    return identityOf(fstatSync(fd, { bigint: true }));
  } catch {
    return undefined;
  }
}

/** The file behind a stream that wraps a descriptor (the process's stdin, stdout, stderr, a file stream); `undefined` for a stream in memory. */
export function identityOfStream(stream: unknown): FileIdentity | undefined {
  const fd = stream !== null && typeof stream === "object" ? (stream as { fd?: unknown }).fd : undefined;
  return typeof fd === "number" ? identityOfDescriptor(fd) : undefined;
}

export function sameFile(a: FileIdentity | undefined, b: FileIdentity | undefined): boolean {
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
}

function identityOf(stats: BigIntStats | undefined): FileIdentity | undefined {
  if (stats === undefined) return undefined;
  if (!stats.isFile() && !stats.isFIFO() && !stats.isBlockDevice()) return undefined;
  return { dev: stats.dev, ino: stats.ino };
}
