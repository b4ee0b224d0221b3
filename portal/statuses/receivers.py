"""Listening to the scan pipeline: a scan's start queues its pending status, its end queues the verdict and the
team's email. The signals arrive after commit through `send_robust`, so an error here is logged by the pipeline
and never reaches the scan."""

from __future__ import annotations

from django.dispatch import receiver

from portal.scans.constants import ScanStatus
from portal.scans.signals import scan_ended, scan_started
from portal.statuses.actions import queue_commit_status, queue_notification
from portal.statuses.models import StatusPost


@receiver(scan_started, dispatch_uid="statuses.scan_started")
def on_scan_started(sender, scan, **kwargs) -> None:
    queue_commit_status(scan, StatusPost.Phase.STARTED)


@receiver(scan_ended, dispatch_uid="statuses.scan_ended")
def on_scan_ended(sender, scan, **kwargs) -> None:
    if (
        scan.status == ScanStatus.SUPERSEDED
        and not StatusPost.objects.filter(scan=scan, phase=StatusPost.Phase.STARTED).exists()
    ):
        return  # the host never heard of this scan: nothing to settle
    try:
        queue_commit_status(scan, StatusPost.Phase.ENDED)
    finally:
        queue_notification(scan)  # the email does not depend on the git host
