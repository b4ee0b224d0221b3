"""The compile check through the portal pipeline: files per second compiled by hipcc, and the blob cache's hit rate
on rescans (unchanged; after a one-header change, which recompiles only the units that include that header).

    python bench/compile_check.py [--files 60] [--jobs 2] [--json FILE]

Needs hipcc (scripts/ensure-hipcc.sh) and PostgreSQL on 127.0.0.1 (database ROCPORT_BENCH_DB, default
rocport_bench_compile, dropped and created). Prints the figures; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

# Before bench.portal_db is imported (through bench.rescan): it reads the database name once.
os.environ.setdefault("ROCPORT_BENCH_DB", "rocport_bench_compile")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import jsonout  # noqa: E402
from bench.rescan import git  # noqa: E402
from bench.scan_throughput import generate  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=2)
    jsonout.add_argument(parser)
    args = parser.parse_args()
    if shutil.which("hipcc") is None:
        print("hipcc is not installed: run scripts/ensure-hipcc.sh", file=sys.stderr)
        jsonout.write(args.json, {"skipped": "hipcc is not installed (scripts/ensure-hipcc.sh)"})
        return 2
    os.environ["ROCPORT_SCAN_JOBS"] = str(args.jobs)
    os.environ["ROCPORT_SCAN_SOFT_TIME_LIMIT"] = "7200"
    os.environ["ROCPORT_COMPILE_CHECK"] = "auto"
    from bench import portal_db

    portal_db.setup()
    from portal.accounts.models import Team
    from portal.repositories.models import Repository
    from portal.scans.actions import do_create_scan
    from portal.scans.models import ScannedFile
    from portal.scans.pipeline import runner as pipeline

    work = Path(tempfile.mkdtemp(prefix="rocport-compile-bench-"))
    try:
        lines = generate(work, args.files)
        # The corpus includes "common/hN.cuh" from src/: the include directory a build would pass.
        (work / ".rocport.toml").write_text('[parse]\ninclude_dirs = ["src"]\n')
        git(work, "init", "--quiet", "--initial-branch=main")
        git(work, "add", "-A")
        git(work, "commit", "--quiet", "-m", "corpus")
        team = Team.objects.create(name="bench", slug="bench")
        repo = Repository.objects.create(team=team, name="corpus", clone_url=f"file://{work}")
        header = sorted((work / "src" / "common").glob("*.cuh"))[0]
        figures: dict = {"files": args.files, "lines": lines, "jobs": args.jobs}
        names = iter(("full", "unchanged", "header"))
        for label in ("full scan", "rescan, nothing changed", f"rescan after editing {header.name}"):
            if label.startswith("rescan after"):
                header.write_text(header.read_text() + "\n__device__ inline int bench_added() { return 1; }\n")
                git(work, "commit", "--quiet", "-am", "one header")
            scan = do_create_scan(repo, enqueue=False)
            start = time.perf_counter()
            pipeline.run(scan.pk)
            seconds = time.perf_counter() - start
            scan.refresh_from_db()
            checks = scan.summary.get("compile", {}).get("files", {})
            compiled = sum(n for status, n in checks.items() if status != "not-checked")
            fresh = ScannedFile.objects.filter(
                scan=scan, reused=False, stats__compile__status__in=["compiles", "compiles-with-stubs", "fails"]
            ).count()
            hit_rate = 100.0 * scan.files_reused / scan.files_total if scan.files_total else 0.0
            print(
                f"{label}: {seconds:.1f}s, {scan.status}; {scan.files_total} files, cache hit rate {hit_rate:.0f}% "
                f"({scan.files_reused} reused); compile statuses {dict(sorted(checks.items()))}; "
                f"{fresh} compiled in this scan" + (f", {fresh / seconds:.2f} compiled files/s" if fresh else "")
            )
            name = next(names)
            figures.update(
                {
                    f"{name}_seconds": seconds,
                    f"{name}_hit_rate": hit_rate,
                    f"{name}_compiled": fresh,
                    f"{name}_statuses": dict(checks),
                }
            )
            if label == "full scan":
                print(f"  corpus: {args.files} files / {lines} lines, {compiled} files checked, {args.jobs} workers")
        jsonout.write(args.json, figures)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
