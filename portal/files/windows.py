"""What a big file's page shows at first paint, and the pieces it loads on demand.

A file page carries its whole source up to FULL_SOURCE_LINES lines (a few hundred KB of highlighted HTML at most).
Above that it shows the first lines and the first MAX_WINDOWS lines with an open finding or an unconverted
reference, each with a few lines of context, and one "gap" row (saying how many findings it holds) for each run of
lines left out; a gap loads its lines through htmx, at most CHUNK_LINES at a time. The HIP translation of such a
file is loaded on demand too, DIFF_PAGE rows at a time.

Both are computed whole and cached in blocks (Django's cache, Redis in production): the highlighting, because
Pygments needs the file from its start to know whether a line is inside a comment or a string; the diff, because
difflib pairs lines over the whole file (seconds for 10,000 lines). A blob's text never changes under its sha, so
the blocks never go stale; a cache that is down costs time, never the page.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from portal.files import render

FULL_SOURCE_LINES = 1_500
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


def shown_ranges(total: int, interesting: set[int]) -> list[tuple[int, int]]:
    """The (start, end) line ranges a big file's first paint shows: its head and the first MAX_WINDOWS
    interesting lines with their context, merged where they touch."""
    wanted = [(1, min(total, HEAD_LINES))] if total else []
    for line in sorted(n for n in interesting if 1 <= n <= total)[:MAX_WINDOWS]:
        wanted.append((max(1, line - CONTEXT_LINES), min(total, line + CONTEXT_LINES)))
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
