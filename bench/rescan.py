"""Full scan vs rescan after a one-file change, through the portal pipeline (clone, scan, blob cache, ingest).

    python bench/rescan.py [--files 10000] [--jobs 2] [--json FILE]

The goal: the rescan takes <= 5% of the full scan's time. Besides the two totals it reports where each scan's time
went, by timing the pipeline's steps from outside (git, planning, the blob cache lookup, the scanner pool, storing
the scanned files and the blob cache, tracking, the summary); a step the pipeline no longer has is left out.
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import jsonout, portal_db  # noqa: E402
from bench.scan_throughput import generate  # noqa: E402

GOAL_FRACTION = 0.05
_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "b@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "b@example.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "PATH": "/usr/bin:/bin",
}


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=_ENV, check=True, capture_output=True, text=True).stdout


class Phases:
    """Wall time spent inside chosen functions (not nested in one another), by label."""

    def __init__(self):
        self.seconds: dict[str, float] = defaultdict(float)

    def wrap(self, owner, name: str, label: str) -> None:
        original = getattr(owner, name, None)
        if original is None:
            return

        @functools.wraps(original)
        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.seconds[label] += time.perf_counter() - start

        setattr(owner, name, timed)

    def take(self) -> dict[str, float]:
        taken = {label: round(s, 3) for label, s in sorted(self.seconds.items())}
        self.seconds.clear()
        return taken


def instrument(phases: Phases) -> None:
    import scanner
    from portal.findings import tracking
    from portal.repositories.git import GitSession
    from portal.scans.models import BlobResult, ScannedFile
    from portal.scans.pipeline import runner as pipeline
    from scanner.pool import WorkerPool

    phases.wrap(GitSession, "resolve", "git: resolve")
    phases.wrap(GitSession, "fetch", "git: fetch, checkout, blobs, renames")
    phases.wrap(scanner, "plan", "plan (discovery, config)")
    phases.wrap(pipeline, "_cached_results", "blob cache lookup")
    phases.wrap(WorkerPool, "__init__", "scanner pool start")
    phases.wrap(ScannedFile.objects, "bulk_create", "ScannedFile inserts")
    phases.wrap(BlobResult.objects, "bulk_create", "blob cache inserts")
    phases.wrap(tracking, "ingest", "tracking (ingest)")
    phases.wrap(pipeline, "_summary", "summary")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    jsonout.add_argument(parser)
    args = parser.parse_args()
    os.environ["ROCPORT_SCAN_JOBS"] = str(args.jobs)
    os.environ["ROCPORT_SCAN_SOFT_TIME_LIMIT"] = "7200"
    portal_db.setup()
    from portal.accounts.models import Team
    from portal.repositories.models import Repository
    from portal.scans.actions import do_create_scan
    from portal.scans.pipeline import runner as pipeline

    phases = Phases()
    instrument(phases)
    work = Path(tempfile.mkdtemp(prefix="rocport-rescan-"))
    figures: dict = {"files": args.files, "jobs": args.jobs}
    try:
        lines = generate(work, args.files)
        figures["lines"] = lines
        git(work, "init", "--quiet", "--initial-branch=main")
        git(work, "add", "-A")
        git(work, "commit", "--quiet", "-m", "corpus")
        team = Team.objects.create(name="bench", slug="bench")
        repo = Repository.objects.create(team=team, name="corpus", clone_url=f"file://{work}")
        for key, label in (("full", "full scan"), ("rescan", "rescan after a one-file change")):
            if key == "rescan":
                target = next(work.joinpath("src").rglob("*.cu"))
                target.write_text(target.read_text() + "\n__global__ void added(int *o) { o[threadIdx.x % 32] = 0; }\n")
                git(work, "commit", "--quiet", "-am", "one file")
            scan = do_create_scan(repo, enqueue=False)
            start = time.perf_counter()
            pipeline.run(scan.pk)
            seconds = time.perf_counter() - start
            scan.refresh_from_db()
            steps = phases.take()
            figures[f"{key}_seconds"], figures[f"{key}_phases"] = seconds, steps
            figures[f"{key}_status"], figures[f"{key}_reused"] = scan.status, scan.files_reused
            print(
                f"{label}: {seconds:.1f}s, {scan.status}, {scan.files_total} files ({scan.files_reused} reused), "
                f"tracking {scan.summary.get('tracking')}",
                flush=True,
            )
            accounted = sum(steps.values())
            for step, spent in sorted(steps.items(), key=lambda item: -item[1]):
                print(f"    {step:<40} {spent:7.2f}s")
            print(f"    {'other (scanning, progress, status)':<40} {seconds - accounted:7.2f}s")
        fraction = figures["rescan_seconds"] / figures["full_seconds"]
        figures.update(rescan_fraction=fraction, goal_fraction=GOAL_FRACTION)
        print(
            f"corpus {args.files} files / {lines} lines; rescan / full = {100 * fraction:.1f}% "
            f"(goal <= {100 * GOAL_FRACTION:.0f}%: {'met' if fraction <= GOAL_FRACTION else 'not met'}); "
            f"full / rescan = {1 / fraction:.1f}x"
        )
        jsonout.write(args.json, figures)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
