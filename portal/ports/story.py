"""What a port brings, estimated before it merges: the findings it resolves, the findings left for a person in the
files it ports, and the repository's migration progress before and after. Recorded on the request when its
branch is pushed (MergeRequest.story), shown in the request's body (portal.ports.describe) and on its page.

How the estimate is made, so that it is the figure the dashboard shows once the merge is scanned:
- a finding is resolved when it sits on a line the translation rewrites (its identity hashes the line's text:
  scanner.fingerprint, so the scan of the merged commit closes it), unless its rule still fires on the line that
  line became (portal.ports.foresight ran the scanner on the branch): then that scan carries it there
  (portal.scans.pipeline.ported) and it stays open, left for a person, as does a finding on a line the translation
  leaves as it was. Side by side, the CUDA sources stay: nothing is resolved;
- progress is portal.reporting.figures's own computation (per_file, summarize) on a copy of the default branch's
  rollup where the resolved findings' hours moved from "left" to "done" and each ported file's content is its
  reviewed translation (whose review holds: portal.files.models.TranslationReview.applies_to).
When the branch could not be scanned (`still` is None), every finding on a rewritten line counts as resolved.
"""

from __future__ import annotations

import copy
import difflib
from dataclasses import dataclass, field
from types import SimpleNamespace

from django.db.models import Q

from portal.files.models import git_blob
from portal.findings.models import DISMISSED_TRIAGE, Finding
from portal.ports import planning
from portal.reporting import figures, ledger, rollups
from portal.scans.pipeline import ported


@dataclass
class Story:
    resolved_rules: list[dict] = field(default_factory=list)  # [{"rule", "name", "n"}], most first
    left_rules: list[dict] = field(default_factory=list)  # open findings the port leaves in its files, the same
    before: figures.MigrationProgress = field(default_factory=figures.MigrationProgress)
    after: figures.MigrationProgress = field(default_factory=figures.MigrationProgress)

    @property
    def known(self) -> bool:
        return self.before.known

    @property
    def resolved(self) -> int:
        return sum(row["n"] for row in self.resolved_rules)

    @property
    def left(self) -> int:
        return sum(row["n"] for row in self.left_rules)

    def as_json(self) -> dict:
        return {
            "resolved": self.resolved_rules,
            "left": self.left_rules,
            "before": self.before.as_totals() if self.before.known else None,
            "after": self.after.as_totals() if self.after.known else None,
        }

    @classmethod
    def of_json(cls, data: dict | None) -> Story:
        data = data or {}
        return cls(
            list(data.get("resolved") or []),
            list(data.get("left") or []),
            figures.MigrationProgress.of_totals({"progress": data.get("before")}),
            figures.MigrationProgress.of_totals({"progress": data.get("after")}),
        )


def rewritten_lines(source: str, translated: str) -> set[int]:
    """The 1-based lines of `source` that the translation changes or removes."""
    before, after = source.split("\n"), translated.split("\n")
    out: set[int] = set()
    for tag, i1, i2, _j1, _j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            out.update(range(i1 + 1, i2 + 1))
    return out


def _by_rule(rows: list[dict]) -> list[dict]:
    counted: dict[str, dict] = {}
    for row in rows:
        item = counted.setdefault(row["rule"], {"rule": row["rule"], "name": row["name"], "n": 0})
        item["n"] += 1
    return sorted(counted.values(), key=lambda item: (-item["n"], item["rule"]))


def build_rewrites(reader, specs, ported) -> dict[str, set[int]]:
    """The lines the port's other commits (the build files: portal.ports.planning) rewrite in files of the scanned
    commit, `reader` its portal.ports.branch.BaseReader; the ported files themselves (`ported`) are left out."""
    out: dict[str, set[int]] = {}
    for spec in specs:
        for path, text in spec.files.items():
            before = None if path in ported else reader.text(path)
            if before is not None and before != text:
                out[path] = out.get(path, set()) | rewritten_lines(before, text)
    return out


