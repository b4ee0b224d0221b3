"""Environment variables in Python: where a file sets, reads or only names one. Shared by the rules on CUDA
environment variables (ROC233 CUDA_VISIBLE_DEVICES, ROC245); not a rule module.

Set: `os.environ["X"] = v`, `del os.environ["X"]`, `os.environ.setdefault("X", v)`, `os.environ.pop("X")`,
`os.putenv("X", v)`, `os.unsetenv("X")`, a dict key or keyword argument (`env={"X": v}`,
`dict(os.environ, X=v)`, `os.environ.update(X=v)`), and `X=v` inside a command string. Read:
`os.environ["X"]`, `os.environ.get("X")`, `os.getenv("X")`, `"X" in os.environ`, `$X` / `${X}` in a command
string. Anything else is a mention (`return ["X"]`). Docstrings and message strings (printed, logged,
raised, `help=`) are none of these (scanner.rules.libraries._judgement.in_python_message).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scanner.formats.python_src import walk_ast
from scanner.rules.libraries._judgement import python_messages

if TYPE_CHECKING:
    from scanner.analysis.context import FileFacts

SET, READ, MENTION = "set", "read", "mention"
_SETTERS = frozenset({"setdefault", "putenv", "unsetenv", "pop"})
_READERS = frozenset({"get", "getenv"})


@dataclass(frozen=True)
class EnvUse:
    name: str
    kind: str  # SET | READ | MENTION
    line: int
    col: int  # 1-based


def env_uses(source: FileFacts, names: re.Pattern) -> list[EnvUse]:
    """Uses of the variables whose whole name matches `names` in the file (`ctx.source`), in file order; [] for a
    file `ast` rejects."""
    parsed = source.parsed
    module = parsed.value if parsed is not None else None
    if not isinstance(module, ast.Module):
        return []
    messages = {(line, col) for line, col, _ in python_messages(source)}
    parents: dict[int, ast.AST] = {}
    docstrings: set[int] = set()
    for node in walk_ast(module):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        ):
            docstrings.add(id(node.body[0].value))  # documentation, not a setting
    out: list[EnvUse] = []
    for node in walk_ast(module):
        if isinstance(node, ast.keyword) and node.arg and names.fullmatch(node.arg):
            out.append(EnvUse(node.arg, SET, node.lineno, node.col_offset + 1))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and hasattr(node, "lineno"):
            if (node.lineno, node.col_offset + 1) in messages or id(node) in docstrings:
                continue
            parent = parents.get(id(node))
            if isinstance(parent, ast.JoinedStr):
                if (parent.lineno, parent.col_offset + 1) in messages:
                    continue
                out += _in_command(node.value, names, parent.lineno, parent.col_offset + 1)
            elif names.fullmatch(node.value):
                out.append(EnvUse(node.value, _kind(node, parent), node.lineno, node.col_offset + 1))
            else:
                out += _in_command(node.value, names, node.lineno, node.col_offset + 1)
    out.sort(key=lambda use: (use.line, use.col))
    return out


def _kind(node: ast.AST, parent: ast.AST | None) -> str:
    if isinstance(parent, ast.Subscript) and parent.slice is node:
        if not _is_environ(parent.value):
            return MENTION
        return READ if isinstance(parent.ctx, ast.Load) else SET
    if isinstance(parent, ast.Call) and parent.args and parent.args[0] is node:
        func = parent.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in _SETTERS:
            return SET
        if name in _READERS:
            return READ
        return MENTION
    if (
        isinstance(parent, ast.Compare)
        and parent.left is node
        and any(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)
    ):
        return READ
    if isinstance(parent, ast.Dict) and any(key is node for key in parent.keys):
        return SET
    return MENTION


def _is_environ(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "environ") or (
        isinstance(node, ast.Name) and node.id in ("environ", "env")
    )


_WORD = r"[A-Z][A-Z0-9_]*"


def _in_command(text: str, names: re.Pattern, line: int, col: int) -> list[EnvUse]:
    """`X=v` (set) and `$X` / `${X}` (read) inside a command string."""
    out = []
    for match in re.finditer(rf"(?<![\w$]){_WORD}(?==)|\$\{{?({_WORD})", text):
        name = match.group(1) or match.group(0)
        if names.fullmatch(name):
            out.append(EnvUse(name, READ if match.group(1) else SET, line, col))
    return out
