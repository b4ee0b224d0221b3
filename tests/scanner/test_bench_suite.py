"""The benchmark suite's plumbing (no timings): every script of bench/run_all.py answers --help and takes --json,
and run_all judges the goals and writes its table right from fabricated figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench import run_all

ROOT = Path(__file__).resolve().parents[2]
PRESENT = [b.name for b in run_all.BENCHMARKS if (ROOT / "bench" / f"{b.name}.py").exists()]


@pytest.mark.parametrize("name", PRESENT)
def test_each_benchmark_script_answers_help_and_takes_json(name):
    answer = subprocess.run(
        [sys.executable, f"bench/{name}.py", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert answer.returncode == 0, answer.stderr
    assert "--json" in answer.stdout


def _ok(figures: dict) -> dict:
    return {"status": "ok", "what": "", "seconds": 1.0, "figures": figures}


def fabricated() -> dict:
    return {
        "rescan": _ok({"full_seconds": 200.0, "rescan_seconds": 9.0}),  # 4.5%: met
        "ingest": _ok(
            {"first_seconds": 9.0, "copy_seconds": 2.5, "first_statements": 12, "second_seconds": 7.0}
        ),  # 3.6x: not met
        "pages": _ok({"pages": [{"p95_ms": 120.0}, {"p95_ms": 201.0}]}),  # worst 201 ms: not met
        "worker_memory": _ok(
            {"sizes": [2500, 20000], "peak_mb": [400.0, 420.0], "growth_fraction": 0.05, "slope_mb_per_1000_files": 1.1}
        ),  # +5%: met
        "sharded": {"status": "not present", "what": ""},
        "scan_throughput": {
            "status": "crashed",
            "what": "",
            "seconds": 3.0,
            "figures": {},
            "exit_code": 1,
            "log_tail": "Traceback",
        },
    }


def test_goals_are_judged_from_the_figures():
    rows = {row["benchmark"]: row for row in run_all.goal_rows(fabricated())}
    assert rows["rescan"]["met"] is True and rows["rescan"]["measured"].startswith("4.5%")
    assert rows["ingest"]["met"] is False and rows["ingest"]["measured"].startswith("3.6x")
    assert rows["pages"]["met"] is False and "201 ms" in rows["pages"]["measured"]
    assert rows["worker_memory"]["met"] is True
    assert (rows["sharded"]["met"], rows["sharded"]["measured"]) == (None, "not present")


def test_a_goal_on_its_threshold_is_met_and_just_past_it_is_not():
    at = run_all.goal_rows(
        {
            "rescan": _ok({"full_seconds": 100.0, "rescan_seconds": 5.0}),
            "ingest": _ok({"first_seconds": 3.0, "copy_seconds": 1.0}),
        }
    )
    past = run_all.goal_rows(
        {
            "rescan": _ok({"full_seconds": 100.0, "rescan_seconds": 5.01}),
            "ingest": _ok({"first_seconds": 3.01, "copy_seconds": 1.0}),
        }
    )
    assert [r["met"] for r in at if r["benchmark"] in ("rescan", "ingest")] == [True, True]
    assert [r["met"] for r in past if r["benchmark"] in ("rescan", "ingest")] == [False, False]


def test_figures_that_do_not_say_leave_the_goal_unjudged_instead_of_failing():
    rows = {row["benchmark"]: row for row in run_all.goal_rows({"pages": _ok({"something_else": 1})})}
    assert (rows["pages"]["met"], rows["pages"]["measured"]) == (None, "not measured")


def test_the_table_lists_every_benchmark_with_its_status_and_every_goal_with_its_verdict():
    benchmarks = fabricated()
    results = {
        "date": "2026-12-03T07:00:00+00:00",
        "commit": "abc123",
        "total_seconds": 600.0,
        "machine": {"cpus": 2, "load_average_at_start": [1.0, 1.0, 1.0], "load_average_at_end": [2.0, 2.0, 2.0]},
        "benchmarks": benchmarks,
        "goals": run_all.goal_rows(benchmarks),
    }
    text = run_all.table(results)
    lines = text.splitlines()
    assert "| scan_throughput | crashed | 3.0 |  |" in lines
    assert "| sharded | not present |  |  |" in lines
    assert any(line.startswith("| ingest | ok |") and "in 12 statements" in line for line in lines)
    goal_lines = lines[lines.index("| goal | measured | verdict |") + 2 :]
    verdicts = {line.split(" | ")[0][2:]: line.split(" | ")[-1][:-2] for line in goal_lines if line}
    assert verdicts["one-file rescan <= 5% of the full scan (10,000 files)"] == "met"
    assert verdicts["ingest of 100k findings <= 3x a raw COPY of the same rows"] == "NOT MET"
    assert verdicts["sharded scan on 2 workers >= 1.6x faster than on 1"] == "-"
    assert "total 10.0 min" in text
    json.dumps(results)  # what results.json holds is plain JSON


def test_a_crashing_or_missing_benchmark_is_reported_and_the_rest_still_run(tmp_path, monkeypatch):
    bench_dir = tmp_path / "bench"
    bench_dir.mkdir()
    (bench_dir / "boom.py").write_text("raise SystemExit('boom')\n")
    (bench_dir / "fine.py").write_text(
        "import json, sys\nout = sys.argv[sys.argv.index('--json') + 1]\n"
        "open(out, 'w').write(json.dumps({'value': 1}))\n"
    )
    monkeypatch.setattr(run_all, "BENCH", bench_dir)
    env = {"PATH": "/usr/bin:/bin"}
    crashed = run_all.run_one(run_all.Benchmark("boom", "crashes"), tmp_path, env)
    missing = run_all.run_one(run_all.Benchmark("absent", "not written yet"), tmp_path, env)
    fine = run_all.run_one(run_all.Benchmark("fine", "works"), tmp_path, env)
    assert (crashed["status"], crashed["exit_code"]) == ("crashed", 1) and "boom" in crashed["log_tail"]
    assert missing["status"] == "not present"
    assert (fine["status"], fine["figures"]) == ("ok", {"value": 1})
