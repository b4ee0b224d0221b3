"""The compile check's default toolchain: an LLVM clang (17 or later, Debian's clang-19 here) compiling HIP for the
profile's AMD target against the ROCm headers that ship with the scanner (scanner.compile.headers).

Why not the distribution's hipcc: Debian's is ROCm 5.2 (2022). It has no `__shfl_xor_sync`, no gfx942, and no
hipBLAS headers; a check run with it answers for another ROCm on another GPU. clang has targeted AMD GPUs upstream
for years. Only the HIP headers are ROCm's, and those are public.

The command compiles host and device code (`-c`), so inline PTX fails where the device code is assembled. The
device side is not linked against ROCm's device libraries (`-nogpulib`: the scanner's machine has none). Their
functions (`__ocml_sqrt_f32`, `__ockl_fprintf_*`) stay undefined in the device code object, and lld reports them
as warnings (`--noinhibit-exec`), never as the code's errors. `HIP_ENABLE_WARP_SYNC_BUILTINS` is defined because
ROCm 7 defines it by default: the `*_sync` warp functions are there as on the targets the profile names. The
command runs without a shell, like hipcc's (scanner.compile.toolchain.run).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from scanner.compile.headers import HeadersMissing, bundled
from scanner.compile.toolchain import DEFAULT_ARCH, Toolchain, ToolchainError, child_env, run

CLANG_ENV = "ROCPORT_HIP_CLANG"  # a clang++ to use instead of the first one found
MIN_MAJOR = 17  # HIP for gfx942 and the warp-sync builtins the headers use
_CANDIDATES = (
    "clang++-19",
    "clang++-20",
    "clang++-18",
    "clang++-17",
    "/usr/lib/llvm-19/bin/clang++",
    "/usr/lib/llvm-18/bin/clang++",
    "clang++",
)
_VERSION = re.compile(r"clang version (\d+)\.(\d+)\.(\d+)")
_PROBE = (
    "#include <hip/hip_runtime.h>\n"
    "__global__ void rocport_probe(float *p) { p[threadIdx.x] = __shfl_xor_sync(~0ull, p[0], 1); }\n"
)
# The cooperative-groups collectives HIP added after the bundled headers (6.3), written for ROCport and included
# before every unit, so code that uses them is checked whole (see the header's own comment).
BACKFILL = Path(__file__).resolve().parent / "backfill" / "rocport_hip_backfill.h"
BACKFILLED = "cooperative_groups reduce/inclusive_scan/exclusive_scan of newer HIP backfilled by ROCport"
# What CUDA code uses that HIP added after the bundled headers (6.3), ROCm 7 has and the backfill does not: an error
# naming one is the toolchain's gap (scanner.compile.diagnostics.TOOLCHAIN_GAP), not the translation's.
NEWER_THAN_BUNDLED = frozenset(
    {
        "__reduce_add_sync",
        "__reduce_min_sync",
        "__reduce_max_sync",
        "__reduce_and_sync",
        "__reduce_or_sync",
        "__reduce_xor_sync",
    }
)
INSTALL_HINT = (
    "install Debian's clang-19, lld-19 and clang-tools-19 (scripts/ensure-test-tools.sh) or set ROCPORT_HIP_CLANG"
)


def find() -> tuple[str, str] | None:
    """(path, "clang 19.1.7") of the first usable clang++, or None."""
    configured = os.environ.get(CLANG_ENV, "")
    for name in (configured,) if configured else _CANDIDATES:
        path = shutil.which(name) if "/" not in name else (name if os.access(name, os.X_OK) else None)
        if not path:
            continue
        version = _version(path)
        if version and int(version.split(".")[0]) >= MIN_MAJOR:
            return path, f"clang {version}"
    return None


def resolve(wanted: tuple[str, ...], std: str, timeout: float) -> Toolchain:
    """A clang toolchain for the first of `wanted` targets it builds for (else gfx90a, with a note). Raises
    ToolchainError when there is no clang, no lld or no headers."""
    found = find()
    if found is None:
        raise ToolchainError(f"no clang {MIN_MAJOR} or later with HIP support: {INSTALL_HINT}")
    clang, version = found
    try:
        headers = bundled()
    except HeadersMissing as exc:
        raise ToolchainError(str(exc)) from None
    env = child_env()
    tried: list[tuple[str, str]] = []
    for arch in dict.fromkeys((*wanted, DEFAULT_ARCH)):
        argv = command(clang, arch, std, headers.include)
        problem = _probe(argv, env, timeout)
        if not problem:
            note = ""
            if tried:
                note = (
                    f"{', '.join(a for a, _ in tried)}: not buildable with {version} ({tried[0][1][:120]}); "
                    f"checked for {arch} instead"
                )
            described = f"{version}, {headers.describe()}; {BACKFILLED}"
            return Toolchain(clang, described, arch, argv, note, env, kind="clang")
        tried.append((arch, problem))
    raise ToolchainError(f"{clang} cannot build HIP for {DEFAULT_ARCH}: {tried[-1][1]}")


def command(clang: str, arch: str, std: str, include: Path) -> tuple[str, ...]:
    return (
        clang,
        "-x",
        "hip",
        f"--offload-arch={arch}",
        f"-std={std}",
        "-nogpulib",
        "-nogpuinc",
        "-include",
        "__clang_hip_runtime_wrapper.h",
        "-include",
        str(BACKFILL),
        "-isystem",
        str(include),
        "-isystem",
        str(include / "hipblas"),  # <hipblas.h> as well as <hipblas/...>
        "-DHIP_ENABLE_WARP_SYNC_BUILTINS",
        "-Xoffload-linker",
        "--noinhibit-exec",
        "-c",
        "-o",
        Toolchain.OUTPUT,
        Toolchain.SOURCE,
    )


def _probe(argv: tuple[str, ...], env: dict, timeout: float) -> str:
    """Compile a tiny kernel; "" when it builds, else the first error (no lld, an unknown target)."""
    with tempfile.TemporaryDirectory(prefix="rocport-clang-probe-") as tmp:
        source, output = os.path.join(tmp, "probe.hip"), os.path.join(tmp, "probe.o")
        Path(source).write_text(_PROBE, encoding="utf-8")
        cmd = [output if a == Toolchain.OUTPUT else source if a == Toolchain.SOURCE else a for a in argv]
        result = run(cmd, tmp, env, timeout)
        if result.timed_out:
            return f"timed out after {timeout:g}s"
        if result.returncode == 0 and os.path.isfile(output):
            return ""
        text = result.stderr + result.stdout
        if "doesn't exist" in text:
            tool = "clang-offload-bundler" if "clang-offload-bundler" in text else "lld"
            return f"no {tool} for the device code object: {INSTALL_HINT}"
        first = next((ln.strip() for ln in text.splitlines() if "error" in ln), "")
        return first[:300] or f"exit code {result.returncode}"


def _version(path: str) -> str:
    try:
        proc = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, env=child_env()
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    match = _VERSION.search(proc.stdout)
    return ".".join(match.groups()) if match else ""
