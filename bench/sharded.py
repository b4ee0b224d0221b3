"""A sharded scan on 1 vs 2 worker processes: a generated repository, full scan time from enqueue to FINISHED.

    python bench/sharded.py [--files 10000] [--shard-files N] [--json FILE]

Each run starts real `celery worker` processes (--concurrency=1, ROCPORT_SCAN_JOBS=1: one analysing process
each) on a fresh PostgreSQL database and the benchmarks' own Redis database (bench/portal_db.py:
ROCPORT_BENCH_DB, ROCPORT_BENCH_BROKER), registers the repository anew and empties
the blob cache, so both runs do the same work: plan, shards, ingestion. The compile check is off (its cost is
bench/compile_check.py's). Also measured: a small repository (one shard, scanned by the planning task itself) vs
the same repository cut into two shards on one worker, which is what the round trip through the broker costs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("ROCPORT_BENCH_DB", "rocport_bench_sharded")  # its own database: setup() drops it
from bench import jsonout, portal_db  # noqa: E402
from bench.rescan import git  # noqa: E402
from bench.scan_throughput import generate  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


class Workers:
    """`count` celery worker processes on the bench database, stopped (process group and all) on exit."""

    def __init__(self, count: int, log_dir: Path, **env: str):
        self.processes = []
        for index in range(count):
            log = log_dir / f"worker-{count}-{index}.log"
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "portal",
                    "worker",
                    "--loglevel=INFO",
                    "--concurrency=1",
                    "--pool=prefork",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                    "-n",
                    f"bench{index}@%h",
                ],
                cwd=ROOT,
                env={**os.environ, "ROCPORT_SCAN_JOBS": "1", **env},
                stdout=open(log, "w"),
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            self.processes.append((process, log))
        for process, log in self.processes:
            deadline = time.monotonic() + 120
            while "ready." not in log.read_text():
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("worker did not start:\n" + log.read_text()[-2000:])
                time.sleep(0.2)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc) -> None:
        for process, _ in self.processes:
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=30)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait()


def timed_scan(team, url: str, name: str, timeout: float) -> dict:
    """A new repository row (no earlier findings), an empty blob cache, one scan: enqueue -> FINISHED."""
    from django.db import transaction

    from portal.repositories.models import Repository
    from portal.scans.actions import do_create_scan
    from portal.scans.models import BlobResult, Scan

    BlobResult.objects.all().delete()
    repository = Repository.objects.create(team=team, name=name, clone_url=url)
    start = time.perf_counter()
    with transaction.atomic():
        scan = do_create_scan(repository)  # the task is sent when this commits, as for a push
    deadline = start + timeout
    while True:
        scan = Scan.objects.get(pk=scan.pk)
        if scan.is_final or time.perf_counter() > deadline:
            break
        time.sleep(0.1)
    seconds = time.perf_counter() - start
    if scan.status != "finished":
        raise RuntimeError(f"scan {scan.pk} ended {scan.status}: {scan.error_message}")
    timings = list(scan.shards.values_list("started", "finished"))
    phases = {}
    if timings and scan.started and scan.finished:
        first, last = min(t[0] for t in timings), max(t[1] for t in timings)
        # planning: claim -> first shard claimed (inline or from the broker); ingestion: last shard -> FINISHED
        phases = {
            "planning": round((first - scan.started).total_seconds(), 2),
            "shards": round((last - first).total_seconds(), 2),
            "ingestion": round((scan.finished - last).total_seconds(), 2),
        }
    shards = list(scan.shards.values_list("worker", "files", "attempts"))
    per_worker: dict[str, int] = {}
    for worker, files, _ in shards:
        node = worker.split("@")[0]
        per_worker[node] = per_worker.get(node, 0) + files
    return {
        "seconds": round(seconds, 2),
        "files": scan.files_total,
        "shards": len(shards),
        "files_per_worker": per_worker,
        "retried_shards": sum(1 for *_, attempts in shards if attempts > 1),
        "findings_new": scan.summary.get("tracking", {}).get("new", 0),
        "phases_seconds": phases,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--shard-files", type=int, help="ROCPORT_SHARD_FILES for the workers (default: settings)")
    jsonout.add_argument(parser)
    args = parser.parse_args()
    os.environ["ROCPORT_COMPILE_CHECK"] = "off"
    os.environ["ROCPORT_SCAN_SOFT_TIME_LIMIT"] = "7200"
    portal_db.setup()
    from django.conf import settings

    from portal.accounts.models import Team

    env = {"ROCPORT_SHARD_FILES": str(args.shard_files)} if args.shard_files else {}
    work = Path(tempfile.mkdtemp(prefix="rocport-sharded-"))
    corpus, small, logs = work / "corpus", work / "small", work / "logs"
    for path in (corpus, small, logs):
        path.mkdir()
    try:
        lines = generate(corpus, args.files)
        generate(small, 40, seed=11)
        for root in (corpus, small):
            git(root, "init", "--quiet", "--initial-branch=main")
            git(root, "add", "-A")
            git(root, "commit", "--quiet", "-m", "corpus")
        team = Team.objects.create(name="bench", slug="bench")
        runs = {}
        for count in (1, 2):
            with Workers(count, logs, **env):
                runs[count] = timed_scan(team, f"file://{corpus}", f"corpus-{count}", timeout=7200)
            print(f"{count} worker(s): {runs[count]}", flush=True)
        with Workers(1, logs):
            inline = timed_scan(team, f"file://{small}", "small-inline", timeout=600)
        with Workers(1, logs, ROCPORT_SHARD_FILES="20"):
            split = timed_scan(team, f"file://{small}", "small-two-shards", timeout=600)
        ratio = runs[1]["seconds"] / runs[2]["seconds"]
        figures = {
            "benchmark": "sharded",
            "files": args.files,
            "lines": lines,
            "cpus": os.cpu_count(),
            "shard_files": args.shard_files or settings.ROCPORT_SHARD_FILES,
            "shard_bytes": settings.ROCPORT_SHARD_BYTES,
            "one_worker": runs[1],
            "two_workers": runs[2],
            "one_worker_seconds": runs[1]["seconds"],
            "two_workers_seconds": runs[2]["seconds"],
            "speedup": round(ratio, 2),
            "goal_speedup": 1.6,
            "small_repository": {
                "files": 40,
                "one_shard_inline_seconds": inline["seconds"],
                "two_shards_through_the_broker_seconds": split["seconds"],
            },
        }
        print(
            f"{args.files} files / {lines} lines: 1 worker {runs[1]['seconds']:.1f}s, 2 workers "
            f"{runs[2]['seconds']:.1f}s, speedup {ratio:.2f}x (goal 1.6x); 40-file repository: one shard inline "
            f"{inline['seconds']:.1f}s, two shards through the broker {split['seconds']:.1f}s"
        )
        jsonout.write(args.json, figures)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
