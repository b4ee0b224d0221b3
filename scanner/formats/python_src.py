"""Python sources (scripts, setup.py) through the standard library's `ast`: imports, dotted names and string
constants with their positions. A file `ast` rejects (Python 2, a template) falls back to import lines read with
a regex, so the import rules still run.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass

from scanner.formats import Parsed
from scanner.formats.lines import code_lines


def parse(text: str) -> Parsed:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences and the like are not our finding
            return Parsed(ast.parse(text))
    except (SyntaxError, ValueError) as exc:
        where = f"line {exc.lineno}: " if getattr(exc, "lineno", None) else ""
        return Parsed(None, f"not valid Python 3 ({where}{getattr(exc, 'msg', exc)})")
    except (RecursionError, MemoryError):  # an expression nested thousands deep (`- - - ... 1`, `a.b.b...`)
        return Parsed(None, "not analysable as Python 3 (nested too deeply)")


def walk_ast(node: ast.AST):
    """`ast.walk(node)`; for a whole module, a list made once and kept on it: a dozen rules walk each file's tree,
    and walking it again each time was most of the time a Python file took."""
    if not isinstance(node, ast.Module):
        return ast.walk(node)
    nodes = getattr(node, "_rocport_nodes", None)
    if nodes is None:
        nodes = node._rocport_nodes = list(ast.walk(node))
    return nodes


def tree(facts) -> ast.Module | None:
    parsed = facts.parsed
    return parsed.value if parsed is not None else None


@dataclass(frozen=True)
class Ref:
    """A name the file uses: an imported module, a dotted attribute chain or a string constant."""

    text: str
    line: int
    col: int  # 1-based
    end_line: int = 0  # string constants: the line the literal ends on (a literal may span lines)


_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\s+([\w., ()]+)|import\s+([\w., ]+))")


def imports(facts) -> list[Ref]:
    """Imported modules, and `module.name` for each name of a `from module import name`."""
    cached = facts.cache.get("py_imports")
    if cached is not None:
        return cached
    out: list[Ref] = []
    module = tree(facts)
    if module is not None:
        for node in walk_ast(module):
            if isinstance(node, ast.Import):
                out += [Ref(alias.name, node.lineno, node.col_offset + 1) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                out.append(Ref(node.module, node.lineno, node.col_offset + 1))
                out += [Ref(f"{node.module}.{alias.name}", node.lineno, node.col_offset + 1) for alias in node.names]
    else:
        for number, text in code_lines(facts):
            match = _IMPORT.match(text)
            if match is None:
                continue
            col = len(text) - len(text.lstrip()) + 1
            if match.group(1):
                out.append(Ref(match.group(1), number, col))
                out += [
                    Ref(f"{match.group(1)}.{n.strip()}", number, col)
                    for n in match.group(2).strip("() ").split(",")
                    if n.strip()
                ]
            else:
                out += [Ref(n.split()[0], number, col) for n in match.group(3).split(",") if n.strip()]
    out.sort(key=lambda r: (r.line, r.col))
    facts.cache["py_imports"] = out
    return out


def dotted_names(facts) -> list[Ref]:
    """The outermost dotted attribute chains rooted at a name (`torch.cuda.nvtx.range_push`)."""
    cached = facts.cache.get("py_dotted")
    if cached is not None:
        return cached
    out: list[Ref] = []
    module = tree(facts)
    if module is not None:
        inner: set[int] = set()
        for node in walk_ast(module):
            if isinstance(node, ast.Attribute) and id(node) not in inner:
                parts, cur = [], node
                while isinstance(cur, ast.Attribute):
                    parts.append(cur.attr)
                    inner.add(id(cur.value))
                    cur = cur.value
                if isinstance(cur, ast.Name):
                    parts.append(cur.id)
                    out.append(Ref(".".join(reversed(parts)), node.lineno, node.col_offset + 1))
    out.sort(key=lambda r: (r.line, r.col))
    facts.cache["py_dotted"] = out
    return out


def strings(facts) -> list[Ref]:
    """String constants (f-string pieces included) with the position of the constant; docstrings are
    documentation, not commands or settings, and are left out."""
    cached = facts.cache.get("py_strings")
    if cached is not None:
        return cached
    out: list[Ref] = []
    module = tree(facts)
    if module is not None:
        docstrings = _docstrings(module)
        for node in walk_ast(module):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and hasattr(node, "lineno"):
                if id(node) not in docstrings:
                    out.append(Ref(node.value, node.lineno, node.col_offset + 1, node.end_lineno or node.lineno))
            elif isinstance(node, ast.JoinedStr):
                for part in node.values:
                    if isinstance(part, ast.Constant) and isinstance(part.value, str):
                        out.append(Ref(part.value, node.lineno, node.col_offset + 1, node.end_lineno or node.lineno))
    out.sort(key=lambda r: (r.line, r.col))
    facts.cache["py_strings"] = out
    return out


def _docstrings(module: ast.Module) -> set[int]:
    found = set()
    for node in walk_ast(module):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                found.add(id(first.value))
    return found


def calls(facts, names: frozenset[str]) -> list[tuple[str, ast.Call]]:
    """Calls whose callee's last name is in `names` (`CUDAExtension(...)`, `cpp_extension.CUDAExtension(...)`)."""
    module = tree(facts)
    out = []
    if module is not None:
        for node in walk_ast(module):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if name in names:
                    out.append((name, node))
    out.sort(key=lambda item: (item[1].lineno, item[1].col_offset))
    return out


def dotted(node) -> str:
    """`os.path.join` for the expression node of that name (Attribute chains over a Name), "" otherwise."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))
