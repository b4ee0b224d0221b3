"""What a big file's page shows at first paint, and the pieces it loads on demand.

A file page carries its whole source and its whole HIP diff when both fit in INLINE_BYTES of HTML (`fits_inline`:
the highlighted lines' exact size plus an estimate of the diff's; highlighted CUDA weighs 3 to 12 times its text, so
the cut is by bytes, not by a count of lines). Above that it shows the first lines and the first MAX_WINDOWS lines
with an open finding (then those with an unconverted reference), each with a few lines of context, as many as fit
in WINDOWED_BYTES, and one "gap" row (saying how many findings it holds) for each run of lines left out; a gap loads
its lines through htmx, at most CHUNK_LINES at a time. The HIP translation of such a file is loaded on demand too,
DIFF_PAGE rows at a time. Both budgets leave room for the rest of the page within the goal of 300 KB at first paint.

Both are computed whole and cached in blocks (Django's cache, Redis in production): the highlighting, because
Pygments needs the file from its start to know whether a line is inside a comment or a string; the diff, because
difflib pairs lines over the whole file (seconds for 10,000 lines). A blob's text never changes under its sha, so
the blocks never go stale; a cache that is down costs time, never the page.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from portal.files import render

# What the source table and the diff may weigh at first paint (the rest of a file page is 20 to 40 KB).
INLINE_BYTES = 240_000
WINDOWED_BYTES = 220_000
# Measured on rendered pages (tests/portal/files/test_big_file_page.py): a source row's markup around its highlighted line,
# an inline finding's row, a diff row's markup, its text's weight once marked and escaped (both sides), the legend.
ROW_BYTES = 90
FINDING_BYTES = 700
DIFF_ROW_BYTES = 200
DIFF_TEXT_FACTOR = 3
DIFF_BASE_BYTES = 2_000
# The rows of the page's table of references without a HIP equivalent (~80 bytes each); the diff marks the others.
UNCONVERTED_SHOWN = 100
HEAD_LINES = 100
CONTEXT_LINES = 5
MAX_WINDOWS = 40
CHUNK_LINES = 500
DIFF_PAGE = 200
_BLOCK_LINES = 500
_CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Gap:
    """Lines start..end (1-based, inclusive) left out of the page, with how many open findings they hold."""

    start: int
    end: int
    findings: int = 0
    is_gap = True  # what the template asks: the other rows are (number, html, findings) tuples

    @property
    def count(self) -> int:
        return self.end - self.start + 1


def shown_ranges(
    total: int,
    interesting: set[int],
    first: set[int] = frozenset(),
    sizes: list[int] | None = None,
    budget: int | None = None,
) -> list[tuple[int, int]]:
    """The (start, end) line ranges a big file's first paint shows: its head and the first MAX_WINDOWS
    interesting lines with their context, those in `first` (lines with findings) before the others, merged where
    they touch. With `sizes` (bytes of each line's rows, from line 1) and a `budget`, the head keeps the lines
    that fit and a window is left out when its new lines do not."""
    spent = 0
    head = min(total, HEAD_LINES)
    if sizes is not None and budget is not None and head:
        keep = 1  # at least the first line
        while keep < head and spent + sizes[keep - 1] + sizes[keep] <= budget:
            spent += sizes[keep - 1]
            keep += 1
        spent += sizes[keep - 1]
        head = keep
    wanted = [(1, head)] if total else []
    covered = set(range(1, head + 1))
    candidates = sorted((n for n in interesting if 1 <= n <= total), key=lambda n: (n not in first, n))
    for line in candidates[:MAX_WINDOWS]:
        window = (max(1, line - CONTEXT_LINES), min(total, line + CONTEXT_LINES))
        new = set(range(window[0], window[1] + 1)) - covered
        if sizes is not None and budget is not None:
            cost = sum(sizes[n - 1] for n in new)
            if spent + cost > budget:
                continue
            spent += cost
        covered |= new
        wanted.append(window)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(wanted):
        if merged and start <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _cache_get_many(keys: list[str]) -> dict:
    try:
        return cache.get_many(keys)
    except Exception:  # noqa: BLE001 - a cache that is down costs time, never the page
        return {}


def _cache_set_many(values: dict) -> None:
    try:
        cache.set_many(values, _CACHE_SECONDS)
    except Exception:  # noqa: BLE001 - as above
        pass


def highlighted_range(source: str, path: str, blob_sha: str, start: int, end: int) -> list[SafeString]:
    """Highlighted HTML of lines start..end of a blob, from cached blocks of the whole file's highlighting."""
    lines = render.split_lines(source)
    end = min(end, len(lines))
    if start > end:
        return []
    if len(source) > render.HIGHLIGHT_MAX_CHARS:
        return [mark_safe(escape(line)) for line in lines[start - 1 : end]]  # escaped just here
    suffix = path.rsplit("/", 1)[-1].rsplit(".", 1)[-1].lower()  # the lexer follows the file's name
    prefix = f"files:hl:{blob_sha}:{suffix}:"
    blocks = range((start - 1) // _BLOCK_LINES, (end - 1) // _BLOCK_LINES + 1)
    found = _cache_get_many([f"{prefix}{b}" for b in blocks]) if blob_sha else {}
    if len(found) < len(blocks):
        every = render.highlighted_lines(source, path)
        found = {
            f"{prefix}{b}": [str(h) for h in every[b * _BLOCK_LINES : (b + 1) * _BLOCK_LINES]]
            for b in range(len(every) // _BLOCK_LINES + 1)
        }
        if blob_sha:
            _cache_set_many(found)
    out: list[SafeString] = []
    for b in blocks:
        first = b * _BLOCK_LINES + 1
        block = found[f"{prefix}{b}"]
        out += [mark_safe(h) for h in block[max(start, first) - first : end - first + 1]]  # Pygments escaped them
    return out


def diff_bytes(source: str, translated: str, unconverted: list) -> int:
    """An estimate of the whole side-by-side diff's HTML, without running difflib: the lines the translation
    changed (counted as a multiset, wherever they are) and those with an unconverted reference, each shown with
    its context, at the file's average line length."""
    old, new = render.split_lines(source), render.split_lines(translated)
    changed = max(sum((Counter(old) - Counter(new)).values()), sum((Counter(new) - Counter(old)).values()))
    marked = len({int(u.get("line", 0) or 0) for u in unconverted})
    if not (changed or marked):
        return 0  # identical: the page says so in one line
    rows = min(max(len(old), len(new)), (changed + marked) * (2 * render.CONTEXT + 1))
    average = len(source.encode()) / max(1, len(old))
    return int(DIFF_BASE_BYTES + rows * (DIFF_ROW_BYTES + DIFF_TEXT_FACTOR * average))


def fits_inline(version, path: str, by_line: dict, with_diff: bool) -> list[SafeString] | None:
    """Every highlighted line of the file when its whole source (and, `with_diff`, its whole diff) fits in
    INLINE_BYTES at first paint; None when the page must show windows and load its translation on demand."""
    source = version.source
    lines = len(render.split_lines(source))
    if len(source.encode()) + lines * ROW_BYTES > INLINE_BYTES:  # escaping alone makes it bigger: no need to look
        return None
    html = highlighted_range(source, path, version.scanned.blob_sha, 1, lines)
    weight = sum(len(h) + ROW_BYTES + FINDING_BYTES * len(by_line.get(n, ())) for n, h in enumerate(html, start=1))
    if with_diff:
        weight += diff_bytes(source, version.translated, version.translation.get("unconverted") or [])
    return html if weight <= INLINE_BYTES else None


def line_sizes(version, path: str, by_line: dict) -> list[int]:
    """What each line of the file weighs on the page (its highlighted HTML, its row, the findings under it); the
    HTML's sizes are cached with its blocks, so a big file's page does not fetch its whole highlighting for them."""
    source, blob_sha = version.source, version.scanned.blob_sha
    total = len(render.split_lines(source))
    suffix = path.rsplit("/", 1)[-1].rsplit(".", 1)[-1].lower()
    key = f"files:hlsize:{blob_sha}:{suffix}"
    found = _cache_get_many([key]).get(key) if blob_sha else None
    if found is None or len(found) != total:
        found = [len(h) for h in highlighted_range(source, path, blob_sha, 1, total)]
        if blob_sha:
            _cache_set_many({key: found})
    return [size + ROW_BYTES + FINDING_BYTES * len(by_line.get(n, ())) for n, size in enumerate(found, start=1)]


def source_rows(version, path: str, ranges: list[tuple[int, int]], by_line: dict, total: int, first: int = 1) -> list:
    """The rows of the source table for lines first..total: (number, html, findings) for the lines in `ranges`
    and a Gap for each run left out."""
    rows: list = []
    previous = first - 1

    def gap(start: int, end: int) -> Gap:
        return Gap(start, end, sum(len(by_line[n]) for n in by_line if start <= n <= end))

    for start, end in ranges:
        if start > previous + 1:
            rows.append(gap(previous + 1, start - 1))
        html = highlighted_range(version.source, path, version.scanned.blob_sha, start, end)
        for n, line in enumerate(html, start=start):
            rows.append((n, line, by_line.get(n, ())))
        previous = end
    if total > previous:
        rows.append(gap(previous + 1, total))
    return rows


def chunk_rows(version, path: str, start: int, end: int, by_line: dict, gap_from: int | None = None) -> list:
    """The rows a gap's "show" loads: lines start..end, CHUNK_LINES at most, then a Gap for the rest. With
    `gap_from` (a link into the middle of a gap), lines gap_from..start-1 stay a Gap before them."""
    total = len(render.split_lines(version.source))
    start, end = max(1, start), min(end, total)
    stop = min(end, start + CHUNK_LINES - 1)
    rows = source_rows(version, path, [(start, stop)], by_line, stop, first=start)
    if gap_from is not None and gap_from < start:
        rows.insert(0, Gap(max(1, gap_from), start - 1))
    if end > stop:
        rows.append(Gap(stop + 1, end))
    return rows


def diff_page(version, unconverted: list, errors: dict | None, offset: int) -> tuple[list[render.Row], int]:
    """DIFF_PAGE side-by-side rows of a version's translation from row `offset` (rounded down to a page), and
    the number of rows in all; the whole diff is computed once and cached a page per key."""
    digest = hashlib.sha256(
        json.dumps([version.scanned.blob_sha, version.translation_sha, unconverted, errors or {}], default=str).encode()
    ).hexdigest()
    prefix = f"files:diff:{render.DIFF_FORMAT}:{digest}:"
    page = offset // DIFF_PAGE
    found = _cache_get_many([f"{prefix}total", f"{prefix}{page}"])
    if len(found) == 2:
        return found[f"{prefix}{page}"], found[f"{prefix}total"]
    rows = render.side_by_side(version.source, version.translated, unconverted, errors=errors)
    pages = {f"{prefix}{n}": rows[n * DIFF_PAGE : (n + 1) * DIFF_PAGE] for n in range(len(rows) // DIFF_PAGE + 1)}
    _cache_set_many({**pages, f"{prefix}total": len(rows)})
    return rows[page * DIFF_PAGE : (page + 1) * DIFF_PAGE], len(rows)
