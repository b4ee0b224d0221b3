"""The layers hold: no module-level import cycle between two modules of scanner/ or portal/, and every module
imports in a fresh process (where a cycle hidden by import order would fail). The scanner never imports Django or
Celery. In portal not even an import inside a function closes a cycle; the scan pipeline is a one-way street:
tasks -> pipeline -> shards -> the modules below them; and portal.reporting imports only models, itself and a few
leaf helpers, so whatever calls it (ingestion, triage, views, the API, digests) stays above it."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _modules() -> dict[str, Path]:
    out = {}
    for base in ("scanner", "portal"):
        for path in (ROOT / base).rglob("*.py"):
            rel = path.relative_to(ROOT)
            if "migrations" in rel.parts:
                continue
            name = ".".join(rel.with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


def _imports(path: Path, name: str, known: dict[str, Path], everywhere: bool = False) -> set[str]:
    """Modules of `known` that `path` imports at module level (not inside functions, not under TYPE_CHECKING),
    or with `everywhere` also inside functions and classes; `from pkg import submodule` is an edge to the
    submodule, not to the package."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for top in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(top, ast.If) and "TYPE_CHECKING" in ast.unparse(top.test):
            continue
        deep = everywhere or isinstance(top, (ast.If, ast.Try))
        for node in ast.walk(top) if deep else [top]:
            if isinstance(node, ast.Import):
                out.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                parts = package.split(".")
                base = (
                    ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
                    if node.level
                    else (node.module or "")
                )
                submodules = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known]
                if len(submodules) < len(node.names):
                    out.add(base)
                out.update(submodules)
    return {m for m in out if m in known and m != name}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_level_import_cycle():
    known = _modules()
    graph = {name: _imports(path, name, known) for name, path in known.items()}
    assert _cycles(graph) == []


# The packages where an import inside a function may not close a cycle either: all of portal (the scanner has a
# few that the function-level import breaks on purpose: scanner.rules.base <-> scanner.analysis.context).
NO_CYCLE_AT_ALL = ("portal",)
# The scan pipeline from the top: a module may import those below it, never one above (inside functions neither).
PIPELINE_LAYERS = (
    {"portal.scans.tasks"},
    {"portal.scans.pipeline.runner"},
    {"portal.scans.pipeline.shards"},
    {"portal.scans.pipeline.ingestion"},
    {"portal.scans.pipeline.planning", "portal.scans.pipeline.results", "portal.scans.pipeline.endings"},
    {"portal.scans.pipeline.errors"},
)


def test_no_import_cycle_in_portal_even_inside_functions():
    known = _modules()
    graph = {name: _imports(path, name, known, everywhere=True) for name, path in known.items()}
    involved = [cycle for cycle in _cycles(graph) if any(m.startswith(p) for m in cycle for p in NO_CYCLE_AT_ALL)]
    assert involved == []


def test_the_scan_pipeline_imports_one_way():
    known = _modules()
    above: set[str] = set()
    for layer in PIPELINE_LAYERS:
        for name in layer:
            upward = _imports(known[name], name, known, everywhere=True) & (above | (layer - {name}))
            assert not upward, f"{name} imports {sorted(upward)}, which sit above it or beside it"
        above |= layer


# What portal.reporting may import besides the models and itself (inside functions too): helpers that import
# nothing of portal but models and each other, so no path leads from them back to reporting.
REPORTING = "portal.reporting"
REPORTING_LEAVES = frozenset({"portal.findings.ownership", "portal.scans.constants", "portal.scans.uploads.stand_ins"})


def _in_reporting(name: str) -> bool:
    return name == REPORTING or name.startswith(REPORTING + ".")


def _is_models(name: str) -> bool:
    return name.endswith(".models") or ".models." in name


def test_reporting_imports_only_models_itself_and_its_leaf_helpers():
    known = _modules()
    reporting = [name for name in known if _in_reporting(name)]
    assert len(reporting) > 5, reporting
    for name in reporting:
        outside = {
            m
            for m in _imports(known[name], name, known, everywhere=True)
            if not (_in_reporting(m) or _is_models(m) or m in REPORTING_LEAVES)
        }
        assert not outside, f"{name} imports {sorted(outside)}: reporting imports models, itself and REPORTING_LEAVES"


def test_the_leaf_helpers_of_reporting_are_leaves():
    known = _modules()
    for name in REPORTING_LEAVES:
        assert name in known, f"{name} is gone: update REPORTING_LEAVES"
        beyond = {
            m
            for m in _imports(known[name], name, known, everywhere=True)
            if m.startswith("portal") and not (_is_models(m) or m in REPORTING_LEAVES)
        }
        assert not beyond, f"{name} imports {sorted(beyond)}: no longer a leaf reporting may import"


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_scanner_never_imports_django_or_celery():
    known = _modules()
    for name, path in known.items():
        if name.startswith("scanner"):
            text = path.read_text(encoding="utf-8")
            tree = ast.parse(text)
            roots = {
                alias.name.split(".")[0]
                for node in ast.walk(tree)
                if isinstance(node, ast.Import)
                for alias in node.names
            }
            roots |= {
                (node.module or "").split(".")[0]
                for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and not node.level
            }
            assert not roots & {"django", "celery", "portal"}, name


def test_every_module_imports_in_a_fresh_process():
    names = sorted(n for n in _modules() if not n.endswith("__main__") and ".management.commands." not in n)
    program = (
        "import django, importlib, sys\ndjango.setup()\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "portal.settings"}
    proc = subprocess.run(
        [sys.executable, "-c", program, *names], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
