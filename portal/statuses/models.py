"""Commit status settings per repository and the log of what was posted; notification settings per team and
the record of the one email each scan may send."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from portal.accounts.models import Team
from portal.findings.models import SEVERITY_RANK
from portal.hosts import registry
from portal.repositories import crypto
from portal.repositories.models import Repository
from portal.scans.models import Scan

# Labels in the catalogue (the findings list's filter uses the same words).
_SEVERITY_LABELS = {
    "info": _("info"),
    "low": _("low"),
    "medium": _("medium"),
    "high": _("high"),
    "critical": _("critical"),
}
SEVERITY_CHOICES = [(name, _SEVERITY_LABELS[name]) for name in SEVERITY_RANK]


class CommitStatusConfig(models.Model):
    """Where and how to post a repository's commit statuses. The token is encrypted at rest like the clone
    credentials and never shown back."""

    repository = models.OneToOneField(Repository, on_delete=models.CASCADE, related_name="commit_status")
    enabled = models.BooleanField(default=False)
    provider = models.CharField(max_length=20, choices=registry.choices, default=registry.DEFAULT)
    api_url = models.CharField(max_length=500)  # e.g. https://api.github.com, https://gitlab.com/api/v4
    project = models.CharField(max_length=300)  # owner/repo; on GitLab a numeric id or the project's full path
    token_encrypted = models.TextField(blank=True, default="")
    threshold = models.CharField(max_length=10, choices=SEVERITY_CHOICES, default="high")
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"commit statuses of {self.repository} on {self.provider} ({'on' if self.enabled else 'off'})"

    def set_token(self, token: str) -> None:
        self.token_encrypted = crypto.encrypt(token)

    def token(self) -> str:
        return crypto.decrypt(self.token_encrypted)


class StatusPost(models.Model):
    """One commit status a scan asked for (pending when it started, the verdict when it ended) and how posting it
    went: at most one per scan and phase, so a signal sent twice posts once."""

    class Phase(models.TextChoices):
        STARTED = "started", _("started")
        ENDED = "ended", _("ended")

    class Outcome(models.TextChoices):
        QUEUED = "queued", _("queued")  # handed to the broker
        RETRYING = "retrying", _("retrying")  # the host failed (network, 5xx); the task tries again later
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")  # refused by the host, or still failing after the last attempt
        SKIPPED = "skipped", _("skipped")  # nothing to post (no commit, turned off, the verdict went first)

    repository = models.ForeignKey(Repository, on_delete=models.CASCADE, related_name="status_posts")
    scan = models.ForeignKey(Scan, on_delete=models.CASCADE, related_name="+")
    phase = models.CharField(max_length=10, choices=Phase.choices)
    state = models.CharField(max_length=10, blank=True, default="")  # pending / success / failure / error
    description = models.CharField(max_length=200, blank=True, default="")
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.QUEUED)
    http_status = models.PositiveSmallIntegerField(null=True, blank=True)
    detail = models.CharField(max_length=500, blank=True, default="")  # why it failed; never the token
    attempts = models.PositiveSmallIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scan", "phase"], name="one_status_post_per_phase")]
        indexes = [
            # the settings page: a repository's newest post
            models.Index(fields=["repository", "-updated"], name="status_post_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.state or self.phase} for scan {self.scan_id}: {self.outcome}"


class NotificationSetting(models.Model):
    """A team's wish to hear by email about scans that add findings at or above a severity."""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="notification_setting")
    enabled = models.BooleanField(default=False)
    all_managers = models.BooleanField(default=True)  # the team's managers and admins with an email address
    recipients = models.JSONField(default=list, blank=True)  # further addresses
    threshold = models.CharField(max_length=10, choices=SEVERITY_CHOICES, default="high")
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"notifications of {self.team} ({'on' if self.enabled else 'off'})"


class ScanNotification(models.Model):
    """The one email a scan may cause: the row is claimed before sending, so the signal arriving twice (or a
    redelivered task) never sends a second one."""

    class Outcome(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENT = "sent", _("sent")
        NOTHING = "nothing", _("nothing to send")  # no new finding at or above the threshold, or nobody to send to
        FAILED = "failed", _("failed")

    scan = models.OneToOneField(Scan, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.QUEUED)
    count = models.PositiveIntegerField(default=0)
    recipients = models.JSONField(default=list, blank=True)
    detail = models.CharField(max_length=500, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)
    sent = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # the team page's newest notifications
            models.Index(fields=["team", "-created"], name="scan_notification_recent"),
        ]

    def __str__(self) -> str:
        return f"notification for scan {self.scan_id}: {self.outcome}"
