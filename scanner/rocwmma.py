"""Which `nvcuda::wmma` fragments rocWMMA has on gfx942, read from a file's code tokens; shared by the translator
(scanner.translate.wmma: a file whose fragments all have a counterpart is translated to rocWMMA) and the WMMA rule
(ROC139: the finding names each fragment that has none).

rocWMMA 1.6 (ROCm 6.3, the one the compile check bundles) on gfx942 (CDNA3, wave64), from its API reference's table
of supported configurations: f16 inputs (`_Float16` or `__half`: CUDA's `half` stays as written) in 16×16 blocks with
K ≥ 16 or 32×32 with K ≥ 8; i8 in 16×16 with K ≥ 32 or 32×32 with K ≥ 16; f64 in 16×16 with K ≥ 4; K a power of 2;
row- and column-major in any combination. What CUDA has and rocWMMA does not: the 32×8×16 and 8×32×16 shapes, int8 at
K = 16 and unsigned 8-bit, double's 8×8×4, `precision::tf32` (rocWMMA's xf32 fragments load their own type, not
float), the sub-byte `experimental` types and `bmma_sync`, and bf16 as `__nv_bfloat16` (rocWMMA 1.6 takes hipBLAS's
`hip_bfloat16`, not hip_bf16.h's `__hip_bfloat16` the translation writes).

A shape the tokens do not settle (a template parameter, an expression) counts as having a counterpart: rocWMMA's
own static_asserts judge it when the kernel is instantiated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TARGET = "gfx942"
_F16 = frozenset({"half", "__half", "_Float16"})
_BF16 = frozenset({"__nv_bfloat16", "nv_bfloat16", "__hip_bfloat16"})
_I8 = frozenset({"signed char", "char", "int8_t", "std::int8_t"})
_U8 = frozenset({"unsigned char", "uint8_t", "std::uint8_t"})
# input kind -> {(M, N): the smallest K}, for gfx942
_BLOCKS = {
    "f16": {(16, 16): 16, (32, 32): 8},
    "i8": {(16, 16): 32, (32, 32): 16},
    "f64": {(16, 16): 4},
}
_ACCUMULATOR_BLOCKS = {"float": ((16, 16), (32, 32)), "int": ((16, 16), (32, 32)), "double": ((16, 16),)}
_ACCUMULATOR_BLOCKS.update({name: ((16, 16), (32, 32)) for name in _F16})
_INTEGER = re.compile(r"^(\d+)[uUlL]*$")
_USES = frozenset({"matrix_a", "matrix_b", "accumulator"})


@dataclass(frozen=True)
class Fragment:
    index: int  # the token `fragment`, in the list given
    use: str  # matrix_a, matrix_b, accumulator (or as written)
    shape: tuple[int | None, int | None, int | None]
    element: str  # as written, without `nvcuda::wmma::`
    gap: str  # "" when rocWMMA has it on gfx942 (or the tokens do not say), else why not
    layout: str = ""  # row_major, col_major (or as written); "" for an accumulator, which has none

    @property
    def spelled(self) -> str:
        dims = ", ".join("?" if d is None else str(d) for d in self.shape)
        layout = f", {self.layout}" if self.layout else ""
        return f"fragment<{self.use}, {dims}, {self.element}{layout}>"


@dataclass(frozen=True)
class Gap:
    index: int  # the token the gap is at
    what: str  # `fragment<matrix_a, 8, 32, 16, half, row_major>`, `bmma_sync`
    why: str

    def sentence(self) -> str:
        return f"`{self.what}` has no rocWMMA counterpart on {TARGET}: {self.why}"


def gaps(tokens: list[str]) -> list[Gap]:
    """What in this file's WMMA code rocWMMA lacks on gfx942, in order; `tokens` are the code tokens' texts."""
    out = [Gap(f.index, f.spelled, f.gap) for f in fragments(tokens) if f.gap]
    for i, tok in enumerate(tokens):
        if tok == "bmma_sync" and _after_wmma(tokens, i):
            out.append(Gap(i, "bmma_sync", "rocWMMA has no 1-bit (b1) matrix multiply"))
    return sorted(out, key=lambda g: g.index)


def fragments(tokens: list[str]) -> list[Fragment]:
    constants = _constants(tokens)
    out = []
    for i, tok in enumerate(tokens):
        if tok != "fragment" or i + 1 >= len(tokens) or tokens[i + 1] != "<":
            continue
        if i > 0 and tokens[i - 1] == "::" and not _after_wmma(tokens, i):
            continue  # another library's fragment (rocwmma::fragment, a project's own)
        args = _template_arguments(tokens, i + 1)
        if args is None or len(args) < 5:
            continue
        use = _unqualified(args[0])
        shape = tuple(_integer(a, constants) for a in args[1:4])
        element = _unqualified(args[4])
        layout = _unqualified(args[5]) if len(args) > 5 else ""
        out.append(Fragment(i, use, shape, element, _judge(use, shape, element), layout))
    return out


def _judge(use: str, shape: tuple, element: str) -> str:
    if "experimental" in element or element.split("::")[-1] in ("b1", "s4", "u4"):
        return f"rocWMMA has no sub-byte fragments (`{element}`)"
    if element.split("::")[-1] == "tf32":
        return "rocWMMA's xf32 fragments (`rocwmma::xfloat32_t`) load their own type, not float as tf32 ones do"
    if element in _BF16:
        return "rocWMMA 1.6 takes bf16 as hipBLAS's `hip_bfloat16` (`rocwmma::bfloat16_t`), not `__hip_bfloat16`"
    if element in _U8:
        return "rocWMMA has no unsigned 8-bit fragments"
    m, n, k = shape
    if use == "accumulator":
        blocks = _ACCUMULATOR_BLOCKS.get(element)
        if blocks is None or m is None or n is None or (m, n) in blocks:
            return ""
        return f"rocWMMA's {element} accumulators are {' or '.join(f'{a}×{b}' for a, b in blocks)}"
    kind = "f16" if element in _F16 else "i8" if element in _I8 else "f64" if element == "double" else ""
    if not kind or None in shape:
        return ""
    smallest = _BLOCKS[kind].get((m, n))
    if smallest is not None and k >= smallest and k & (k - 1) == 0:
        return ""
    blocks = " and ".join(f"{a}×{b} with K ≥ {least}" for (a, b), least in _BLOCKS[kind].items())
    return f"rocWMMA's {kind} blocks there are {blocks} (a power of 2)"


def _after_wmma(tokens: list[str], i: int) -> bool:
    return i >= 2 and tokens[i - 1] == "::" and tokens[i - 2] == "wmma"


def _unqualified(arg: list[str]) -> str:
    """`nvcuda :: wmma :: matrix_a` -> `matrix_a`; `signed char` keeps its space."""
    parts = list(arg)
    while len(parts) >= 2 and parts[0] in ("nvcuda", "wmma") and parts[1] == "::":
        parts = parts[2:]
    out = ""
    for tok in parts:
        glue = out and out[-1].isalnum() and tok[:1].isalnum()
        out += (" " if glue else "") + tok
    return out


def _integer(arg: list[str], constants: dict[str, int | None]) -> int | None:
    if len(arg) != 1:
        return None
    match = _INTEGER.match(arg[0])
    if match:
        return int(match.group(1))
    return constants.get(arg[0])


def _constants(tokens: list[str]) -> dict[str, int | None]:
    """Names given one integer in the file: `#define M 16`, `const int M = 16;`, `constexpr int M = 16,`. A name
    given two different values (two #if branches) is unknown."""
    found: dict[str, int | None] = {}

    def note(name: str, value: str) -> None:
        match = _INTEGER.match(value)
        number = int(match.group(1)) if match else None
        found[name] = number if found.get(name, number) == number else None

    for i in range(len(tokens) - 3):
        if tokens[i] == "define" and i > 0 and tokens[i - 1] == "#":
            note(tokens[i + 1], tokens[i + 2])
        elif tokens[i + 1] == "=" and tokens[i + 3] in (";", ",") and _INTEGER.match(tokens[i + 2]):
            if any(t in ("const", "constexpr") for t in tokens[max(0, i - 4) : i]):
                note(tokens[i], tokens[i + 2])
    return found


def _template_arguments(tokens: list[str], open_index: int) -> list[list[str]] | None:
    """The top-level arguments of the `<...>` opening at open_index, or None when it does not close."""
    args: list[list[str]] = [[]]
    depth = 0
    for j in range(open_index, min(len(tokens), open_index + 200)):
        tok = tokens[j]
        if tok in ("<", "(", "["):
            depth += 1
            if depth == 1:
                continue
        elif tok in (">", ")", "]", ">>"):
            depth -= 2 if tok == ">>" else 1
            if depth <= 0:
                return args if depth == 0 else None
        elif tok == "," and depth == 1:
            args.append([])
            continue
        elif tok in (";", "{"):
            return None
        args[-1].append(tok)
    return None
