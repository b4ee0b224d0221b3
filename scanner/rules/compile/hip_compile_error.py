"""A compiler error in the HIP translation that fits none of the other compile-check kinds.

What it finds:
    An error the check's compiler reports (clang with the bundled HIP headers, or hipcc when chosen; the finding
    names which) when the file's translation is compiled for the check's AMD target (gfx90a unless configured;
    scanner.compile), other than an undeclared CUDA name (ROC902), a type mismatch (ROC903), inline assembly
    (ROC904) or a missing NVIDIA header (ROC905): an `#error` that insists on nvcc, a call from device code to a
    host-only function, a `static_assert` on a CUDA-only constant, a syntax the HIP compiler rejects.

Why it breaks on ROCm:
    Whatever the translation statistics say, this file does not build with the HIP compiler. Each of these is a
    build break someone will meet on the first build on a ROCm machine; the check finds it without one (and
    without an AMD GPU).

Example:
    #ifndef __CUDACC__
    #error "this file must be compiled with nvcc"
    #endif

Use instead:
    Fix what the compiler's message names. For nvcc-only guards, test the HIP macros too
    (`#if defined(__CUDACC__) || defined(__HIPCC__)`); for host/device mismatches, mark the helper
    `__host__ __device__`.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_guide.html
    https://clang.llvm.org/docs/HIPSupport.html
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.compile import LANGUAGES, report_kind

if TYPE_CHECKING:
    from scanner.compile.findings import CompileContext


def check(ctx: CompileContext) -> None:
    report_kind(ctx, "other", "The translation does not build for this AMD target.")


RULE = Rule(
    name="compile-hip-compile-error",
    formerly=("hip-compile-error",),
    summary="The HIP translation does not compile for the AMD target (compile check)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    on=("compile",),
    check=check,
    languages=LANGUAGES,
)
