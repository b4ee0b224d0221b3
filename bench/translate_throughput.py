"""Built-in translator throughput on the scanner benchmark's generated corpus, one process.

    python bench/translate_throughput.py [--files 2000] [--json FILE]

Reports lines per second for the whole tree (lexing with libclang + renaming + statistics), with chevron and
with hipLaunchKernelGGL launch syntax.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import jsonout  # noqa: E402
from bench.scan_throughput import generate  # noqa: E402
from scanner.translate.builtin import BuiltinTranslator  # noqa: E402
from scanner.translate.model import TranslateOptions  # noqa: E402


def measure(files: list[tuple[str, str]], options: TranslateOptions) -> tuple[float, int, int]:
    translator = BuiltinTranslator(options)
    translator.translate(files[0][0], files[0][1])  # warm up: the name table is loaded once per process
    start = time.perf_counter()
    lines = converted = 0
    for path, text in files:
        result = translator.translate(path, text)
        lines += result.stats.total_lines
        converted += result.stats.converted
    return time.perf_counter() - start, lines, converted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    jsonout.add_argument(parser)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="rocport-translate-bench-"))
    try:
        generate(root, args.files)
        files = [(str(p), p.read_text()) for p in sorted(root.rglob("*")) if p.is_file()]
        figures: dict = {"files": len(files)}
        for launch in ("chevrons", "hipLaunchKernelGGL"):
            seconds, lines, converted = measure(files, TranslateOptions(launch_syntax=launch))
            print(
                f"{launch}: {len(files)} files, {lines} lines in {seconds:.2f}s = {lines / seconds:,.0f} lines/s; "
                f"{converted} references converted"
            )
            figures[launch] = {
                "lines": lines,
                "seconds": seconds,
                "lines_per_second": lines / seconds,
                "converted": converted,
            }
        figures["lines_per_second"] = figures["chevrons"]["lines_per_second"]
        jsonout.write(args.json, figures)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
