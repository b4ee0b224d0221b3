"""PTX's warp-wide matrix instructions, emulated: `ldmatrix` and `mma.sync` written as calls of the device functions
scanner.translate.ptx_warp_helpers writes once into the file, with 32-lane shuffles. Exact, as the PTX ISA defines
them, but slow: the translation says so for every such statement, and ROC120/ROC139 keep asking for an MFMA port.

Rewritten, each as one whole asm template with the operands and constraint letters the ISA gives it:
- `ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared[::cta].b16 {d..}, [addr];` (`=r` outputs, an `r` address;
  the shape, count and `.trans` in any order, as ptxas takes them);
- `mma.sync.aligned.m16n8k16.row.col.{f32.f16.f16.f32, f32.bf16.bf16.f32, f16.f16.f16.f16}`,
  `mma.sync.aligned.m16n8k8.row.col.{f32.f16.f16.f32, f32.bf16.bf16.f32, f32.tf32.tf32.f32, f16.f16.f16.f16}`,
  `mma.sync.aligned.m16n8k32.row.col[.satfinite].s32.{s8,u8}.{s8,u8}.s32`: `{d..}, {a..}, {b..}, {c..}` with d's
  operands first (`=f`/`=r`) and a, b, c's after them in order, or c naming d's own operands when those are
  read-write (`+f`/`+r`).
Any other shape, type, layout or operand order stays as written and is reported, as before.
"""

from __future__ import annotations

import re

from scanner.translate import ptx_warp_helpers
from scanner.translate.ptx_rewrite import Rewrite

NOTE = "emulated with 32-lane shuffles: exact but slow; port to MFMA (rocWMMA or __builtin_amdgcn_mfma_*)"

# the shape, count and `.trans` in any order: the ISA writes `.m8n8.x4.trans`, ptxas also takes `.x4.m8n8` and
# `.x1.trans.m8n8` (the order of the LDMATRIX_X4 macros many GEMM tutorials copy)
_LDMATRIX = re.compile(r"^ldmatrix\.sync\.aligned((?:\.(?:m8n8|x[124]|trans))+)\.shared(?:::cta)?\.b16$")
_MMA = re.compile(
    r"^mma\.sync\.aligned\.m16n8k(8|16|32)\.row\.col(\.satfinite)?\.(f32|f16|s32)\.(f16|bf16|tf32|s8|u8)"
    r"\.(f16|bf16|tf32|s8|u8)\.(f32|f16|s32)$"
)
# (K, A type, accumulator type) -> registers of A, of B, of C/D
_SHAPES = {
    (16, "f16", "f32"): (4, 2, 4),
    (16, "bf16", "f32"): (4, 2, 4),
    (16, "f16", "f16"): (4, 2, 2),
    (8, "f16", "f32"): (2, 1, 4),
    (8, "bf16", "f32"): (2, 1, 4),
    (8, "f16", "f16"): (2, 1, 2),
    (8, "tf32", "f32"): (4, 2, 4),
    (32, "s8", "s32"): (4, 2, 4),
    (32, "u8", "s32"): (4, 2, 4),
}
_INTEGER = frozenset({"s8", "u8"})
_GROUP = re.compile(r"\{([^{}]*)\}")
_PRAGMA_ONCE = re.compile(rb"^[ \t]*#[ \t]*pragma[ \t]+once\b", re.MULTILINE)


def helpers_insertion(data: bytes, first_include: int | None, runtime: bool, after_runtime: bool) -> tuple[int, bytes]:
    """Where and what to insert so that the helpers come once, before any use, after hip/hip_runtime.h (which
    declares `__shfl` and `__lane_id`): where the translation puts that header (after `#pragma once`, else before
    the first include, else at the top), following it when it was inserted there (`after_runtime`), else with it
    (`runtime`)."""
    pragma = _PRAGMA_ONCE.search(data)
    where = pragma.end() if pragma else first_include or 0
    helpers = ptx_warp_helpers.HELPERS.encode()
    text = (b"\n#include <hip/hip_runtime.h>" if runtime else b"") + (
        helpers.lstrip(b"\n") if after_runtime else helpers
    )
    return where, text if where else text.lstrip(b"\n") + b"\n"


def is_warp_instruction(instruction: str) -> bool:
    return instruction.startswith(("ldmatrix.", "mma.sync."))


