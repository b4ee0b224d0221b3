"""Findings carried through a merged port: the same finding, on a line the port rewrote.

A finding's identity hashes its line's text (scanner.fingerprint), so a line the translation rewrites gives the
finding a new identity: without this, a rule that still fires there after the merge (ROC103 on a shuffle whose mask
the port widened) would read as one finding fixed and one new, its triage and history lost. When a default-branch
file's content is exactly the reviewed translation of the blob its findings were last seen on (the review's
`translation_blob`: the port merged), each open finding this scan did not see again is paired with a finding this
scan saw for the first time: same rule, on the line the old one's line became (a line diff of the two texts), in
file order. The pair keeps the old finding (tracking.ingest re-keys it before matching). Any other edit of a line
keeps today's meaning: fixed and new.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from portal.files.models import TranslationReview
from portal.findings.models import Finding
from portal.scans.models import BlobResult
from scanner.fingerprint import normalise


@dataclass(frozen=True)
class Carry:
    """Finding `finding_id` takes the identity (fingerprint, occurrence) the scan saw at `new_line`."""

    finding_id: int
    fingerprint: str
    occurrence: int
    old_line: int
    new_line: int


def carried(scan, outcomes, files) -> list[Carry]:
    """The findings of `scan` (its `outcomes`: tracking.FileOutcome; `files`: ScannedFile rows) that a merged
    port carried to another line text."""
    repository = scan.repository
    if scan.branch != repository.default_branch:
        return []  # reviews, and so merged ports, are the default branch's
    blobs = {f.path: f.blob_sha for f in files if f.blob_sha}
    merged = {
        review.path: review.blob_sha
        for review in TranslationReview.objects.filter(repository=repository, path__in=list(blobs)).exclude(
            translation_blob=""
        )
        if blobs.get(review.path) == review.translation_blob and review.blob_sha != review.translation_blob
    }
    if not merged:
        return []
    texts = _sources({*merged.values(), *(blobs[p] for p in merged)})
    out: list[Carry] = []
    for outcome in outcomes:
        old_blob = merged.get(outcome.path)
        if old_blob is None or old_blob not in texts or blobs[outcome.path] not in texts:
            continue
        out += _pairs(repository, scan.branch, outcome, texts[old_blob], texts[blobs[outcome.path]])
    return out


def _sources(shas: set[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for sha, source in (
        BlobResult.objects.filter(blob_sha__in=sorted(shas)).exclude(source="").values_list("blob_sha", "source")
    ):
        out.setdefault(sha, source)
    return out


def line_map(before: str, after: str) -> dict[int, int]:
    """1-based line of `before` -> its line in `after`, for lines kept or rewritten one for one."""
    old, new = before.split("\n"), after.split("\n")  # as the scanner numbers lines
    out: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            out.update({i + 1: j1 + (i - i1) + 1 for i in range(i1, i2)})
    return out


def _pairs(repository, branch: str, outcome, before: str, after: str) -> list[Carry]:
    seen = {(d["rule"], d["fingerprint"], d["occurrence"]) for d in outcome.findings}
    rows = Finding.objects.filter(repository=repository, branch=branch, path=outcome.path)
    known = {
        (rule, fingerprint, occurrence)
        for rule, fingerprint, occurrence in rows.values_list("rule", "fingerprint", "occurrence")
    }
    unseen = [
        f
        for f in rows.filter(state=Finding.State.OPEN).order_by("line", "column", "pk")
        if (f.rule, f.fingerprint, f.occurrence) not in seen
    ]
    fresh = sorted(
        (d for d in outcome.findings if (d["rule"], d["fingerprint"], d["occurrence"]) not in known),
        key=lambda d: (d["line"], d["column"]),
    )
    if not unseen or not fresh:
        return []
    old_lines = before.split("\n")
    moved = line_map(before, after)
    out, taken = [], set()
    for finding in unseen:
        line = finding.line
        if not 0 < line <= len(old_lines) or normalise(old_lines[line - 1]) != normalise(finding.snippet):
            continue  # not last seen on this text: nothing to say where it went
        target = moved.get(line)
        for index, data in enumerate(fresh):
            if index not in taken and data["rule"] == finding.rule and data["line"] == target:
                taken.add(index)
                out.append(Carry(finding.pk, data["fingerprint"], data["occurrence"], line, target))
                break
    return out
