"""NVVM builtins and libdevice functions.

What it finds:
    Calls or references to clang's NVPTX builtins (`__nvvm_read_ptx_sreg_laneid`, `__nvvm_shfl_sync_idx_i32`,
    `__nvvm_ldg_f4`, `__nvvm_bar_sync`, `__nvvm_atom_*`, ...) and calls to libdevice functions
    (`__nv_sinf`, `__nv_fast_expf`, `__nv_float2int_rn`, ...), outside branches that test for the platform
    (`__NVPTX__`, `__HIP_PLATFORM_AMD__`, `__AMDGPU__`). CUDA type and conversion APIs spelled `__nv_*`
    (`__nv_bfloat16`, `__nv_fp8_e4m3`, `__nv_cvt_*`) are not libdevice and are left to other rules.

Why it breaks on ROCm:
    `__nvvm_*` builtins exist only when clang targets NVPTX, and libdevice (`libdevice.10.bc`) is NVIDIA's
    bitcode math library linked by nvcc/clang for NVPTX only. Compiling for AMDGPU, clang rejects the
    builtins and the `__nv_*` functions are undeclared, so the file does not build.

Example:
    unsigned lane = __nvvm_read_ptx_sreg_laneid();
    float s = __nv_sinf(x);

Use instead:
    The HIP/CUDA-level API, which HIP implements on AMD GPUs: `__lane_id()` (or `threadIdx.x % warpSize`),
    `__shfl_sync`, `__ldg`, `__syncthreads`, `atomicAdd`, `__threadfence`; standard math functions
    (`sinf`, `__expf`, `__float2int_rn`), which HIP maps to the ROCm Device Libs (`__ocml_*`). For AMD-specific
    control use `__builtin_amdgcn_*` behind `#ifdef __HIP_PLATFORM_AMD__`.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/math_api.html
    https://rocm.docs.amd.com/projects/llvm-project/en/latest/LLVM/clang/html/LanguageExtensions.html
    https://docs.nvidia.com/cuda/libdevice-users-guide/index.html
"""

import re

from scanner.analysis.context import PLATFORM_GUARD, Context
from scanner.model import Risk, Severity
from scanner.parsing.tokens import IDENT, KEYWORD
from scanner.rules.base import Rule
from scanner.rules.libraries._common import is_call, report_once

# Platform tests: code under them is the NVPTX side of portable code (or already the AMD side).
# __nv_* names that are CUDA headers' types and conversion APIs, not libdevice.
_NOT_LIBDEVICE = re.compile(
    r"__nv_(bfloat|fp8|fp6|fp4|fp16|half|cvt_|is_extended|atomic|storage|saturation|"
    r"static|tex|surf|associate|aligned|float8|e4m3|e5m2|reserved)"
)
_LIBDEVICE = re.compile(r"__nv_[a-z][a-z0-9_]*")

# Hints for common __nvvm_ builtins: (pattern, replacement).
_HINTS = (
    (r"__nvvm_read_ptx_sreg_(tid|ntid|ctaid|nctaid)_([xyz])", "{builtin}.{axis}"),
    (r"__nvvm_read_ptx_sreg_laneid", "__lane_id()"),
    (r"__nvvm_read_ptx_sreg_warpsize", "warpSize"),
    (r"__nvvm_read_ptx_sreg_(clock|clock64|globaltimer)", "clock64() / wall_clock64()"),
    (r"__nvvm_read_ptx_sreg_lanemask_\w+", "a mask built from __lane_id() (64-bit on wave64)"),
    (r"__nvvm_shfl\w*", "__shfl_sync / __shfl_xor_sync / __shfl_up_sync / __shfl_down_sync"),
    (r"__nvvm_vote\w*", "__ballot_sync / __any_sync / __all_sync"),
    (r"__nvvm_ldg\w*|__nvvm_ldu\w*", "__ldg"),
    (r"__nvvm_bar\w*|__nvvm_barrier\w*", "__syncthreads()"),
    (r"__nvvm_membar\w*|__nvvm_fence\w*", "__threadfence() / __threadfence_block()"),
    (r"__nvvm_atom\w*", "atomicAdd/atomicCAS/... (HIP atomics)"),
)

_BUILTIN = {"tid": "threadIdx", "ntid": "blockDim", "ctaid": "blockIdx", "nctaid": "gridDim"}
# Tokens that may precede a call expression although they are keywords.
_EXPR_KEYWORDS = frozenset({"return", "else", "do", "case", "co_return", "co_yield", "throw", "sizeof"})


def _hint(name: str) -> str:
    for pattern, replacement in _HINTS:
        match = re.fullmatch(pattern, name)
        if match:
            if "{axis}" in replacement:
                return replacement.format(builtin=_BUILTIN[match.group(1)], axis=match.group(2))
            return replacement
    return "the matching CUDA/HIP intrinsic or a __builtin_amdgcn_* builtin"


def check(ctx: Context) -> None:
    if any(PLATFORM_GUARD.search(g.condition) for g in ctx.guards):
        return
    tok = ctx.token
    name = tok.text
    if name.startswith("__nvvm_"):
        report_once(
            ctx, f"`{name}` is an NVPTX-only clang builtin and does not compile for AMDGPU: use {_hint(name)}.", at=tok
        )
        return
    if name.startswith("__builtin_ptx_"):
        report_once(ctx, f"`{name}` is an NVPTX-only clang builtin: use the CUDA/HIP-level intrinsic.", at=tok)
        return
    # __nv_*: a libdevice call, not a CUDA type/conversion API that HIPIFY's table knows.
    if not _LIBDEVICE.fullmatch(name) or _NOT_LIBDEVICE.match(name) or ctx.names.get(name) is not None:
        return
    if not is_call(ctx, tok):
        return
    prev = ctx.view.neighbour(tok, -1)
    if prev is not None and (
        prev.text in (".", "->", "::") or (prev.kind in (IDENT, KEYWORD) and prev.text not in _EXPR_KEYWORDS)
    ):
        return  # a member, or a declaration (`float __nv_sinf(float);`), not a call
    report_once(
        ctx,
        f"`{name}` is a libdevice function (NVIDIA's NVPTX bitcode math library), absent on ROCm: "
        "call the CUDA math API function it implements (HIP maps those to __ocml_*).",
        at=tok,
    )


RULE = Rule(
    name="ptx-nvvm-builtin",
    formerly=("nvvm-builtin",),
    summary="NVVM builtins (__nvvm_*) and libdevice calls (__nv_*) that exist only for NVPTX",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    on=("identifier",),
    prefixes=("__nvvm_", "__nv_", "__builtin_ptx_"),
    check=check,
)
