"""The scanner on real CUDA projects: how much of them it reads whole, how fast, and (with a truth file) how much
of the known migration pitfalls it finds.

    python bench/real_code.py CHECKOUT [CHECKOUT ...] [--jobs 1] [--truth bench/real_code/truth.json]
                              [--json FILE] [--reasons 5] [--hipify-perl PATH/bin/hipify-perl]
                              [--judged bench/real_code/judged.csv]
    python bench/real_code.py --judged bench/real_code/judged.csv [--runs FILE --truth ...]
    python bench/real_code.py --half tune|check|fresh|fresh3|fresh4|fresh5|fresh6|fresh7 --work DIR [...]   # the manifest's projects of one half, checked
                                                                  # out under DIR by real_code/derive_truth.py

Checkouts are public projects brought onto the machine (bench/real_code/manifest.json names the repositories and
commits used here; their code is never committed). For each one it prints the C/C++/CUDA files by parse mode
(ast, ast-stubbed, tokens, error), the most frequent fallback reasons, lines per second of the scan, and with
`--truth` the recall on the expected (path, line, rule) lines and the high-severity results on lines the truth
marks as already guarded for ROCm, overall and per rule family. With `--hipify-perl`, the same C/C++/CUDA files go
through ROCm's hipify-perl as its users run it (one process per file, `-quiet-warnings`, output discarded) and both
speeds are printed per core: the scan with --jobs 1 against hipify-perl run one file after another.

`--json FILE` keeps every finding of every file (C/C++/CUDA and the rest: build files, containers, scripts), with
its project, path, line, rule, severity, message and source line: the input of bench/real_code/sample.py, which
draws the findings to judge into bench/real_code/judged.csv. The output thus holds the projects' code: never
commit it.
`--judged CSV` prints, per rule family, the judged rows and the precision true / (true + false), beside the recall
on the truth's expected lines of the runs scanned now or read back with `--runs` (an earlier --json output).
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import jsonout  # noqa: E402
from scanner import ScanOptions, scan  # noqa: E402

C_FAMILY = {"cuda", "c++", "c"}


def _sibling(name: str):
    spec = importlib.util.spec_from_file_location(
        f"real_code_{name}", Path(__file__).resolve().parent / "real_code" / f"{name}.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


judging = _sibling("sample")
MANIFEST = Path(__file__).resolve().parent / "real_code" / "manifest.json"


class _Lines:
    """The text of a finding's line, each file read once."""

    def __init__(self, root: Path):
        self.root, self.files = root, {}

    def __call__(self, path: str, line: int) -> str:
        if path not in self.files:
            try:
                self.files[path] = (self.root / path).read_text(errors="replace").splitlines()
            except OSError:
                self.files[path] = []
        lines = self.files[path]
        return lines[line - 1] if 0 < line <= len(lines) else ""


def measure(root: Path, jobs: int) -> dict:
    started = time.perf_counter()
    modes: collections.Counter = collections.Counter()
    reasons: collections.Counter = collections.Counter()
    findings, lines, files = [], 0, []
    project, text = root.name, _Lines(root)
    for result in scan(root, ScanOptions(jobs=jobs)):
        # Every file's findings are kept (precision is judged per rule family, build files and scripts too);
        # the parse modes, lines and speed are the C/C++/CUDA files'.
        findings += [
            {
                "project": project,
                "path": f.path,
                "line": f.line,
                "rule": f.rule,
                "severity": f.severity.value,
                "message": f.message,
                "source": text(f.path, f.line) or (f.snippet.splitlines() or [""])[0],
            }
            for f in result.findings
        ]
        if result.language not in C_FAMILY:
            continue
        mode = result.health.mode.value
        modes[mode] += 1
        lines += result.stats.lines
        files.append(
            {
                "path": result.path,
                "mode": mode,
                "reason": result.health.fallback_reason or result.error,
                "ms": round(result.elapsed_ms, 1),
            }
        )
        if mode in ("tokens", "error"):
            # The reason's shape, without its line numbers and names, so that like counts with like.
            reasons[re.sub(r"\d+", "N", (result.health.fallback_reason or result.error))[:160]] += 1
    elapsed = time.perf_counter() - started
    total = sum(modes.values())
    return {
        "root": str(root),
        "project": project,
        "files": total,
        "lines": lines,
        "seconds": round(elapsed, 2),
        "lines_per_second": round(lines / elapsed) if elapsed else 0,
        "modes": dict(modes),
        "tokens_share": round(modes["tokens"] / total, 4) if total else 0.0,
        "ast_share": round((modes["ast"] + modes["ast-stubbed"]) / total, 4) if total else 0.0,
        "reasons": reasons.most_common(),
        "per_file": files,
        "findings": findings,
    }


