"""`kernel<<<grid, block[, shared[, stream]]>>>(args)` -> `hipLaunchKernelGGL(kernel, dim3(grid), dim3(block),
shared, stream, args)`, as hipify-clang writes it with --hip-kernel-execution-syntax.

- grid and block are wrapped in `dim3(...)` unless their text already starts with `dim3(`;
- a braced grid or block (`{32, 8, 1}`, which nvcc takes and clang's launch syntax does not) becomes `dim3{...}`,
  also when the launch stays `<<<...>>>` (`braced_dims`);
- a missing shared-memory size or stream becomes `0`; separators are `", "`;
- a template kernel (explicit `k<float>` or a kernel declared as a template in this file) is wrapped in
  `HIP_KERNEL_NAME(...)`;
- the edits are structural only (around the pieces), so CUDA names inside grid/stream/arguments are still
  renamed by the token pass.
"""

from __future__ import annotations

from scanner.translate.tokenwalk import (
    COMMENT,
    IDENT,
    PUNCT,
    Span,
    byte_range,
    matching_close,
    next_code,
    prev_code,
    split_arguments,
    text,
)

Edit = tuple[int, int, bytes]


def is_launch(data: bytes, spans: list[Span], i: int) -> bool:
    """Token i is `<<` immediately followed by `<` (the raw C++ lexer splits `<<<`)."""
    if i + 1 >= len(spans):
        return False
    _, off, _ = spans[i]
    nxt = spans[i + 1]
    return nxt[1] == off + 2 and text(data, nxt) == b"<"


def spaced(data: bytes, spans: list[Span], i: int) -> list[Edit]:
    """`k << <grid, block >> > (args)` (Visual Studio's formatter writes launches so; nvcc takes them) -> `k<<<grid,
    block>>>(args)`: clang reads a launch only from `<<<` and `>>>` written together. Token i is `<<`, followed by
    `<` after blanks; nothing else but `operator<< <T>` can follow `<<` with `<` in C++. No edits when the `>> >` closing it is not found
    before the statement ends."""
    j = i + 1
    gap = data[spans[i][1] + 2 : spans[j][1]] if j < len(spans) else b""
    if not gap or gap.strip() or text(data, spans[j]) != b"<":  # `<<<` written together is is_launch's
        return []
    if i and text(data, spans[prev_code(spans, i)]) == b"operator":  # `operator<< <T>(os, x)`
        return []
    for k in range(j + 1, len(spans) - 1):
        tok = text(data, spans[k])
        if tok == b";":
            return []
        if tok == b">>" and text(data, spans[k + 1]) == b">":
            if data[spans[k][1] + 2 : spans[k + 1][1]].strip() or next_code(spans, k + 1) >= len(spans):
                return []
            if text(data, spans[next_code(spans, k + 1)]) != b"(":
                return []
            return [(spans[i][1], spans[j][1] + 1, b"<<<"), (spans[k][1], spans[k + 1][1] + 1, b">>>")]
    return []


def braced_dims(data: bytes, spans: list[Span], i: int) -> list[Edit]:
    """`k<<<grid, {32, 8, 1}>>>(args)` -> `k<<<grid, dim3{32, 8, 1}>>>(args)`: nvcc takes a braced list for the grid
    or the block (it initializes the launch's dim3 parameter), clang's launch syntax takes only expressions. The
    list initializes the same dim3 as it did (list-initialization both ways, so the same narrowing rules); token i
    is the `<<` of a launch."""
    close = _config_end(data, spans, i + 2)
    if close is None:
        return []
    edits = []
    for first, last in _split_config(data, spans, i + 2, close)[:2]:
        if text(data, spans[first]) == b"{" and matching_close(data, spans, first) == last:
            edits.append((spans[first][1], spans[first][1], b"dim3"))
    return edits


