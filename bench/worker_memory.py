"""Peak memory of a real Celery worker scanning repositories of growing size: flat, not growing with files.

    python bench/worker_memory.py [--sizes 2500,5000,10000,20000] [--jobs 2] [--json FILE]

For each size: a generated git repository of that many small CUDA files (each with a finding, each unlike any
file of the other sizes, so the blob cache never helps), a fresh Celery worker process (prefork, concurrency 1,
the portal's own code and settings, the benchmark's database and Redis database), one scan through the task
queue, and the peak RSS of the worker's whole process tree (main process, pool process, scanner pool processes)
sampled with psutil every 0.1 s until the scan is final. Reports the peaks, the least-squares slope in MB per
1,000 files and the growth from the smallest to the largest repository (goal: <= 10%).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import jsonout, portal_db  # noqa: E402
from bench.rescan import git  # noqa: E402

GOAL_GROWTH = 0.10
# Small files keep the scanning short; what grows with the number of files is the per-file bookkeeping.
SOURCE = """\
// generated file {index} of the {size}-file repository
__global__ void kernel_{size}_{index}(float *x) {{
  x[threadIdx.x % 32] = {index}.0f;
}}
"""


def generate(root: Path, files: int) -> None:
    for index in range(files):
        directory = root / "src" / f"mod{index % 100}"
        directory.mkdir(parents=True, exist_ok=True)
        (directory / f"k{index}.cu").write_text(SOURCE.format(index=index, size=files))
    git(root, "init", "--quiet", "--initial-branch=main")
    git(root, "add", "-A")
    git(root, "commit", "--quiet", "-m", f"{files} files")


def tree_rss(process) -> int:
    """RSS of a process and all its descendants, in bytes (processes that end while sampled are skipped)."""
    import psutil

    total = 0
    for member in [process, *process.children(recursive=True)]:
        try:
            total += member.memory_info().rss
        except psutil.Error:
            pass
    return total


class Worker:
    """A Celery worker as production runs it. It stays in the benchmark's process group, so that run_all's timeout
    (which kills that group) takes it along; stop() kills its whole tree."""

    def __init__(self, log: Path, jobs: int):
        self.log = log
        env = {**os.environ, "ROCPORT_SCAN_JOBS": str(jobs), "ROCPORT_SCAN_SOFT_TIME_LIMIT": "3600"}
        self.process = subprocess.Popen(
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
                f"bench-memory-{os.getpid()}@%h",
            ],
            cwd=portal_db.ROOT,
            env=env,
            stdout=open(log, "w"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 120
        while "ready." not in log.read_text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the worker did not start:\n" + log.read_text()[-3000:])
            time.sleep(0.2)

    def stop(self) -> None:
        import psutil

        try:
            tree = [*psutil.Process(self.process.pid).children(recursive=True)]
        except psutil.NoSuchProcess:
            tree = []
        self.process.kill()
        for child in tree:
            try:
                child.kill()
            except psutil.NoSuchProcess:
                pass
        self.process.wait()


def measure(size: int, jobs: int, work: Path, team) -> dict:
    import psutil

    from portal.repositories.models import Repository
    from portal.scans.actions import do_create_scan
    from portal.scans.models import Scan

    root = work / f"repo{size}"
    generate(root, size)
    repo = Repository.objects.create(team=team, name=f"memory-{size}", clone_url=f"file://{root}")
    worker = Worker(work / f"worker{size}.log", jobs)
    try:
        process = psutil.Process(worker.process.pid)
        idle = tree_rss(process)
        start = time.perf_counter()
        scan = do_create_scan(repo)  # enqueued on commit: at once here (autocommit)
        peak = idle
        while True:
            peak = max(peak, tree_rss(process))
            status = Scan.objects.filter(pk=scan.pk).values_list("status", flat=True).get()
            if status in ("finished", "failed", "cancelled", "superseded"):
                break
            if worker.process.poll() is not None:
                raise RuntimeError("the worker died:\n" + worker.log.read_text()[-3000:])
            if time.perf_counter() - start > 1800:
                raise TimeoutError(f"the {size}-file scan did not finish in 30 minutes")
            time.sleep(0.1)
        seconds = time.perf_counter() - start
    finally:
        worker.stop()
    scan.refresh_from_db()
    if scan.status != "finished":
        raise RuntimeError(f"the {size}-file scan ended {scan.status}: {scan.error_code} {scan.error_message}")
    return {"files": size, "seconds": seconds, "idle_mb": idle / 2**20, "peak_mb": peak / 2**20}


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of ys over xs."""
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread if spread else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="2500,5000,10000,20000", help="repository sizes in files, comma-separated, smallest first"
    )
    parser.add_argument("--jobs", type=int, default=2, help="scanner processes inside the worker")
    jsonout.add_argument(parser)
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    portal_db.setup()
    import redis

    from portal.accounts.models import Team

    redis.Redis.from_url(portal_db.BROKER).flushdb()  # the benchmarks' own database: no stale message
    team = Team.objects.create(name="bench", slug="bench")
    work = Path(tempfile.mkdtemp(prefix="rocport-memory-"))
    rows = []
    try:
        for size in sizes:
            row = measure(size, args.jobs, work, team)
            rows.append(row)
            print(
                f"{size:>6} files: scan {row['seconds']:.1f}s, worker tree idle {row['idle_mb']:.0f} MB, "
                f"peak {row['peak_mb']:.0f} MB",
                flush=True,
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    peaks = [row["peak_mb"] for row in rows]
    per_thousand = 1000 * slope([float(s) for s in sizes], peaks)
    growth = (peaks[-1] - peaks[0]) / peaks[0]
    print(
        f"slope {per_thousand:+.2f} MB per 1,000 files; growth from {sizes[0]:,} to {sizes[-1]:,} files "
        f"{100 * growth:+.1f}% (goal <= {100 * GOAL_GROWTH:.0f}%: {'met' if growth <= GOAL_GROWTH else 'not met'})"
    )
    jsonout.write(
        args.json,
        {
            "sizes": sizes,
            "peak_mb": peaks,
            "idle_mb": [row["idle_mb"] for row in rows],
            "scan_seconds": [row["seconds"] for row in rows],
            "jobs": args.jobs,
            "slope_mb_per_1000_files": per_thousand,
            "growth_fraction": growth,
            "goal_growth": GOAL_GROWTH,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
