"""Tensor-core WMMA / MMA code.

What it finds:
    Includes of `mma.h`; lines using the `nvcuda::wmma` API (`nvcuda::`, or `wmma::fragment`,
    `wmma::load_matrix_sync`, `wmma::mma_sync`, ... in a file that names `nvcuda` or includes `mma.h`);
    and inline PTX asm with tensor-core instructions (`mma.sync`, `wmma.*`, `wgmma.*`).
    One finding per file, at the first include or use: its message counts the uses and lists their lines
    (porting away from the library is one piece of work per file, not one per line).
    Where every fragment of the file has a rocWMMA counterpart on gfx942 (scanner.rocwmma), ROCport's translation
    maps its `nvcuda::wmma` code to rocWMMA, and the finding says so at low severity (a build break a porting tool
    fixes by renaming). Otherwise the translation leaves the code as written, and the finding names each fragment
    rocWMMA lacks (shape, type, layout), its lines and why. PTX tensor-core instructions stay high: nothing
    translates them.

Why it breaks on ROCm:
    `nvcuda::wmma` and the PTX MMA instructions target NVIDIA tensor cores. AMD's matrix cores are driven
    by MFMA (CDNA) or WMMA (RDNA3/4) instructions with different tile shapes, operand layouts and a
    64-lane (CDNA) wavefront, so fragments, shapes and the per-lane element mapping all change. HIP has no
    `<mma.h>`; inline PTX does not compile.

Example:
    nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> a;
    nvcuda::wmma::mma_sync(acc, a, b, acc);

Use instead:
    rocWMMA (`#include <rocwmma/rocwmma.hpp>`, `rocwmma::fragment`, `rocwmma::load_matrix_sync`,
    `rocwmma::mma_sync`), a near drop-in API with per-architecture supported shapes; or the MFMA/WMMA
    compiler builtins (`__builtin_amdgcn_mfma_f32_16x16x16f16`, `__builtin_amdgcn_wmma_*`) for full control;
    or a library GEMM (hipBLASLt, Composable Kernel).

References:
    https://rocm.docs.amd.com/projects/rocWMMA/en/latest/
    https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/inference-optimization/optimizing-with-composable-kernel.html
    https://gpuopen.com/learn/amd-lab-notes/amd-lab-notes-matrix-cores-readme/
"""

import re

from scanner import rocwmma
from scanner.model import Risk, Severity
from scanner.parsing.tokens import COMMENT
from scanner.rules.libraries._common import Header, Judgement, Use, library_rule, report_once

_MMA_HEADERS = ("mma.h", "crt/mma.h")
_PTX_MMA = re.compile(r"\b(w?g?mma)\.[a-z]")
_TRANSLATED = (
    "ROCport's translation maps this file's nvcuda::wmma code to rocWMMA, which has each of its fragments on "
    f"{rocwmma.TARGET}."
)
_LEFT = "ROCport's translation leaves this file's WMMA code as written."


def _nvcuda_file(ctx) -> bool:
    """Whether this file uses NVIDIA's wmma at all (so a bare `wmma::` is nvcuda's, not rocwmma's alias)."""
    cache = ctx.memo.get("rocport:nvcuda-file")
    if cache is None:
        cache = any(t.text == "nvcuda" for t in ctx.view.code) or any(
            i.header in _MMA_HEADERS for i in ctx.view.includes
        )
        ctx.memo["rocport:nvcuda-file"] = cache
    return cache


def _member(ctx, tok) -> str:
    """The name after `wmma::` (or `nvcuda::wmma::`), or ""."""
    step = 1
    while True:
        sep, nxt = ctx.view.neighbour(tok, step), ctx.view.neighbour(tok, step + 1)
        if sep is None or sep.text != "::" or nxt is None:
            return ""
        if nxt.text != "wmma":
            return nxt.text
        step += 2


def _message(ctx, tok) -> str:
    member = _member(ctx, tok)
    if member:
        return f"`wmma::{member}` (nvcuda::wmma) → rocWMMA `rocwmma::{member}`, for the fragments the target has."
    return "nvcuda::wmma → rocWMMA (rocwmma::), for the fragments the target has."


def _wmma(ctx, tok) -> str | None:
    return _message(ctx, tok) if _nvcuda_file(ctx) else None


def _judge(ctx) -> Judgement:
    """Low where ROCport's translation maps the file to rocWMMA (every fragment has a counterpart, as the
    translator decides: scanner.translate.wmma); else high, naming each fragment rocWMMA lacks. Once per file."""
    cached = ctx.memo.get("rocport:wmma-judgement")
    if cached is None:
        # the translator's view of the file: every token but comments, preprocessor lines too (`#define WM 16`)
        code = [t for t in ctx.view.tokens if t.kind != COMMENT]
        gaps = rocwmma.gaps([t.text for t in code])
        if not gaps:
            cached = (Severity.LOW, None, _TRANSLATED)
        else:
            cached = (Severity.HIGH, None, " ".join([_LEFT, *_gap_sentences(gaps, code)]))
        ctx.memo["rocport:wmma-judgement"] = cached
    return cached


def _gap_sentences(gaps: list[rocwmma.Gap], code: list) -> list[str]:
    """One sentence per fragment (or bmma_sync) rocWMMA lacks, with the lines it is written on, in order."""
    lines: dict[tuple[str, str], list[int]] = {}
    for gap in gaps:
        found = lines.setdefault((gap.what, gap.why), [])
        if code[gap.index].line not in found:
            found.append(code[gap.index].line)
    out = []
    for (what, why), where in lines.items():
        at = f"line {where[0]}" if len(where) == 1 else "lines " + ", ".join(str(n) for n in where)
        out.append(f"rocWMMA on {rocwmma.TARGET} lacks `{what}` ({at}): {why}.")
    return out


def _asm(ctx) -> None:
    match = _PTX_MMA.search(ctx.asm_text)
    if match:
        report_once(
            ctx,
            f"PTX tensor-core instruction `{match.group(1)}.*`: use rocWMMA or the MFMA/WMMA builtins "
            "(__builtin_amdgcn_mfma_*).",
            fold=True,
            name=f"{match.group(1)}.*",
        )


RULE = library_rule(
    name="libraries-tensor-core-wmma",
    formerly=("tensor-core-wmma",),
    summary="Tensor-core WMMA/MMA code (nvcuda::wmma, PTX mma.sync): port to rocWMMA or MFMA",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    headers=[
        Header(
            r"(crt/)?mma\.h",
            "<{header}> (nvcuda::wmma) → rocWMMA: include <rocwmma/rocwmma.hpp>, which keeps the wmma API under "
            "rocwmma:: for the fragments the target has.",
            basename=False,
        ),
    ],
    uses=[
        Use("nvcuda", _message),
        Use("wmma", _wmma, scope=True),
    ],
    extra={"asm": _asm},
    fold=True,
    judge=_judge,
    cuda_only=True,
)