def estimate(
    repository, scan_id: int | None, blobs: dict, mode: str, elsewhere: dict | None = None, still: dict | None = None
) -> Story:
    """The story of porting `blobs` (path -> the BlobResult whose reviewed translation is committed) on the default
    branch's scan `scan_id` (the newest finished one), in `mode`; `elsewhere`: path -> the lines the port's build
    commit rewrites in other files (`build_rewrites`); `still`: path -> (rule, line) the branch's scan finds in each
    file rewritten in place (portal.ports.foresight), None when unknown."""
    in_place = mode != planning.SIDE_BY_SIDE
    rewritten = (
        {path: rewritten_lines(blob.source, blob.translated) for path, blob in blobs.items()} if in_place else {}
    )
    rewritten |= {path: lines for path, lines in (elsewhere or {}).items() if path not in blobs}
    open_findings = list(
        Finding.objects.filter(
            repository=repository,
            branch=repository.default_branch,
            state=Finding.State.OPEN,
            path__in=sorted(set(blobs) | set(rewritten)),
        )
        .filter(~Q(triage__in=DISMISSED_TRIAGE))
        .values("pk", "path", "line", "rule", "name", "severity_rank", "risk")
        .order_by("path", "line", "pk")
    )
    carried = _carried(open_findings, blobs, still) if in_place and still is not None else set()
    resolved = [
        row for row in open_findings if row["line"] in rewritten.get(row["path"], ()) and row["pk"] not in carried
    ]
    left = [
        row
        for row in open_findings
        if row["path"] in blobs and (row["line"] not in rewritten.get(row["path"], ()) or row["pk"] in carried)
    ]
    story = Story(_by_rule(resolved), _by_rule(left))
    pair = (repository.pk, repository.default_branch)
    rollup = rollups.fresh({pair: scan_id})[pair] if scan_id else None
    if rollup is None or not (rollup.progress or {}).get("baseline"):
        return story
    reviews = figures.reviews_of([repository.pk]).get(repository.pk, {})
    story.before = figures.summarize(figures.per_file(rollup, reviews))
    merged = _merged(rollup, resolved, blobs if in_place else {}, reviews)
    story.after = figures.summarize(figures.per_file(merged, merged.reviews))
    return story


def _carried(open_findings: list[dict], blobs: dict, still: dict) -> set[int]:
    """The findings whose rule still fires on the line the translation made of theirs: the merged scan carries
    them (portal.scans.pipeline.ported pairs them the same way)."""
    maps = {path: ported.line_map(blob.source, blob.translated) for path, blob in blobs.items() if path in still}
    return {
        row["pk"]
        for row in open_findings
        if row["path"] in maps and (row["rule"], maps[row["path"]].get(row["line"])) in still[row["path"]]
    }


def _merged(rollup, resolved: list[dict], ported: dict, reviews: dict) -> SimpleNamespace:
    """A copy of `rollup` as the scan of the merged commit will rebuild it (see the module's docstring)."""
    files, scanned, progress = (copy.deepcopy(value or {}) for value in (rollup.files, rollup.scanned, rollup.progress))
    book = progress.setdefault("files", {})
    for row in resolved:
        hours = rollups.finding_hours(row["severity_rank"], row["risk"])
        counts = files.get(row["path"])
        if counts:
            counts[0], counts[1] = max(0, counts[0] - 1), max(0, counts[1] - 1)
            counts[2] = max(0.0, (counts[2] or 0.0) - hours)
            if counts[0] <= 0:
                files.pop(row["path"])
        figures_of = book.setdefault(row["path"], [0.0, 0.0, 0.0, 0])
        figures_of[ledger.DONE] = round(figures_of[ledger.DONE] + hours, 4)
        figures_of[ledger.TOUCHED] += 1
    reviews = dict(reviews)
    cuda = progress.setdefault("cuda", {})
    for path, blob in ported.items():
        committed = git_blob(blob.translated)
        if path in cuda:  # the translation may still hold CUDA the translator left: its review then applies
            cuda[path] = committed
        state = reviews.get(path, ("",))[0]
        reviews[path] = (state, committed, committed)
    return SimpleNamespace(files=files, scanned=scanned, progress=progress, reviews=reviews)


def of_request(merge_request) -> Story:
    """The story recorded on a request when its branch was pushed (empty before that)."""
    return Story.of_json(merge_request.story)
