"""Views are for HTTP only. A view module (an app's `views.py` or `*_views.py`, a router module of `portal/api/`) is
imported by its URL configuration and nothing else: what another module needs from it (a query, a text, a label)
lives in the app's `queries`, `texts` or `labels` module. And a view writes through its app's `actions`: no
`.save()`, `.delete()` or `objects.create()` of its own, so every write has one place to look for its rules."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.architecture.test_imports import _imports, _modules

ROOT = Path(__file__).resolve().parents[2]
# Router modules of the API that are views; the rest of portal/api (schemas, auth, access, paging) is library.
_API_LIBRARY = {
    "portal.api",
    "portal.api.schemas",
    "portal.api.auth",
    "portal.api.access",
    "portal.api.pages",
    "portal.api.scan_shapes",
}
# What assembles views into URLs: an app's urls, the project's urls, the API's router.
_ASSEMBLERS = ("urls", "portal.api.main")
# ORM writes by name (a form's .save() is one too); `update` only on a queryset, as dicts have one.
_WRITES = {"save", "delete", "create", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}
_QUERYSET_STEPS = {"objects", "filter", "exclude", "all", "select_for_update", "select_related"}


def is_view_module(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    if name.startswith("portal.api.") and name not in _API_LIBRARY:
        return True
    return last == "views" or last.endswith("_views")


def _is_assembler(name: str) -> bool:
    return name.endswith(".urls") or name == "portal.urls" or name in _ASSEMBLERS


def _receiver_is_queryset(node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in _QUERYSET_STEPS or _receiver_is_queryset(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in _QUERYSET_STEPS or _receiver_is_queryset(node.func.value)
    return False


def writes_in(source: str) -> list[int]:
    """Lines of `source` that write through the ORM or a model form directly."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        attr = node.func.attr
        if attr in _WRITES and not (attr == "delete" and _is_session_or_cache(node.func.value)):
            lines.append(node.lineno)
        elif attr == "update" and _receiver_is_queryset(node.func.value):
            lines.append(node.lineno)
    return lines


def _is_session_or_cache(node: ast.expr) -> bool:
    text = ast.unparse(node)
    return text.endswith(("session", "cache", "response"))


def test_the_write_finder_tells_writes_from_look_alikes():
    assert writes_in("form.save()\nFinding.objects.create(a=1)\nrow.delete()") == [1, 2, 3]
    assert writes_in("Scan.objects.filter(pk=1).update(status='x')") == [1]
    assert writes_in("context.update(x)\nrequest.session.delete('k')\nvalues = {}.get('save')") == []


def test_no_module_imports_a_view_module_but_the_url_configuration():
    known = _modules()
    offenders = sorted(
        f"{name} imports {view}"
        for name, path in known.items()
        if not _is_assembler(name)
        for view in _imports(path, name, known, everywhere=True)
        if is_view_module(view) and view != name
    )
    assert offenders == [], "move what is shared into the app's queries, texts or labels module: " + "; ".join(
        offenders
    )


def test_views_write_only_through_actions():
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for name, path in sorted(_modules().items())
        if name.startswith("portal") and is_view_module(name)
        for line in writes_in(path.read_text(encoding="utf-8"))
    ]
    assert offenders == [], "a view writes directly (call the app's actions instead): " + ", ".join(offenders)
