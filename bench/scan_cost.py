"""Scan cost per line, one scanner tree against another, on real checkouts: CPU seconds, not wall seconds.

    python bench/scan_cost.py --before DIR --after DIR CHECKOUT [CHECKOUT ...] [--rounds 2] [--json FILE]

`--before` and `--after` are two trees of this repository (a `git worktree add DIR COMMIT` of the older commit,
and this checkout), each run with this interpreter as `python -m scanner scan CHECKOUT --jobs 1` from its own
folder. The runs alternate (before, after, after, before, ...) so that a machine busy with other work, and the
file cache, weigh on both alike, and each is measured by the CPU time (user + system) of the scan process and its workers
(`resource.getrusage(RUSAGE_CHILDREN)`), which other processes on the machine change far less than wall time.
Printed per checkout: the C/C++/CUDA lines the scan read, the median CPU microseconds per line of each tree and
the change. The checkouts are public projects (bench/real_code/manifest.json): never commit their code.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CXX = ("cuda", "c++", "c")


def scan_once(tree: Path, checkout: Path) -> tuple[float, int]:
    """CPU seconds of one scan of `checkout` with the scanner of `tree`, and the C/C++/CUDA lines it read."""
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            [sys.executable, "-m", "scanner", "scan", str(checkout), "--jobs", "1", "--format", "json"]
            + ["--fail-on", "never", "--progress", "never", "-o", report.name],
            cwd=tree,
            env={**os.environ, "PYTHONPATH": str(tree)},
            check=True,
            stdout=subprocess.DEVNULL,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        data = json.loads(Path(report.name).read_text())
    lines = sum(f["stats"]["lines"] for f in data["files"] if f.get("language") in CXX and f.get("stats"))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("checkouts", type=Path, nargs="+")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = []
    print(f"{'project':<24} {'lines':>8} {'before us/line':>15} {'after us/line':>14} {'change':>8}")
    for checkout in args.checkouts:
        cost: dict[str, list[float]] = {"before": [], "after": []}
        lines = {}
        for round_ in range(args.rounds):
            sides = [("before", args.before), ("after", args.after)]
            for side, tree in sides if round_ % 2 == 0 else sides[::-1]:  # neither always runs warm
                cpu, read = scan_once(tree, checkout)
                lines[side] = read
                cost[side].append(1e6 * cpu / max(read, 1))
        before, after = statistics.median(cost["before"]), statistics.median(cost["after"])
        change = (after - before) / before if before else 0.0
        rows.append(
            {"project": checkout.name, "lines": lines, "before_us_per_line": before, "after_us_per_line": after}
        )
        print(f"{checkout.name:<24} {lines['after']:>8} {before:>15.1f} {after:>14.1f} {change:>+8.1%}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
