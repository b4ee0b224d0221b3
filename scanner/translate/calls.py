"""Renames and rewrites that depend on a call's arguments, done on tokens the way hipify-clang does them on the AST.

The rewrites are HIPIFY's own table (`FuncArgCasts` of its HipifyAction.cpp, kept as data in
scanner/data/hipify_arg_casts.tsv by scripts/extract_hipify_arg_casts.py):

- symbol APIs wrap their symbol argument: `cudaMemcpyToSymbol(coef, ...)` -> `hipMemcpyToSymbol(HIP_SYMBOL(coef), ...)`;
- kernels passed as function pointers are cast: `cudaLaunchKernel(k, ...)` -> `hipLaunchKernel(reinterpret_cast<const
  void*>(k), ...)`; size pointers likewise (`reinterpret_cast<size_t*>`);
- arguments added, removed, replaced, copied or moved where HIP's signature differs: `cudaMallocHost(&p, n)` ->
  `hipHostMalloc(&p, n, hipHostMallocDefault)`; with roc* names, rocSPARSE's solve and analysis policies;
- overloads chosen by argument count: `cudaEventCreate(&e, flags)` -> `hipEventCreateWithFlags`,
  `cudaGraphInstantiate(&g, graph, flags)` -> `hipGraphInstantiateWithFlags`.

A table row applies to the translation it was written for: hip* names, or roc* names (`-roc`, which also takes
cuDNN to MIOpen, whose argument orders differ: HIPIFY's MIOpen rows apply there).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

from scanner.translate.tokenwalk import COMMENT, Span, byte_range, call_at, text

Edit = tuple[int, int, bytes]

# name -> {argument count: HIP name}
BY_ARGUMENT_COUNT = {
    b"cudaEventCreate": {1: b"hipEventCreate", 2: b"hipEventCreateWithFlags"},
    b"cudaGraphInstantiate": {5: b"hipGraphInstantiate", 3: b"hipGraphInstantiateWithFlags"},
}
_CASTS = {
    "e_HIP_SYMBOL": b"HIP_SYMBOL",
    "e_reinterpret_cast": b"reinterpret_cast<const void*>",
    "e_reinterpret_cast_size_t": b"reinterpret_cast<size_t*>",
    "e_static_cast_uint64_t": b"static_cast<uint64_t>",
    "e_int32_t": b"int32_t",
    "e_int64_t": b"int64_t",
}


@dataclass(frozen=True)
class Rewrite:
    argument: int
    kind: str  # one of _CASTS, or e_remove_argument, e_add_const_argument, e_add_var_argument, e_move_argument,
    # e_replace_argument_with_const
    value: bytes = b""
    move_to: int = 0
    count: int = 1


@functools.cache
def rewrites() -> dict[tuple[bytes, bool], tuple[Rewrite, ...]]:
    """(CUDA function, roc names) -> its argument rewrites, from HIPIFY's table (MIOpen rows with roc names)."""
    table: dict[tuple[bytes, bool], list[Rewrite]] = {}
    text = resources.files("scanner.data").joinpath("hipify_arg_casts.tsv").read_text(encoding="utf-8")
    for line in text.splitlines()[2:]:
        function, roc, miopen, argument, kind, value, move_to, count = line.split("\t")
        rewrite = Rewrite(int(argument), kind, value.encode(), int(move_to or 0), int(count or 1))
        table.setdefault((function.encode(), roc == "1" or miopen == "1"), []).append(rewrite)
    return {key: tuple(rows) for key, rows in table.items()}


@functools.cache
def special() -> frozenset[bytes]:
    """The CUDA names whose calls need call_edits."""
    return frozenset(BY_ARGUMENT_COUNT) | frozenset(name for name, _ in rewrites())


def call_edits(
    data: bytes, spans: list[Span], i: int, name: bytes, roc: bool = False
) -> tuple[list[Edit], bytes | None]:
    """Extra edits for the call whose name is token i, and a replacement name if the arguments decide it."""
    call = call_at(data, spans, i)
    if call is None:
        return [], None
    _, close, args = call
    args = _join_template_ids(data, spans, args)
    rename = BY_ARGUMENT_COUNT.get(name, {}).get(len(args))
    edits: list[Edit] = []
    ranges = [byte_range(spans, *arg) for arg in args]
    end_of_call = spans[close][1]
    for rewrite in rewrites().get((name, roc), ()):
        edits += _edits(data, rewrite, ranges, end_of_call)
    return edits, rename


def _join_template_ids(data: bytes, spans: list[Span], args: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Arguments split at the commas of a template-id (`cudaFuncSetAttribute(&kernel<TILE_H, 1>, ...)`) joined
    again: an argument of the shape `&name<` or `name<` whose `<` the following pieces close, up to a `>`."""
    out: list[tuple[int, int]] = []
    k = 0
    while k < len(args):
        first, last = args[k]
        words = [text(data, spans[j]) for j in range(first, last + 1) if spans[j][0] != COMMENT]
        if words[:1] == [b"&"]:
            words = words[1:]
        opens = words[1:2] == [b"<"] and _is_identifier(words[0])
        depth = _angle_depth(words) if opens else 0
        end = k
        while depth > 0 and end + 1 < len(args):
            end += 1
            depth += _angle_depth([text(data, spans[j]) for j in range(args[end][0], args[end][1] + 1)])
        if opens and depth == 0 and end > k:
            out.append((first, args[end][1]))
            k = end + 1
            continue
        out.append(args[k])
        k += 1
    return out


def _is_identifier(word: bytes) -> bool:
    return word[:1].isalpha() or word[:1] == b"_"


def _angle_depth(words: list[bytes]) -> int:
    return sum({b"<": 1, b">": -1, b">>": -2}.get(w, 0) for w in words)


def _edits(data: bytes, rewrite: Rewrite, ranges: list[tuple[int, int]], end_of_call: int) -> list[Edit]:
    n, index = len(ranges), rewrite.argument
    kind = rewrite.kind
    if kind in _CASTS:
        if index >= n:
            return []
        start, end = ranges[index]
        cast = _CASTS[kind]
        if data[start:end].startswith(cast + b"(") or data[start:end].startswith(b"reinterpret_cast<"):
            return []
        return [(start, start, cast + b"("), (end, end, b")")]
    if kind == "e_add_const_argument":
        if index < n:
            return [(ranges[index][0], ranges[index][0], rewrite.value + b", ")]
        return [(end_of_call, end_of_call, b", " + rewrite.value)] if n else [(end_of_call, end_of_call, rewrite.value)]
    if index >= n:
        return []
    if kind == "e_replace_argument_with_const":
        return [(*ranges[index], rewrite.value)]
    if kind == "e_remove_argument":
        # the argument and the comma after it (or, for the last one, the comma before it)
        if index + 1 < n:
            return [(ranges[index][0], ranges[index + 1][0], b"")]
        return [(ranges[index - 1][1], ranges[index][1], b"")] if index else [(ranges[index][0], ranges[index][1], b"")]
    last = min(index + rewrite.count, n) - 1
    text = data[ranges[index][0] : ranges[last][1]]
    if rewrite.move_to < n:
        place = ranges[rewrite.move_to][0]
        insert = [(place, place, text + b", ")]
    else:
        insert = [(end_of_call, end_of_call, b", " + text)]
    if kind == "e_add_var_argument":
        return insert
    if kind == "e_move_argument":
        cut_end = ranges[last + 1][0] if last + 1 < n else ranges[last][1]
        cut_start = ranges[index][0] if last + 1 < n else (ranges[index - 1][1] if index else ranges[index][0])
        return [*insert, (cut_start, cut_end, b"")]
    return []
