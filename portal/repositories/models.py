"""Repositories: what a team registered, where to clone it from, and which branches to track."""

from __future__ import annotations

import secrets

from django.db import models

from portal.accounts.models import Team
from portal.repositories import crypto


def _webhook_secret() -> str:
    return secrets.token_urlsafe(32)


class Repository(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="repositories")
    name = models.CharField(max_length=200)
    clone_url = models.CharField(max_length=1000)
    default_branch = models.CharField(max_length=255, default="main")
    tracked_branches = models.JSONField(default=list, blank=True)  # besides the default branch
    # Encrypted at rest (scanner.repositories.crypto); never logged, never shown back.
    credentials_encrypted = models.TextField(blank=True, default="")
    credentials_username = models.CharField(max_length=200, blank=True, default="")
    webhook_secret = models.CharField(max_length=100, default=_webhook_secret)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "name"], name="repository_name_per_team")]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def branches(self) -> list[str]:
        return [self.default_branch] + [b for b in self.tracked_branches if b != self.default_branch]

    def set_credentials(self, username: str, secret: str) -> None:
        self.credentials_username = username
        self.credentials_encrypted = crypto.encrypt(secret)

    def credentials(self) -> tuple[str, str] | None:
        if not self.credentials_encrypted:
            return None
        return self.credentials_username, crypto.decrypt(self.credentials_encrypted)
