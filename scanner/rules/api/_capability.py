"""Whether a unified-memory hint runs only where the device reports it can migrate pages (ROC163). Not a rule.

Read from tokens, within the function around the call: an enclosing `if (...)` (braced or not) whose condition
tests a page-migration capability, or an earlier `if (!capability) return;` (or `continue`, `break`, `throw`)
that leaves before the call. A capability is the property or attribute itself (`prop.concurrentManagedAccess`,
`cudaDevAttrConcurrentManagedAccess`, `CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS`, the pageable-memory
ones), a variable the file fills from `cudaDeviceGetAttribute(&v, <that attribute>, dev)`, or a variable whose
name says so (`concurrent_managed`, `supports_prefetch`). A negated check's block leaves when a `return`,
`exit(...)` or `throw` stands at its top level (`if (!cap) { printf(...); exit(EXIT_WAIVED); }`).

A program may also select its devices elsewhere (`program_gate`): a device-selection function of the file keeps
only devices whose capability test passes, and the function holding the call leaves (`exit(EXIT_WAIVED)`, a
`return`) in a branch that says it waives the run, or names the capability, before the call.
"""

from __future__ import annotations

import re

from scanner.parsing.tokens import Token

_CAPABILITY_NAMES = frozenset(
    {
        "concurrentManagedAccess",
        "pageableMemoryAccess",
        "pageableMemoryAccessUsesHostPageTables",
        "cudaDevAttrConcurrentManagedAccess",
        "cudaDevAttrPageableMemoryAccess",
        "cudaDevAttrPageableMemoryAccessUsesHostPageTables",
        "CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS",
        "CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS",
        "hipDeviceAttributeConcurrentManagedAccess",
        "hipDeviceAttributePageableMemoryAccess",
    }
)
_ATTRIBUTE_QUERIES = frozenset({"cudaDeviceGetAttribute", "cuDeviceGetAttribute", "hipDeviceGetAttribute"})
# A project's own flag for the same capability.
_CAPABILITY_VARIABLE = re.compile(
    r"(?i)concurrent_?managed|managed_?access|pageable_?(memory_?)?access|supports?_?(prefetch|uvm|managed)|"
    r"(prefetch|uvm)_?supported|can_?prefetch"
)
_LEAVES = frozenset({"return", "continue", "break", "throw", "exit", "_exit", "quick_exit", "abort"})
_PROGRAM_EXITS = frozenset({"return", "throw", "exit", "_exit", "quick_exit", "abort"})
# What a leaving branch says when it leaves for want of the capability: cuda-samples' EXIT_WAIVED, a message.
_WAIVES = re.compile(r"(?i)waiv|concurrent_?managed_?access|pageable_?memory_?access|managed memory")
# How far back to look: a function's worth of tokens.
_REACH = 3000


def capability_gate(ctx, tok: Token) -> str:
    """The capability test (`prop.concurrentManagedAccess`) that the call at `tok` runs under, or ""."""
    view = ctx.view
    code = view.code
    i = view.index(tok)
    if i < 0:
        return ""
    flags = _attribute_flags(ctx)
    depth = 0
    for j in range(i - 1, max(i - _REACH, -1), -1):
        text = code[j].text
        if text == "}":
            depth += 1
        elif text == "{" and depth > 0:
            depth -= 1
        elif text == "{":  # the block holding the call opens here
            if _function_body(code, j - 1):
                return ""
            condition = _if_condition(code, j - 1)
            if condition is not None:
                gate = _capability(condition, flags)
                if gate and not _negated(condition):
                    return gate  # `if (cap) { ... cudaMemPrefetchAsync(...); }`
            elif j > 0 and code[j - 1].text == "else":
                condition = _else_of(code, j - 2)
                gate = _capability(condition or [], flags)
                if gate and _negated(condition):
                    return gate  # `if (!cap) { ... } else { ... cudaMemPrefetchAsync(...); }`
        elif text == "if" and depth == 0 and j + 1 < len(code) and code[j + 1].text == "(":
            close = _matching_close(code, j + 1)
            if close is None or close >= i:
                continue
            condition = code[j + 2 : close]
            gate = _capability(condition, flags)
            if not gate:
                continue
            braceless = close + 1 < len(code) and code[close + 1].text != "{"
            if not _negated(condition) and braceless and _statement_end(code, close + 1) >= i:
                return gate  # `if (cap) cudaMemPrefetchAsync(...);`
            if _negated(condition) and _leaves(code, close + 1):
                return gate  # `if (!cap) return;` before the call
    return ""


def _statement_end(code: list[Token], k: int) -> int:
    """The index of the `;` that ends the statement starting at k (a braceless if's body)."""
    depth = 0
    for m in range(k, min(k + 400, len(code))):
        text = code[m].text
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
            if depth < 0:
                return m
        elif text == ";" and depth == 0:
            return m
    return k


def _else_of(code: list[Token], k: int) -> list[Token] | None:
    """The condition of the if whose braced block ends with the `}` at code[k] (the `else` follows it)."""
    if k < 0 or code[k].text != "}":
        return None
    depth = 0
    for m in range(k, max(k - _REACH, -1), -1):
        text = code[m].text
        if text == "}":
            depth += 1
        elif text == "{":
            depth -= 1
            if depth == 0:
                return _if_condition(code, m - 1)
    return None


def _leaves(code: list[Token], k: int) -> bool:
    """The statement at k (a braceless body, or a braced block with a leave at its top level) leaves."""
    if k >= len(code):
        return False
    if code[k].text != "{":
        return code[k].text in _LEAVES
    depth = 0
    for m in range(k, min(k + 400, len(code))):
        text = code[m].text
        if text == "{":
            depth += 1
        elif text == "}":
            depth -= 1
            if depth == 0:
                return False
        elif depth == 1 and text in _LEAVES and (m == k + 1 or code[m - 1].text in (";", "{", "}", "::")):
            return True
    return False


