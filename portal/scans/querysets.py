"""Scan QuerySet: table-level operations (supersede, the stuck-scan sweep)."""

from __future__ import annotations

from datetime import timedelta

from django.db import models
from django.utils import timezone

from portal.scans.constants import ACTIVE_STATUSES, FINAL_STATUSES, ScanStatus


class ScanQuerySet(models.QuerySet):
    def unfinished(self):
        return self.exclude(status__in=FINAL_STATUSES)

    def supersede_older(self, scan) -> list[int]:
        """A newer scan of a branch supersedes the unfinished older ones; returns their ids. The rows are locked
        first, so a worker finishing one of them at this moment either wins (it is not returned) or waits."""
        older = self.unfinished().filter(repository_id=scan.repository_id, branch=scan.branch, id__lt=scan.id)
        ids = list(older.select_for_update().values_list("id", flat=True))
        if ids:
            self.filter(id__in=ids).update(
                status=ScanStatus.SUPERSEDED, finished=timezone.now(), error_message=f"superseded by scan {scan.id}"
            )
        return ids

    def stuck(self, stale_seconds: int, queued_seconds: int | None = None):
        """Scans a worker holds (cloning/scanning/ingesting) with no heartbeat for `stale_seconds`, and scans still
        queued `queued_seconds` after their message was sent (the heartbeat of a queued scan is the time its
        message was last sent; a new scan has none, its creation counts)."""
        limit = timezone.now() - timedelta(seconds=stale_seconds)
        held = models.Q(status__in=ACTIVE_STATUSES, heartbeat__lt=limit)
        if queued_seconds is None:
            return self.filter(held)
        queued_limit = timezone.now() - timedelta(seconds=queued_seconds)
        lost = models.Q(status=ScanStatus.QUEUED) & (
            models.Q(heartbeat__lt=queued_limit) | models.Q(heartbeat__isnull=True, created__lt=queued_limit)
        )
        return self.filter(held | lost)
