"""Migration progress, defined here and only here: the share of the migration's work that is done, moved by what
the team does. Work is counted in the work-left estimate's hours (portal.reporting.effort), so "progress" and
"work left" always agree:

    done     = Σ hours of findings fixed in the code, or triaged "accepted risk" (a decision made)
             + UNCONVERTED_HOURS × unconverted CUDA references resolved since the baseline (per file)
             + the parse penalty of files that were unparsed at the baseline and are parsed now
             + REVIEW_HOURS × files whose HIP translation was reviewed "translation OK" or "done" on their current
               version (or whose current version is that reviewed translation: a merged port), or that no longer
               hold CUDA (ported in the code, or deleted)
    left     = the work-left estimate (open findings not dismissed, unconverted references, unparsed files)
             + REVIEW_HOURS × files with CUDA references whose translation nobody has approved
    progress = done / (done + left)

Findings triaged "false positive" (never work) or "won't fix" (taken out of the migration) leave the scope: they
are neither done nor left. The scope is the work known at the baseline — the branch's first finished scan —
plus the work discovered since (new findings, new CUDA references), minus what left it:

    done + left = baseline + discovered − out of scope

so new findings raise the total and progress can go down, and the pages say so. A finding the scanner re-rates
(another severity or risk for the same code) keeps the hours it had at the baseline there (portal.reporting.ledger):
the difference counts as discovered, which a lowered rating can make negative. A file is "not started" while
it has work left and nobody has fixed, triaged or reviewed anything in it, "in progress" once someone has, and
"done" when nothing is left. Right after the baseline scan nothing is done: progress is 0%.

Automatic translation coverage (the share of CUDA references a translator renames mechanically) is another
figure: portal.reporting.metrics.Progress.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import date

from django.db import transaction
from django.utils import timezone

from portal.files.models import TranslationReview
from portal.findings.models import BranchRollup
from portal.progress.models import ProgressSnapshot
from portal.reporting import charts, effort
from portal.repositories.models import Repository

# A person reading a file's HIP translation side by side with the source and approving it (or fixing it): the
# part of the migration no finding stands for.
REVIEW_HOURS = 0.5
REVIEWED = ("ok", "done")  # TranslationReview states that approve a translation
NOT_STARTED, IN_PROGRESS, DONE = "not_started", "in_progress", "done"
_SNAPSHOT_DAY: ContextVar[date | None] = ContextVar("progress_snapshot_day", default=None)
STATES = (NOT_STARTED, IN_PROGRESS, DONE)
UNTOUCHED_SHOWN = 10


def shown_percent(percent: float | None, complete: bool) -> str | None:
    """A migration progress percentage as every page (and the weekly digest) shows it, without the % sign; None
    without figures. Floored, so that "100" means nothing is left (`complete`) and "0" that nothing is done yet:
    whole numbers from 10 on, one decimal below ("0.4", not "0": the first fixes of a large migration show), and at
    least "0.1" once anything is done."""
    if percent is None:
        return None
    if complete:
        return "100"
    if percent <= 0:
        return "0"
    tenths = math.floor(percent * 10 + 1e-6)  # 1e-6: a float a hair under a whole tenth (9.999...) is that tenth
    if tenths < 100:
        return f"{max(tenths, 1) / 10:.1f}"
    return str(min(99, tenths // 10))


@dataclass
class MigrationProgress:
    done: float = 0.0
    left: float = 0.0
    descoped: float = 0.0
    baseline: float = 0.0
    not_started: int = 0
    in_progress: int = 0
    files_done: int = 0
    known: bool = False  # False: no finished scan yet (or figures from before progress was tracked)

    @property
    def scope(self) -> float:
        return self.done + self.left

    @property
    def discovered(self) -> float:
        """Work found since the baseline, net of re-ratings (negative when findings known at the baseline were
        re-rated lower than anything found since): done + left = baseline + discovered − descoped, always."""
        value = self.scope + self.descoped - self.baseline
        return 0.0 if abs(value) < 1e-9 else value

    @property
    def lowered(self) -> float:
        """How far re-ratings took the scope below the baseline's (the formula prints "− lowered"); 0 otherwise."""
        return max(0.0, -self.discovered)

    @property
    def percent(self) -> float | None:
        return 100 * self.done / self.scope if self.known and self.scope else None

    @property
    def floor(self) -> int | None:
        """Floored to a whole number, so that "100%" means nothing is left and "0%" that nothing is done yet (the
        pages show `shown`, which keeps a decimal below 10%)."""
        percent = self.percent
        if percent is None:
            return None
        return 100 if self.left <= 0 else min(99, math.floor(percent))

    @property
    def shown(self) -> str | None:
        """The percentage as the pages show it (shown_percent): "0.4", "37", "100"; None without figures."""
        return shown_percent(self.percent, self.left <= 0)

    @property
    def ring(self) -> charts.Ring:
        """The progress ring, its text the percentage as shown."""
        ring = charts.ring(self.percent)
        return ring if self.shown is None else replace(ring, text=f"{self.shown}%")

    @property
    def files(self) -> int:
        return self.not_started + self.in_progress + self.files_done

    def file_states(self) -> list[tuple[str, int]]:
        return [(NOT_STARTED, self.not_started), (IN_PROGRESS, self.in_progress), (DONE, self.files_done)]

    def __add__(self, other: MigrationProgress) -> MigrationProgress:
        return MigrationProgress(
            self.done + other.done,
            self.left + other.left,
            self.descoped + other.descoped,
            self.baseline + other.baseline,
            self.not_started + other.not_started,
            self.in_progress + other.in_progress,
            self.files_done + other.files_done,
            self.known or other.known,
        )

    def as_totals(self) -> dict:
        return {
            "done": round(self.done, 3),
            "left": round(self.left, 3),
            "descoped": round(self.descoped, 3),
            "baseline": round(self.baseline, 3),
            "files": [self.not_started, self.in_progress, self.files_done],
        }

    @classmethod
    def of_totals(cls, totals: dict | None) -> MigrationProgress:
        """From a rollup's totals["progress"] (the portfolio reads only these)."""
        figures = (totals or {}).get("progress")
        if not isinstance(figures, dict):
            return cls()
        files = list(figures.get("files") or [0, 0, 0]) + [0, 0, 0]
        return cls(
            float(figures.get("done") or 0),
            float(figures.get("left") or 0),
            float(figures.get("descoped") or 0),
            float(figures.get("baseline") or 0),
            int(files[0]),
            int(files[1]),
            int(files[2]),
            True,
        )


