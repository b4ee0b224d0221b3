"""What each CUDA name and header becomes, decided once per option set from HIPIFY's table.

A name is converted when its entry is supported (or experimental) in HIP; with `--roc`, names that have a
rocBLAS/rocSPARSE/... spelling take it, and names HIP lacks but a roc* library has become convertible. Everything
else stays as written and is counted as unconverted, the way hipify-clang counts it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from scanner.nametable import NameEntry, load


@dataclass(frozen=True, slots=True)
class Target:
    replacement: bytes | None  # None: no HIP equivalent, left as written
    kind: str  # hipify-clang's statistics category
    api: str
    reason: str = ""
    experimental: bool = False  # HIP has it as experimental: renamed only with --experimental


_RUNTIME_APIS = ("CUDA RT API", "CUDA Driver API")


def _kind(entry: NameEntry) -> str:
    """The statistics category. Unsupported rows carry none in the table: derive it from the name's shape;
    runtime/driver functions whose category is unknown are counted as "function" (not a hipify category)."""
    if entry.kind:
        return entry.kind
    name = entry.cuda
    if name.startswith("__"):
        return "device_function"
    if name.endswith("_t") or re.match(r"^CU[a-z]", name):
        return "type"
    if re.match(r"^[A-Z0-9_]+$", name):
        return "numeric_literal"
    return "function" if entry.api in _RUNTIME_APIS else "library"


def decide(entry: NameEntry, roc: bool) -> tuple[str | None, str]:
    """(replacement or None, why not converted)."""
    status = entry.status
    if status in ("supported", "experimental"):
        if roc and entry.roc:
            return entry.roc, ""
        return (entry.hip or None), ("" if entry.hip else "HIP has no equivalent")
    if status == "roc_only":
        return (entry.roc, "") if roc else (None, "only a roc* equivalent exists (translate with --roc)")
    if status == "hip_unsupported":
        if roc and entry.roc:
            return entry.roc, ""
        return None, "hip* libraries lack it" + (" (a roc* equivalent exists: --roc)" if entry.roc else "")
    if status == "roc_unsupported":
        return (None, "roc* libraries lack it") if roc else ((entry.hip or None), "")
    return None, "HIP has no equivalent"


@functools.cache
def name_map(roc: bool) -> dict[bytes, Target]:
    table = load()
    out = {}
    for name, entry in table.by_name.items():
        replacement, reason = decide(entry, roc)
        out[name.encode()] = Target(replacement.encode() if replacement else None, _kind(entry), entry.api, reason,
                                    experimental=entry.status == "experimental")
    return out


# Headers HIPIFY maps that the 6.3 table does not list (cooperative groups' algorithm headers).
_EXTRA_HEADERS = {
    "cooperative_groups/reduce.h": "hip/cooperative_groups/hip_reduce.h",
    "cooperative_groups/scan.h": "hip/cooperative_groups/hip_scan.h",
}


@functools.cache
def header_map(roc: bool) -> dict[str, Target]:
    table = load()
    out = {name: Target(hip.encode(), "include", "CUDA RT API") for name, hip in _EXTRA_HEADERS.items()}
    for name, entry in table.headers.items():
        replacement, reason = decide(entry, roc)
        if replacement is None and entry.status == "supported" and not entry.hip:
            replacement, reason = "", ""  # nothing to include in HIP (device_launch_parameters.h): removed
        out[name] = Target(replacement.encode() if replacement is not None else None, entry.kind, entry.api,
                           reason)
    return out
