#!/usr/bin/env python3
"""Gate a directory of journal shards on a Dask cluster, conversation by conversation.

The shards are read as one journal: their lines in shard-name order, each shard's
last line ending at the end of its file. Every line goes to a partition chosen by
a hash of its conversation key, so each conversation's lines reach one
partition, in journal order. Each partition is gated by one long-lived
`orbridge gate --conversation POINTER --format json -` process fed on stdin, and
the verdicts of the partitions are merged into one output in journal order.
The merged verdicts and summary are those of one machine gating the whole
journal (`orbridge gate --conversation POINTER --format json -` reading the
shards one after the other), whatever the number of partitions, as long as no
run has to close a conversation early (--max-open-conversations; a partition
sees fewer conversations than one machine, so closes fewer).

Line numbers are the journal's: each partition's process is given a blank line
for every journal line that is not its own (blank lines are skipped but
counted), so that its verdicts, and the lines their details name, count lines
as one machine counts them. That costs each process a byte per journal line.

orbridge is run by the command given with --orbridge (or ORBRIDGE_COMMAND),
whose first word must be an absolute path: `/usr/bin/node /srv/orbridge/dist/
src/cli/main.js`. Workers run it with an empty environment, as Spark's
rdd.pipe does, so nothing depends on PATH. Exit status 1 means "something is
blocked", an answer; any other non-zero status fails the partition's task, and
the run, with orbridge's own message.

A line that is not JSON, or has no key at the pointer, may have belonged to any
conversation: one machine damages every stream open when it comes, and, when it
names a request's tools, lets no conversation run a function until its next
request body. So it goes to every partition, each of which applies it to its
own conversations; partition 0 reports it, and the others' verdicts on it are
left out of the merged output and summary. A line whose conversation key is
named twice is the one case this does not cover: one machine damages every
other conversation's open stream with it, while here only its own partition
sees it.

Usage:
  gate_shards.py --orbridge "/usr/bin/node /srv/orbridge/dist/src/cli/main.js" \\
      --conversation /conversation_id --partitions 8 --out verdicts.jsonl \\
      SHARD_DIR [-- --tools /shared/tools.json]

With --scheduler ADDRESS the tasks run on that cluster (paths given to orbridge,
the shards and --work-dir must then be readable, and writable, on every
worker); without it, on a LocalCluster of --workers processes on this machine.
Exit status: 0 nothing blocked, 1 something blocked, 2 usage error or failure.
"""

import argparse
import hashlib
import heapq
import json
import operator
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading

MAX_SAFE_INTEGER = 2**53 - 1


class UsageError(Exception):
    pass


def parse_pointer(text):
    """The reference tokens of a JSON Pointer (RFC 6901), as orbridge reads them."""
    if not text.startswith("/"):
        raise UsageError(f'--conversation: a JSON Pointer starts with "/" (got {json.dumps(text)})')
    tokens = []
    for token in text[1:].split("/"):
        if re.search(r"~(?![01])", token):
            raise UsageError(f'--conversation: "~" must be followed by 0 or 1 in {json.dumps(text)}')
        tokens.append(token.replace("~1", "/").replace("~0", "~"))
    return tokens


def key_of(line, tokens, first):
    """The partition key of one line: the conversation key as orbridge reads it, or None."""
    if first and line.startswith(b"\xef\xbb\xbf"):
        # A byte order mark opens the journal, not the record.
        line = line[3:]
    try:
        value = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    for token in tokens:
        if isinstance(value, list):
            if not re.fullmatch(r"0|[1-9][0-9]*", token) or int(token) >= len(value):
                return None
            value = value[int(token)]
        elif isinstance(value, dict):
            if token not in value:
                return None
            value = value[token]
        else:
            return None
    # As in orbridge: a string, or a whole number a double holds exactly (7 and 7.0 are one key, "7" another).
    if isinstance(value, str):
        return "s" + value
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and abs(value) <= MAX_SAFE_INTEGER:
        return "n" + str(value)
    return None


def partition_of(key, partitions):
    digest = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % partitions