def rewrite(data: bytes, spans: list[Span], i: int, template_kernels: frozenset[bytes]) -> list[Edit] | None:
    close = _config_end(data, spans, i + 2)
    if close is None:
        return None
    config = _split_config(data, spans, i + 2, close)
    paren = next_code(spans, close + 1)  # close is `>>`, close + 1 is `>`
    if not (2 <= len(config) <= 4) or paren >= len(spans) or text(data, spans[paren]) != b"(":
        return None
    paren_close = matching_close(data, spans, paren)
    if paren_close is None:
        return None
    name = _kernel_name(data, spans, i)
    if name is None:
        return None
    name_first, name_last, templated = name
    templated = templated or text(data, spans[name_last]) in template_kernels
    name_start, name_end = byte_range(spans, name_first, name_last)
    args = split_arguments(data, spans, paren, paren_close)

    edits: list[Edit] = []
    head = b"hipLaunchKernelGGL(" + (b"HIP_KERNEL_NAME(" if templated else b"")
    edits.append((name_start, name_start, head))
    grid_start, grid_end = byte_range(spans, *config[0])
    block_start, block_end = byte_range(spans, *config[1])
    grid_wrap = not data[grid_start:grid_end].startswith(b"dim3(")
    block_wrap = not data[block_start:block_end].startswith(b"dim3(")
    edits.append((name_end, grid_start, (b")" if templated else b"") + b", " + (b"dim3(" if grid_wrap else b"")))
    edits.append((grid_end, block_start, (b")" if grid_wrap else b"") + b", " + (b"dim3(" if block_wrap else b"")))
    tail = b")" if block_wrap else b""
    last_end = block_end
    for index in (2, 3):
        if index < len(config):
            start, end = byte_range(spans, *config[index])
            edits.append((last_end, start, tail + b", "))
            tail, last_end = b"", end
        else:
            tail += b", 0"
    if args:
        first_arg_start = byte_range(spans, *args[0])[0]
        last_arg_end = byte_range(spans, *args[-1])[1]
        edits.append((last_end, first_arg_start, tail + b", "))
        edits.append((last_arg_end, spans[paren_close][1], b""))
    else:
        edits.append((last_end, spans[paren_close][1], tail))
    return [e for e in edits if e[0] != e[1] or e[2]]


def _config_end(data: bytes, spans: list[Span], start: int) -> int | None:
    """Index of the `>>` of the closing `>>>` at bracket depth 0."""
    depth = 0
    for j in range(start, len(spans)):
        kind, off, _ = spans[j]
        if kind != PUNCT:
            continue
        tok = text(data, spans[j])
        if tok in (b"(", b"[", b"{"):
            depth += 1
        elif tok in (b")", b"]", b"}"):
            depth -= 1
            if depth < 0:
                return None
        elif (
            tok == b">>"
            and depth == 0
            and j + 1 < len(spans)
            and spans[j + 1][1] == off + 2
            and text(data, spans[j + 1]) == b">"
        ):
            return j
        elif tok == b";":
            return None
    return None


def _split_config(data: bytes, spans: list[Span], start: int, close: int) -> list[tuple[int, int]]:
    return split_arguments(data, spans, start - 1, close)


def _kernel_name(data: bytes, spans: list[Span], i: int) -> tuple[int, int, bool] | None:
    """Token range of the kernel expression before `<<<` (qualified, possibly with template arguments)."""
    last = prev_code(spans, i)
    if last < 0:
        return None
    j, templated = last, False
    if text(data, spans[j]) in (b">", b">>"):
        depth = 0
        while j >= 0:
            tok = text(data, spans[j])
            if spans[j][0] == PUNCT:
                depth += tok.count(b">") if set(tok) <= {ord(">")} else 0
                depth -= tok.count(b"<") if set(tok) <= {ord("<")} else 0
            if depth == 0:
                break
            j -= 1
        templated = True
        j = prev_code(spans, j)
    if j < 0 or spans[j][0] != IDENT:
        return None
    first = j
    while True:
        sep = prev_code(spans, first)
        if sep < 0 or text(data, spans[sep]) != b"::":
            break
        before = prev_code(spans, sep)
        if before < 0 or spans[before][0] != IDENT:
            first = sep  # `::kernel`
            break
        first = before
    return first, last, templated


def template_kernels(data: bytes, spans: list[Span]) -> frozenset[bytes]:
    """Names of kernels declared as templates in this file (`template <...> __global__ void name(`)."""
    names = set()
    for i, (kind, off, length) in enumerate(spans):
        if kind != 1 or data[off : off + length] != b"template":
            continue
        seen_global = False
        for j in range(i + 1, min(i + 80, len(spans))):
            tok = text(data, spans[j])
            if tok == b"__global__":
                seen_global = True
            elif tok in (b";", b"{"):
                break
            elif tok == b"(" and seen_global:
                name = prev_code(spans, j)
                if name >= 0 and spans[name][0] == IDENT:
                    names.add(text(data, spans[name]))
                break
    return frozenset(names)


__all__ = ["braced_dims", "is_launch", "rewrite", "template_kernels", "COMMENT"]