def family(instruction: str) -> str:
    """`ldmatrix` or `mma.sync`, as a note names the instruction."""
    return "mma.sync" if instruction.startswith("mma.sync.") else instruction.split(".")[0]


def rewrite_for(instruction: str, operands: str) -> Rewrite | None:
    """The call for an ldmatrix or mma.sync instruction and its operands (blanks removed), or None."""
    load = _LDMATRIX.match(instruction)
    if load:
        modifiers = load.group(1).split(".")[1:]
        counts = [m for m in modifiers if m.startswith("x")]
        if sorted(modifiers) != sorted(set(modifiers)) or "m8n8" not in modifiers or len(counts) != 1:
            return None
        return _ldmatrix(int(counts[0][1]), "trans" in modifiers, operands)
    mma = _MMA.match(instruction)
    if mma:
        return _mma(mma, operands)
    return None


def _numbers(group: str) -> list[int] | None:
    items = group.split(",")
    if not all(re.fullmatch(r"%\d+", item) for item in items):
        return None
    return [int(item[1:]) for item in items]


def _ldmatrix(count: int, trans: bool, operands: str) -> Rewrite | None:
    registers = ",".join(f"%{n}" for n in range(count))
    if operands not in (f"{{{registers}}},[%{count}]", f"{registers},[%{count}]" if count == 1 else ""):
        return None
    assign = " ".join(f"d{n} = d[{n}];" for n in range(count))
    call = f"rocport_ptx::ldmatrix<{count}, {'true' if trans else 'false'}>(s0, d);"
    return Rewrite(("r",) * count, "r", f"unsigned d[{count}]; {call} {assign}", warp=True)


def _mma(match: re.Match, operands: str) -> Rewrite | None:
    k, satfinite, dtype, atype, btype, ctype = match.groups()
    k = int(k)
    if dtype != ctype or (atype != btype and not {atype, btype} <= _INTEGER) or (satfinite and dtype != "s32"):
        return None
    shape = _SHAPES.get((k, "s8" if atype in _INTEGER else atype, dtype))
    if shape is None:
        return None
    groups = _GROUP.findall(operands)
    if "{" + "},{".join(groups) + "}" != operands or len(groups) != 4:
        return None
    numbers = [_numbers(g) for g in groups]
    if any(n is None for n in numbers):
        return None
    d, a, b, c = numbers
    n_a, n_b, n_d = shape
    if [len(d), len(a), len(b), len(c)] != [n_d, n_a, n_b, n_d] or d != list(range(n_d)):
        return None
    if a + b != list(range(n_d, n_d + n_a + n_b)):
        return None
    inout = c == d
    if not inout and c != list(range(n_d + n_a + n_b, n_d + n_a + n_b + n_d)):
        return None
    letter = "f" if dtype == "f32" else "r"
    ctype_c = "float" if letter == "f" else "unsigned"
    c_values = (
        [f"static_cast<{ctype_c}>(d{n})" for n in range(n_d)] if inout else [f"s{n_a + n_b + n}" for n in range(n_d)]
    )
    body = (
        f"const unsigned a[] = {{{', '.join(f's{n}' for n in range(n_a))}}}; "
        f"const unsigned b[] = {{{', '.join(f's{n_a + n}' for n in range(n_b))}}}; "
        f"const {ctype_c} c[] = {{{', '.join(c_values)}}}; {ctype_c} d[{n_d}]; "
        f"{_function(k, dtype, atype, btype, bool(satfinite))}(d, a, b, c); "
        + " ".join(f"d{n} = d[{n}];" for n in range(n_d))
    )
    ins = "r" * (n_a + n_b) + ("" if inout else letter * n_d)
    return Rewrite((letter,) * n_d, ins, body, warp=True, inout=inout)


def _function(k: int, dtype: str, atype: str, btype: str, satfinite: bool) -> str:
    if dtype == "f16":
        return f"rocport_ptx::mma_f16<{k}>"
    if dtype == "s32":
        return f"rocport_ptx::mma_s32<{k}, rocport_ptx::{atype}, rocport_ptx::{btype}, {str(satfinite).lower()}>"
    return f"rocport_ptx::mma<{k}, rocport_ptx::{atype}, rocport_ptx::{btype}>"
