"""Which HIP toolchain the compile check uses (CompileSettings.compiler):

- "auto" (the default): hipcc when the operator configured one by path; else clang with the bundled ROCm headers
  (scanner.compile.clang_hip), the HIP of the profile's ROCm for the profile's own target; else hipcc on PATH;
- "clang": only clang with the bundled headers;
- "hipcc": only hipcc (a configured path, else on PATH), for a machine with a real ROCm installation.
"""

from __future__ import annotations

from scanner.compile import clang_hip
from scanner.compile.toolchain import Toolchain, ToolchainError
from scanner.compile.toolchain import resolve as resolve_hipcc
from scanner.target import DEFAULT_ROCM

CHOICES = ("auto", "clang", "hipcc")


def resolve(
    compiler: str, hipcc: str, wanted: tuple[str, ...], std: str, timeout: float, rocm: tuple[int, int] = DEFAULT_ROCM
) -> Toolchain:
    if compiler not in CHOICES:
        raise ToolchainError(f"unknown HIP compiler {compiler!r} (expected one of {', '.join(CHOICES)})")
    if compiler == "hipcc" or (compiler == "auto" and hipcc):
        return resolve_hipcc(hipcc, wanted, std, timeout)
    try:
        return clang_hip.resolve(wanted, std, timeout, rocm)
    except ToolchainError as clang_problem:
        if compiler == "clang":
            raise
        try:
            return resolve_hipcc("", wanted, std, timeout)
        except ToolchainError as hipcc_problem:
            raise ToolchainError(f"{clang_problem}; and {hipcc_problem}") from None