@dataclass
class FileProgress:
    path: str
    done: float = 0.0
    left: float = 0.0
    descoped: float = 0.0
    baseline: float = 0.0
    touched: bool = False
    review: str = ""  # the file's review state, "" when nobody reviewed it

    @property
    def state(self) -> str:
        if self.left <= 0:
            return DONE
        return IN_PROGRESS if self.done > 0 or self.touched else NOT_STARTED


def per_file(rollup, reviews: dict[str, tuple[str, ...]]) -> dict[str, FileProgress]:
    """Every file with migration work, known or done, on the rollup's branch; `reviews`: path -> (state, blob,
    the reviewed translation's blob) as `reviews_of` reads them (the third is optional)."""
    ledger = rollup.progress or {}
    if ledger.get("baseline") is None:
        return {}
    out: dict[str, FileProgress] = {}

    def file(path: str) -> FileProgress:
        return out.get(path) or out.setdefault(path, FileProgress(path))

    for path, (done, descoped, baseline, touched) in (ledger.get("files") or {}).items():
        item = file(path)
        item.done, item.descoped, item.baseline, item.touched = done, descoped, baseline, bool(touched)
    for path, (_open, _live, hours) in (rollup.files or {}).items():
        file(path).left += hours or 0.0
    now_scanned = rollup.scanned or {}
    then_scanned = ledger.get("baseline_scanned") or {}
    for path in set(now_scanned) | set(then_scanned):
        unconverted, mode = (now_scanned[path][:2]) if path in now_scanned else (0, "")
        before, before_mode = then_scanned.get(path, (0, ""))
        penalty, before_penalty = effort.PARSE_PENALTY.get(mode, 0.0), effort.PARSE_PENALTY.get(before_mode, 0.0)
        item = file(path)
        item.left += effort.UNCONVERTED_HOURS * int(unconverted or 0) + penalty
        item.done += effort.UNCONVERTED_HOURS * max(0, int(before or 0) - int(unconverted or 0))
        item.done += max(0.0, before_penalty - penalty)
        item.baseline += effort.UNCONVERTED_HOURS * int(before or 0) + before_penalty
    cuda = ledger.get("cuda") or {}
    then_cuda = set(ledger.get("baseline_cuda") or ())
    for path in set(cuda) | then_cuda:
        item = file(path)
        state, blob, *ported = reviews.get(path, ("", ""))
        item.review = state
        item.touched = item.touched or state not in ("", "not_reviewed")
        if path in then_cuda:
            item.baseline += REVIEW_HOURS
        # reviewed on this blob, or this blob is the reviewed translation (a merged port: TranslationReview)
        current = blob == cuda.get(path) or bool(ported and ported[0] and ported[0] == cuda.get(path))
        if path not in cuda or (state in REVIEWED and current):
            item.done += REVIEW_HOURS
        else:
            item.left += REVIEW_HOURS
    return {path: item for path, item in out.items() if item.done or item.left or item.descoped or item.baseline}


def summarize(files: dict[str, FileProgress]) -> MigrationProgress:
    figures = MigrationProgress(known=True)
    for item in files.values():
        figures.done += item.done
        figures.left += item.left
        figures.descoped += item.descoped
        figures.baseline += item.baseline
        state = item.state
        if state == NOT_STARTED:
            figures.not_started += 1
        elif state == IN_PROGRESS:
            figures.in_progress += 1
        else:
            figures.files_done += 1
    return figures


