"""Imports sit at module level. One inside a function or a method of portal/ or scanner/ (migrations aside) says
why on the line above it or at the end of its line (`# inside: ... imports this module at load time (cycle)`,
`# inside: keeps python -m scanner --help from loading libclang`); a bare `# noqa` is no reason. Imports under
`if TYPE_CHECKING:` never run and need none. And every package's __init__.py has a docstring saying what lives
there and what it may import."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _sources(suffix: str = ".py") -> list[Path]:
    return sorted(
        path
        for base in ("portal", "scanner")
        for path in (ROOT / base).rglob(f"*{suffix}")
        if "migrations" not in path.relative_to(ROOT).parts
    )


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# What a comment may carry besides a reason: linter and type-checker markers.
_MARKERS = re.compile(r"(noqa(:\s*[A-Z]+[0-9]+(,\s*[A-Z]+[0-9]+)*)?|type:\s*ignore(\[[^\]]*\])?|pragma:[^#]*)", re.I)


def _is_reason(comment: str) -> bool:
    """A comment that says something: not empty once its linter markers are gone."""
    return bool(_MARKERS.sub("", comment.lstrip("#")).strip(" \t#()[]:;,-"))


def _function_imports(tree: ast.AST) -> list[ast.stmt]:
    """The import statements inside functions and methods (nested ones included), those under an
    `if TYPE_CHECKING:` left out."""
    found: list[ast.stmt] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child, in_function)
            return
        if in_function and isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        inside = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    visit(tree, False)
    return found


def unexplained_imports(source: str) -> list[int]:
    """Line numbers of the imports inside functions of `source` with no reason on the line above or at the end of
    their own (first) line."""
    comments: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string
    lines = source.splitlines()
    out = []
    for node in _function_imports(ast.parse(source)):
        line = node.lineno
        above = lines[line - 2].strip() if line > 1 else ""
        trailing = comments.get(line, "")
        if not (_is_reason(trailing) or (above.startswith("#") and _is_reason(above))):
            out.append(line)
    return out


@pytest.mark.parametrize("path", _sources(), ids=_rel)
def test_an_import_inside_a_function_says_why(path: Path):
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    bare = [f"{_rel(path)}:{n}: {lines[n - 1].strip()}" for n in unexplained_imports(source)]
    assert not bare, (
        "move these imports to module level, or say why they stay inside on the line above "
        "(e.g. `# inside: x imports this module at load time (cycle)`):\n" + "\n".join(bare)
    )


SYNTHETIC = """
from typing import TYPE_CHECKING

import os

if TYPE_CHECKING:
    import decimal


def bare():
    import json

    return json


def explained_above():
    # inside: portal.x imports this module at load time (cycle)
    import json

    return json


def explained_at_the_end():
    from json import dumps  # inside: the worker alone needs it

    return dumps


def only_a_marker():
    import json  # noqa: F401

    return None


def typing_only():
    if TYPE_CHECKING:
        from decimal import Decimal
    return None


class Holder:
    def method(self):
        def nested():
            from json import loads

            return loads

        return nested


def hash_in_a_string():
    import json; x = "#"

    return json, x
"""


def test_the_check_flags_a_bare_import_inside_a_function_and_nothing_else():
    lines = SYNTHETIC.splitlines()
    flagged = [lines[n - 1].strip() for n in unexplained_imports(SYNTHETIC)]
    assert flagged == ["import json", "import json  # noqa: F401", "from json import loads", 'import json; x = "#"']


def test_a_reason_is_more_than_a_linter_marker():
    assert _is_reason("# inside: keeps the CLI from loading libclang")
    assert _is_reason("# noqa: F401  (connects the receivers)")
    assert not _is_reason("# noqa: F401")
    assert not _is_reason("# type: ignore[import]")
    assert not _is_reason("#")


def _packages() -> list[Path]:
    return [path for path in _sources() if path.name == "__init__.py"]


@pytest.mark.parametrize("path", _packages(), ids=_rel)
def test_every_package_says_what_lives_there(path: Path):
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert docstring and docstring.strip(), f"{_rel(path)}: no docstring (what lives here, what it may import)"


def test_the_package_list_holds_the_management_commands():
    names = {_rel(path) for path in _packages()}
    assert "portal/scans/management/commands/__init__.py" in names
    assert "portal/digests/__init__.py" in names
    assert not any("migrations" in name for name in names)
