"""Turning stored text into what the file page shows: highlighted source lines (Pygments) and the side-by-side
view of the HIP translation (difflib), with converted and unconverted references marked.

Safety: the highlighted lines are Pygments' HtmlFormatter output, which escapes every character of the source
(& < > " '); files too large to highlight are escaped by Django's `escape`. The diff rows are plain strings
split into segments and escaped by the template's autoescaping: nothing of the user's file is marked safe here
without having been escaped first.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from itertools import zip_longest

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_by_name, get_lexer_for_filename
from pygments.util import ClassNotFound

# Above this, highlighting costs more than it helps (Pygments runs ~1 MB/s on C++): plain escaped text.
HIGHLIGHT_MAX_CHARS = 400_000
# The side-by-side view pairs lines with difflib (quadratic in the worst case): bigger files show only counts.
DIFF_MAX_LINES = 20_000
CONTEXT = 3
# The version of Row's shape, part of the cache key of computed diffs (portal.files.windows): bump it on a change.
DIFF_FORMAT = 1

_LEXER_BY_SUFFIX = {
    ".cu": "cuda",
    ".cuh": "cuda",
    ".hip": "cpp",
    ".h": "cpp",
    ".hpp": "cpp",
    ".inl": "cpp",
    ".ptx": "text",
}
_WORDS = re.compile(r"\w+|\s+|[^\w\s]")


def split_lines(text: str) -> list[str]:
    """Lines as editors and Pygments count them (\\r\\n, \\r and \\n), without the final empty one."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _lexer(path: str):
    suffix = "." + path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    options = {"stripnl": False, "stripall": False, "ensurenl": True}
    try:
        if suffix in _LEXER_BY_SUFFIX:
            return get_lexer_by_name(_LEXER_BY_SUFFIX[suffix], **options)
        return get_lexer_for_filename(path.rsplit("/", 1)[-1], **options)
    except ClassNotFound:
        return TextLexer(**options)


def highlighted_lines(source: str, path: str) -> list[SafeString]:
    """One escaped HTML string per source line. Pygments closes and reopens its spans at every newline, so each
    line stands alone and can go into its own table row (with its `L<n>` anchor and the findings below it)."""
    lines = split_lines(source)
    if len(source) > HIGHLIGHT_MAX_CHARS:
        return [mark_safe(escape(line)) for line in lines]  # escaped just above
    html = highlight("\n".join(lines) + "\n", _lexer(path), HtmlFormatter(nowrap=True))
    out = html.split("\n")[: len(lines)]
    out += [""] * (len(lines) - len(out))
    return [mark_safe(line) for line in out]  # Pygments escaped every character of the source


@dataclass
class Segment:
    text: str
    mark: str = ""  # "" | "changed" (a converted reference) | "unconverted"
    title: str = ""


@dataclass
class Row:
    kind: str  # equal | replace | delete | insert | gap
    left_no: int | None = None
    right_no: int | None = None
    left: list[Segment] = field(default_factory=list)
    right: list[Segment] = field(default_factory=list)
    hidden: int = 0  # for a gap: how many unchanged lines it stands for
    errors: list = field(default_factory=list)  # compile-check diagnostics on the translated line (right side)


def _segments(text: str, marks: list[tuple[str, str]]) -> list[Segment]:
    """Group a line's characters by their (mark, title)."""
    out: list[Segment] = []
    for char, (mark, title) in zip(text, marks):
        if out and (out[-1].mark, out[-1].title) == (mark, title):
            out[-1].text += char
        else:
            out.append(Segment(char, mark, title))
    return out


def _char_column(line: str, byte_column: int) -> int:
    """The translator's columns count bytes (1-based); the page counts characters (0-based)."""
    return len(line.encode("utf-8")[: max(byte_column - 1, 0)].decode("utf-8", "ignore"))


def _mark_changes(old: str, new: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Word-level difference of a pair of lines: what the translation rewrote, on both sides."""
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    left = [("", "")] * len(old)
    right = [("", "")] * len(new)
    a_pos = [0]
    for word in a:
        a_pos.append(a_pos[-1] + len(word))
    b_pos = [0]
    for word in b:
        b_pos.append(b_pos[-1] + len(word))
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        for k in range(a_pos[i1], a_pos[i2]):
            left[k] = ("changed", "")
        for k in range(b_pos[j1], b_pos[j2]):
            right[k] = ("changed", "")
    return left, right


def _mark_unconverted(line: str, marks: list[tuple[str, str]], items: list[dict]) -> None:
    for item in items:
        name = str(item.get("name", ""))
        if not name:
            continue
        start = _char_column(line, int(item.get("column", 1) or 1))
        if line[start : start + len(name)] != name:
            start = line.find(name)  # includes report column 1; the name is further right
        if start < 0:
            continue
        for k in range(start, start + len(name)):
            marks[k] = ("unconverted", str(item.get("reason", "")))


def side_by_side(
    source: str, translated: str, unconverted: list[dict], context: int = CONTEXT, errors: dict[int, list] | None = None
) -> list[Row]:
    """Rows pairing the source with its translation: changed lines, lines with unconverted references and lines
    the compiler reported (`errors`, by translated line: shown under their row), each with `context` unchanged
    lines around it; runs of other unchanged lines become one "gap" row."""
    errors = errors or {}
    a, b = split_lines(source), split_lines(translated)
    by_line: dict[int, list[dict]] = {}
    for item in unconverted:
        by_line.setdefault(int(item.get("line", 0) or 0), []).append(item)
    rows: list[Row] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            pairs = [(i1 + k, j1 + k) for k in range(i2 - i1)]
        else:
            pairs = list(zip_longest(range(i1, i2), range(j1, j2)))
        for i, j in pairs:
            old = a[i] if i is not None else ""
            new = b[j] if j is not None else ""
            if tag == "replace" and i is not None and j is not None:
                left_marks, right_marks = _mark_changes(old, new)
            else:
                mark = ("", "") if tag == "equal" else ("changed", "")
                left_marks, right_marks = [mark] * len(old), [mark] * len(new)
            kind = (
                tag if tag != "replace" or (i is not None and j is not None) else ("delete" if j is None else "insert")
            )
            if i is not None and by_line.get(i + 1):
                _mark_unconverted(old, left_marks, by_line[i + 1])
            rows.append(
                Row(
                    kind,
                    None if i is None else i + 1,
                    None if j is None else j + 1,
                    _segments(old, left_marks) if i is not None else [],
                    _segments(new, right_marks) if j is not None else [],
                    errors=errors.get(j + 1, []) if j is not None else [],
                )
            )
    return _with_context(
        rows,
        {
            i
            for i, row in enumerate(rows)
            if row.kind != "equal" or row.errors or (row.left_no and row.left_no in by_line)
        },
        context,
    )


def _with_context(rows: list[Row], interesting: set[int], context: int) -> list[Row]:
    keep = set()
    for i in interesting:
        keep.update(range(max(0, i - context), min(len(rows), i + context + 1)))
    out: list[Row] = []
    hidden = 0
    for i, row in enumerate(rows):
        if i in keep:
            if hidden:
                out.append(Row("gap", hidden=hidden))
                hidden = 0
            out.append(row)
        else:
            hidden += 1
    if hidden and out:
        out.append(Row("gap", hidden=hidden))
    return out
