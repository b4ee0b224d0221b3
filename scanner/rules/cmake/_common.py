"""Shared by the CMake rules: the file's command invocations (scanner.formats.cmake) and argument scanning."""

from __future__ import annotations

from scanner.formats import cmake


def commands(ctx) -> list[cmake.Command]:
    return cmake.commands(ctx.source)


def arg_position(arg: cmake.Arg, offset: int = 0) -> tuple[int, int]:
    """Line and column of `offset` characters into an argument (after its opening quote)."""
    before = arg.value[:offset]
    newlines = before.count("\n")
    if newlines:
        return arg.line + newlines, len(before) - before.rfind("\n")
    return arg.line, arg.col + offset + (1 if arg.quoted else 0)
