"""Inline PTX assembly.

What it finds:
    `asm(...)` / `asm volatile(...)` / `__asm__(...)` statements whose template is PTX (instructions such
    as `mov.u32`, `shfl.sync`, `ld.global.nc`, `mma.sync`, special registers such as `%laneid`).

Why it breaks on ROCm:
    PTX is NVIDIA's virtual ISA; AMD GPUs execute GCN/CDNA instructions and clang's AMDGPU backend rejects
    PTX templates, so the file does not compile. hipify leaves these statements untouched.

Example:
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));

Use instead:
    A HIP intrinsic or builtin with the same meaning (`__lane_id()`, `__shfl_xor`, `__builtin_nontemporal_load`),
    or AMDGCN inline assembly behind `#ifdef __HIP_PLATFORM_AMD__`.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_guide.html
    https://llvm.org/docs/AMDGPUUsage.html
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule

# PTX mnemonics with a type or state-space suffix, PTX special registers, PTX directives.
_PTX = re.compile(
    r"(\b(mov|ld|st|add|sub|mul|mad|fma|shfl|vote|bar|membar|cvt|setp|selp|atom|red|mma|ldmatrix|cp\.async|"
    r"prmt|bfe|bfi|brev|popc|clz|lop3|activemask|match|redux|wmma|tex|suld|sust|isspacep|cvta)"
    r"\.[a-z0-9]+)|%%?(laneid|warpid|smid|nsmid|lanemask_\w+|clock64|globaltimer|tid|ctaid|ntid)\b|"
    r"\.reg\s+\.|\{\s*\.reg"
)


def check(ctx: Context) -> None:
    if not _PTX.search(ctx.asm_text) or ctx.hip_guarded:
        return
    shown = ctx.asm_text if len(ctx.asm_text) <= 60 else ctx.asm_text[:57] + "..."
    ctx.report(f'inline PTX "{shown}" does not compile for AMD GPUs.')


RULE = Rule(
    name="ptx-inline-ptx-asm",
    formerly=("inline-ptx-asm",),
    summary="Inline PTX assembly (asm/asm volatile with PTX instructions)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    on=("asm",),
    check=check,
)
