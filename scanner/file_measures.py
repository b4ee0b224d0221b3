"""What a scan measures of one file besides its findings: the CUDA names it references (counted as hipify-clang's
statistics count them) and how much of its code the syntax tree covers (the parse-health figure)."""

from __future__ import annotations

from scanner.model import FileStats
from scanner.parsing.tokens import IDENT, TokenView


def count_references(view: TokenView, stats: FileStats, names) -> None:
    """CUDA references by name-table kind, as hipify-clang's statistics count them."""
    counts: dict[str, int] = {}
    for tok in view.code:
        if tok.kind != IDENT:
            continue
        entry = names.by_name.get(tok.text)
        if entry is not None:
            kind = entry.kind or "unsupported"
            counts[kind] = counts.get(kind, 0) + 1
    for include in view.includes:
        entry = names.headers.get(include.header)
        if entry is not None:
            counts[entry.kind] = counts.get(entry.kind, 0) + 1
    stats.cuda_refs = dict(sorted(counts.items()))
    stats.cuda_refs_total = sum(counts.values())


def ast_coverage(roots, view: TokenView, skipped: list[tuple[int, int]]) -> float:
    """Share of the lines holding code (outside inactive #if branches) that some AST declaration spans."""
    inactive = {line for start, end in skipped for line in range(start, end + 1)}
    code_lines = {tok.line for tok in view.code} - inactive
    if not code_lines:
        return 1.0
    covered = set()
    for root in roots:
        covered.update(range(root.line, root.end_line + 1))
    return len(code_lines & covered) / len(code_lines)
