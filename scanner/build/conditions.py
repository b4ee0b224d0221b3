"""CMake's `if()` conditions, evaluated three-valued (True, False, None: cannot tell) for a Linux x86-64 host.

https://cmake.org/cmake/help/latest/command/if.html: constants, variables, unary and binary tests, NOT, AND, OR,
parentheses, in that precedence. A value the build cannot know without running (a find_package() result, an
option given on the command line that the files never set) is None, never a guess.
"""

from __future__ import annotations

import re

_TRUE = {"1", "ON", "YES", "TRUE", "Y"}
_FALSE = {"0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND", ""}
_UNARY = {"DEFINED", "EXISTS", "COMMAND", "TARGET", "POLICY", "IS_DIRECTORY", "IS_ABSOLUTE", "TEST"}
_BINARY = {
    "STREQUAL",
    "EQUAL",
    "LESS",
    "GREATER",
    "LESS_EQUAL",
    "GREATER_EQUAL",
    "STRLESS",
    "STRGREATER",
    "MATCHES",
    "VERSION_LESS",
    "VERSION_GREATER",
    "VERSION_EQUAL",
    "VERSION_LESS_EQUAL",
    "VERSION_GREATER_EQUAL",
    "IN_LIST",
}
# Variables that name the platform: a branch false because of them is "for another platform".
PLATFORM_WORDS = re.compile(
    r"\b(?:WIN32|MSVC|APPLE|MINGW|CYGWIN|ANDROID|IOS|QNX|CMAKE_SYSTEM_NAME|CMAKE_SYSTEM_PROCESSOR|"
    r"CMAKE_HOST_SYSTEM_PROCESSOR|CMAKE_HOST_WIN32|CMAKE_HOST_APPLE|OS|aarch64|arm64|Windows_NT|Darwin|"
    r"CMAKE_CROSSCOMPILING|TEGRA|JETSON|UNAME|uname)\b",
    re.I,
)

UNKNOWN = object()  # a variable whose value the build only knows when it runs


class Scope:
    """Variables: a value, UNKNOWN, or absent (undefined)."""

    def __init__(self, values: dict | None = None, parent: Scope | None = None):
        self.values = dict(parent.values if parent else {})
        if values:
            self.values.update(values)

    def get(self, name: str):
        return self.values.get(name)


def _truth(word: str, scope: Scope, quoted: bool):
    upper = word.upper()
    if upper in _TRUE:
        return True
    if upper in _FALSE or upper.endswith("-NOTFOUND"):
        return False
    if quoted:
        return False
    if re.fullmatch(r"-?\d+(\.\d+)*", word):
        return word not in ("0",)
    value = scope.get(word)
    if value is UNKNOWN:
        return None
    if value is None:
        # Undefined in every file read: false in the default configuration, but a user may give it with -D, so
        # it cannot be told (the platform's own variables are defined by scanner.build.cmake's host).
        return None
    value_upper = value.upper()
    return not (value_upper in _FALSE or value_upper.endswith("-NOTFOUND"))


def _value(word: str, scope: Scope, quoted: bool):
    if quoted:
        return word
    value = scope.get(word)
    if value is UNKNOWN:
        return None
    return word if value is None else value


def _version(text: str) -> tuple:
    return tuple(int(p) if p.isdigit() else 0 for p in re.split(r"[.]", text.strip()) if p != "")


def _binary(op: str, left, right):
    if left is None or right is None:
        return None
    if op == "STREQUAL":
        return left == right
    if op == "MATCHES":
        try:
            return re.search(right, left) is not None
        except re.error:
            return None
    if op == "IN_LIST":
        return None  # needs the list variable itself: handled by the caller
    if op.startswith("VERSION_"):
        a, b = _version(left), _version(right)
        width = max(len(a), len(b))
        a, b = a + (0,) * (width - len(a)), b + (0,) * (width - len(b))
        return {
            "VERSION_LESS": a < b,
            "VERSION_GREATER": a > b,
            "VERSION_EQUAL": a == b,
            "VERSION_LESS_EQUAL": a <= b,
            "VERSION_GREATER_EQUAL": a >= b,
        }[op]
    if op.startswith("STR"):
        return left < right if op == "STRLESS" else left > right
    try:
        a, b = float(left), float(right)
    except ValueError:
        return None
    return {
        "EQUAL": a == b,
        "LESS": a < b,
        "GREATER": a > b,
        "LESS_EQUAL": a <= b,
        "GREATER_EQUAL": a >= b,
    }[op]


