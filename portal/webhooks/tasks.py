"""Periodic webhook work: send deliveries still pending (the broker was down), and reconcile branch heads with
`git ls-remote` (providers skip some deliveries: a webhook is a hint, git is the truth)."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from portal.repositories.git import CloneError, GitSession
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.constants import ScanStatus, ScanTrigger
from portal.scans.models import Scan
from portal.webhooks.actions import enqueue_delivery
from portal.webhooks.models import WebhookDelivery

log = logging.getLogger(__name__)


@shared_task
def redeliver_pending() -> int:
    limit = timezone.now() - timedelta(seconds=settings.ROCPORT_WEBHOOK_PENDING_SECONDS)
    ids = list(
        WebhookDelivery.objects.filter(state=WebhookDelivery.State.PENDING, received__lt=limit).values_list(
            "pk", flat=True
        )[:1000]
    )
    return sum(1 for pk in ids if enqueue_delivery(pk))


@shared_task
def reconcile_heads() -> int:
    """Scan every tracked branch head that no scan covers yet; returns the number of scans started."""
    started = 0
    for repository in Repository.objects.all():
        for branch in repository.branches:
            if branch in repository.gone_branches:
                continue
            try:
                with GitSession(repository.clone_url, repository.credentials()) as git:
                    head = git.resolve(branch)
            except CloneError as exc:
                log.info("reconcile: %s %s: %s", repository, branch, exc.code)
                continue
            covered = (
                Scan.objects.filter(repository=repository, branch=branch, commit_sha=head)
                .exclude(status__in=(ScanStatus.CANCELLED, ScanStatus.SUPERSEDED))
                .exists()
            )
            if not covered:
                do_create_scan(repository, branch=branch, commit_sha=head, trigger=ScanTrigger.SCHEDULE)
                started += 1
    return started
