"""Rules see the Context and nothing under it: no module of scanner/rules imports libclang (cursor-kind questions
go through scanner.analysis.ast.Node's `is_*` predicates), reads the engine's FileFacts (`ctx.facts`) or an
object's `__dict__`, and every rule's check function is typed (`def check(ctx: Context) -> None`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "scanner" / "rules"
MODULES = sorted(RULES.rglob("*.py"))


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def clang_imports(tree: ast.AST) -> list[str]:
    """The libclang modules `tree` imports, anywhere in it (module level, functions, TYPE_CHECKING)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name == "clang" or a.name.startswith("clang.")]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "clang" or node.module.startswith("clang."):
                out.append(node.module)
    return out


def check_functions(tree: ast.AST) -> list[ast.FunctionDef]:
    """A module's check functions: those named `check` or `token_check`, and those handed to a Rule (or a rule
    builder) as `check=` / `token_check=`, directly or through a wrapper (`check=cuda_code_only(_check)`)."""
    handed = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg in ("check", "token_check"):
                    value = keyword.value
                    while isinstance(value, ast.Call) and value.args:
                        value = value.args[0]
                    if isinstance(value, ast.Name):
                        handed.add(value.id)
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and (node.name in ("check", "token_check") or node.name in handed)
    ]


def untyped(function: ast.FunctionDef) -> bool:
    args = function.args
    params = args.posonlyargs + args.args + args.kwonlyargs
    return function.returns is None or any(p.annotation is None for p in params)


def reaches_under_context(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, attribute) of each `.facts` or `.__dict__` read."""
    return [
        (node.lineno, node.attr)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in ("facts", "__dict__")
    ]


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_rule_module_keeps_to_the_context(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert not clang_imports(tree), f"{_rel(path)} imports libclang: ask Node's predicates (scanner.analysis.ast)"
    bad = [f"{f.name} (line {f.lineno})" for f in check_functions(tree) if untyped(f)]
    assert not bad, f"{_rel(path)}: untyped check functions {bad}: write `def check(ctx: Context) -> None`"
    reach = reaches_under_context(tree)
    assert not reach, f"{_rel(path)} reads {reach}: use the Context's own attributes (scanner.analysis.context)"


def test_the_checks_catch_what_they_forbid():
    tree = ast.parse(
        "import clang.cindex as ci\n"
        "from clang import cindex\n"
        "def check(ctx):\n    x = ctx.facts.view\n"
        "def _look(ctx) -> None:\n    pass\n"
        "def fine(ctx: Context) -> None:\n    ctx.__dict__\n"
        "RULE = Rule(check=wrapped(_look))\n"
    )
    assert clang_imports(tree) == ["clang.cindex", "clang"]
    assert sorted(f.name for f in check_functions(tree) if untyped(f)) == ["_look", "check"]
    assert sorted(attr for _, attr in reaches_under_context(tree)) == ["__dict__", "facts"]


def test_every_rule_module_is_looked_at():
    assert len(MODULES) > 60 and RULES / "warp" / "_common.py" in MODULES