def program_gate(ctx, tok: Token) -> str:
    """The capability a device-selection test of the file checks (`deviceProp.concurrentManagedAccess`), when the
    function holding the call at `tok` leaves earlier in a branch that waives the run or names the capability; ""
    otherwise."""
    view = ctx.view
    code = view.code
    i = view.index(tok)
    tested = _tested_capability(ctx, i)
    if not tested or i < 0:
        return ""
    start = _function_start(code, i)
    for k in range(start, i):
        if code[k].text not in _PROGRAM_EXITS:
            continue
        block = _enclosing_block(code, k, start)
        if block is None or block[1] >= i:
            continue
        inside = code[block[0] : block[1]]
        if any(t.text == "EXIT_WAIVED" or (t.kind == "literal" and _WAIVES.search(t.text)) for t in inside):
            return tested
    return ""


def _tested_capability(ctx, i: int) -> str:
    """The capability an `if` condition of the file tests, the last one before code[i] if any, or ""."""
    memo = ctx.memo
    tests = memo.get("roc163_tests")
    if tests is None:
        code = ctx.view.code
        flags = _attribute_flags(ctx)
        tests = []
        for k, t in enumerate(code[:-1]):
            if t.text == "if" and code[k + 1].text == "(":
                close = _matching_close(code, k + 1)
                tested = _capability(code[k + 2 : close], flags) if close else ""
                if tested:
                    tests.append((k, tested))
        memo["roc163_tests"] = tests
    before = [tested for k, tested in tests if k < i]
    return before[-1] if before else (tests[0][1] if tests else "")


def _function_start(code: list[Token], i: int) -> int:
    """The index just inside the body of the function holding code[i] (0 when none is found)."""
    depth = 0
    for j in range(i - 1, -1, -1):
        text = code[j].text
        if text == "}":
            depth += 1
        elif text == "{":
            if depth > 0:
                depth -= 1
            elif _function_body(code, j - 1):
                return j + 1
    return 0


def _enclosing_block(code: list[Token], k: int, start: int) -> tuple[int, int] | None:
    """(`{` index, `}` index) of the innermost braced block around code[k] inside the function, or None."""
    depth = 0
    for j in range(k - 1, start - 1, -1):
        text = code[j].text
        if text == "}":
            depth += 1
        elif text == "{":
            if depth == 0:
                break
            depth -= 1
    else:
        return None
    depth = 0
    for m in range(j, len(code)):
        text = code[m].text
        if text == "{":
            depth += 1
        elif text == "}":
            depth -= 1
            if depth == 0:
                return j, m
    return None


def _negated(condition) -> bool:
    """`!cap`, `cap == 0`: the condition holds where the capability is missing."""
    if not condition:
        return False
    return condition[0].text == "!" or any(
        t.text == "==" and k + 1 < len(condition) and condition[k + 1].text in ("0", "false")
        for k, t in enumerate(condition)
    )


def _capability(condition: list[Token], flags: frozenset[str]) -> str:
    for k, t in enumerate(condition):
        if t.kind != "identifier":
            continue
        if t.text in _CAPABILITY_NAMES or t.text in flags or _CAPABILITY_VARIABLE.search(t.text):
            member = k >= 2 and condition[k - 1].text in (".", "->")
            return condition[k - 2].text + condition[k - 1].text + t.text if member else t.text
    return ""


def _opening_paren(code: list[Token], close: int) -> int | None:
    """The index of the `(` that the `)` at `close` closes (looking back at most 400 tokens), or None."""
    depth = 0
    for k in range(close, max(close - 400, -1), -1):
        text = code[k].text
        if text == ")":
            depth += 1
        elif text == "(":
            depth -= 1
            if depth == 0:
                return k
    return None


def _if_condition(code: list[Token], close: int) -> list[Token] | None:
    """The condition of `if (...)` whose `)` is at `close`, or None when that is not an if's."""
    if close < 0 or code[close].text != ")":
        return None
    k = _opening_paren(code, close)
    return code[k + 1 : close] if k is not None and k > 0 and code[k - 1].text == "if" else None


def _function_body(code: list[Token], k: int) -> bool:
    """Whether the `{` after code[k] opens a function body (`) {`, `) const {`), not a block of a statement."""
    while k >= 0 and code[k].text in ("const", "noexcept", "override", "final"):
        k -= 1
    if k < 0 or code[k].text != ")":
        return False
    m = _opening_paren(code, k)
    return m is not None and m > 0 and code[m - 1].text not in ("if", "for", "while", "switch", "catch")


def _matching_close(code: list[Token], open_index: int) -> int | None:
    depth = 0
    for k in range(open_index, min(open_index + 400, len(code))):
        text = code[k].text
        if text == "(":
            depth += 1
        elif text == ")":
            depth -= 1
            if depth == 0:
                return k
    return None


def _attribute_flags(ctx) -> frozenset[str]:
    """Variables the file fills from an attribute query for a capability: `cudaDeviceGetAttribute(&v, attr, d)`."""
    memo = ctx.memo
    flags = memo.get("roc163_flags")
    if flags is None:
        code = ctx.view.code
        found = set()
        for k, t in enumerate(code[:-5]):
            if t.text not in _ATTRIBUTE_QUERIES or code[k + 1].text != "(":
                continue
            args = code[k + 2 : k + 12]
            names = [a.text for a in args]
            if names[:1] == ["&"] and len(names) >= 4 and names[2] == "," and names[3] in _CAPABILITY_NAMES:
                found.add(names[1])
        flags = memo["roc163_flags"] = frozenset(found)
    return flags
