"""Code that only the first 32 threads of a block reach (shared by the warp rules, not a rule module).

`if (threadIdx.x >= 32) return;` at the top of a function, or a block `if (threadIdx.x < 32) { ... }`, leaves
lanes 32-63 of a 64-lane wavefront out of everything after it (or in it): a ballot or match there has no bit
above 31 to lose, `1u << threadIdx.x` stays below 32, and a shuffle tree from 16 combines all the lanes that
take part. Read on the function's code tokens, so it works with or without a syntax tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scanner.rules.warp import _shapes

# `threadIdx.x`, or a name the function sets from it alone (`const uint32_t tid = threadIdx.x;`).
_THREAD_X = ("threadIdx", ".", "x")
_BELOW = {"<": 0, "<=": 1}  # `t < 32`, `t <= 31`: the bound's offset from 32
_FROM = {">=": 0, ">": 1}  # `t >= 32`, `t > 31`


@dataclass(frozen=True)
class FirstWarp:
    first: int  # the lines only threads 0-31 reach
    last: int
    why: str  # "the return for `threadIdx.x >= 32` on line 245"
    who: str = ""  # the tested value, `threadIdx.x` or a name (`tid`): below 32 in these lines


def regions(ctx, function) -> tuple[FirstWarp, ...]:
    """The parts of `function` (a FunctionInfo) that only threads 0-31 of the block reach, cached per function."""
    if function is None:
        return ()
    key = ("rocport:first-warp", function.start_line, function.end_line)
    cache = ctx.memo
    if key not in cache:
        code = [t for t in ctx.view.code if function.start_line <= t.line <= function.end_line]
        cache[key] = tuple(_regions(code, function.end_line, _shapes.file_values(ctx)))
    return cache[key]


def reached_by_first_warp(ctx, line: int, function=None) -> str:
    """Why only threads 0-31 reach `line` ("the return for `threadIdx.x >= 32` on line 245"), or ""."""
    for region in regions(ctx, function or ctx.function):
        if region.first <= line <= region.last:
            return region.why
    return ""


def tested_below_32(ctx, line: int, text: str) -> str:
    """Why `text` (`tid`, a member the test names as the thread) is below 32 on `line`: a region whose own test
    bounds that very value ("the block under `if (tid < 32)` on line 677"), else ""."""
    for region in regions(ctx, ctx.function):
        if region.first <= line <= region.last and region.who == text:
            return region.why
    return ""


def first_warp_note(lead: str, why: str, consequence: str) -> str:
    """The note's message: what the code does, why only threads 0-31 reach it, and what follows."""
    return f"{lead}. Only threads 0-31 reach this line ({why}). {consequence}: a note only."


def thread_x_names(ctx, function=None) -> frozenset[str]:
    """Names the function sets from `threadIdx.x` alone (`tid = threadIdx.x`): below 32 where only the first warp
    runs."""
    function = function or ctx.function
    if function is None:
        return frozenset()
    texts = [t.text for t in ctx.view.code if function.start_line <= t.line <= function.end_line]
    names = set()
    for i in range(1, len(texts) - 4):
        if texts[i] == "=" and tuple(texts[i + 1 : i + 4]) == _THREAD_X and texts[i + 4] == ";":
            names.add(texts[i - 1])
    return frozenset(names)


def _thread(texts: list[str], names: frozenset[str]) -> str:
    """The tested value when it is the thread's x (`threadIdx.x`, `tid`): its text, else ""."""
    if tuple(texts) == _THREAD_X:
        return "threadIdx.x"
    if len(texts) == 1 and (texts[0] in names or re.fullmatch(r"(?i)tid|tx|thread_?id(?:x|_x)?", texts[0])):
        return texts[0]
    return ""


def _test(texts: list[str], values: dict[str, int], names: frozenset[str]) -> tuple[str, str]:
    """(`below` | `from`, the thread's text) for `t < 32`, `t >= 32`, `32 <= t`..., else ("", ""). A `t < 32`
    among the top-level `&&` of a longer test (`tid < 32 && (1u << tid) < nranks`) is below too: a thread
    past 31 never passes it."""
    if "&&" in texts and "||" not in texts:
        for conjunct in _conjuncts(texts):
            sense, who = _test(conjunct, values, names)
            if sense == "below":
                return sense, who
        return "", ""
    for op in ("<=", ">=", "<", ">"):
        if texts.count(op) != 1:
            continue
        at = texts.index(op)
        left, right = texts[:at], texts[at + 1 :]
        flipped = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}[op]
        for thread, bound, sense in ((left, right, op), (right, left, flipped)):
            value = _shapes.number("".join(bound), values) if len(bound) == 1 else None
            who = _thread(thread, names)
            if value is None or not who:
                continue
            if sense in _BELOW and value + _BELOW[sense] == 32:
                return "below", who
            if sense in _FROM and value + _FROM[sense] == 32:
                return "from", who
    return "", ""


def _conjuncts(texts: list[str]) -> list[list[str]]:
    """The operands of the top-level `&&`s, each without its outer parentheses."""
    out, current, depth = [], [], 0
    for text in texts:
        depth += {"(": 1, ")": -1}.get(text, 0)
        if text == "&&" and depth == 0:
            out.append(current)
            current = []
        else:
            current.append(text)
    out.append(current)
    stripped = []
    for part in out:
        while len(part) > 2 and part[0] == "(" and part[-1] == ")" and _close_at(part) == len(part) - 1:
            part = part[1:-1]
        stripped.append(part)
    return stripped


def _close_at(texts: list[str]) -> int:
    depth = 0
    for k, text in enumerate(texts):
        depth += {"(": 1, ")": -1}.get(text, 0)
        if depth == 0:
            return k
    return -1


def _close(code, at: int, opener: str, closer: str) -> int:
    depth = 0
    for j in range(at, len(code)):
        if code[j].text == opener:
            depth += 1
        elif code[j].text == closer:
            depth -= 1
            if depth == 0:
                return j
    return -1


def _regions(code, end_line: int, values: dict[str, int]):
    names = frozenset(
        code[i - 1].text
        for i in range(1, len(code) - 4)
        if code[i].text == "=" and tuple(t.text for t in code[i + 1 : i + 4]) == _THREAD_X
    )
    body = next((i for i, t in enumerate(code) if t.text == "{"), -1)
    depth = 0
    for i, tok in enumerate(code):
        if tok.text == "{":
            depth += 1
        elif tok.text == "}":
            depth -= 1
        if tok.text != "if" or i + 1 >= len(code) or code[i + 1].text != "(" or i < body:
            continue
        close = _close(code, i + 1, "(", ")")
        if close < 0:
            continue
        sense, who = _test([t.text for t in code[i + 2 : close]], values, names)
        after = code[close + 1] if close + 1 < len(code) else None
        if sense == "below" and after is not None and after.text == "{":
            end = _close(code, close + 1, "{", "}")
            if end > 0:
                yield FirstWarp(
                    after.line, code[end].line, f"the block under `if ({who} < 32)` on line {tok.line}", who
                )
        elif sense == "from" and depth == 1 and after is not None:
            # `return;`, `return 0.f;` or `{ return; }` right after the test, at the function body's own level
            rest = [t.text for t in code[close + 1 : close + 3]]
            if rest[:1] == ["return"] or rest == ["{", "return"]:
                yield FirstWarp(tok.line + 1, end_line, f"the return for `{who} >= 32` on line {tok.line}", who)
