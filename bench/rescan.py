"""Full scan vs rescan after a one-file change, through the portal pipeline (clone, scan, blob cache, ingest).

    python bench/rescan.py [--files 2000] [--jobs 2]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import portal_db  # noqa: E402
from bench.scan_throughput import generate  # noqa: E402

_ENV = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@example.invalid", "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "b@example.invalid", "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin"}


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=_ENV, check=True, capture_output=True, text=True).stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    import os

    os.environ["ROCPORT_SCAN_JOBS"] = str(args.jobs)
    os.environ["ROCPORT_SCAN_SOFT_TIME_LIMIT"] = "7200"
    portal_db.setup()
    from portal.accounts.models import Team
    from portal.repositories.models import Repository
    from portal.scans import pipeline
    from portal.scans.actions import do_create_scan

    work = Path(tempfile.mkdtemp(prefix="rocport-rescan-"))
    try:
        lines = generate(work, args.files)
        git(work, "init", "--quiet", "--initial-branch=main")
        git(work, "add", "-A")
        git(work, "commit", "--quiet", "-m", "corpus")
        team = Team.objects.create(name="bench", slug="bench")
        repo = Repository.objects.create(team=team, name="corpus", clone_url=f"file://{work}")
        timings = []
        for label in ("full scan", "rescan after a one-file change"):
            if timings:
                target = next(work.joinpath("src").rglob("*.cu"))
                target.write_text(target.read_text() + "\n__global__ void added(int *o) { o[threadIdx.x % 32] = 0; }\n")
                git(work, "commit", "--quiet", "-am", "one file")
            scan = do_create_scan(repo, enqueue=False)
            start = time.perf_counter()
            pipeline.run(scan.pk)
            seconds = time.perf_counter() - start
            scan.refresh_from_db()
            timings.append(seconds)
            print(f"{label}: {seconds:.1f}s, {scan.status}, {scan.files_total} files ({scan.files_reused} reused), "
                  f"tracking {scan.summary.get('tracking')}")
        print(f"corpus {args.files} files / {lines} lines; full / rescan = {timings[0] / timings[1]:.1f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
