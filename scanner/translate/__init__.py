"""CUDA -> HIP translation: backends (built-in, hipify-clang), `auto` selection with per-file fallback, diffs.

from scanner.translate import Translator, TranslateOptions
translator = Translator(TranslateOptions(backend="auto"))
result = translator.translate("kernel.cu", text)   # TranslationResult: text, stats, backend, warnings
print(unified_diff("kernel.cu", text, result.text))
"""

from __future__ import annotations

import difflib

from scanner.translate.builtin import BuiltinTranslator
from scanner.translate.hipify_clang import HipifyClangFailed, HipifyClangTranslator, find
from scanner.translate.model import LAUNCH_CHEVRONS, LAUNCH_GGL, TranslateOptions, TranslationResult, TranslationStats

BACKENDS = ("auto", "builtin", "hipify-clang")

__all__ = [
    "Translator",
    "TranslateOptions",
    "TranslationResult",
    "TranslationStats",
    "TranslationError",
    "unified_diff",
    "BACKENDS",
    "LAUNCH_CHEVRONS",
    "LAUNCH_GGL",
]


class TranslationError(ValueError):
    """A backend that cannot be used as asked (hipify-clang requested but not installed)."""


class Translator:
    """Translates files with the chosen backend; `auto` prefers hipify-clang and falls back per file."""

    def __init__(self, options: TranslateOptions = TranslateOptions()):
        if options.backend not in BACKENDS:
            raise TranslationError(f"unknown backend {options.backend!r} (choose from {', '.join(BACKENDS)})")
        self.options = options
        self.builtin = BuiltinTranslator(options)
        self.hipify: HipifyClangTranslator | None = None
        if options.backend in ("auto", "hipify-clang"):
            executable = find(options)
            if executable is not None:
                self.hipify = HipifyClangTranslator(executable, options)
            elif options.backend == "hipify-clang":
                where = options.hipify_clang or "PATH"
                raise TranslationError(f"hipify-clang not found ({where}); use --backend builtin or auto")

    @property
    def description(self) -> str:
        if self.hipify is not None:
            return (
                f"hipify-clang ({self.hipify.version}), built-in fallback"
                if self.options.backend == "auto"
                else f"hipify-clang ({self.hipify.version})"
            )
        return f"built-in {self.builtin.version}"

    def translate(self, path: str, text: str, source=None) -> TranslationResult:
        """`source`: the file on disk, when there is one (hipify-clang then resolves its relative includes)."""
        if self.hipify is None:
            return self.builtin.translate(path, text)
        try:
            return self.hipify.translate(path, text, source)
        except HipifyClangFailed as exc:
            if self.options.backend == "hipify-clang":
                raise
            result = self.builtin.translate(path, text)
            result.fallback_reason = str(exc)
            return result


def unified_diff(path: str, before: str, after: str, context: int = 3) -> str:
    """A unified diff of the translation; empty when nothing changed."""
    if before == after:
        return ""
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"a/{path}",
            tofile=f"b/{path}",
            n=context,
        )
    )
