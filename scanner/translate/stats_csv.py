"""hipify-clang's statistics CSV (`--print-stats-csv`): written for our results, read from hipify-clang's.

The layout (../shared/hipify/STATS.md, from HIPIFY's src/Statistics.cpp) is a sequence of `;`-separated blocks:
per file, `file '<path>' statistics:`, an optional ERROR line, ten `label;value` rows, then for converted and
for unconverted references (each only when non-zero) three sub-tables by type, API and name. With several
files, a `GLOBAL` block and `TOTAL statistics:` follow.
"""

from __future__ import annotations

from collections import Counter

from scanner.translate.model import TranslationStats

ERROR_LINE = "  ERROR: Statistics is invalid due to failed hipification."
# hipify-clang's category and API orders ("library" appears twice in its list; we have one).
TYPE_ORDER = (
    "error",
    "init",
    "version",
    "device",
    "context",
    "module",
    "library",
    "memory",
    "virtual_memory",
    "ordered_memory",
    "multicast",
    "unified",
    "stream",
    "event",
    "external_resource",
    "stream_memory",
    "execution",
    "graph",
    "occupancy",
    "texture",
    "surface",
    "tensor",
    "peer",
    "graphics",
    "driver_entry_point",
    "cpp",
    "coredump",
    "driver_interact",
    "profiler",
    "openGL",
    "D3D9",
    "D3D10",
    "D3D11",
    "VDPAU",
    "EGL",
    "thread",
    "complex",
    "device_library",
    "device_function",
    "device_type",
    "include",
    "include_cuda_main_header",
    "include_cuda_main_header_v2",
    "type",
    "literal",
    "numeric_literal",
    "define",
    "extern_shared",
    "kernel_launch",
)
API_ORDER = (
    "CUDA Driver API",
    "CUDA RT API",
    "cuComplex API",
    "cuBLAS API",
    "cuRAND API",
    "cuDNN API",
    "cuFFT API",
    "cuSPARSE API",
    "cuSOLVER API",
    "CUB API",
    "CAFFE2 API",
    "RTC API",
)
_SUMMARY = (
    "CONVERTED refs count",
    "UNCONVERTED refs count",
    "CONVERSION %",
    "REPLACED bytes",
    "TOTAL bytes",
    "CHANGED lines of code",
    "TOTAL lines of code",
    "CODE CHANGED (in bytes) %",
    "CODE CHANGED (in lines) %",
    "TIME ELAPSED s",
)


class StatsCsvError(ValueError):
    pass


def _ordered(counter: Counter, order: tuple[str, ...]) -> list[tuple[str, int]]:
    known = [(key, counter[key]) for key in order if counter.get(key)]
    extra = sorted((key, n) for key, n in counter.items() if n and key not in order)
    return known + extra


def _block(name: str, stats: TranslationStats, failed: bool = False) -> list[str]:
    lines = ["", f"file '{name}' statistics:"]
    if failed:
        lines += ["", ERROR_LINE, ""]
    total_bytes, total_lines = stats.total_bytes, stats.total_lines
    values = (
        stats.converted,
        stats.unconverted,
        f"{stats.conversion_percent:.1f}",
        stats.replaced_bytes,
        total_bytes,
        stats.changed_lines,
        total_lines,
        f"{(stats.replaced_bytes * 100.0 / total_bytes) if total_bytes else 0.0:.1f}",
        f"{(stats.changed_lines * 100.0 / total_lines) if total_lines else 0.0:.1f}",
        f"{stats.elapsed_seconds:.2f}",
    )
    lines += [f"{label};{value}" for label, value in zip(_SUMMARY, values)]
    for by_type, by_api, by_name in (
        (stats.converted_by_type, stats.converted_by_api, stats.converted_by_name),
        (stats.unconverted_by_type, stats.unconverted_by_api, stats.unconverted_by_name),
    ):
        if not sum(by_type.values()):
            continue
        lines += ["", "CUDA ref type;Count"] + [f"{k};{v}" for k, v in _ordered(by_type, TYPE_ORDER)]
        lines += ["", "CUDA API;Count"] + [f"{k};{v}" for k, v in _ordered(by_api, API_ORDER)]
        lines += ["", "CUDA ref name;Count"] + [
            f"{k};{v}" for k, v in sorted(by_name.items(), key=lambda kv: kv[0].encode())
        ]
    return lines


def write(per_file: list[tuple[str, TranslationStats, bool]]) -> str:
    """The CSV for one or several files; (path, stats, failed) per file."""
    lines: list[str] = []
    total = TranslationStats()
    for path, stats, failed in per_file:
        lines += _block(path, stats, failed)
        total.add(stats)
    if len(per_file) > 1:
        lines += _block("GLOBAL", total)
        lines += ["", "TOTAL statistics:", f"CONVERTED files;{total.converted_files}", f"PROCESSED files;{total.files}"]
    return "\n".join(lines) + "\n"


def parse(text: str) -> list[tuple[str, TranslationStats, bool]]:
    """Per-file blocks of a hipify-clang CSV (the GLOBAL block is dropped): (path, stats, failed)."""
    out: list[tuple[str, TranslationStats, bool]] = []
    current: TranslationStats | None = None
    name, failed, section, group, converted_count = "", False, "", -1, 0
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if line.startswith("file '") and line.endswith("' statistics:"):
            if current is not None and name != "GLOBAL":
                out.append((name, current, failed))
            name = line[len("file '") : -len("' statistics:")]
            current, failed, section, group, converted_count = TranslationStats(files=1), False, "", -1, 0
            continue
        if current is None or not line.strip() or line.startswith("TOTAL statistics:"):
            continue
        if line.strip() == ERROR_LINE.strip():
            failed = True
            continue
        if line in ("CUDA ref type;Count", "CUDA API;Count", "CUDA ref name;Count"):
            section = line.split(";")[0]
            group += section == "CUDA ref type"
            continue
        label, sep, value = line.rpartition(";")
        if not sep:
            raise StatsCsvError(f"not a statistics line: {line!r}")
        if not section:
            _summary(current, label, value)
            if label == "CONVERTED refs count":
                converted_count = _int(label, value)
            continue
        number = _int(label, value)
        # An empty group is omitted, so the first group is the converted one only if there were any.
        converted = group == 0 and converted_count > 0
        prefix = "converted" if converted else "unconverted"
        suffix = {"CUDA ref type": "by_type", "CUDA API": "by_api", "CUDA ref name": "by_name"}[section]
        getattr(current, f"{prefix}_{suffix}")[label] += number
    if current is not None and name != "GLOBAL":
        out.append((name, current, failed))
    return out


def _int(label: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise StatsCsvError(f"bad value for {label!r}: {value!r}") from None


def _summary(stats: TranslationStats, label: str, value: str) -> None:
    try:
        if label == "REPLACED bytes":
            stats.replaced_bytes = int(value)
        elif label == "TOTAL bytes":
            stats.total_bytes = int(value)
        elif label == "CHANGED lines of code":
            stats.changed_lines = int(value)
            stats.converted_files = 1 if int(value) else 0
        elif label == "TOTAL lines of code":
            stats.total_lines = int(value)
        elif label == "TIME ELAPSED s":
            stats.elapsed_seconds = float(value)
    except ValueError:
        raise StatsCsvError(f"bad value for {label!r}: {value!r}") from None
