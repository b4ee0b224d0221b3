"""Browser tests wait with a function, never a bare expression. Playwright's `wait_for_function("expr")` runs
`eval(expr)` again on every poll, and the portal's Content-Security-Policy (`script-src 'self'`, no
'unsafe-eval') refuses every eval after the first: such a wait passes when the page is already there and fails
with an EvalError when it has to poll. A function (`"n => ..."`) is evaluated once and then called."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _expression_waits(source: str) -> list[int]:
    """Lines of `*.wait_for_function(<string>)` calls whose string is not an arrow or `function` expression."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "wait_for_function"
            and node.args
        ):
            continue
        first = node.args[0]
        if isinstance(first, ast.JoinedStr):
            lines.append(node.lineno)  # an f-string builds an expression; pass values with arg= instead
        elif isinstance(first, ast.Constant) and isinstance(first.value, str):
            text = first.value.strip()
            head = text.split("=>", 1)[0] if "=>" in text else ""
            is_arrow = bool(head) and ("(" not in head or head.lstrip().startswith("(")) and "." not in head
            if not (is_arrow or text.startswith("function") or text.startswith("async")):
                lines.append(node.lineno)
    return lines


def test_the_check_tells_a_function_from_an_expression():
    assert _expression_waits('page.wait_for_function("pk => !!document.querySelector(pk)", arg=1)') == []
    assert _expression_waits('page.wait_for_function("(a, b) => a < b", arg=[1, 2])') == []
    assert _expression_waits("page.wait_for_function(\"document.title === 'x'\")") == [1]
    assert _expression_waits('page.wait_for_function(f"rows().length < {n}")') == [1]
    assert _expression_waits('page.wait_for_function("f(x => x > 1)")') == [1]


def test_no_browser_test_waits_on_an_expression():
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for line in _expression_waits(path.read_text(encoding="utf-8"))
    ]
    assert offenders == [], "wait_for_function with an expression (CSP refuses its eval on each poll): " + ", ".join(
        offenders
    )
