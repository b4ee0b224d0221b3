"""Translate snippets in-process with the built-in translator."""

from __future__ import annotations

from scanner.translate.builtin import BuiltinTranslator
from scanner.translate.model import TranslateOptions


def hipify(text: str, name: str = "t.cu", **options):
    return BuiltinTranslator(TranslateOptions(**options)).translate(name, text)


def body(text: str, **options) -> str:
    """The translation without the hip_runtime.h line the translator adds to CUDA files."""
    out = hipify(text, insert_runtime_header=False, **options).text
    return out
