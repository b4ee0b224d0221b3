"""The repository's reviewed translations as one patch that `git apply` takes on the scanned commit.

A file goes in when its review says "translation OK" or "done" and was made on the blob (and translation) the
newest finished default-branch scan has at that path. The patch edits files in place (a/<path> b/<path>; a
.cu file stays a .cu file). Hunks are written here rather than with difflib.unified_diff because git needs the
"\\ No newline at end of file" marker, and paths that git would quote must be quoted the same way.

Queries: the newest scan, the reviews of the repository (`one_review_per_file`), the scan's ScannedFile rows of
those paths (`one_result_per_path`), and their BlobResults (`one_result_per_blob`): four, whatever the size.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from portal.files import queries
from portal.files.models import TranslationReview
from portal.scans.models import BlobResult, ScannedFile
from portal.scans.uploads.stand_ins import known_blobs


@dataclass
class Patch:
    commit: str = ""
    text: str = ""
    files: list[str] = field(default_factory=list)
    outdated: list[str] = field(default_factory=list)  # reviewed OK/done, but on an older blob or translation
    unusable: list[str] = field(default_factory=list)  # the stored source is not the file's exact text


def _quote(path: str) -> str:
    """git's C-style quoting of a path with a double quote, a backslash or a control character."""
    if not any(c in path for c in '"\\') and all(ord(c) >= 32 and c != "\x7f" for c in path):
        return path
    escapes = {'"': '\\"', "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
    return '"' + "".join(escapes.get(c, c if ord(c) >= 32 and c != "\x7f" else f"\\{ord(c):03o}") for c in path) + '"'


def _name(prefix: str, path: str) -> str:
    return _quote(prefix + path)


def _git_lines(text: str) -> list[str]:
    """Lines as git counts them: split at \n only (str.splitlines would also split at \r, \f, \x1c...)."""
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def file_diff(path: str, before: str, after: str, context: int = 3) -> str:
    """One file's section of a git patch (modification in place); empty when nothing changed."""
    if before == after:
        return ""
    a, b = _git_lines(before), _git_lines(after)
    # git puts a tab after a name with a space in the ---/+++ lines so the name's end is unambiguous
    tab = "\t" if " " in path else ""
    out = [
        f"diff --git {_name('a/', path)} {_name('b/', path)}\n",
        f"--- {_name('a/', path)}{tab}\n",
        f"+++ {_name('b/', path)}{tab}\n",
    ]
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(context):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        out.append(f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@\n")
        for tag, k1, k2, l1, l2 in group:
            if tag == "equal":
                out += [_line(" ", line) for line in a[k1:k2]]
                continue
            out += [_line("-", line) for line in a[k1:k2]]
            out += [_line("+", line) for line in b[l1:l2]]
    return "".join(out)


def _range(start: int, end: int) -> str:
    length = end - start
    first = start + 1 if length else start  # an empty range names the line before it
    return f"{first}" if length == 1 else f"{first},{length}"


def _line(sign: str, line: str) -> str:
    return sign + line if line.endswith("\n") else sign + line + "\n\\ No newline at end of file\n"


def _exact(blob: BlobResult) -> bool:
    """Whether the stored source is byte for byte the file the translator read (the translation's byte
    count): a truncated or newline-normalised copy would make hunks that do not apply."""
    total = ((blob.translation or {}).get("stats") or {}).get("total_bytes")
    return total is None or total == len(blob.source.encode("utf-8"))


@dataclass
class Reviewed:
    """The reviewed translations that apply to the newest finished default-branch scan: what a patch or a port
    branch may carry (portal.ports commits these)."""

    commit: str = ""
    scan_id: int | None = None  # the scan `commit` is of
    blobs: dict[str, BlobResult] = field(default_factory=dict)  # path -> the blob whose translation was approved
    outdated: list[str] = field(default_factory=list)
    unusable: list[str] = field(default_factory=list)


def reviewed(repository, paths: list[str] | None = None) -> Reviewed:
    """The approved translations (all, or those of `paths`) that still apply to the newest scan."""
    scan = queries.newest_scan(repository)
    if scan is None:
        return Reviewed()
    out = Reviewed(commit=scan.commit_sha, scan_id=scan.pk)
    wanted = TranslationReview.objects.filter(repository=repository, state__in=TranslationReview.PATCHABLE)
    if paths is not None:
        wanted = wanted.filter(path__in=list(paths))
    reviews = {r.path: r for r in wanted}
    if not reviews:
        return out
    current = dict(ScannedFile.objects.filter(scan=scan, path__in=list(reviews)).values_list("path", "blob_sha"))
    current = known_blobs(scan, current)  # an upload stores no blob: its stand-in's (portal.scans.uploads.stand_ins)
    blobs: dict[str, BlobResult] = {}
    for blob in BlobResult.objects.filter(blob_sha__in=set(current.values())).order_by("id"):
        blobs[blob.blob_sha] = blob  # the newest result of each blob wins, as on the file page
    for path in sorted(reviews):
        blob = blobs.get(current.get(path, ""))
        if blob is None or not blob.translated:
            out.outdated.append(path)  # gone from the newest scan, or no translation stored
        elif not reviews[path].applies_to(blob.blob_sha, queries.translation_digest(blob.translated)):
            out.outdated.append(path)
        elif not _exact(blob):
            out.unusable.append(path)
        elif blob.translated != blob.source:
            out.blobs[path] = blob
    return out


def build(repository) -> Patch:
    selection = reviewed(repository)
    patch = Patch(commit=selection.commit, outdated=selection.outdated, unusable=selection.unusable)
    sections = []
    for path, blob in selection.blobs.items():
        sections.append(file_diff(path, blob.source, blob.translated))
        patch.files.append(path)
    patch.text = "".join(sections)
    return patch
