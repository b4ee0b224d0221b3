"""The compile check's rules (ROC9xx): errors the HIP compiler reports when the translation is built for an AMD
target (scanner.compile), one rule per kind of error, located at the original CUDA line. Each finding names the
toolchain that judged it (scanner.compile.toolchain.Toolchain.label): clang with the bundled HIP headers by
default, hipcc when chosen."""

from __future__ import annotations

LANGUAGES = frozenset({"cuda", "c++"})


def report_kind(ctx, kind: str, hint: str) -> None:
    """Report every diagnostic of `kind` in this file, with the compiler's own message and a hint."""
    for diagnostic in ctx.diagnostics(kind):
        ctx.report(diagnostic, f"{ctx.toolchain} ({ctx.target}): {diagnostic.message}. {hint}")
