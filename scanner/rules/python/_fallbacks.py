"""Python code that fails gracefully: a line inside `try:` whose `except` catches the failure and goes on. Shared by
the rules whose run-time failure such a handler turns into a fallback (ROC231's nvidia-smi, ROC243's imports);
not a rule module.

By the severity policy (scanner.rules.severity_policy) a run-time failure reached only with a graceful fallback is
low at most: on an AMD host the fallback runs (no GPU information, the optional feature off), and nothing stops.
"""

from __future__ import annotations

import ast

from scanner.formats.python_src import dotted, walk_ast

# Catching one of these catches everything a missing tool or module raises.
BROAD = frozenset({"Exception", "BaseException"})
# What running a missing command raises (subprocess's list form): FileNotFoundError, an OSError.
MISSING_COMMAND = BROAD | {"OSError", "FileNotFoundError", "EnvironmentError", "IOError"}
# What importing a missing module, or one whose shared library is missing, raises.
MISSING_MODULE = BROAD | {"ImportError", "ModuleNotFoundError", "OSError"}
_EXITS = frozenset({"sys.exit", "exit", "quit", "os._exit", "os.abort"})


def graceful_try(source, line: int, caught: frozenset[str]) -> int:
    """The line of the `try:` whose body holds `line` and one of whose handlers catches a name in `caught` (or
    is a bare `except:`) without re-raising or exiting; 0 when there is none. `source` is the file's FileFacts
    (`ctx.source`)."""
    stoppers = _stopping_helpers(source)
    for start, end, try_line, handlers in _tries(source):
        if start <= line <= end and any(_falls_back(h, caught, stoppers) for h in handlers):
            return try_line
    return 0


def _stopping_helpers(source) -> frozenset[str]:
    """Functions of the module that raise or exit (`def _die(msg): raise SystemExit(msg)`): a handler that calls one
    stops the program as surely as one that raises."""
    cached = source.cache.get("py_stopping_helpers")
    if cached is not None:
        return cached
    parsed = source.parsed
    module = parsed.value if parsed is not None else None
    found = set()
    if isinstance(module, ast.Module):
        for node in walk_ast(module):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                isinstance(n, ast.Raise) or (isinstance(n, ast.Call) and dotted(n.func) in _EXITS)
                for statement in node.body
                for n in ast.walk(statement)
            ):
                found.add(node.name)
    source.cache["py_stopping_helpers"] = frozenset(found)
    return source.cache["py_stopping_helpers"]


def _tries(source) -> list[tuple[int, int, int, list[ast.ExceptHandler]]]:
    cached = source.cache.get("py_tries")
    if cached is not None:
        return cached
    out = []
    parsed = source.parsed
    module = parsed.value if parsed is not None else None
    if isinstance(module, ast.Module):
        for node in walk_ast(module):
            if isinstance(node, ast.Try) and node.body and node.handlers:
                end = max(getattr(n, "end_lineno", None) or n.lineno for n in node.body)
                out.append((node.body[0].lineno, end, node.lineno, node.handlers))
    source.cache["py_tries"] = out
    return out


def _falls_back(handler: ast.ExceptHandler, caught: frozenset[str], stoppers: frozenset[str] = frozenset()) -> bool:
    if handler.type is not None:
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        if not any(dotted(t).rsplit(".", 1)[-1] in caught for t in types):
            return False
    for node in ast.walk(handler):
        if isinstance(node, ast.Raise):
            return False
        if isinstance(node, ast.Call) and (dotted(node.func) in _EXITS or dotted(node.func) in stoppers):
            return False
    return True