def split_shard(path, index, tokens, partitions):
    """One shard's lines, each with its number in the shard, sorted into partitions; and how many lines it has."""
    with open(path, "rb") as shard:
        data = shard.read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    parts = [[] for _ in range(partitions)]
    for number, line in enumerate(lines, start=1):
        if line.strip(b" \t\r") == b"":
            continue  # a blank line holds no record: every process skips it anyway
        key = key_of(line, tokens, index == 0 and number == 1)
        if key is None:
            # No conversation named: every partition applies it; partition 0 reports it.
            for part in parts:
                part.append((number, line))
        else:
            parts[partition_of(key, partitions)].append((number, line))
    return {"lines": len(lines), "parts": parts}


def shard_lines(split):
    return split["lines"]


def gate_partition(partition, parts, counts, command, conversation, gate_args, work_dir):
    """Runs one orbridge process over the partition's lines, at their journal line numbers; returns its summary."""
    offsets = [sum(counts[:i]) for i in range(len(counts))]
    out_path = os.path.join(work_dir, f"part-{partition:05d}.jsonl")
    argv = command + ["gate", "--conversation", conversation, "--format", "json", "--summary", "json", *gate_args, "-"]
    with open(out_path, "wb") as out:
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=out, stderr=subprocess.PIPE, env={})
        failure = []

        def feed():
            written = 0
            try:
                for shard, lines in enumerate(parts):
                    for number, line in lines:
                        at = offsets[shard] + number
                        process.stdin.write(b"\n" * (at - written - 1) + line + b"\n")
                        written = at
                process.stdin.close()
            except BrokenPipeError as error:  # the process ended early: its status says why
                failure.append(error)

        feeder = threading.Thread(target=feed)
        feeder.start()
        stderr = process.stderr.read().decode("utf-8", "replace")
        status = process.wait()
        feeder.join()
    if status not in (0, 1):
        raise RuntimeError(f"partition {partition}: {shlex.join(argv)} exited with status {status}: {stderr.strip()}")
    try:
        summary = json.loads(stderr.strip().splitlines()[-1])
        counts = {field: summary[field] for field in ("items", "errors", "blocked", "conversations", "reopened", "blocked_by", "findings")}
    except (IndexError, ValueError, KeyError, TypeError):
        raise RuntimeError(f"partition {partition}: no summary from orbridge (status {status}): {stderr.strip()}") from None
    if partition > 0:
        # The lines that name no conversation are partition 0's to report: each is one blocked error here.
        keyless = count_keyless(out_path)
        counts["errors"] -= keyless
        counts["blocked"] -= keyless
        if keyless:
            counts["blocked_by"]["error"] -= keyless
            if counts["blocked_by"]["error"] == 0:
                del counts["blocked_by"]["error"]
    return {"path": out_path, "partition": partition, **counts}


def count_keyless(path):
    """The verdicts of a partition's output that name no conversation."""
    with open(path, "rb") as verdicts:
        return sum(1 for line in verdicts if "conversation" not in json.loads(line))


def counted(count, noun, plural=None):
    """A count and its noun, as orbridge writes it: "1 line", "2 lines"."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def tally_line(label, tally):
    """One of the lines beneath orbridge's summary: most frequent first, then by name."""
    entries = sorted(tally.items(), key=lambda entry: (-entry[1], entry[0]))
    return f"  {label}: {', '.join(f'{key} {count}' for key, count in entries)}\n" if entries else ""


