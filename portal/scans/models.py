"""Scans, the files each scan looked at, the per-blob result cache, and a running scan's plan, shards and
stored per-file results (portal/scans/pipeline/shards.py)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from portal.repositories.models import Repository
from portal.scans.constants import FINAL_STATUSES, ScanStatus, ScanTrigger, ShardStatus
from portal.scans.querysets import ScanQuerySet


class Scan(models.Model):
    repository = models.ForeignKey(Repository, on_delete=models.CASCADE, related_name="scans")
    branch = models.CharField(max_length=255)
    ref = models.CharField(max_length=255, blank=True, default="")
    commit_sha = models.CharField(max_length=40, blank=True, default="")  # empty until resolved
    trigger = models.CharField(max_length=20, choices=ScanTrigger.choices, default=ScanTrigger.MANUAL)
    status = models.CharField(max_length=20, choices=ScanStatus.choices, default=ScanStatus.QUEUED)
    error_code = models.CharField(max_length=60, blank=True, default="")
    error_message = models.TextField(blank=True, default="")
    attempts = models.PositiveIntegerField(default=0)  # task starts; a task that keeps killing workers stops
    files_total = models.PositiveIntegerField(default=0)
    files_done = models.PositiveIntegerField(default=0)
    files_reused = models.PositiveIntegerField(default=0)  # served from the blob cache
    summary = models.JSONField(default=dict, blank=True)  # counts by risk, new/fixed/reopened, parse modes
    # What the scanner read of the repository's builds at plan time and the HIP-build decision the scan used
    # (portal.repositories.hip_builds.read): small, for the repository page; the shards plan with the same decision.
    builds = models.JSONField(default=dict, blank=True)
    # Each git submodule of the commit, fetched as a read-only dependency or not and why
    # (portal.repositories.submodules.Outcome): for the scan page.
    submodules = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(default=timezone.now)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True)

    objects = ScanQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            # the newest scans of a branch (supersede, dashboards)
            models.Index(fields=["repository", "branch", "-created"], name="scan_branch_recent"),
            # the sweeper's query: unfinished scans by heartbeat
            models.Index(fields=["status", "heartbeat"], name="scan_status_heartbeat"),
        ]

    def __str__(self) -> str:
        return f"scan {self.pk} of {self.repository} {self.branch}@{self.commit_sha[:10]} ({self.status})"

    @property
    def is_final(self) -> bool:
        return self.status in FINAL_STATUSES

    @property
    def progress_percent(self) -> int:
        return int(self.files_done * 100 / self.files_total) if self.files_total else 0

    def move(self, to: ScanStatus, *, expected: tuple[str, ...], **fields) -> bool:
        """Conditional UPDATE: the transition happens only if the scan is still in one of `expected`.
        Returns whether this caller won; a False means another worker (or a supersede) got there first."""
        now = timezone.now()
        values = {"status": to, "heartbeat": now, **fields}
        if to in FINAL_STATUSES:
            values.setdefault("finished", now)
        updated = Scan.objects.filter(pk=self.pk, status__in=expected).update(**values)
        if updated == 1:
            for key, value in values.items():
                setattr(self, key, value)
            return True
        self.refresh_from_db()
        return False


class ScannedFile(models.Model):
    scan = models.ForeignKey(Scan, on_delete=models.CASCADE, related_name="files")
    path = models.CharField(max_length=1000)
    blob_sha = models.CharField(max_length=40, blank=True, default="")
    language = models.CharField(max_length=20)
    parse_mode = models.CharField(max_length=20)
    error = models.TextField(blank=True, default="")
    stats = models.JSONField(default=dict)
    reused = models.BooleanField(default=False)  # the result came from the blob cache

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scan", "path"], name="one_result_per_path")]


class BlobResult(models.Model):
    """A file's scanner result, stored once per (blob, scanner version + configuration): a rescan of an
    unchanged file reuses it. The path is left out of the result (fingerprints exclude it too)."""

    blob_sha = models.CharField(max_length=40)
    cache_key = models.CharField(max_length=64)  # scanner version, rules, target, options, file extension
    result = models.JSONField()
    translation = models.JSONField(null=True, blank=True)  # stats and diff of the HIP translation
    source = models.TextField(blank=True, default="")  # the file's text, for the file and finding pages
    translated = models.TextField(blank=True, default="")  # its HIP translation
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["blob_sha", "cache_key"], name="one_result_per_blob")]


class ScanPlan(models.Model):
    """What a scan's planning step decided, for its shards and its ingestion; deleted when the scan is ingested.
    Workers share only the database and the broker, so everything a shard or the ingestion needs is here."""

    scan = models.OneToOneField(Scan, on_delete=models.CASCADE, primary_key=True, related_name="plan")
    attempt = models.PositiveIntegerField()  # the scan attempt that planned; a newer attempt plans again
    # [[path, blob sha, cache key, reused], ...] in path order, every file the scanner looks at
    files = models.JSONField(default=list)
    present = models.JSONField(default=list)  # every regular file of the commit (an absent file's findings are fixed)
    renames = models.JSONField(default=dict)  # old path -> new path (git's rename detection)
    rules = models.JSONField(default=list)  # the enabled rule codes (.rocport.toml), for "fixed only where it ran"
    first_scan_of_branch = models.BooleanField(default=False)
    ingest_attempts = models.PositiveIntegerField(default=0)


class ScanShard(models.Model):
    """A slice of a scan's files, scanned by one Celery task on any worker."""

    scan = models.ForeignKey(Scan, on_delete=models.CASCADE, related_name="shards")
    number = models.PositiveIntegerField()  # 1-based, in path order
    scan_attempt = models.PositiveIntegerField()  # shards of an older attempt of the scan are dead
    entries = models.JSONField(default=list)  # [[path, blob sha, cache key], ...]; emptied once the scan is ingested
    files = models.PositiveIntegerField(default=0)
    bytes = models.BigIntegerField(default=0)
    status = models.CharField(max_length=10, choices=ShardStatus.choices, default=ShardStatus.PENDING)
    attempts = models.PositiveIntegerField(default=0)  # claims; past SCAN_MAX_ATTEMPTS the scan fails
    files_done = models.PositiveIntegerField(default=0)
    task_id = models.CharField(max_length=64, blank=True, default="")  # the message that holds the claim
    worker = models.CharField(max_length=255, blank=True, default="")  # hostname of the last claimant
    workers = models.JSONField(default=list)  # hostname of each attempt, in order
    error = models.TextField(blank=True, default="")  # why the last attempt failed
    queued_at = models.DateTimeField(null=True, blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["scan", "number"]
        constraints = [models.UniqueConstraint(fields=["scan", "number"], name="one_shard_per_number")]
        indexes = [
            # the sweeper's query: running shards by heartbeat, pending ones by when they were sent
            models.Index(fields=["status", "heartbeat"], name="shard_status_heartbeat"),
        ]

    def __str__(self) -> str:
        return f"shard {self.number} of scan {self.scan_id} ({self.status})"

    def describe(self) -> str:
        """'shard 3 (400 files: src/a.cu, src/b.cu, src/c.cu and 397 more)', for failure messages."""
        paths = [entry[0] for entry in self.entries]
        shown = ", ".join(paths[:3])
        more = f" and {len(paths) - 3} more" if len(paths) > 3 else ""
        return f"shard {self.number} ({self.files} files: {shown}{more})"


class ShardFileResult(models.Model):
    """One file's result in a running scan, stored by its shard as it goes and read once by the ingestion.
    `result` is None when the result is in the blob cache under the plan's (blob, cache key)."""

    scan = models.ForeignKey(Scan, on_delete=models.CASCADE, related_name="+")
    path = models.CharField(max_length=1000)
    result = models.JSONField(null=True, blank=True)
    translation = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scan", "path"], name="one_pending_result_per_path")]