def evaluate(args: list[tuple[str, bool]], scope: Scope, exists=lambda path: None):
    """`args`: the if()'s arguments as (text, quoted), variables not yet expanded except `${}` references."""
    items: list = list(args)
    # Parentheses first, innermost out.
    while True:
        opens = [i for i, (w, q) in enumerate(items) if isinstance(w, str) and w == "(" and not q]
        if not opens:
            break
        start = opens[-1]
        end = next((i for i in range(start + 1, len(items)) if items[i] == (")", False)), None)
        if end is None:
            return None
        items[start : end + 1] = [(_Result(_flat(items[start + 1 : end], scope, exists)), False)]
    return _flat(items, scope, exists)


class _Result:
    def __init__(self, value):
        self.value = value


def _flat(items: list, scope: Scope, exists):
    items = list(items)
    # Unary tests.
    i = 0
    while i < len(items):
        word, quoted = items[i]
        if isinstance(word, str) and not quoted and word in _UNARY and i + 1 < len(items):
            operand = items[i + 1][0]
            if word == "DEFINED":
                name = operand[4:-1] if operand.startswith("ENV{") else operand
                value = scope.get(name)
                result = None if value is UNKNOWN else value is not None
            elif word == "EXISTS" or word == "IS_DIRECTORY":
                result = exists(operand)
            else:
                result = None  # COMMAND / TARGET / POLICY / TEST: what the build defines as it runs
            items[i : i + 2] = [(_Result(result), False)]
        i += 1
    # Binary tests.
    i = 1
    while i < len(items) - 1:
        word, quoted = items[i]
        if isinstance(word, str) and not quoted and word in _BINARY:
            left_word, left_quoted = items[i - 1]
            right_word, right_quoted = items[i + 1]
            if isinstance(left_word, _Result) or isinstance(right_word, _Result):
                result = None
            elif word == "IN_LIST":
                listed = scope.get(right_word)
                element = _value(left_word, scope, left_quoted)
                result = None if listed is UNKNOWN or element is None else element in (listed or "").split(";")
            elif word == "MATCHES":
                result = _binary(word, _value(left_word, scope, left_quoted), right_word)
            else:
                result = _binary(word, _value(left_word, scope, left_quoted), _value(right_word, scope, right_quoted))
            items[i - 1 : i + 2] = [(_Result(result), False)]
            continue
        i += 1
    # NOT, then AND, then OR.
    values: list = []
    ops: list[str] = []
    negate = 0
    for word, quoted in items:
        if isinstance(word, str) and not quoted and word == "NOT":
            negate += 1
            continue
        if isinstance(word, str) and not quoted and word in ("AND", "OR"):
            ops.append(word)
            continue
        value = word.value if isinstance(word, _Result) else _truth(word, scope, quoted)
        for _ in range(negate):
            value = None if value is None else not value
        negate = 0
        values.append(value)
    if not values:
        return False
    # AND binds tighter than OR.
    groups: list[list] = [[values[0]]]
    for op, value in zip(ops, values[1:], strict=False):
        if op == "AND":
            groups[-1].append(value)
        else:
            groups.append([value])
    return _any([_all(group) for group in groups])


def _all(values: list):
    if any(v is False for v in values):
        return False
    return None if any(v is None for v in values) else True


def _any(values: list):
    if any(v is True for v in values):
        return True
    return None if any(v is None for v in values) else False
