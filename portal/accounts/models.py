"""Teams and memberships: every repository belongs to a team; a user sees only their teams' data."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Team(models.Model):
    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        VIEWER = "viewer", _("Viewer")  # reads everything of the team
        ENGINEER = "engineer", _("Engineer")  # + triages findings, starts scans
        MANAGER = "manager", _("Manager")  # + manages repositories
        ADMIN = "admin", _("Admin")  # + manages members

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


class ApiToken(models.Model):
    """A personal API token: it acts as its user (their teams and roles), optionally read-only. Only a SHA-256
    digest is stored: tokens are 256 random bits, so a slow hash adds nothing, and the plain token is shown once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=12)  # the first characters, to recognise a token in lists and logs
    digest = models.CharField(max_length=64, unique=True)
    read_only = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.user}"


class Profile(models.Model):
    """What a user sets on their profile page beyond Django's User (whose `email` holds their address): the
    language of the portal at each sign-in and of the emails sent to them. No row until they first save the page."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    # One of settings.LANGUAGES (the form checks it); no `choices`: a language is named in itself, never translated.
    language = models.CharField(max_length=10, default=settings.LANGUAGE_CODE)

    def __str__(self) -> str:
        return f"profile of {self.user} ({self.language})"
