"""Every benchmark in one run (`make bench`): each script in its own process on its generated workload, with its
own PostgreSQL database and a Redis database of the benchmarks' own, then bench/results.json and a readable table
(bench/results.md and stdout) with each goal marked met or not met.

    python bench/run_all.py [--only NAME ...] [--out DIR] [--redis-db 15]

A benchmark that crashes, times out or is missing is reported as such and the others still run; a missed goal is
reported, never an error exit. The figures are timings of this machine as it is during the run (load average
recorded at the start and the end): compare ratios measured in one run rather than seconds across runs.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent


@dataclass(frozen=True)
class Benchmark:
    name: str  # bench/<name>.py
    what: str
    args: tuple[str, ...] = ()
    timeout: int = 900  # seconds; the suite's budget is 25 minutes on 2 cores
    env: dict = field(default_factory=dict)


# In the order they run; the arguments size each workload for the suite's 25 minutes on this 2-core machine.
BENCHMARKS = (
    Benchmark("scan_throughput", "scanner lines/s, 1 and 2 processes", ("--files", "600")),
    Benchmark("translate_throughput", "built-in CUDA -> HIP translator lines/s", ("--files", "1000")),
    Benchmark("ingest", "ingest 100k findings vs raw COPY"),
    # A guard against a hang, not a budget: the full scan took 12 min at load 5-10 and over 20 min at worse.
    Benchmark("rescan", "full scan vs one-file rescan, 10,000 files", ("--files", "10000"), timeout=2400),
    Benchmark("worker_memory", "peak worker memory vs files in the repository", ("--sizes", "2500,10000,20000")),
    Benchmark("webhooks", "signed webhook deliveries accepted/s", ("--requests", "1000")),
    Benchmark("pages", "page p95 at 1,000,000 findings", timeout=1200),
    Benchmark("sharded", "sharded scan, 1 vs 2 workers", timeout=2400),
    Benchmark("compile_check", "hipcc compile check through the pipeline"),
)


@dataclass(frozen=True)
class Goal:
    benchmark: str
    text: str
    measure: object  # figures -> (value, met) or None when the figures do not say

    def judge(self, figures: dict) -> tuple[str, bool | None]:
        try:
            verdict = self.measure(figures)
        except (KeyError, TypeError, ValueError, ZeroDivisionError):
            verdict = None
        if verdict is None:
            return "not measured", None
        return verdict


def _rescan(f):
    fraction = f["rescan_seconds"] / f["full_seconds"]
    return f"{100 * fraction:.1f}% ({f['rescan_seconds']:.1f}s / {f['full_seconds']:.1f}s)", fraction <= 0.05


def _ingest(f):
    ratio = f["first_seconds"] / f["copy_seconds"]
    return f"{ratio:.1f}x ({f['first_seconds']:.1f}s / {f['copy_seconds']:.1f}s)", ratio <= 3.0


def _pages(f):
    p95 = f.get("max_p95_ms")
    if p95 is None:
        p95 = max(row["p95_ms"] for row in f["pages"])
    size = f.get("max_bytes")
    if size is None:
        return f"worst p95 {p95:.0f} ms", p95 <= 200
    return f"worst p95 {p95:.0f} ms, heaviest {size / 1000:.0f} KB", p95 <= 200 and size <= 300_000


def _sharded(f):
    speedup = f.get("speedup", f.get("ratio"))
    if speedup is None:
        return None
    return f"{speedup:.2f}x", speedup >= 1.6


def _memory(f):
    return (
        f"{100 * f['growth_fraction']:+.1f}% from {f['sizes'][0]:,} to {f['sizes'][-1]:,} files "
        f"({f['slope_mb_per_1000_files']:+.1f} MB per 1,000 files)"
    ), f["growth_fraction"] <= 0.10


GOALS = (
    Goal("rescan", "one-file rescan <= 5% of the full scan (10,000 files)", _rescan),
    Goal("ingest", "ingest of 100k findings <= 3x a raw COPY of the same rows", _ingest),
    Goal("pages", "every page p95 <= 200 ms and <= 300 KB at 1,000,000 findings (a 10,000-line file too)", _pages),
    Goal("sharded", "sharded scan on 2 workers >= 1.6x faster than on 1", _sharded),
    Goal("worker_memory", "worker memory flat in files (peak grows <= 10% from smallest to largest)", _memory),
)


# -- running --------------------------------------------------------------------------------------------------
def run_one(bench: Benchmark, work: Path, env: dict) -> dict:
    script = BENCH / f"{bench.name}.py"
    if not script.exists():
        return {"status": "not present", "what": bench.what}
    out = work / f"{bench.name}.json"
    log = work / f"{bench.name}.log"
    command = [sys.executable, str(script), *bench.args, "--json", str(out)]
    start = time.perf_counter()
    with open(log, "w") as sink:
        # Its own process group: on a timeout, the servers and workers it started go with it.
        process = subprocess.Popen(
            command, cwd=ROOT, env={**env, **bench.env}, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            code = process.wait(timeout=bench.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            code = None
    seconds = time.perf_counter() - start
    text = log.read_text(errors="replace")
    figures = json.loads(out.read_text()) if out.exists() else {}
    entry = {
        "what": bench.what,
        "command": " ".join(["python", f"bench/{bench.name}.py", *bench.args]),
        "seconds": round(seconds, 1),
        "figures": figures,
        "exit_code": code,
    }
    if "skipped" in figures:
        entry["status"] = "skipped"
    elif code is None:
        entry["status"] = f"timed out after {bench.timeout}s"
    elif code != 0 or not figures:
        entry["status"] = "crashed" if code != 0 else "wrote no figures"
    else:
        entry["status"] = "ok"
    if entry["status"] != "ok":
        entry["log_tail"] = text[-3000:]
    print(f"[{bench.name}] {entry['status']} in {seconds:.0f}s", flush=True)
    return entry


def machine() -> dict:
    info = {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
    }
    try:
        model = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
        info["cpu"] = model
    except (OSError, StopIteration):
        pass
    try:
        import psutil

        info["memory_gib"] = round(psutil.virtual_memory().total / 2**30, 1)
    except ImportError:
        pass
    return info


def git_commit() -> str:
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        return sha + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


# -- reporting ------------------------------------------------------------------------------------------------
def _n(value, digits: int = 0) -> str:
    return f"{value:,.{digits}f}"


SUMMARIES = {
    "scan_throughput": lambda f: (
        f"{_n(f['lines_per_second_1'])} lines/s on 1 process, "
        f"{_n(f['lines_per_second_2'])} on 2 (scaling {f['scaling_2']:.2f}x)"
    ),
    "translate_throughput": lambda f: f"{_n(f['lines_per_second'])} lines/s",
    "ingest": lambda f: (
        f"{f['first_seconds']:.1f}s in {f['first_statements']} statements; raw COPY "
        f"{f['copy_seconds']:.1f}s; second ingestion {f['second_seconds']:.1f}s"
    ),
    "rescan": lambda f: f"full {f['full_seconds']:.1f}s, rescan {f['rescan_seconds']:.1f}s",
    "worker_memory": lambda f: ", ".join(f"{n:,} files {mb:.0f} MB" for n, mb in zip(f["sizes"], f["peak_mb"])),
    "webhooks": lambda f: (
        f"{_n(f['accepted_per_second'])} accepted/s, p99 {f['p99_ms']:.0f} ms "
        f"(trivial view {_n(f['trivial_per_second'])} req/s)"
    ),
    "pages": lambda f: (
        f"worst p95 {max(p['p95_ms'] for p in f['pages']):.0f} ms over {len(f['pages'])} pages, "
        f"{min(p['queries'] for p in f['pages'])}-{max(p['queries'] for p in f['pages'])} "
        f"queries per page, {_n(f['findings'])} findings"
    ),
    "compile_check": lambda f: (
        f"full {f['full_seconds']:.1f}s, unchanged rescan {f['unchanged_seconds']:.1f}s, "
        f"one header edited {f['header_seconds']:.1f}s"
    ),
}


def summary(name: str, entry: dict) -> str:
    figures = entry.get("figures", {})
    if entry["status"] == "skipped":
        return str(figures["skipped"])
    if entry["status"] != "ok":
        return ""
    try:
        return SUMMARIES[name](figures)
    except (KeyError, TypeError, ValueError):
        scalars = [(k, v) for k, v in sorted(figures.items()) if isinstance(v, (int, float))][:6]
        return ", ".join(f"{k} {v:,.4g}" for k, v in scalars)


def goal_rows(benchmarks: dict) -> list[dict]:
    rows = []
    for goal in GOALS:
        entry = benchmarks.get(goal.benchmark)
        if entry is None or entry["status"] != "ok":
            status = "not run" if entry is None else entry["status"]
            rows.append({"goal": goal.text, "benchmark": goal.benchmark, "measured": status, "met": None})
            continue
        measured, met = goal.judge(entry["figures"])
        rows.append({"goal": goal.text, "benchmark": goal.benchmark, "measured": measured, "met": met})
    return rows


def _verdict(met: bool | None) -> str:
    return {True: "met", False: "NOT MET", None: "-"}[met]


def table(results: dict) -> str:
    lines = [
        f"# Benchmark results {results['date']}",
        "",
        f"Commit {results['commit']}; {results['machine'].get('cpus')} CPUs "
        f"({results['machine'].get('cpu', 'unknown CPU')}), load average at start "
        f"{results['machine']['load_average_at_start']}, at end {results['machine'].get('load_average_at_end')}; "
        f"total {results['total_seconds'] / 60:.1f} min.",
        "",
        "| benchmark | status | seconds | figures |",
        "| --- | --- | ---: | --- |",
    ]
    for name, entry in results["benchmarks"].items():
        lines.append(f"| {name} | {entry['status']} | {entry.get('seconds', '')} | {summary(name, entry)} |")
    lines += ["", "| goal | measured | verdict |", "| --- | --- | --- |"]
    for row in results["goals"]:
        lines.append(f"| {row['goal']} | {row['measured']} | {_verdict(row['met'])} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=[b.name for b in BENCHMARKS], help="run only these")
    parser.add_argument("--out", type=Path, default=BENCH, help="where results.json and results.md go")
    parser.add_argument(
        "--keep-databases",
        action="store_true",
        help="leave each benchmark's database behind for inspection (dropped by default)",
    )
    parser.add_argument(
        "--redis-db",
        type=int,
        default=int(os.environ.get("ROCPORT_BENCH_REDIS_DB", "14")),
        help="the Redis database the benchmarks' brokers use (default 15)",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    results = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "machine": machine(),
        "benchmarks": {},
    }
    prefix = os.environ.get("ROCPORT_BENCH_DB_PREFIX", "rocport_bench")
    with tempfile.TemporaryDirectory(prefix="rocport-bench-run-") as work:
        for bench in BENCHMARKS:
            if args.only and bench.name not in args.only:
                continue
            database = f"{prefix}_{bench.name}"
            env = {
                **os.environ,
                "ROCPORT_BENCH_DB": database,
                "ROCPORT_BENCH_BROKER": f"redis://127.0.0.1:6379/{args.redis_db}",
            }
            results["benchmarks"][bench.name] = run_one(bench, Path(work), env)
            if not args.keep_databases:  # pages' million findings alone take a few GB
                subprocess.run(
                    ["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", database], capture_output=True
                )
    results["machine"]["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    results["total_seconds"] = round(time.perf_counter() - started, 1)
    results["goals"] = goal_rows(results["benchmarks"])
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    text = table(results)
    (args.out / "results.md").write_text(text)
    print("\n" + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
