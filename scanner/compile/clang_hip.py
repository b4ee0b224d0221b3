"""The compile check's default toolchain: an LLVM clang (17 or later: Debian's clang-19, and clang-22 for HIP 7.14's
headers) compiling HIP for the profile's AMD target against the HIP of the profile's ROCm, from the ROCm headers that
ship with the scanner (scanner.compile.headers).

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

import functools
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from scanner.compile.headers import HeadersMissing, bundled
from scanner.compile.toolchain import DEFAULT_ARCH, Toolchain, ToolchainError, child_env, run
from scanner.target import DEFAULT_ROCM

CLANG_ENV = "ROCPORT_HIP_CLANG"  # a clang++ to use instead of the first one found
MIN_MAJOR = 17  # HIP for gfx942 and the warp-sync builtins the headers use
_CANDIDATES = (
    "clang++-19",
    "clang++-20",
    "clang++-21",
    "clang++-22",
    "clang++-18",
    "clang++-17",
    "/usr/lib/llvm-19/bin/clang++",
    "/usr/lib/llvm-22/bin/clang++",
    "/usr/lib/llvm-18/bin/clang++",
    "clang++",
)
_VERSION = re.compile(r"clang version (\d+)\.(\d+)\.(\d+)")
_PROBE = (
    "#include <hip/hip_runtime.h>\n"
    "__global__ void rocport_probe(float *p) { p[threadIdx.x] = __shfl_xor_sync(~0ull, p[0], 1); }\n"
)
# CUDA names a ROCm newer than the newest bundled HIP (7.14) adds, for an error naming one to be the toolchain's gap
# (scanner.compile.diagnostics.TOOLCHAIN_GAP), not the code's, when the profile asks for that newer ROCm. None known
# today: with HIP 6.3's headers this held the `__reduce_*_sync` functions, and ROCport declared
# cooperative_groups::reduce itself; HIP 7.2 and 7.14 are bundled now, each judging its own ROCm.
NEWER_THAN_BUNDLED: frozenset[str] = frozenset()
INSTALL_HINT = (
    "install Debian's clang-19, lld-19 and clang-tools-19, and clang-22 and lld-22 for HIP 7.14's headers "
    "(scripts/ensure-test-tools.sh), or set ROCPORT_HIP_CLANG"
)


def find(min_major: int = MIN_MAJOR) -> tuple[str, str] | None:
    """(path, "clang 19.1.7") of the first usable clang++ of at least `min_major`, or None."""
    return next((found for found in _usable() if _major(found[1]) >= min_major), None)


@functools.cache
def _usable() -> tuple[tuple[str, str], ...]:
    """Every clang++ of MIN_MAJOR or later, in _CANDIDATES' order (only the configured one when set)."""
    configured = os.environ.get(CLANG_ENV, "")
    out: dict[str, str] = {}
    for name in (configured,) if configured else _CANDIDATES:
        path = shutil.which(name) if "/" not in name else (name if os.access(name, os.X_OK) else None)
        if not path or os.path.realpath(path) in out:
            continue
        version = _version(path)
        if version and int(version.split(".")[0]) >= MIN_MAJOR:
            out[os.path.realpath(path)] = f"clang {version}"
    return tuple((path, version) for path, version in out.items())


def _major(version: str) -> int:
    return int(version.split()[-1].split(".")[0])


def resolve(wanted: tuple[str, ...], std: str, timeout: float, rocm: tuple[int, int] = DEFAULT_ROCM) -> Toolchain:
    """A clang toolchain with the bundled HIP of the profile's ROCm (headers.choose), for the first of `wanted`
    targets it builds for (else gfx90a, with a note). Raises ToolchainError when there is no clang, no lld or no
    headers."""
    clangs = _usable()
    if not clangs:
        raise ToolchainError(f"no clang {MIN_MAJOR} or later with HIP support: {INSTALL_HINT}")
    try:
        headers = bundled()
        hip, hip_note = headers.choose(rocm, max(_major(version) for _, version in clangs))
    except HeadersMissing as exc:
        raise ToolchainError(str(exc)) from None
    clang, version = find(hip.min_clang) or clangs[0]
    env = child_env()
    tried: list[tuple[str, str]] = []
    for arch in dict.fromkeys((*wanted, DEFAULT_ARCH)):
        argv = command(clang, arch, std, headers.include, hip.include)
        problem = _probe(argv, env, timeout)
        if not problem:
            notes = [hip_note] if hip_note else []
            if tried:
                notes.append(
                    f"{', '.join(a for a, _ in tried)}: not buildable with {version} ({tried[0][1][:120]}); "
                    f"checked for {arch} instead"
                )
            described = f"{version}, {headers.describe(hip)}"
            return Toolchain(clang, described, arch, argv, "; ".join(notes), env, kind="clang", hip=hip.version)
        tried.append((arch, problem))
    raise ToolchainError(f"{clang} cannot build HIP for {DEFAULT_ARCH}: {tried[-1][1]}")


def command(clang: str, arch: str, std: str, include: Path, hip_include: Path) -> tuple[str, ...]:
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
        "-isystem",
        str(hip_include),  # the HIP set of the profile's ROCm
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
