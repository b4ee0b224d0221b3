"""Scan QuerySet: table-level operations (supersede, the stuck-scan sweep)."""

from __future__ import annotations

from datetime import timedelta

from django.db import models
from django.utils import timezone

from portal.scans.constants import ACTIVE_STATUSES, FINAL_STATUSES, ScanStatus


class ScanQuerySet(models.QuerySet):
    def unfinished(self):
        return self.exclude(status__in=FINAL_STATUSES)

    def supersede_older(self, scan) -> int:
        """A newer scan of a branch supersedes the unfinished older ones; returns how many."""
        return (self.unfinished().filter(repository_id=scan.repository_id, branch=scan.branch, id__lt=scan.id)
                .update(status=ScanStatus.SUPERSEDED, finished=timezone.now(),
                        error_message=f"superseded by scan {scan.id}"))

    def stuck(self, stale_seconds: int):
        """Scans a worker holds (cloning/scanning/ingesting) with no heartbeat for `stale_seconds`."""
        limit = timezone.now() - timedelta(seconds=stale_seconds)
        return self.filter(status__in=ACTIVE_STATUSES, heartbeat__lt=limit)