def hipify_perl_speed(script: Path, root: Path, files: list[dict]) -> dict:
    started, lines = time.perf_counter(), 0
    for entry in files:
        path = root / entry["path"]
        lines += path.read_bytes().count(b"\n")
        subprocess.run(
            ["perl", str(script), "-quiet-warnings", str(path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
    elapsed = time.perf_counter() - started
    return {"seconds": round(elapsed, 2), "lines": lines, "lines_per_second": round(lines / elapsed) if elapsed else 0}


def score(run: dict, truth: dict) -> dict:
    """Recall on the truth's expected lines (a finding of an accepted rule within `slack` lines counts), and the
    share of guarded lines that still got a high or critical result."""
    project = truth.get(Path(run["root"]).name, {})
    slack = project.get("slack", 0)
    found = collections.defaultdict(list)
    for f in run["findings"]:
        found[f["path"]].append(f)
    hits = 0
    expected = project.get("expected", [])
    for case in expected:
        rules = set(case["rules"])
        if any(f["rule"] in rules and abs(f["line"] - case["line"]) <= slack for f in found[case["path"]]):
            hits += 1
    guarded = project.get("guarded", [])
    loud = sum(
        1
        for case in guarded
        if any(f["line"] == case["line"] and f["severity"] in ("high", "critical") for f in found[case["path"]])
    )
    return {
        "expected": len(expected),
        "found": hits,
        "recall": round(hits / len(expected), 3) if expected else None,
        "families": judging.recall_by_family([run], truth),
        "guarded": len(guarded),
        "guarded_high": loud,
        "guarded_high_share": round(loud / len(guarded), 3) if guarded else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkouts", nargs="*", type=Path)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--truth", type=Path)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--reasons", type=int, default=5, help="fallback reasons shown per project")
    parser.add_argument("--hipify-perl", type=Path, help="ROCm HIPIFY's bin/hipify-perl, for the speed comparison")
    parser.add_argument(
        "--judged",
        type=Path,
        help="a judged table (bench/real_code/sample.py): print precision and recall per rule family",
    )
    parser.add_argument(
        "--runs",
        type=Path,
        help="with --judged and no checkouts: the runs of an earlier --json output, for the recall per family",
    )
    parser.add_argument(
        "--half",
        choices=judging.HALVES,
        help="scan the manifest's projects of this half, checked out under --work (derive_truth.py's folders)",
    )
    parser.add_argument("--work", type=Path, help="with --half: the folder holding the checkouts")
    args = parser.parse_args()
    if args.half:
        if not args.work:
            parser.error("--half needs --work, the folder derive_truth.py checked the projects out under")
        names = judging.halves()[args.half]
        order = [p["name"] for p in json.loads(MANIFEST.read_text())["projects"]]
        args.checkouts += [args.work / name for name in order if name in names]
        missing = [str(path) for path in args.checkouts if not path.is_dir()]
        if missing:
            parser.error(f"not checked out: {', '.join(missing)} (run bench/real_code/derive_truth.py --work ...)")
    truth = json.loads(args.truth.read_text()) if args.truth else {}
    if not args.checkouts:
        if not args.judged:
            parser.error("give checkouts to scan, or --judged")
        runs = json.loads(args.runs.read_text())["runs"] if args.runs else None
        print(judging.family_report(judging.read_table(args.judged), runs, truth))
        return 0
    runs = []
    print(
        f"{'project':<28} {'files':>6} {'ast':>6} {'stubbed':>8} {'tokens':>7} {'error':>6} {'tok%':>6} "
        f"{'lines/s':>8} {'recall':>7}"
    )
    for root in args.checkouts:
        run = measure(root.resolve(), args.jobs)
        if truth:
            run["score"] = score(run, truth)
        m = run["modes"]
        recall = run.get("score", {}).get("recall")
        print(
            f"{root.name:<28} {run['files']:>6} {m.get('ast', 0):>6} {m.get('ast-stubbed', 0):>8} "
            f"{m.get('tokens', 0):>7} {m.get('error', 0):>6} {run['tokens_share']:>6.1%} "
            f"{run['lines_per_second']:>8} {'' if recall is None else f'{recall:.2f}':>7}"
        )
        for reason, count in run["reasons"][: args.reasons]:
            print(f"    {count:>4}  {reason}")
        sc = run.get("score", {})
        if sc.get("expected"):
            print(
                f"    recall: {sc['found']} of {sc['expected']} expected lines ("
                + ", ".join(
                    f"{name} {entry['found']}/{entry['expected']}" for name, entry in sorted(sc["families"].items())
                )
                + ")"
            )
        if sc.get("guarded"):
            print(f"    guarded: {sc['guarded_high']} of {sc['guarded']} guarded lines got a high/critical result")
        if args.hipify_perl:
            files = [f for f in run["per_file"] if f["mode"] != "error"]
            run["hipify_perl"] = hipify_perl_speed(args.hipify_perl, root.resolve(), files)
            ratio = run["lines_per_second"] / max(run["hipify_perl"]["lines_per_second"], 1)
            print(f"    hipify-perl: {run['hipify_perl']['lines_per_second']} lines/s; ROCport {ratio:.1f}x")
        runs.append(run)
    files = sum(r["files"] for r in runs)
    tokens = sum(r["modes"].get("tokens", 0) for r in runs)
    errors = sum(r["modes"].get("error", 0) for r in runs)
    lines, seconds = sum(r["lines"] for r in runs), sum(r["seconds"] for r in runs)
    print(
        f"{'all':<28} {files:>6} tokens {tokens} ({tokens / max(files, 1):.1%}), error {errors}, "
        f"{lines / max(seconds, 1e-9):.0f} lines/s"
    )
    if args.hipify_perl:
        perl_lines = sum(r["hipify_perl"]["lines"] for r in runs)
        perl_seconds = sum(r["hipify_perl"]["seconds"] for r in runs)
        perl_speed = perl_lines / max(perl_seconds, 1e-9)
        print(
            f"{'hipify-perl':<28} {perl_speed:.0f} lines/s; ROCport {lines / max(seconds, 1e-9) / perl_speed:.1f}x "
            f"per core"
        )
    if truth:
        expected = sum(r["score"]["expected"] for r in runs)
        if expected:
            print(f"{'recall':<28} {sum(r['score']['found'] for r in runs)} of {expected} expected lines; per family:")
            for name, entry in sorted(judging.recall_by_family(runs, truth).items()):
                print(f"    {name:<20} {entry['found']:>4} of {entry['expected']:>4}  {entry['recall']:.2f}")
    if args.judged:
        print(judging.family_report(judging.read_table(args.judged), runs, truth))
    if args.json:
        jsonout.write(
            args.json,
            {
                "runs": runs,
                "files": files,
                "tokens": tokens,
                "errors": errors,
                "tokens_share": round(tokens / max(files, 1), 4),
                "lines_per_second": round(lines / max(seconds, 1e-9)),
            },
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
