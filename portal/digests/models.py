"""Who asked for the weekly digest of which team (and in which language), and the record of each digest sent:
one row per team, user and week, inserted before the email goes out, so that a second run of the task, a
restarted beat or two workers at once never send the same week twice."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from portal.accounts.models import Team


class DigestSubscription(models.Model):
    """A member's wish to get a team's weekly digest by email. Only read while the user is a member of the team:
    someone who leaves it stops getting it without anyone deleting the row."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="digest_subscriptions")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="digest_subscriptions")
    # One of settings.LANGUAGES (the form checks it); no `choices`: a language is named in itself, never translated.
    language = models.CharField(max_length=10, default="en")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "team"], name="one_digest_subscription_per_team")]

    def __str__(self) -> str:
        return f"weekly digest of {self.team} for {self.user} ({self.language})"


class DigestSent(models.Model):
    """The one digest of a week for a team and a user. `week` is the Monday of the ISO week it covers; `sent_at`
    stays null until the email went out, so a failed send is tried again by the next run (of the same week only:
    older weeks are never sent late)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    week = models.DateField()  # the Monday of the ISO week the digest covers
    created = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "user", "week"], name="one_digest_per_week")]
        indexes = [
            # the task's question: this week's digests not sent yet
            models.Index(fields=["week"], condition=models.Q(sent_at__isnull=True), name="digest_unsent"),
        ]

    def __str__(self) -> str:
        return f"digest of {self.team_id} for {self.user_id}, week of {self.week}: {self.sent_at or 'not sent'}"
