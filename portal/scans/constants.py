"""Scan states, triggers and error codes.

`status` says where a scan is; `error_code` says why it ended badly. User errors (the repository's fault) and
app errors (ours) have separate code prefixes so that dashboards and alerts can tell them apart.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class ScanStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    CLONING = "cloning", _("Cloning")
    SCANNING = "scanning", _("Scanning")
    INGESTING = "ingesting", _("Ingesting")
    FINISHED = "finished", _("Finished")
    FAILED = "failed", _("Failed")
    CANCELLED = "cancelled", _("Cancelled")
    SUPERSEDED = "superseded", _("Superseded")


# Kept outside the enum: a class attribute of a TextChoices would become a member.
FINAL_STATUSES = frozenset({ScanStatus.FINISHED, ScanStatus.FAILED, ScanStatus.CANCELLED, ScanStatus.SUPERSEDED})
ACTIVE_STATUSES = frozenset({ScanStatus.CLONING, ScanStatus.SCANNING, ScanStatus.INGESTING})
# The statuses an attempt may move a scan out of (only the newest attempt, by `attempts`).
CLAIMABLE_STATUSES = (ScanStatus.QUEUED, *ACTIVE_STATUSES)


class ShardStatus(models.TextChoices):
    """Where one shard of a scan is (portal/scans/pipeline/shards.py)."""

    PENDING = "pending", _("Pending")  # planned and sent to the broker, or sent again after a failure
    RUNNING = "running", _("Running")  # claimed by a worker, which heartbeats while it holds it
    DONE = "done", _("Done")  # every file's result is stored
    FAILED = "failed", _("Failed")  # out of attempts: the scan failed with it


class ScanTrigger(models.TextChoices):
    MANUAL = "manual", _("manual")
    PUSH = "push", _("push")
    SCHEDULE = "schedule", _("schedule")
    API = "api", _("API")
    DEMO = "demo", _("demo")
    UPLOAD = "upload", _("CI upload")  # scanned in CI and posted to /api/v1/uploads/ (portal/scans/uploads/views.py)


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
