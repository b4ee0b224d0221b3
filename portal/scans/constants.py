"""Scan states, triggers and error codes.

`status` says where a scan is; `error_code` says why it ended badly. User errors (the repository's fault) and
app errors (ours) have separate code prefixes so that dashboards and alerts can tell them apart.
"""

from django.db import models


class ScanStatus(models.TextChoices):
    QUEUED = "queued"
    CLONING = "cloning"
    SCANNING = "scanning"
    INGESTING = "ingesting"
    FINISHED = "finished"
    FAILED = "failed"
    CANCELLED = "cancelled"
    SUPERSEDED = "superseded"


# Kept outside the enum: a class attribute of a TextChoices would become a member.
FINAL_STATUSES = frozenset({ScanStatus.FINISHED, ScanStatus.FAILED, ScanStatus.CANCELLED, ScanStatus.SUPERSEDED})
ACTIVE_STATUSES = frozenset({ScanStatus.CLONING, ScanStatus.SCANNING, ScanStatus.INGESTING})


class ShardStatus(models.TextChoices):
    """Where one shard of a scan is (portal/scans/shards.py)."""

    PENDING = "pending"  # planned and sent to the broker, or sent again after a failure
    RUNNING = "running"  # claimed by a worker, which heartbeats while it holds it
    DONE = "done"  # every file's result is stored
    FAILED = "failed"  # out of attempts: the scan failed with it


class ScanTrigger(models.TextChoices):
    MANUAL = "manual"
    PUSH = "push"
    SCHEDULE = "schedule"
    API = "api"
    DEMO = "demo"
    UPLOAD = "upload"  # scanned in CI and posted to /api/v1/uploads/ (portal/scans/upload_views.py)


# Stable error ids: "scan:user:*" are the repository's or the user's to fix, "scan:app:*" are ours.
USER_ERRORS = {
    "clone_failed": "scan:user:clone-failed",
    "auth_failed": "scan:user:auth-failed",
    "ref_not_found": "scan:user:ref-not-found",
    "commit_not_found": "scan:user:commit-not-found",
    "repo_too_large": "scan:user:repo-too-large",
    "timeout": "scan:user:timeout",
    "protocol_not_allowed": "scan:user:protocol-not-allowed",
    "bad_config": "scan:user:bad-config",
    "path_too_long": "scan:user:path-too-long",
    "credentials_unreadable": "scan:user:credentials-unreadable",
}
APP_ERROR = "scan:app:internal-error"
WORKER_LOST = "scan:app:worker-lost"
SHARD_FAILED = "scan:app:shard-failed"  # one shard failed on every attempt (the message names it and its files)
