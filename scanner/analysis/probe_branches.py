"""An NVIDIA probe on one side of a platform switch: `nvidia-smi` or `nvcc --version` in one branch of an `if`
(shell, or the shell of a CI step) or of a Python `if`, with ROCm's tool (`rocm-smi`, `amd-smi`, `hipcc`) in a
sibling branch or its test, or on the other side of `||`. Such a script handles both platforms, so the probe is
its NVIDIA side. A ROCm tool elsewhere in the file (an example further down) says nothing.
"""

from __future__ import annotations

import ast
import re

from scanner.formats.python_src import walk_ast

ROCM_TOOL = re.compile(r"\b(?:rocm-smi|amd-smi|rocminfo|hipcc|hipconfig)\b")
_IF = re.compile(r"^\s*(?:-\s*run:\s*)?(if|elif|else|fi)\b")


def branch_paths(lines: list[str], language: str) -> dict[int, tuple[tuple[int, int], ...]]:
    """Per line, the (if-block, branch) pairs it sits in: what `rocm_sibling` compares (computed once a file)."""
    return _python_paths(lines) if language == "python" else _shell_paths(lines)


def rocm_sibling(lines: list[str], line: int, paths: dict) -> tuple[int, str] | None:
    """(line, tool) of ROCm's tool in a branch beside `line`'s (`paths`: `branch_paths` of the file), or None."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    if "||" in text and ROCM_TOOL.search(text):
        return line, ROCM_TOOL.search(text).group(0)
    here = paths.get(line, ())
    for number, other in enumerate(lines, 1):
        match = ROCM_TOOL.search(other.split("#", 1)[0])
        if not match or number == line:
            continue
        there = paths.get(number, ())
        if any(a[0] == b[0] and a[1] != b[1] for a in here for b in there):
            return number, match.group(0)
    return None


def _shell_paths(lines: list[str]) -> dict[int, tuple[tuple[int, int], ...]]:
    """Per line, the (if-block, branch) pairs it sits in; branch 0 is the test, `elif` and `else` open the next."""
    stack: list[list[int]] = []
    paths: dict[int, tuple[tuple[int, int], ...]] = {}
    blocks = 0
    for number, text in enumerate(lines, 1):
        code = text.split("#", 1)[0]
        match = _IF.match(code)
        word = match.group(1) if match else ""
        if word == "if" and not re.search(r"\bfi\b", code):
            blocks += 1
            stack.append([blocks, 0])
        elif word in ("elif", "else") and stack:
            stack[-1][1] += 1
        paths[number] = tuple((block, branch) for block, branch in stack)
        if stack and stack[-1][1] == 0 and re.search(r"\bthen\b", code):
            stack[-1][1] = 1  # the test is over: the lines after `then` are the first branch
        if word == "fi" and stack:
            stack.pop()
    return paths


def _python_paths(lines: list[str]) -> dict[int, tuple[tuple[int, int], ...]]:
    """Per line, the (if-statement, branch) pairs it sits in: 0 the test, 1 the body, 2 the else, which is also
    what follows an `if` whose body always leaves (`if which("rocm-smi"): return ...`)."""
    try:
        tree = ast.parse("\n".join(lines))
    except (SyntaxError, ValueError):
        return {}
    paths: dict[int, list[tuple[int, int]]] = {}

    def mark(statements, block: int, branch: int) -> None:
        for statement in statements:
            end = getattr(statement, "end_lineno", None) or statement.lineno
            for number in range(statement.lineno, end + 1):
                paths.setdefault(number, []).append((block, branch))

    ifs = {id(node): n for n, node in enumerate(n for n in walk_ast(tree) if isinstance(n, ast.If))}
    for node in walk_ast(tree):
        if isinstance(node, ast.If):
            block = ifs[id(node)]
            mark([node.test], block, 0)
            mark(node.body, block, 1)
            mark(node.orelse, block, 2)
        for field in ("body", "orelse", "finalbody"):
            statements = getattr(node, field, None)
            if not isinstance(statements, list):
                continue
            for index, statement in enumerate(statements):
                if (
                    isinstance(statement, ast.If)
                    and not statement.orelse
                    and isinstance(statement.body[-1], ast.Return | ast.Raise | ast.Continue | ast.Break)
                ):
                    mark(statements[index + 1 :], ifs[id(statement)], 2)
    return {number: tuple(pairs) for number, pairs in paths.items()}
