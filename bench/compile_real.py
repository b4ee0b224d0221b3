"""Does the translation build? Real CUDA kernels translated by ROCport's built-in translator and by ROCm HIPIFY's
hipify-perl, both compiled by the same toolchain for the same target, through the same compile check
(scanner.compile: its stubs for headers the machine lacks, its error kinds and causes).

    python bench/compile_real.py DIR [DIR ...] --hipify-perl HIPIFY/bin/hipify-perl [--target gfx942] [--rocm 7.14]
        [--compiler clang] [--json FILE] [--files N]

Every .cu file directly in each DIR is one kernel program (e.g. llm.c's dev/cuda/, whose kernels each build alone
with nvcc); the headers beside it are translated and compiled as part of it. A file that includes an NVIDIA-only
library (cuBLAS(Lt), cuDNN, NCCL, CUTLASS...) is counted apart: "standalone" means it uses none. Per translator it
prints the share that builds (`compiles`, or `compiles-with-stubs`: what the toolchain lacks was set aside, never
counted as the translation's failure), the failures by cause and the top error kinds. Nothing is asserted: the
figures go in the closing note and bench/README (the code of the projects is never committed).
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
from scanner.compile import CompileChecker, CompileSettings  # noqa: E402
from scanner.compile.graph import attach  # noqa: E402
from scanner.discovery import discover  # noqa: E402
from scanner.engine import FileJob  # noqa: E402
from scanner.target import TargetProfile  # noqa: E402
from scanner.translate import TranslateOptions, Translator  # noqa: E402

_LIBRARY = re.compile(
    r'^\s*#\s*include\s*[<"](?:cublas|cublasLt|cudnn|nccl|cutlass/|cute/|cufft|cusparse|curand|'
    r"cusolver|nvml|nvToolsExt|nvtx3/)",
    re.MULTILINE,
)
BUILDS = ("compiles", "compiles-with-stubs")


def hipify_perl(script: str):
    """hipify-perl as a translate function: the file's text on stdin-free argv (it reads the file), HIP on stdout."""

    def translate(rel: str, text: str, source: str | None) -> str:
        proc = subprocess.run(
            ["perl", script, "-quiet-warnings", source], capture_output=True, text=True, timeout=120, errors="replace"
        )
        return proc.stdout if proc.returncode == 0 and proc.stdout else text

    return translate


def rocport():
    translator = Translator(TranslateOptions(backend="builtin"))
    return lambda rel, text, source: translator.translate(rel, text, source).text


def check_directory(directory: Path, translate, settings: CompileSettings, limit: int) -> list[dict]:
    jobs = [FileJob(str(c.path), c.rel, c.language, c.problem) for c in discover(directory)]
    jobs = attach(directory, jobs, ())
    kernels = sorted(
        (j for j in jobs if j.rel.endswith(".cu") and "/" not in j.rel and j.compile_unit == j.rel), key=lambda j: j.rel
    )[: limit or None]
    checker = CompileChecker(settings, translate)
    rows = []
    try:
        for job in kernels:
            original = Path(job.path).read_text(encoding="utf-8", errors="replace")
            started = time.monotonic()
            result = checker.check(job, original, translate(job.rel, original, job.path))
            rows.append(
                {
                    "file": f"{directory.name}/{job.rel}",
                    "status": result.status,
                    "library": bool(_LIBRARY.search(original)),
                    "counts": result.counts,
                    "causes": result.causes,
                    "compiler": result.compiler,
                    "target": result.target,
                    "seconds": round(time.monotonic() - started, 2),
                    "first_error": next(
                        (d.message for d in result.diagnostics if d.kind not in ("set-aside", "toolchain-gap")), ""
                    )[:160],
                }
            )
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
    return {
        "files": len(rows),
        "builds": sum(r["status"] in BUILDS for r in rows),
        "standalone": len(standalone),
        "standalone_builds": sum(r["status"] in BUILDS for r in standalone),
        "not_checked": sum(r["status"] == "not-checked" for r in rows),
        "failures_by_cause": dict(causes.most_common()),
        "error_kinds": dict(kinds.most_common(6)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directories", nargs="+", type=Path)
    parser.add_argument("--hipify-perl", default="", help="ROCm HIPIFY's bin/hipify-perl (else ROCport alone)")
    parser.add_argument("--target", default="gfx942")
    parser.add_argument("--compiler", default="clang", choices=("auto", "clang", "hipcc"))
    parser.add_argument("--rocm", default="", help="the profile's ROCm (chooses the bundled HIP); default 7.2")
    parser.add_argument("--files", type=int, default=0, help="at most this many kernels per directory")
    jsonout.add_argument(parser)
    args = parser.parse_args()
    rocm = TargetProfile.parse([args.target], args.rocm or None).rocm
    settings = CompileSettings(compiler=args.compiler, arch=args.target, rocm=rocm, timeout_seconds=180)
    translators = {"rocport": rocport()}
    if args.hipify_perl:
        translators["hipify-perl"] = hipify_perl(args.hipify_perl)
    report = {}
    for name, translate in translators.items():
        rows = [row for d in args.directories for row in check_directory(d.resolve(), translate, settings, args.files)]
        report[name] = {"summary": summarize(rows), "files": rows}
    for name, data in report.items():
        s = data["summary"]
        compiler = next((r["compiler"] for r in data["files"] if r["compiler"]), "?")
        print(
            f"{name:12} builds {s['builds']}/{s['files']}  standalone {s['standalone_builds']}/{s['standalone']}"
            f"  not checked {s['not_checked']}  ({compiler}, {args.target})"
        )
        print(f"{'':12} failures by cause {s['failures_by_cause']}  error kinds {s['error_kinds']}")
    if len(report) == 2:
        ours, theirs = (report[n]["files"] for n in ("rocport", "hipify-perl"))
        for a, b in zip(ours, theirs):
            if (a["status"] in BUILDS) != (b["status"] in BUILDS):
                print(
                    f"  differs: {a['file']}: rocport {a['status']} ({a['first_error'][:70]}) / hipify-perl "
                    f"{b['status']} ({b['first_error'][:70]})"
                )
    jsonout.write(args.json, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
