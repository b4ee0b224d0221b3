"""An NVIDIA header the translation still includes: no ROCm installation has it.

What it finds:
    An `#include` of a header that only NVIDIA ships (a CUDA toolkit header HIPIFY knows, or NCCL, NVTX, NVML,
    cuDNN, CUTLASS, CUB, `cuda/std/...`) that is still there after translation and that the HIP compiler cannot
    find (scanner.compile). The check stubs it with an empty file to compile the rest, and reports it here, at the
    `#include` line. Other missing headers (a ROCm library or a third-party dependency this machine lacks) are
    only stubbed: the file's status is then "compiles with stubs", not a failure.

Why it breaks on ROCm:
    Every ROCm build of the file stops at this line with "file not found". hipify renames the headers it has a
    HIP counterpart for and leaves the others.

Example:
    #include <nccl.h>
    #include <nvToolsExt.h>

Use instead:
    The ROCm counterpart: `<rccl/rccl.h>` for NCCL, `<roctracer/roctx.h>` for NVTX, `<amd_smi/amdsmi.h>` for NVML,
    `<hipcub/hipcub.hpp>` for CUB, `<miopen/miopen.h>` for cuDNN; or keep the include behind
    `#if !defined(__HIP_PLATFORM_AMD__)`.

References:
    https://rocm.docs.amd.com/projects/rccl/en/latest/
    https://rocm.docs.amd.com/projects/HIPIFY/en/latest/
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.compile import LANGUAGES, report_kind

if TYPE_CHECKING:
    from scanner.compile.findings import CompileContext


def check(ctx: CompileContext) -> None:
    report_kind(ctx, "missing-header", "Include the ROCm counterpart instead.")


RULE = Rule(
    name="compile-nvidia-header-missing-on-rocm",
    formerly=("nvidia-header-missing-on-rocm",),
    summary="An NVIDIA-only header still included by the translation, not found by the HIP compiler (compile check)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    on=("compile",),
    check=check,
    languages=LANGUAGES,
)
