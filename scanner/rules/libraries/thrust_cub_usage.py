"""Thrust or CUB used.

What it finds:
    Includes of `thrust/...` and `cub/...` headers, lines using `cub::` (which must be renamed), lines
    using CUDA-specific Thrust execution policies or namespaces (`thrust::cuda::par`, `thrust::cuda_cub::`),
    and other uses of `thrust::`.
    One finding per file, at the first include or use: its message counts the uses and lists their lines
    (porting away from the library is one piece of work per file, not one per line).

Why it breaks on ROCm:
    CUB and Thrust's CUDA backend are not available on ROCm. rocThrust provides Thrust with the same
    headers and `thrust::` namespace, so most Thrust code only needs rebuilding with hipcc. CUB becomes
    hipCUB, a different namespace (`hipcub::`) and header (`<hipcub/hipcub.hpp>`) with the same device-wide,
    block-wide and warp-wide primitives; CUB internals (`cub::detail`, agent/policy tuning types, PTX-version
    dispatch) have no counterpart. The CUDA execution policy is `thrust::hip::par` on ROCm.

Example:
    cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out, n);
    thrust::sort(thrust::cuda::par.on(stream), v.begin(), v.end());

Use instead:
    rocThrust (same `#include <thrust/...>`, `thrust::hip::par.on(stream)`) and hipCUB
    (`#include <hipcub/hipcub.hpp>`, `hipcub::DeviceReduce::Sum`); hipify does the renames. Block and warp
    primitives sized for 32-lane warps need checking on 64-lane wavefronts.

References:
    https://rocm.docs.amd.com/projects/rocThrust/en/latest/
    https://rocm.docs.amd.com/projects/hipCUB/en/latest/
    https://rocm.docs.amd.com/projects/HIPIFY/en/latest/tables/CUB_API_supported_by_HIP.html
"""

from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Use, library_rule


def _backend(ctx, tok) -> str | None:
    inner = ctx.view.neighbour(tok, 2)
    if inner is not None and inner.text in ("cuda", "cuda_cub"):
        return f"`thrust::{inner.text}` is Thrust's CUDA backend: use `thrust::hip` (rocThrust), e.g. thrust::hip::par."
    return None


def _header(ctx, header) -> str:
    if header.startswith("cub/"):
        return f"<{header}> (CUB) is not on ROCm: include <hipcub/hipcub.hpp> and use hipcub::."
    return f"<{header}> (Thrust) → rocThrust, which ships the same thrust/ headers; rebuild with hipcc."


RULE = library_rule(
    name="libraries-thrust-cub-usage",
    formerly=("thrust-cub-usage",),
    summary="Thrust/CUB use (port to rocThrust/hipCUB)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.LOW,
    headers=[Header(r"(thrust|cub)/.+", _header)],
    uses=[
        Use("cub", "CUB (`cub::{next}`) → hipCUB: `hipcub::{next}` from <hipcub/hipcub.hpp>.", scope=True),
        # Thrust's CUDA backend must be renamed; other thrust:: code stays as it is with rocThrust (the file's
        # one finding counts it, and says so when it is the first use).
        Use("thrust", _backend, scope=True),
        Use(
            "thrust",
            "Thrust → rocThrust: same headers and thrust:: namespace; rebuild with hipcc and link rocThrust.",
            scope=True,
            per="file",
        ),
    ],
    fold=True,
    cuda_only=True,
)
