"""The compile check's rules (ROC9xx): errors hipcc reports when the translation is built for an AMD target
(scanner.compile), one rule per kind of error, located at the original CUDA line."""

from __future__ import annotations

LANGUAGES = frozenset({"cuda", "c++"})


def report_kind(ctx, kind: str, hint: str) -> None:
    """Report every diagnostic of `kind` in this file, with the compiler's own message and a hint."""
    for diagnostic in ctx.diagnostics(kind):
        ctx.report(diagnostic, f"hipcc ({ctx.target}): {diagnostic.message}. {hint}")
