"""Teams and memberships: every repository belongs to a team; a user sees only their teams' data."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Team(models.Model):
    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        VIEWER = "viewer"  # reads everything of the team
        ENGINEER = "engineer"  # + triages findings, starts scans
        MANAGER = "manager"  # + manages repositories
        ADMIN = "admin"  # + manages members

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.VIEWER)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "team"], name="one_membership_per_team")]

    def __str__(self) -> str:
        return f"{self.user} in {self.team} ({self.role})"

    @property
    def can_write(self) -> bool:
        return self.role != self.Role.VIEWER

    @property
    def can_manage(self) -> bool:
        return self.role in (self.Role.MANAGER, self.Role.ADMIN)
