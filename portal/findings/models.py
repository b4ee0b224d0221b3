"""Tracked findings: one row per finding identity on a tracked branch, kept across scans, with its history."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from portal.repositories.models import Repository
from portal.scans.models import Scan

# Triage decisions that take a finding out of the work left (it stays open: the code is unchanged).
DISMISSED_TRIAGE = ("false_positive", "accepted_risk", "wont_fix")


class Finding(models.Model):
    class State(models.TextChoices):
        OPEN = "open", _("Open")
        FIXED = "fixed", _("Fixed")

    class Triage(models.TextChoices):
        UNTRIAGED = "untriaged", _("Untriaged")
        CONFIRMED = "confirmed", _("Confirmed")
        FALSE_POSITIVE = "false_positive", _("False positive")
        ACCEPTED_RISK = "accepted_risk", _("Accepted risk")
        WONT_FIX = "wont_fix", _("Won't fix")

    repository = models.ForeignKey(Repository, on_delete=models.CASCADE, related_name="findings")
    branch = models.CharField(max_length=255)
    # Identity within (repository, branch): path + rule + content fingerprint + occurrence index.
    path = models.CharField(max_length=1000)
    rule = models.CharField(max_length=10)
    fingerprint = models.CharField(max_length=64)
    occurrence = models.PositiveIntegerField(default=0)
    # Where and what, as of the last scan that saw it.
    name = models.CharField(max_length=100)
    risk = models.CharField(max_length=30)
    severity = models.CharField(max_length=10)
    severity_rank = models.PositiveSmallIntegerField(default=0)  # info 0 … critical 4: sortable, keyset-paginated
    line = models.PositiveIntegerField()
    column = models.PositiveIntegerField(default=1)
    end_line = models.PositiveIntegerField(default=0)
    end_column = models.PositiveIntegerField(default=0)
    message = models.TextField()
    snippet = models.TextField(blank=True, default="")
    suppressed = models.BooleanField(default=False)  # an inline `rocport: ignore[...]` comment
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    first_seen = models.ForeignKey(Scan, on_delete=models.SET_NULL, null=True, related_name="+")
    # Not indexed, and the table keeps free room in each page (fillfactor, migration 0006): every rescan rewrites
    # last_seen on every finding it sees, and without an index on it nor a full page that UPDATE is a HOT update
    # (no index entries written). Measured: re-ingesting 100k findings 4.4 s -> 1.45 s.
    last_seen = models.ForeignKey(Scan, on_delete=models.SET_NULL, null=True, related_name="+", db_index=False)
    fixed_in = models.ForeignKey(Scan, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    triage = models.CharField(max_length=20, choices=Triage.choices, default=Triage.UNTRIAGED)
    triage_reason = models.TextField(blank=True, default="")
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="assigned_findings"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["repository", "branch", "path", "rule", "fingerprint", "occurrence"], name="finding_identity"
            ),
        ]
        indexes = [
            # ingestion loads a branch's findings; the findings list filters by state
            models.Index(fields=["repository", "branch", "state"], name="finding_branch_state"),
            # the findings list's default order and keyset pagination: (severity_rank desc, id desc) per branch
            models.Index(fields=["repository", "branch", "state", "-severity_rank", "-id"], name="finding_list_order"),
            # the rule filter and per-rule counts (catalogue, dashboards' by-rule breakdown)
            models.Index(
                fields=["repository", "branch", "state", "rule", "-severity_rank", "-id"],
                include=["risk", "name"],
                name="finding_rule_count",
            ),
            # the repository dashboard's per-file breakdown: open findings of a branch, index-only on PostgreSQL
            models.Index(
                fields=["repository", "branch", "path"],
                include=["risk", "severity_rank", "triage"],
                condition=models.Q(state="open"),
                name="finding_open_breakdown",
            ),
            # work left per assignee (the dashboard's "where is it stuck"): assigned open findings only, a few
            models.Index(
                fields=["repository", "branch", "assignee"],
                include=["risk", "severity_rank", "triage"],
                condition=models.Q(state="open", assignee__isnull=False),
                name="finding_open_assigned",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rule} {self.path}:{self.line} ({self.state})"


SEVERITY_RANK = {"info": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}
# The reason a re-rating gives when the new message says nothing the old one did not (the message is the rule's own
# words: its verdict changed with the code). Stored in English, as messages are; the pages translate it.
RERATED_REASON = "the rule's judgement changed with the code"


class FindingEvent(models.Model):
    """The audit trail: every change to a finding, by a scan or by a person."""

    class Kind(models.TextChoices):
        CREATED = "created", _("created")
        FIXED = "fixed", _("fixed")
        REOPENED = "reopened", _("reopened")
        MOVED = "moved", _("moved")  # its file was renamed
        TRIAGED = "triaged", _("triaged")
        ASSIGNED = "assigned", _("assigned")
        COMMENTED = "commented", _("commented")
        INHERITED = "inherited", _("inherited")  # triage copied from the default branch
        # a scan saw it again with another severity or risk: data {"severity": [old, new], "risk": [old, new]} (the
        # keys that changed) and "reason", the part of the new message the old one did not say
        RERATED = "rerated", _("re-rated")
        # a merged port rewrote its line and the rule still fires there: data {"line": [old, new]}
        PORTED = "ported", _("carried through a merged port")

    finding = models.ForeignKey(Finding, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    scan = models.ForeignKey(Scan, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    data = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "id"]
        indexes = [
            # the migration ledger's baseline reads the re-ratings of a branch's findings (a few among millions of
            # events): the severity and risk a finding had at the baseline scan
            models.Index(fields=["finding", "id"], condition=models.Q(kind="rerated"), name="findingevent_rerated"),
        ]


class BranchRollup(models.Model):
    """One (repository, branch)'s open findings pre-aggregated for the pages, kept by portal.reporting.rollups:
    rebuilt from the findings when a scan is ingested, moved by deltas on triage."""

    repository = models.ForeignKey(Repository, on_delete=models.CASCADE, related_name="rollups")
    branch = models.CharField(max_length=255)
    # The finished scan the figures belong to (its parsed files, the findings it left): a page whose newest
    # finished scan is another one rebuilds the row instead of trusting it.
    scan = models.ForeignKey(Scan, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    open_total = models.PositiveIntegerField(default=0)
    # Open findings per [rule, name, risk, severity, severity_rank, triage, count]: a few hundred rows at most.
    groups = models.JSONField(default=list, blank=True)
    # Small sums of `groups` for the pages that read many branches at once (portfolio, rule page):
    # {"open_by_risk": {risk: n}, "by_rule": {rule: n}, "work": [[risk, severity, n not dismissed], ...]}.
    totals = models.JSONField(default=dict, blank=True)
    # Per file with open findings: {path: [open, not dismissed, hours of the not dismissed]}.
    files = models.JSONField(default=dict, blank=True)
    # The scan's files with unconverted CUDA references or a parse problem: {path: [unconverted, mode, error]}.
    scanned = models.JSONField(default=dict, blank=True)
    # The migration ledger portal.progress reads (its docstring defines the figures): {"baseline": scan id,
    # "files": {path: [done h, descoped h, baseline h, touched]} over every finding the branch ever had,
    # "cuda": {path: blob sha} of the scan's files with CUDA references, "baseline_cuda": [path, ...],
    # "baseline_scanned": {path: [unconverted, mode]}}. Not read by the portfolio, which reads totals["progress"].
    progress = models.JSONField(default=dict, blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["repository", "branch"], name="rollup_per_branch")]

    def __str__(self) -> str:
        return f"rollup {self.repository_id}:{self.branch} ({self.open_total} open)"