def positioned(path, partition):
    """A partition's verdicts with their places in the merged output.

    A verdict goes where the line it answers is, or after its conversation's
    previous verdict when the conversation answered a line late, as orbridge
    orders them; a place is a line of one conversation, so places tie only
    within a partition, and the merge keeps each partition's order.
    """
    last = {}
    with open(path, "rb") as verdicts:
        for line in verdicts:
            record = json.loads(line)
            conversation = record.get("conversation")
            if conversation is None and partition > 0:
                continue  # partition 0 reports it
            key = None if conversation is None else json.dumps(conversation)
            if key is not None and "note" in record:
                last.pop(key, None)  # reopened: a new conversation from here
            place = max(record["line"], last.get(key, 0)) if key is not None else record["line"]
            if key is not None:
                last[key] = place
            yield place, line


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("shards", help="a directory of journal shards (*.jsonl), read in name order")
    parser.add_argument("--orbridge", default=os.environ.get("ORBRIDGE_COMMAND"), help="the orbridge command, its first word an absolute path (default: $ORBRIDGE_COMMAND)")
    parser.add_argument("--conversation", required=True, help="JSON Pointer to each record's conversation key")
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (default: a LocalCluster)")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes")
    parser.add_argument("--out", help="the merged verdicts (default: stdout)")
    parser.add_argument("--work-dir", help="where partitions write their verdicts (default: a temporary directory)")
    parser.add_argument("gate_args", nargs="*", help="after --: more options for orbridge gate (--tools FILE...)")
    args = parser.parse_args(argv)
    try:
        if not args.orbridge:
            raise UsageError("give the orbridge command with --orbridge or ORBRIDGE_COMMAND")
        command = shlex.split(args.orbridge)
        if not command or not os.path.isabs(command[0]):
            raise UsageError(f"the orbridge command must start with an absolute path, not rely on PATH (got {args.orbridge!r}); e.g. \"$(command -v node) /srv/orbridge/dist/src/cli/main.js\"")
        if args.partitions < 1:
            raise UsageError("--partitions must be at least 1")
        tokens = parse_pointer(args.conversation)
        shards = sorted(os.path.join(args.shards, name) for name in os.listdir(args.shards) if name.endswith(".jsonl"))
        if not shards:
            raise UsageError(f"no *.jsonl shard in {args.shards}")
    except (UsageError, OSError) as error:
        print(f"gate_shards: {error}", file=sys.stderr)
        return 2

    import dask
    from distributed import Client, LocalCluster

    work_dir = args.work_dir or tempfile.mkdtemp(prefix="orbridge-dask-")
    cluster = None if args.scheduler else LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        with Client(args.scheduler or cluster) as client:
            # A scheduler with no worker would wait for one forever.
            client.wait_for_workers(1, timeout=120)
            splits = [dask.delayed(split_shard)(path, index, tokens, args.partitions) for index, path in enumerate(shards)]
            counts = [dask.delayed(shard_lines)(split) for split in splits]
            summaries = []
            for partition in range(args.partitions):
                # Only this partition's lines of each shard travel to its task.
                parts = [split["parts"][partition] for split in splits]
                summaries.append(dask.delayed(gate_partition)(partition, parts, counts, command, args.conversation, args.gate_args, work_dir))
            lines, summaries = client.compute([dask.delayed(sum)(counts), summaries], sync=True)
        out = open(args.out, "wb") if args.out else sys.stdout.buffer
        try:
            for _, line in heapq.merge(*(positioned(summary["path"], summary["partition"]) for summary in summaries), key=operator.itemgetter(0)):
                out.write(line)
        finally:
            if args.out:
                out.close()
    except Exception as error:  # a failed task: its message, and a failed run
        print(f"gate_shards: {error}", file=sys.stderr)
        return 2
    finally:
        if cluster is not None:
            cluster.close()
        if not args.work_dir:
            shutil.rmtree(work_dir, ignore_errors=True)
    total = {field: sum(summary[field] for summary in summaries) for field in ("items", "errors", "blocked", "conversations", "reopened")}
    tallies = {field: {} for field in ("blocked_by", "findings")}
    for summary in summaries:
        for field, tally in tallies.items():
            for key, count in summary[field].items():
                tally[key] = tally.get(key, 0) + count
    reopened = f" ({total['reopened']} reopened after --max-open-conversations closed them)" if total["reopened"] else ""
    sys.stderr.write(
        f"read {counted(lines, 'line')}: {counted(total['items'], 'item')}, {counted(total['errors'], 'error')}; {total['blocked']} blocked; "
        f"{counted(total['conversations'], 'conversation')}{reopened}\n"
        + tally_line("blocked by", tallies["blocked_by"])
        + tally_line("findings", tallies["findings"])
    )
    return 1 if total["blocked"] > 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
