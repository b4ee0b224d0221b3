"""HIPIFY's own unit tests as a yardstick: the share of their `CHECK:` lines ROCport's built-in translator meets.

    python bench/hipify_checks.py HIPIFY_CHECKOUT [--hipify-perl] [--roc] [--by-file] [--misses N] [--json FILE]

ROCm/HIPIFY's `tests/unit_tests/**/*.cu` are CUDA sources whose comments say what hipify-clang must write:
`// CHECK: <line>` (and `CHECK-NEXT`). Each test file is translated whole, as hipify runs on it (the comments
stay), and its CHECK lines are matched the way LLVM's FileCheck does by default: in order, each a substring of an
output line at or after the previous match, runs of spaces and tabs equal to any such run, `{{regex}}` spans as
regular expressions. A CHECK line that does not match is counted as missed and the next one is looked for from
the same place. Each test is translated with the options its RUN line gives that the built-in translator has
(`--roc`, `--experimental`, `--hip-kernel-execution-syntax`); the others (`--amap`, `--use-hip-data-types`, a
preprocessor mode) are not options of ours and are left at our defaults. With `--hipify-perl`, the
same files go through the checkout's `bin/hipify-perl` too, side by side. HIPIFY's tests are its authors' code
(MIT licence): read here, never committed.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scanner.translate import TranslateOptions, Translator  # noqa: E402
from scanner.translate.model import LAUNCH_CHEVRONS, LAUNCH_GGL  # noqa: E402

_CHECK = re.compile(r"//\s*CHECK(-NEXT)?:\s?(.*)$")
_HSPACE = re.compile(r"[ \t]+")


def check_lines(text: str) -> list[str]:
    """The expected lines a test file's comments give, in order."""
    out = []
    for line in text.splitlines():
        match = _CHECK.search(line)
        if match and match.group(2).strip():
            out.append(match.group(2).rstrip())
    return out


def pattern(check: str) -> re.Pattern:
    """FileCheck's default reading of one CHECK line: literal text, `{{...}}` regexes, any horizontal space run."""
    parts, rest = [], check.strip()
    while rest:
        start = rest.find("{{")
        end = rest.find("}}", start + 2) if start >= 0 else -1
        literal = rest if start < 0 or end < 0 else rest[:start]
        parts.append(r"[ \t]+".join(re.escape(piece) for piece in _HSPACE.split(literal)))
        if start < 0 or end < 0:
            break
        parts.append(f"(?:{rest[start + 2 : end]})")
        rest = rest[end + 2 :]
    return re.compile("".join(parts))


def matched(output: str, checks: list[str]) -> list[bool]:
    """For each CHECK line, whether it matched, in order (FileCheck's search from the previous match)."""
    lines = [line for line in output.splitlines() if not _CHECK.search(line)]
    position, out = 0, []
    for check in checks:
        try:
            regex = pattern(check)
        except re.error:
            out.append(False)
            continue
        hit = next((i for i in range(position, len(lines)) if regex.search(lines[i])), None)
        out.append(hit is not None)
        if hit is not None:
            position = hit + 1
    return out


def _hipify_perl(perl: Path, path: Path) -> str:
    run = subprocess.run(
        ["perl", str(perl), "-quiet-warnings", str(path)], capture_output=True, text=True, errors="replace"
    )
    return run.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hipify", type=Path, help="a checkout of ROCm/HIPIFY")
    parser.add_argument("--hipify-perl", action="store_true", help="also run the checkout's bin/hipify-perl")
    parser.add_argument("--by-file", action="store_true")
    parser.add_argument("--misses", type=int, default=0, help="print this many missed CHECK lines with the output")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    tests = sorted((args.hipify / "tests" / "unit_tests").rglob("*.cu"))
    translators: dict[tuple, Translator] = {}
    totals: Counter = Counter()
    rows, misses = [], []
    for path in tests:
        text = path.read_text(encoding="utf-8", errors="replace")
        checks = check_lines(text)
        if not checks:
            continue
        run_line = " ".join(line for line in text.splitlines() if "RUN:" in line).split()
        options = (
            "--roc" in run_line or "-roc" in run_line,
            "--experimental" in run_line,
            LAUNCH_GGL if "--hip-kernel-execution-syntax" in run_line else LAUNCH_CHEVRONS,
        )
        if options not in translators:
            roc, experimental, launch = options
            translators[options] = Translator(
                TranslateOptions(backend="builtin", roc=roc, experimental=experimental, launch_syntax=launch)
            )
        group = "roc" if options[0] else "default"
        output = translators[options].translate(str(path), text).text
        ours = matched(output, checks)
        row = {"file": str(path.relative_to(args.hipify)), "group": group, "checks": len(checks), "rocport": sum(ours)}
        totals[f"{group}:checks"] += len(checks)
        totals[f"{group}:rocport"] += sum(ours)
        if args.hipify_perl:
            perl = sum(matched(_hipify_perl(args.hipify / "bin" / "hipify-perl", path), checks))
            row["hipify_perl"] = perl
            totals[f"{group}:hipify_perl"] += perl
        rows.append(row)
        misses += [(row["file"], check) for check, ok in zip(checks, ours) if not ok]
        if args.by_file and sum(ours) < len(checks):
            print(f"{row['file']}: {sum(ours)}/{len(checks)}")
    for group in ("default", "roc"):
        checks = totals[f"{group}:checks"]
        if not checks:
            continue
        line = f"{group:<8} {checks:>6} CHECK lines  ROCport {totals[f'{group}:rocport'] / checks:.1%}"
        if args.hipify_perl:
            line += f"  hipify-perl {totals[f'{group}:hipify_perl'] / checks:.1%}"
        print(line)
    everything = totals["default:checks"] + totals["roc:checks"]
    ours = totals["default:rocport"] + totals["roc:rocport"]
    print(f"all      {everything:>6} CHECK lines  ROCport {ours / everything:.1%} ({ours} met)")
    for file, check in misses[: args.misses]:
        print(f"  missed {file}: {check}")
    if args.json:
        args.json.write_text(json.dumps({"totals": dict(totals), "files": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