def untouched(files: dict[str, FileProgress], limit: int = UNTOUCHED_SHOWN) -> tuple[int, list[FileProgress]]:
    """Files with work known at the baseline that nobody has fixed, triaged or reviewed anything in: their number
    and the ones with the most work left."""
    waiting = [f for f in files.values() if f.state == NOT_STARTED and f.baseline > 0]
    waiting.sort(key=lambda f: (-f.left, f.path))
    return len(waiting), waiting[:limit]


# What the repository dashboard shows of the per-file figures, kept in the ledger under "page" by `store` so that
# a page view reads these few hundred bytes instead of decoding the whole ledger (hundreds of KB on a large
# repository): files nobody touched since the baseline (their number and the ones with the most work left, as
# `untouched` lists them) and the migration state of the files the dashboard's work table shows
# (the first portal.reporting.effort.TOP_FILES by hours), and the files with the most work left (the printable
# report's list). Floats rounded as the ledger's are.
PAGE = "page"
PAGE_FILES = 10  # files with the most work left kept in PAGE


def _file_row(item: FileProgress) -> list:
    return [
        item.path,
        round(item.done, 4),
        round(item.left, 4),
        round(item.descoped, 4),
        round(item.baseline, 4),
        item.touched,
        item.review,
    ]


def file_of_row(row: list) -> FileProgress:
    path, done, left, descoped, baseline, touched, review = row
    return FileProgress(path, done, left, descoped, baseline, bool(touched), review)


def page_of(rollup, files: dict[str, FileProgress]) -> dict:
    """The page-ready figures of a default branch's rollup (see PAGE), from its per-file figures."""
    count, waiting = untouched(files)
    shown = effort.top_work(effort.work_of(rollup.files or {}, rollup.scanned or {}))
    most = sorted((item for item in files.values() if item.left > 0), key=lambda f: (-f.left, f.path))
    return {
        "untouched": [count, [_file_row(item) for item in waiting]],
        "most_left": [_file_row(item) for item in most[:PAGE_FILES]],
        "states": {work.path: files[work.path].state if work.path in files else "" for work in shown},
    }


def reviews_of(repository_ids) -> dict[int, dict[str, tuple[str, str, str]]]:
    """Each repository's translation reviews: path -> (state, blob sha, the reviewed translation's blob sha); one
    query."""
    out: dict[int, dict[str, tuple[str, str, str]]] = {}
    for repository_id, path, state, blob, ported in TranslationReview.objects.filter(
        repository_id__in=list(repository_ids)
    ).values_list("repository_id", "path", "state", "blob_sha", "translation_blob"):
        out.setdefault(repository_id, {})[path] = (state, blob, ported)
    return out


def store(rollups: list) -> None:
    """Compute the figures of the rollups of default branches into their totals["progress"], their ledger's
    page-ready figures (PAGE) and today's snapshot; call in the transaction that writes the rollups (saving
    `totals` and `progress`), after their ledger and files are up to date. Three queries whatever the number of
    rollups."""
    if not rollups:
        return
    defaults = dict(
        Repository.objects.filter(pk__in={r.repository_id for r in rollups}).values_list("pk", "default_branch")
    )
    wanted = [r for r in rollups if defaults.get(r.repository_id) == r.branch and (r.progress or {}).get("baseline")]
    if not wanted:
        return
    reviews = reviews_of({r.repository_id for r in wanted})
    today = _SNAPSHOT_DAY.get() or timezone.localdate()
    snapshots = []
    for rollup in wanted:
        files = per_file(rollup, reviews.get(rollup.repository_id, {}))
        figures = summarize(files)
        rollup.totals = {**(rollup.totals or {}), "progress": figures.as_totals()}
        rollup.progress = {**rollup.progress, PAGE: page_of(rollup, files)}
        snapshots.append(
            ProgressSnapshot(
                repository_id=rollup.repository_id,
                day=today,
                done=figures.done,
                left=figures.left,
                descoped=figures.descoped,
                baseline=figures.baseline,
                files_not_started=figures.not_started,
                files_in_progress=figures.in_progress,
                files_done=figures.files_done,
                updated=timezone.now(),
            )
        )
    ProgressSnapshot.objects.bulk_create(
        snapshots,
        update_conflicts=True,
        unique_fields=["repository", "day"],
        update_fields=[
            "done",
            "left",
            "descoped",
            "baseline",
            "files_not_started",
            "files_in_progress",
            "files_done",
            "updated",
        ],
    )


@contextmanager
def dated(day: date):
    """Figures stored inside this block go into `day`'s snapshot instead of today's: `manage.py demo` lays its
    commits a week apart so that a newcomer's burn-down has a history."""
    token = _SNAPSHOT_DAY.set(day)
    try:
        yield
    finally:
        _SNAPSHOT_DAY.reset(token)


def after_review(repository) -> None:
    """A translation review changed: move the default branch's figures (locks its rollup, as triage does)."""
    with transaction.atomic():
        rollup = (
            BranchRollup.objects.select_for_update()
            .filter(repository=repository, branch=repository.default_branch)
            .first()
        )
        if rollup is None:
            return
        store([rollup])
        rollup.save(update_fields=["totals", "progress", "updated"])
