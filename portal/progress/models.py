"""One row per repository and day: the migration's figures as they stood at the end of that day (the burn-down
and the forecast read these; portal.reporting.figures writes them whenever the figures move)."""

from __future__ import annotations

from django.db import models

from portal.repositories.models import Repository


class ProgressSnapshot(models.Model):
    repository = models.ForeignKey(Repository, on_delete=models.CASCADE, related_name="progress_snapshots")
    day = models.DateField()
    done = models.FloatField(default=0.0)  # hours (portal.reporting.figures defines them)
    left = models.FloatField(default=0.0)
    descoped = models.FloatField(default=0.0)
    baseline = models.FloatField(default=0.0)
    files_not_started = models.PositiveIntegerField(default=0)
    files_in_progress = models.PositiveIntegerField(default=0)
    files_done = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["repository", "day"], name="one_snapshot_per_day")]

    def __str__(self) -> str:
        return f"{self.repository_id} {self.day}: {self.done:.1f} h done, {self.left:.1f} h left"
