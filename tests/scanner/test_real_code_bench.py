"""bench/real_code.py, bench/real_code/derive_truth.py and bench/real_code/sample.py on small trees and tables built
here (no timings): the parse-mode shares and the scoring, the readings of a port (a hand-written HIP twin; HIP
guards; a fork's port of the same file), the draw of findings to judge and the per-family precision and recall."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


derive = _module(ROOT / "bench" / "real_code" / "derive_truth.py")
sample = _module(ROOT / "bench" / "real_code" / "sample.py")

KERNEL = """#include <cuda_runtime.h>
__global__ void k(float *x) {
  int lane = threadIdx.x % 32;
  x[lane] = 0.f;
}
"""


def test_the_bench_prints_modes_and_scores_recall_and_guarded_lines(tmp_path):
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    (project / "src" / "k.cu").write_text(KERNEL + "#ifndef USE_HIP\n__device__ int w = threadIdx.x / 32;\n#endif\n")
    truth = {
        "proj": {
            "slack": 0,
            "expected": [
                {"path": "src/k.cu", "line": 3, "rules": ["ROC101"]},
                {"path": "src/k.cu", "line": 4, "rules": ["ROC101"]},
            ],
            "guarded": [{"path": "src/k.cu", "line": 7}],
        }
    }
    (tmp_path / "truth.json").write_text(json.dumps(truth))
    out = subprocess.run(
        [
            sys.executable,
            "bench/real_code.py",
            str(project),
            "--truth",
            str(tmp_path / "truth.json"),
            "--json",
            str(tmp_path / "out.json"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    assert "recall: 1 of 2 expected lines (warp 1/2)" in out
    assert "warp" in out.split("per family:")[1]
    run = json.loads((tmp_path / "out.json").read_text())["runs"][0]
    assert run["files"] == 1 and run["tokens_share"] == 0.0 and run["modes"] == {"ast-stubbed": 1}
    assert run["score"]["recall"] == 0.5
    assert run["score"]["families"] == {"warp": {"expected": 2, "found": 1, "recall": 0.5}}
    lane = next(f for f in run["findings"] if f["line"] == 3)  # the findings stay in the output, with their line
    assert lane["project"] == "proj" and lane["path"] == "src/k.cu" and lane["rule"].startswith("ROC10")
    assert lane["source"] == "  int lane = threadIdx.x % 32;" and lane["message"] and lane["severity"]
    assert run["score"]["guarded"] == 1 and run["score"]["guarded_high"] == 0  # a HIP-named guard is respected


def test_the_hip_side_of_a_condition_is_three_valued():
    macros = ["USE_HIP", "__HIP_PLATFORM_AMD__"]
    side = derive._hip_side
    assert side("if", "defined(USE_HIP)", macros) is True
    assert side("if", "!defined(USE_HIP) && CUDART_VERSION >= 12000", macros) is False
    assert side("if", "(defined(USE_HIP) && defined(__HIP_PLATFORM_AMD__)) || __CUDA_ARCH__ >= 800", macros) is True
    assert side("if", "__CUDA_ARCH__ >= 800", macros) is None
    assert (side("ifdef", "USE_HIP", macros), side("ifndef", "USE_HIP", macros)) == (True, False)


def test_guards_list_the_cuda_only_branch_of_a_hip_switch(tmp_path):
    (tmp_path / "a.cuh").write_text(
        "#if defined(USE_HIP)\n#define WARP 64\n#else\nint lane = threadIdx.x % 32;\n#endif\n"
        "#ifdef OTHER\nint x = threadIdx.x % 32;\n#endif\n"
    )
    assert derive.guards(tmp_path, ["USE_HIP"]) == [{"path": "a.cuh", "line": 4}]


def test_twins_list_the_cuda_lines_the_hip_copy_changed_not_the_renames(tmp_path):
    (tmp_path / "k.cu").write_text("cudaMalloc(&p, n);\nint lane = threadIdx.x % 32;\nint n = 32 * sizeof(float);\n")
    (tmp_path / "k.hip").write_text(
        "hipMalloc(&p, n);\nint lane = threadIdx.x % warpSize;\nint n = 64 * sizeof(float);\n"
    )
    expected = derive.twins(tmp_path, {"k.cu": "k.hip"})
    assert [(e["path"], e["line"]) for e in expected] == [("k.cu", 2)]  # line 3 changed, but is no warp code


def test_fork_twins_list_the_lines_a_port_changed_or_fenced_off(tmp_path):
    repo = tmp_path / "proj"
    (repo / "src").mkdir(parents=True)

    def commit(text: str) -> str:
        (repo / "src" / "k.cu").write_text(text)
        subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True, capture_output=True)
        subprocess.run(
            ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c"],
            check=True,
            capture_output=True,
        )
        return subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
        ).stdout.strip()

    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    original = commit(
        "int w = threadIdx.x / 32;\nint m = __ballot_sync(0xffffffff, p);\nint x = 32;\nint lane = threadIdx.x % 32;\n"
    )
    port = commit(
        "int w = threadIdx.x / warpSize;\n#ifdef USE_ROCM\nint m = __ballot(p);\n#else\n"
        "int m = __ballot_sync(0xffffffff, p);\n#endif\nint x = 64;\nint lane = threadIdx.x % 64;\n"
    )
    root = tmp_path / "work"
    root.mkdir()
    subprocess.run(f"git -C {repo} archive {original} | tar -x -C {root}", shell=True, check=True)
    project = {
        "paths": ["src"],
        "port": {"repository": "o/proj", "commit": port, "hip_macros": ["USE_ROCM"]},
        "exclude": [{"path": "src/k.cu", "lines": [4], "why": "read and judged"}],
    }
    expected = derive.fork_twins(root, tmp_path, project)
    # 1 changed; 2 kept only on the branch HIP never takes; 3 changed but no warp code; 4 excluded by the manifest
    assert [(e["path"], e["line"], e["rules"][0]) for e in expected] == [
        ("src/k.cu", 1, "ROC101"),
        ("src/k.cu", 2, "ROC101"),
    ]


def _findings(project, rule, count, start=1):
    return [
        {
            "project": project,
            "path": f"src/{project}.cu",
            "line": start + n,
            "rule": rule,
            "severity": "high",
            "message": "m",
            "source": "s",
        }
        for n in range(count)
    ]


def test_the_draw_takes_at_most_four_per_rule_and_project_the_same_whatever_the_order():
    runs = [
        {"root": "/x/p", "findings": _findings("p", "ROC101", 9) + _findings("p", "ROC231", 2)},
        {"root": "/x/q", "findings": _findings("q", "ROC101", 3)},
    ]
    findings = sample.findings_of(runs)
    drawn = sample.draw(findings)
    counts = {}
    for f in drawn:
        counts[(f["project"], f["rule"])] = counts.get((f["project"], f["rule"]), 0) + 1
    assert counts == {("p", "ROC101"): 4, ("p", "ROC231"): 2, ("q", "ROC101"): 3}
    assert sample.draw(list(reversed(findings))) == drawn
    assert sample.draw(findings, seed="other") != drawn
    # A finding that was not drawn vanishing leaves the draw as it was.
    left_out = next(f for f in findings if f not in drawn)
    assert sample.draw([f for f in findings if f is not left_out]) == drawn


def test_merging_keeps_verdicts_of_rows_still_drawn_and_marks_new_ones_unjudged(tmp_path):
    drawn = sample.draw(sample.findings_of([{"root": "/x/p", "findings": _findings("p", "ROC101", 3)}]))
    first, second, third = drawn[0], drawn[1], drawn[2]
    earlier = [
        {
            "project": "p",
            "path": first["path"],
            "line": str(first["line"]),
            "rule": "ROC101",
            "severity": "high",
            "verdict": "true",
            "reason": "a lane index modulo 32",
        },
        # Judged when it was medium: the finding changed since, so it is judged again.
        {
            "project": "p",
            "path": third["path"],
            "line": str(third["line"]),
            "rule": "ROC101",
            "severity": "medium",
            "verdict": "false",
            "reason": "consistent 32-lane logic",
        },
        {
            "project": "p",
            "path": "src/gone.cu",
            "line": "7",
            "rule": "ROC101",
            "severity": "high",
            "verdict": "false",
            "reason": "not a lane",
        },
    ]
    table = tmp_path / "judged.csv"
    sample.write_table(table, earlier)
    rows, dropped = sample.merge(drawn, sample.read_table(table))
    assert dropped == 1 and len(rows) == 3
    assert rows[0] == {
        "project": "p",
        "path": first["path"],
        "line": first["line"],
        "rule": "ROC101",
        "severity": "high",
        "verdict": "true",
        "reason": "a lane index modulo 32",
        "severity_verdict": "",
    }
    assert rows[1]["line"] == second["line"] and (rows[1]["verdict"], rows[1]["reason"]) == ("unjudged", "")
    assert rows[2]["line"] == third["line"] and (rows[2]["verdict"], rows[2]["reason"]) == ("unjudged", "")
    sample.write_table(table, rows)
    assert table.read_text().splitlines()[0] == "project,path,line,rule,severity,verdict,reason,severity_verdict"
    assert [row["verdict"] for row in sample.read_table(table)] == ["true", "unjudged", "unjudged"]


def test_the_sampler_writes_the_table_from_a_run_file(tmp_path):
    (tmp_path / "run.json").write_text(
        json.dumps({"runs": [{"root": "/x/p", "project": "p", "findings": _findings("p", "ROC101", 6)}]})
    )
    out = subprocess.run(
        [
            sys.executable,
            "bench/real_code/sample.py",
            str(tmp_path / "run.json"),
            "-o",
            str(tmp_path / "judged.csv"),
            "--review",
            str(tmp_path / "review.txt"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert "6 findings, 4 drawn" in out
    rows = sample.read_table(tmp_path / "judged.csv")
    assert len(rows) == 4 and {row["verdict"] for row in rows} == {"unjudged"}
    assert "source" not in rows[0] and "| s" in (tmp_path / "review.txt").read_text()


def test_precision_and_recall_per_rule_family():
    assert [
        sample.family(r)
        for r in ("ROC101", "ROC110", "ROC120", "ROC140", "ROC163", "ROC215", "ROC227", "ROC236", "ROC262", "ROC901")
    ] == [
        "warp",
        "warp",
        "ptx",
        "libraries",
        "api+kernel",
        "build/cmake",
        "container",
        "shell/CI",
        "python/serving/host",
        "other",
    ]
    rows = [
        {"project": "p", "path": "a", "line": "1", "rule": rule, "severity": "high", "verdict": verdict, "reason": ""}
        for rule, verdict in [
            ("ROC101", "true"),
            ("ROC103", "true"),
            ("ROC106", "false"),
            ("ROC104", "debatable"),
            ("ROC105", "unjudged"),
            ("ROC231", "unjudged"),
        ]
    ]
    precision = sample.precision_by_family(rows)
    assert precision["warp"] == {"judged": 4, "true": 2, "false": 1, "debatable": 1, "unjudged": 1, "precision": 0.667}
    assert precision["shell/CI"]["judged"] == 0 and precision["shell/CI"]["precision"] is None
    truth = {
        "p": {
            "slack": 1,
            "expected": [
                {"path": "a.cu", "line": 10, "rules": ["ROC101", "ROC104"]},
                {"path": "a.cu", "line": 20, "rules": ["ROC101"]},
                {"path": "a.cu", "line": 30, "rules": ["ROC120", "ROC123"]},
            ],
        }
    }
    runs = [
        {
            "root": "/x/p",
            "findings": [
                {"path": "a.cu", "line": 11, "rule": "ROC104"},  # within the slack
                {"path": "a.cu", "line": 20, "rule": "ROC120"},  # not an accepted rule
                {"path": "a.cu", "line": 30, "rule": "ROC123"},
            ],
        }
    ]
    assert sample.recall_by_family(runs, truth) == {
        "warp": {"expected": 2, "found": 1, "recall": 0.5},
        "ptx": {"expected": 1, "found": 1, "recall": 1.0},
    }
    report = sample.family_report(rows, runs, truth).splitlines()
    assert report[1].split() == ["warp", "4", "2", "1", "1", "1", "0.67", "2", "1", "0.50", "0.00"]
    assert report[2].split() == ["ptx", "0", "0", "0", "0", "0", "-", "1", "1", "1.00", "0.00"]
    assert report[3].split()[0] == "shell/CI" and report[3].split()[-4:] == ["-", "-", "-", "-"]
    assert report[4].split() == ["all", "2", "1", "0.67"]
    # a finding below medium reaches a line at any severity, not at medium and up
    serious = [{"root": "/x/p", "findings": [{"path": "a.cu", "line": 20, "rule": "ROC101", "severity": "low"}]}]
    assert sample.recall_by_family(serious, truth)["warp"]["found"] == 1
    assert sample.recall_by_family(serious, truth, "medium")["warp"]["found"] == 0


def test_a_half_is_drawn_per_rule_above_a_severity_floor_with_severity_verdicts(tmp_path):
    findings = _findings("p", "ROC101", 3) + _findings("q", "ROC101", 3) + _findings("q", "ROC103", 2)
    findings[0]["severity"] = "low"
    per_rule = sample.draw(findings, per=3, by="rule")
    assert len(per_rule) == 5 and sum(f["rule"] == "ROC101" for f in per_rule) == 3
    assert len(sample.draw(findings, per=3)) == 8  # per (project, rule): every one of these small groups
    runs = {
        "runs": [
            {"root": "/x/p", "project": "p", "findings": findings[:3]},
            {"root": "/x/q", "project": "q", "findings": findings[3:]},
        ]
    }
    (tmp_path / "run.json").write_text(json.dumps(runs))
    subprocess.run(
        [
            sys.executable,
            "bench/real_code/sample.py",
            str(tmp_path / "run.json"),
            "-o",
            str(tmp_path / "j.csv"),
            "--by",
            "rule",
            "--per",
            "3",
            "--min-severity",
            "medium",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    rows = sample.read_table(tmp_path / "j.csv")
    assert len(rows) == 5 and all(row["severity"] == "high" for row in rows)
    rows[0].update(verdict="true", severity_verdict="right")
    rows[1].update(verdict="true", severity_verdict="too-high")
    rows[2].update(verdict="false")
    assert sample.severity_agreement(rows) == {"judged": 2, "right": 1, "agreement": 0.5}
    assert "severity agreement: 1 of 2" in sample.family_report(rows, None, {})
    rows[0]["severity_verdict"] = "wrong"
    sample.write_table(tmp_path / "bad.csv", rows)
    with pytest.raises(ValueError, match="severity_verdict"):
        sample.read_table(tmp_path / "bad.csv")


def test_the_halves_split_the_manifest_and_name_every_project_once():
    manifest = json.loads((ROOT / "bench" / "real_code" / "manifest.json").read_text())
    halves = sample.halves()
    named = [name for half in halves.values() for name in half]
    assert len(named) == len(set(named))
    assert set(named) == {p["name"] for p in manifest["projects"]}
    assert all(halves.values())


def test_the_bench_prints_the_family_table_from_a_judged_table_alone(tmp_path):
    (tmp_path / "judged.csv").write_text(
        "project,path,line,rule,severity,verdict,reason\n"
        "p,a.cu,3,ROC101,high,true,a lane modulo 32\n"
        "p,a.cu,4,ROC101,high,false,a byte count\n"
    )
    out = subprocess.run(
        [sys.executable, "bench/real_code.py", "--judged", str(tmp_path / "judged.csv")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    assert out.splitlines()[1].split()[:7] == ["warp", "2", "1", "1", "0", "0", "0.50"]


def test_a_half_is_scanned_from_the_manifest_and_a_missing_checkout_is_named(tmp_path):
    (tmp_path / "llm.c").mkdir()
    out = subprocess.run(
        [sys.executable, "bench/real_code.py", "--half", "check", "--work", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2
    assert "not checked out" in out.stderr and f"{tmp_path}/faiss-gpu" in out.stderr
    assert f"{tmp_path}/llm.c," not in out.stderr and "derive_truth.py" in out.stderr
