"""Inline assembly the AMDGPU backend rejects when the device code is assembled (PTX left in the translation).

What it finds:
    Errors about `asm` statements from compiling the file's translation with `-c` for the AMD target
    (scanner.compile): "invalid instruction", "invalid output constraint", "unknown directive", an operand the
    GCN assembler does not accept. Unlike ROC120, which recognises PTX by its text, this is what the AMD
    assembler actually refused, in the code the file really compiles (inactive `#if` branches excluded).

Why it breaks on ROCm:
    PTX is NVIDIA's virtual instruction set; hipify leaves inline assembly untouched and the AMDGPU assembler
    cannot read it, so the file does not build. A syntax-only compilation (`-fsyntax-only`) does not assemble
    device code and misses most of these: the check compiles to an object.

Example:
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));

Use instead:
    A HIP intrinsic with the same meaning (`__lane_id()`, `__shfl_xor`, `__builtin_nontemporal_load`), or AMDGCN
    assembly behind `#if defined(__HIP_PLATFORM_AMD__)`.

References:
    https://llvm.org/docs/AMDGPUUsage.html
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_guide.html
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.compile import LANGUAGES, report_kind

if TYPE_CHECKING:
    from scanner.compile.findings import CompileContext


def check(ctx: CompileContext) -> None:
    report_kind(ctx, "inline-asm", "Inline assembly the AMD GPU assembler rejects: use a HIP intrinsic instead.")


RULE = Rule(
    name="compile-inline-asm-rejected-by-amdgpu",
    formerly=("inline-asm-rejected-by-amdgpu",),
    summary="Inline assembly (PTX) the AMDGPU assembler rejects when the translation is compiled (compile check)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    on=("compile",),
    check=check,
    languages=LANGUAGES,
)
