"""A type the HIP compiler rejects: CUDA and HIP types that do not fit, or a 64-bit wavefront mask cut to 32 bits.

What it finds:
    Errors from compiling the file's translation for the AMD target (scanner.compile) about types: a value of a
    HIP type where a CUDA type is still expected (`cudaError_t` against `hipError_t`, a status type from a
    library that was renamed on one side only), no matching overload for the argument types, a narrowing the
    compiler refuses. Also a wave-wide mask (`__ballot`, `__activemask`, `__lanemask_*`) stored in a 32-bit
    integer: clang only warns (`-Wshorten-64-to-32`), the check treats it as an error, as with
    `-Werror=shorten-64-to-32` but for mask expressions only.

Why it breaks on ROCm:
    A mismatch between a renamed and a not-renamed type does not compile. The mask truncation compiles and is
    wrong: on CDNA GPUs a wavefront has 64 lanes and the HIP intrinsics return 64-bit masks; in 32 bits the
    upper half of the wavefront disappears from every ballot, population count and leader election.

Example:
    unsigned int mask = __ballot(value > 0);
    int leader = __ffs(mask) - 1;

Use instead:
    Keep masks in 64 bits (`unsigned long long`, `uint64_t`, or `auto`) and use the 64-bit helpers
    (`__popcll`, `__ffsll`); make both sides of a mismatch the HIP type.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html#warp-vote-and-ballot-functions
    https://clang.llvm.org/docs/DiagnosticsReference.html#wshorten-64-to-32
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.compile import LANGUAGES, report_kind

if TYPE_CHECKING:
    from scanner.compile.findings import CompileContext


def check(ctx: CompileContext) -> None:
    report_kind(ctx, "type-mismatch", "Types that do not fit for HIP: make both sides HIP types, masks 64-bit.")


RULE = Rule(
    name="compile-hip-type-mismatch",
    formerly=("hip-type-mismatch",),
    summary="Types the HIP compiler rejects, or a 64-bit wavefront mask truncated to 32 bits (compile check)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    on=("compile",),
    check=check,
    languages=LANGUAGES,
)
