"""Renames that depend on a call's arguments, done on tokens the way hipify-clang does them on the AST:

- symbol APIs wrap their symbol argument: `cudaMemcpyToSymbol(coef, ...)` -> `hipMemcpyToSymbol(HIP_SYMBOL(coef), ...)`;
- function arguments cast to `const void*` (cudaFuncSetAttribute, cudaFuncSetCacheConfig, ...):
  `cudaFuncGetAttributes(&a, k)` -> `hipFuncGetAttributes(&a, reinterpret_cast<const void*>(k))`;
- overloads chosen by argument count: `cudaEventCreate(&e, flags)` -> `hipEventCreateWithFlags`,
  `cudaGraphInstantiate(&g, graph, flags)` -> `hipGraphInstantiateWithFlags`.
"""

from __future__ import annotations

from scanner.translate.tokenwalk import Span, byte_range, call_at

Edit = tuple[int, int, bytes]

# Which argument is the device symbol (hipify-clang's HIP_SYMBOL rule).
SYMBOL_ARGUMENT = {
    b"cudaMemcpyToSymbol": 0,
    b"cudaMemcpyToSymbolAsync": 0,
    b"cudaMemcpyFromSymbol": 1,
    b"cudaMemcpyFromSymbolAsync": 1,
    b"cudaGetSymbolSize": 1,
    b"cudaGetSymbolAddress": 1,
    b"cudaGraphAddMemcpyNodeToSymbol": 4,
    b"cudaGraphAddMemcpyNodeFromSymbol": 5,
    b"cudaGraphMemcpyNodeSetParamsToSymbol": 1,
    b"cudaGraphMemcpyNodeSetParamsFromSymbol": 2,
    b"cudaGraphExecMemcpyNodeSetParamsToSymbol": 2,
    b"cudaGraphExecMemcpyNodeSetParamsFromSymbol": 3,
}
# name -> {argument count: HIP name}
BY_ARGUMENT_COUNT = {
    b"cudaEventCreate": {1: b"hipEventCreate", 2: b"hipEventCreateWithFlags"},
    b"cudaGraphInstantiate": {5: b"hipGraphInstantiate", 3: b"hipGraphInstantiateWithFlags"},
}
# Which argument is a kernel passed as a function pointer (HIP takes it as `const void*`).
FUNCTION_ARGUMENT = {
    b"cudaFuncSetCacheConfig": 0,
    b"cudaFuncSetSharedMemConfig": 0,
    b"cudaFuncGetAttributes": 1,
    b"cudaFuncSetAttribute": 0,
}
SPECIAL = frozenset(SYMBOL_ARGUMENT) | frozenset(BY_ARGUMENT_COUNT) | frozenset(FUNCTION_ARGUMENT)


def call_edits(data: bytes, spans: list[Span], i: int, name: bytes) -> tuple[list[Edit], bytes | None]:
    """Extra edits for the call whose name is token i, and a replacement name if the arguments decide it."""
    call = call_at(data, spans, i)
    if call is None:
        return [], None
    args = call[2]
    edits: list[Edit] = []
    rename = BY_ARGUMENT_COUNT.get(name, {}).get(len(args))
    index = SYMBOL_ARGUMENT.get(name)
    if index is not None and index < len(args):
        start, end = byte_range(spans, *args[index])
        if not data[start:end].startswith(b"HIP_SYMBOL("):
            edits += [(start, start, b"HIP_SYMBOL("), (end, end, b")")]
    index = FUNCTION_ARGUMENT.get(name)
    if index is not None and index < len(args):
        start, end = byte_range(spans, *args[index])
        if not data[start:end].startswith(b"reinterpret_cast<"):
            edits += [(start, start, b"reinterpret_cast<const void*>("), (end, end, b")")]
    return edits, rename
