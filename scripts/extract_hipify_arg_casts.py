"""Write HIPIFY's argument rewrites (`FuncArgCasts` in src/HipifyAction.cpp) as data for the built-in translator.

    python scripts/extract_hipify_arg_casts.py HIPIFY_SOURCE [COMMIT] > scanner/data/hipify_arg_casts.tsv

HIPIFY_SOURCE is a checkout of ROCm/HIPIFY (or its `src` exported from a snapshot: then give the COMMIT read).

hipify-clang does more than rename: for some calls it rewrites arguments (rocSPARSE's ilu0 takes a solve policy
where cuSPARSE's csrilu02 takes the user's, `cudaMallocHost(&p, n)` becomes `hipHostMalloc(&p, n,
hipHostMallocDefault)`, a kernel passed to `cudaLaunchKernel` is cast to `const void*`). Its table of those rewrites
is C++ source; this script reads it (the `const std::string sName = "cudaName";` constants and the brace lists of
`FuncArgCasts`) into one row per rewritten argument: the CUDA function, whether the rewrite is for roc* names (-roc)
or MIOpen (--miopen), the argument's index, the rewrite, and its value (a constant to add or put in place, or where
to move or copy the argument to, and how many). HIPIFY is MIT-licensed (scanner/data/HIPIFY-LICENSE.txt); the
header line records the commit read.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

_CONST = re.compile(r'const\s+(?:std::string|StringRef)\s+(\w+)\s*=\s*"([^"]*)"\s*;')
_ENTRY = re.compile(
    r'\{\s*(\d+)\s*,\s*\{\s*(e_\w+)\s*,\s*(cw_\w+)\s*(?:,\s*("(?:[^"\\]|\\.)*"|[^,}]+?))?\s*(?:,\s*(\d+))?\s*(?:,\s*(\d+))?\s*\}\s*\}'
)


def _balanced(text: str, start: int) -> int:
    """The index just past the brace list opening at `start`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError("unbalanced braces")


def _value(raw: str | None, latest: str) -> str:
    if not raw:
        return ""
    raw = raw.strip()
    if raw.startswith('"'):
        return raw[1:-1]
    if "HIP_LATEST" in raw:  # std::to_string(int(HIP_LATEST / 10)): the HIP version the table was written for
        return latest
    return raw


def rows(source: str, latest: str) -> list[tuple]:
    names = dict(_CONST.findall(source))
    table_at = source.index("FuncArgCasts {")
    body = source[table_at + len("FuncArgCasts ") : _balanced(source, source.index("{", table_at))]
    out = []
    i = 1
    while True:
        match = re.compile(r"\{\s*(\w+)\s*,").search(body, i)
        if match is None:
            break
        function = names.get(match.group(1), match.group(1))
        end = _balanced(body, match.start())
        entry = body[match.end() : end - 1]
        vector_at = entry.index("{")
        entry = entry[vector_at + 1 : _balanced(entry, vector_at) - 1]  # the std::vector<ArgCastStruct>
        # Each ArgCastStruct: {{ casts }, isToRoc, isToMIOpen} (the flags may be left out: false).
        j = 0
        while True:
            open_at = entry.find("{", j)
            if open_at < 0:
                break
            struct_end = _balanced(entry, open_at)
            struct = entry[open_at + 1 : struct_end - 1]
            casts_end = _balanced(struct, struct.index("{"))
            flags = [f.strip() for f in struct[casts_end:].split(",") if f.strip()]
            roc = bool(flags) and flags[0] == "true"
            miopen = len(flags) > 1 and flags[1] == "true"
            for arg, kind, _warn, value, move_to, count in _ENTRY.findall(struct[:casts_end]):
                out.append((function, int(roc), int(miopen), int(arg), kind, _value(value, latest), move_to, count))
            j = struct_end
        i = end
    return out


def main() -> int:
    checkout = Path(sys.argv[1])
    source = (checkout / "src" / "HipifyAction.cpp").read_text(encoding="utf-8")
    commit = sys.argv[2] if len(sys.argv) > 2 else ""
    commit = (
        commit
        or subprocess.run(
            ["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
    )
    latest = re.search(r"HIP_LATEST\s*=?\s*HIP_(\d+)", (checkout / "src" / "Statistics.h").read_text())
    latest_value = str(int(latest.group(1)) // 10) if latest else ""
    print(f"# ROCm/HIPIFY src/HipifyAction.cpp FuncArgCasts at {commit or 'unknown commit'} (MIT licence)")
    print("function\troc\tmiopen\targument\trewrite\tvalue\tmove_to\tcount")
    for row in rows(source, latest_value):
        print("\t".join(str(x) for x in row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
