"""Does the translation build? Real CUDA projects translated by ROCport's built-in translator and by ROCm HIPIFY's
hipify-perl, both compiled by the same toolchain for the same target, through the same compile check
(scanner.compile: its stubs for headers the machine lacks, its error kinds and causes, each unit with its build's
flags).

    python bench/compile_real.py CHECKOUT [CHECKOUT ...] --hipify-perl HIPIFY/bin/hipify-perl [--rocm 7.14]
        [--target gfx942] [--under DIR ...] [--files N] [--timeout S] [--json FILE]

Per checkout the files are the `.cu` sources the build model (scanner.build) says a build compiles, or, when it names
none, each `.cu` with a `main` (a directory of kernel programs), else every `.cu`; the
repository headers they include are translated and compiled as part of them. Each is compiled with its build's
standard, include directories and defines (`FileJob.compile_build`, scanner.compile.unit_build); every row says
which build and standard judged it. A file that (itself or through a repository header) includes an NVIDIA library
with no ROCm counterpart (cuBLAS(Lt), cuDNN, CUTLASS...) is counted apart: "standalone" means it uses none; NCCL
(RCCL) and WMMA (rocWMMA) count as having one. Per project and translator it prints the files that build
(`compiles`, or `compiles-with-stubs`: what the toolchain lacks was set aside, never counted as the translation's
failure), the standalone ones that build and the failures by cause. Nothing is asserted: the figures go in
bench/compile_real.md (the code of the projects is never committed).
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import jsonout  # noqa: E402
from scanner import ScanOptions, plan  # noqa: E402
from scanner.compile import CompileChecker, CompileSettings  # noqa: E402
from scanner.target import TargetProfile  # noqa: E402
from scanner.translate import TranslateOptions, Translator  # noqa: E402

# NVIDIA libraries with no ROCm counterpart the compile check has: a file using one is not "standalone".
_LIBRARY = re.compile(
    r'^\s*#\s*include\s*[<"](?:cublas|cublasLt|cudnn|cutlass/|cute/|cufft|cusparse|curand|'
    r"cusolver|nvml|nvToolsExt|nvtx3/|cuda/|nvshmem)",
    re.MULTILINE,
)
_MAIN = re.compile(r"^[ \t]*(?:int|void|auto)\s+main\s*\(", re.MULTILINE)
BUILDS = ("compiles", "compiles-with-stubs")


def hipify_perl(script: str):
    """hipify-perl as a translate function: it reads the file at `source`, writes HIP on stdout."""

    def translate(rel: str, text: str, source: str | None) -> str:
        proc = subprocess.run(
            ["perl", script, "-quiet-warnings", source], capture_output=True, text=True, timeout=120, errors="replace"
        )
        return proc.stdout if proc.returncode == 0 and proc.stdout else text

    return translate


def rocport():
    translator = Translator(TranslateOptions(backend="builtin"))
    return lambda rel, text, source: translator.translate(rel, text, source).text


def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8", errors="replace")


def select(root: Path, under: tuple[str, ...], limit: int) -> tuple[str, list]:
    """(how they were chosen, the jobs to check): the `.cu` units a build of the model compiles (under a condition
    it could not evaluate too: a setup.py extension), else those with a main, else every one; below `under` when
    given; the first `limit` in path order."""
    _, jobs = plan(root, ScanOptions(compile_check=True))
    units = [
        j
        for j in jobs
        if j.rel.endswith(".cu")
        and j.compile_unit == j.rel
        and (not under or any(j.rel.startswith(u.rstrip("/") + "/") for u in under))
    ]
    built = [j for j in units if j.build is not None and j.build.compilations]
    programs = [j for j in units if _MAIN.search(_read(j.path))]
    how, chosen = (
        next(
            (h, c)
            for h, c in (("the build model", built), ("each .cu with a main", programs), ("every .cu", units))
            if c
        )
        if units
        else ("none", [])
    )
    return how, sorted(chosen, key=lambda j: j.rel)[: limit or None]


def check_project(root: Path, jobs: list, translate, settings: CompileSettings, errors: int = 0) -> list[dict]:
    checker = CompileChecker(settings, translate)
    rows = []
    try:
        for job in jobs:
            original = _read(job.path)
            texts = [original] + [_read(str(root / d)) for d in job.compile_deps if (root / d).is_file()]
            started = time.monotonic()
            result = checker.check(job, original, translate(job.rel, original, job.path))
            rows.append(
                {
                    "file": f"{root.name}/{job.rel}",
                    "status": result.status,
                    "library": any(_LIBRARY.search(t) for t in texts),
                    "counts": result.counts,
                    "causes": result.causes,
                    "compiler": result.compiler,
                    "target": result.target,
                    "std": result.std,
                    "build": result.build,
                    "reason": result.reason,
                    "seconds": round(time.monotonic() - started, 2),
                    "first_error": next(
                        (
                            f"{d.path}:{d.line}: {d.message}"
                            for d in result.diagnostics
                            if d.kind not in ("set-aside", "toolchain-gap")
                        ),
                        "",
                    )[:200],
                    "errors": [
                        {"kind": d.kind, "where": f"{d.path}:{d.line}", "message": d.message[:300]}
                        for d in result.diagnostics
                        if d.kind not in ("set-aside", "toolchain-gap")
                    ][:errors],
                    "stubbed": list(result.stubbed),
                }
            )
            print(f"  {rows[-1]['file']}: {result.status} ({rows[-1]['seconds']}s)", file=sys.stderr, flush=True)
            for e in rows[-1]["errors"]:
                print(f"    {e['kind']}: {e['where']}: {e['message'][:160]}", file=sys.stderr, flush=True)
    finally:
        checker.close()
    return rows


def summarize(rows: list[dict]) -> dict:
    standalone = [r for r in rows if not r["library"]]
    kinds, causes = collections.Counter(), collections.Counter()
    for r in rows:
        kinds.update(r["counts"])
        if r["status"] == "fails":
            causes.update(k for k, v in r["causes"].items() if v and k != "environment")
        elif r["status"] == "not-checked":
            causes["not checked"] += 1
    return {
        "files": len(rows),
        "builds": sum(r["status"] in BUILDS for r in rows),
        "standalone": len(standalone),
        "standalone_builds": sum(r["status"] in BUILDS for r in standalone),
        "not_checked": sum(r["status"] == "not-checked" for r in rows),
        "with_build_flags": sum(bool(r["build"]) for r in rows),
        "failures_by_cause": dict(causes.most_common()),
        "error_kinds": dict(kinds.most_common(6)),
    }


def _share(done: int, total: int) -> str:
    return f"{done} of {total}" + (f" ({100 * done / total:.0f}%)" if total else "")


def table(report: dict) -> str:
    """The markdown table of bench/compile_real.md: per project and translator."""
    lines = [
        "| project | how chosen | translator | builds | standalone builds | failures by cause |",
        "| --- | --- | --- | ---: | ---: | --- |",
    ]
    for project, data in report.items():
        for name, part in data["translators"].items():
            s = part["summary"]
            causes = ", ".join(f"{k} {v}" for k, v in s["failures_by_cause"].items()) or "none"
            lines.append(
                f"| {project} | {data['how']} | {name} | {_share(s['builds'], s['files'])} | "
                f"{_share(s['standalone_builds'], s['standalone'])} | {causes} |"
            )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", type=Path, help="a checkout, or a directory of kernel programs")
    parser.add_argument("--hipify-perl", default="", help="ROCm HIPIFY's bin/hipify-perl (else ROCport alone)")
    parser.add_argument("--target", default="gfx942")
    parser.add_argument("--compiler", default="clang", choices=("auto", "clang", "hipcc"))
    parser.add_argument("--rocm", default="", help="the profile's ROCm (chooses the bundled HIP); default 7.2")
    parser.add_argument("--under", action="append", default=[], help="only the files below this folder (repeatable)")
    parser.add_argument("--files", type=int, default=0, help="at most this many files per checkout")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per translation unit")
    parser.add_argument(
        "--errors", type=int, default=0, help="print (on stderr) and keep in the JSON each failure's first N errors"
    )
    jsonout.add_argument(parser)
    args = parser.parse_args()
    rocm = TargetProfile.parse([args.target], args.rocm or None).rocm
    settings = CompileSettings(compiler=args.compiler, arch=args.target, rocm=rocm, timeout_seconds=args.timeout)
    translators = {"rocport": rocport()}
    if args.hipify_perl:
        translators["hipify-perl"] = hipify_perl(args.hipify_perl)
    report = {}
    for checkout in args.checkouts:
        root = checkout.resolve()
        how, jobs = select(root, tuple(args.under), args.files)
        parts = {}
        for name, translate in translators.items():
            rows = check_project(root, jobs, translate, settings, args.errors)
            parts[name] = {"summary": summarize(rows), "files": rows}
        report[root.name] = {"how": how, "translators": parts}
    for project, data in report.items():
        for name, part in data["translators"].items():
            s, rows = part["summary"], part["files"]
            compiler = next((r["compiler"] for r in rows if r["compiler"]), "?")
            stds = dict(collections.Counter(r["std"] or "?" for r in rows))
            print(
                f"{project} {name:12} builds {s['builds']}/{s['files']}  standalone "
                f"{s['standalone_builds']}/{s['standalone']}  not checked {s['not_checked']}  ({compiler}, "
                f"{args.target}; files from {data['how']}; the build's flags for {s['with_build_flags']}, "
                f"standards {stds})"
            )
            print(f"{'':12} failures by cause {s['failures_by_cause']}  error kinds {s['error_kinds']}")
        if len(data["translators"]) == 2:
            ours, theirs = (data["translators"][n]["files"] for n in ("rocport", "hipify-perl"))
            for a, b in zip(ours, theirs):
                if (a["status"] in BUILDS) != (b["status"] in BUILDS):
                    print(
                        f"  differs: {a['file']}: rocport {a['status']} ({a['first_error'][:90]}) / hipify-perl "
                        f"{b['status']} ({b['first_error'][:90]})"
                    )
        for r in data["translators"]["rocport"]["files"]:
            if r["status"] not in BUILDS:
                print(
                    f"  rocport {r['status']}: {r['file']} [{r['std']}; {r['build'] or 'no build'}] {r['first_error']}"
                )
    print()
    print(table(report))
    jsonout.write(args.json, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
