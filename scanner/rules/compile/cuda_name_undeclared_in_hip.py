"""A CUDA name the HIP compiler does not know: the translation left it, and HIP does not declare it.

What it finds:
    Errors such as "use of undeclared identifier '__trap'" or "unknown type name 'nvmlDevice_t'" from
    compiling the file's translation for the AMD target (scanner.compile), where the name is CUDA's: in HIPIFY's
    table, a warp-synchronous intrinsic (`__*_sync`, `__activemask`, `__syncwarp`), or one of NVIDIA's libraries
    without a same-name ROCm twin (NVTX, NVML, NVRTC, cuDNN...).

Why it breaks on ROCm:
    hipify renames what has a HIP equivalent and leaves the rest as it was; the HIP headers do not declare the
    rest, so the file does not compile: APIs HIPIFY marks unsupported (`cudaStreamGetId`, `__trap`), NVIDIA's
    libraries without a twin, and on an older ROCm the warp-synchronous intrinsics (none before ROCm 6.2, then
    only behind `HIP_ENABLE_WARP_SYNC_BUILTINS` until ROCm 7, always with 64-bit masks).

Example:
    cudaStreamGetId(stream, &id);

Use instead:
    The HIP spelling without the mask (`__shfl_down(v, offset)`, `__ballot(pred)`), or the `_sync` forms with a
    64-bit mask on ROCm 6.2+; for a library without a twin, its ROCm counterpart (roctx for NVTX, AMD SMI for
    NVML, hipRTC for NVRTC, MIOpen for cuDNN).

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html#warp-cross-lane-functions
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
    report_kind(ctx, "undeclared-cuda-name", "A CUDA name HIP does not declare: replace it by its HIP counterpart.")


RULE = Rule(
    name="compile-cuda-name-undeclared-in-hip",
    formerly=("cuda-name-undeclared-in-hip",),
    summary="A CUDA name left in the translation that the HIP compiler does not declare (compile check)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    on=("compile",),
    check=check,
    languages=LANGUAGES,
)
