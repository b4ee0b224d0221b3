"""Shared by the build rules: where their patterns are searched."""

from __future__ import annotations

import re
from collections.abc import Iterator

from scanner.formats import python_src
from scanner.rules.libraries._judgement import command_matches


def build_matches(ctx, pattern: re.Pattern) -> Iterator[tuple[int, int, re.Match]]:
    """`textual.matches`, except that a Python file `ast` rejects (a Python 2 setup.py) is read by its code lines
    instead of yielding nothing: its flags and paths are still findings; and that a Python message string
    (printed, logged, raised) is not a build setting."""
    unparsed = ctx.language == "python" and python_src.tree(ctx.source) is None
    yield from command_matches(ctx, pattern, python_lines=unparsed)
