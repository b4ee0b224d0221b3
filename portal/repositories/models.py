"""Repositories: what a team registered, where to clone it from, and which branches to track."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from portal.accounts.models import Team
from portal.repositories import crypto


def _webhook_secret() -> str:
    return secrets.token_urlsafe(32)


class Repository(models.Model):
    class PortMode(models.TextChoices):
        """How a merge request carries the reviewed translations (portal.ports.planning): each file edited where it
        is, or each .cu source given a .hip sibling beside the original, with the build switched to the copies."""

        IN_PLACE = "in_place", _("in place")
        SIDE_BY_SIDE = "side_by_side", _("side by side, build switched")

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="repositories")
    name = models.CharField(max_length=200)
    clone_url = models.CharField(max_length=1000)
    default_branch = models.CharField(max_length=255, default="main")
    tracked_branches = models.JSONField(default=list, blank=True)  # besides the default branch
    # Encrypted at rest (scanner.repositories.crypto); never logged, never shown back.
    credentials_encrypted = models.TextField(blank=True, default="")
    credentials_username = models.CharField(max_length=200, blank=True, default="")
    webhook_secret = models.CharField(max_length=100, default=_webhook_secret)
    # After a rotation the previous secret stays valid until this time (providers are updated by hand).
    previous_webhook_secret = models.CharField(max_length=100, blank=True, default="")
    previous_secret_expires = models.DateTimeField(null=True, blank=True)
    gone_branches = models.JSONField(default=list, blank=True)  # tracked branches deleted on the remote
    codeowners = models.TextField(blank=True, default="")  # CODEOWNERS of the default branch, as last scanned
    port_mode = models.CharField(max_length=20, choices=PortMode.choices, default=PortMode.IN_PLACE)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "name"], name="repository_name_per_team")]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def branches(self) -> list[str]:
        return [self.default_branch] + [b for b in self.tracked_branches if b != self.default_branch]

    def webhook_secrets(self) -> list[str]:
        """The secrets a delivery may be signed with now: the current one, and the previous during its grace."""
        secrets_ = [self.webhook_secret]
        if (
            self.previous_webhook_secret
            and self.previous_secret_expires
            and self.previous_secret_expires > timezone.now()
        ):
            secrets_.append(self.previous_webhook_secret)
        return secrets_

    def rotate_webhook_secret(self, grace_hours: int = 24) -> None:
        self.previous_webhook_secret = self.webhook_secret
        self.previous_secret_expires = timezone.now() + timedelta(hours=grace_hours)
        self.webhook_secret = _webhook_secret()

    def set_credentials(self, username: str, secret: str) -> None:
        self.credentials_username = username
        self.credentials_encrypted = crypto.encrypt(secret)

    def credentials(self) -> tuple[str, str] | None:
        if not self.credentials_encrypted:
            return None
        return self.credentials_username, crypto.decrypt(self.credentials_encrypted)


class HipBuildDecision(models.Model):
    """Which HIP builds count as the repository's ROCm build (scanner.port: an accepted HIP build that compiles
    every source the NVIDIA builds compile makes the CUDA-only build files, CI jobs and containers its NVIDIA
    side). The team's decision, passed to every scan as ScanOptions.hip_builds (portal.repositories.hip_builds);
    a scan never changes it silently: the baseline keeps what its scan found, a `.rocport.toml` declaration is
    recorded as such, and a manager accepts what a newer scan found or sets it by hand."""

    class Source(models.TextChoices):
        BASELINE = "baseline", _("the baseline scan")
        ACCEPTED = "accepted", _("accepted by a manager")
        MANUAL = "manual", _("set by hand by a manager")
        DECLARED = "declared", _("declared in .rocport.toml")

    repository = models.OneToOneField(
        Repository, on_delete=models.CASCADE, primary_key=True, related_name="hip_decision"
    )
    # The accepted build ids (`<build file>:<target>`, [] for "no HIP build"); None until the baseline scan.
    accepted = models.JSONField(null=True, blank=True)
    source = models.CharField(max_length=10, choices=Source.choices, blank=True, default="")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_scan = models.ForeignKey(  # the baseline scan, or the scan that read the declaration
        "scans.Scan", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    # The HIP build ids found when the decision was made or last confirmed ("keep the current decision"): a newer
    # scan that finds another set shows the change to the managers.
    considered = models.JSONField(default=list, blank=True)
    # The newest default-branch scan that read the builds (its Scan.builds: what the repository page shows).
    found_scan = models.ForeignKey("scans.Scan", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
