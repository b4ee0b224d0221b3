"""libclang from PyPI, plus the few C entry points its Python bindings (18.x) do not wrap.

The PyPI wheel ships its own libclang.so; nothing here looks for an LLVM or CUDA installation.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.metadata
import os

import clang.cindex as ci

# CXEvalResultKind values (clang-c/Index.h).
_EVAL_INT = 1


@functools.cache
def lib() -> ctypes.CDLL:
    native = ci.conf.lib
    native.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
    native.clang_Cursor_Evaluate.restype = ctypes.c_void_p
    native.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
    native.clang_EvalResult_getKind.restype = ctypes.c_int
    native.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
    native.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
    native.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
    native.clang_EvalResult_dispose.restype = None
    native.clang_getCursorBinaryOperatorKind.argtypes = [ci.Cursor]
    native.clang_getCursorBinaryOperatorKind.restype = ctypes.c_int
    native.clang_getCursorUnaryOperatorKind.argtypes = [ci.Cursor]
    native.clang_getCursorUnaryOperatorKind.restype = ctypes.c_int
    native.clang_getAllSkippedRanges.argtypes = [ci.TranslationUnit]
    native.clang_getAllSkippedRanges.restype = ctypes.POINTER(_SourceRangeList)
    native.clang_disposeSourceRangeList.argtypes = [ctypes.POINTER(_SourceRangeList)]
    native.clang_disposeSourceRangeList.restype = None
    return native


@functools.cache
def version() -> str:
    """Which libclang this is (its wheel's version, the library file's path, size and time): a precompiled header
    is only good for the libclang that wrote it."""
    try:
        wheel = importlib.metadata.version("libclang")
    except importlib.metadata.PackageNotFoundError:
        wheel = "?"
    path = getattr(ci.conf.lib, "_name", "") or ""
    try:
        stat = os.stat(path)
        return f"{wheel} {path} {stat.st_size} {stat.st_mtime_ns}"
    except OSError:
        return f"{wheel} {path}"


class _SourceRangeList(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(ci.SourceRange))]


def evaluate_int(cursor: ci.Cursor) -> int | None:
    """The integer value of a constant expression (macros expanded), or None."""
    native = lib()
    result = native.clang_Cursor_Evaluate(cursor)
    if not result:
        return None
    try:
        if native.clang_EvalResult_getKind(result) != _EVAL_INT:
            return None
        return native.clang_EvalResult_getAsLongLong(result)
    finally:
        native.clang_EvalResult_dispose(result)


# CXBinaryOperatorKind, in clang-c/Index.h order (LLVM 17+); index 0 is "invalid".
BINARY_OPERATORS = (
    "",
    ".*",
    "->*",
    "*",
    "/",
    "%",
    "+",
    "-",
    "<<",
    ">>",
    "<=>",
    "<",
    ">",
    "<=",
    ">=",
    "==",
    "!=",
    "&",
    "^",
    "|",
    "&&",
    "||",
    "=",
    "*=",
    "/=",
    "%=",
    "+=",
    "-=",
    "<<=",
    ">>=",
    "&=",
    "^=",
    "|=",
    ",",
)
UNARY_OPERATORS = (
    "",
    "++",
    "--",
    "++",
    "--",
    "&",
    "*",
    "+",
    "-",
    "~",
    "!",
    "__real",
    "__imag",
    "__extension__",
    "co_await",
)


def binary_operator(cursor: ci.Cursor) -> str:
    kind = lib().clang_getCursorBinaryOperatorKind(cursor)
    return BINARY_OPERATORS[kind] if 0 <= kind < len(BINARY_OPERATORS) else ""


def unary_operator(cursor: ci.Cursor) -> str:
    kind = lib().clang_getCursorUnaryOperatorKind(cursor)
    return UNARY_OPERATORS[kind] if 0 <= kind < len(UNARY_OPERATORS) else ""


def skipped_line_ranges(tu: ci.TranslationUnit, main_file: str) -> list[tuple[int, int]]:
    """Lines of the main file in preprocessor branches that were not compiled (#if 0, #ifdef X unset...)."""
    native = lib()
    ranges = native.clang_getAllSkippedRanges(tu)
    if not ranges:
        return []
    try:
        out = []
        for i in range(ranges.contents.count):
            rng = ranges.contents.ranges[i]
            start = rng.start
            if start.file is None or start.file.name != main_file:
                continue
            out.append((start.line, rng.end.line))
        return out
    finally:
        native.clang_disposeSourceRangeList(ranges)
