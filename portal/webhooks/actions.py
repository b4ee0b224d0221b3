"""Receiving a delivery: persist, answer, then work.

- the request is verified before its body is parsed (portal.hosts.webhooks, by the endpoint's host);
- a WebhookDelivery row is written in the same transaction as the Scan it starts (or with why it starts none);
- the scan task is sent after commit; if the broker is down the delivery stays pending and the periodic
  redelivery sends it later, so no delivery is lost;
- a redelivery (same delivery id), or a replay of a (repository, branch, commit) already scanned or queued, is a
  no-op that still answers 2xx.
"""

from __future__ import annotations

import logging
import re

from django.db import IntegrityError, transaction

from portal.hosts import webhooks as host_webhooks
from portal.ports.tracking import record_check, record_request_event, record_review
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.constants import ScanStatus, ScanTrigger
from portal.scans.models import Scan
from portal.scans.tasks import scan_repository
from portal.webhooks.models import WebhookDelivery, WebhookRejection

log = logging.getLogger(__name__)
_SHA = re.compile(r"[0-9a-f]{40}")  # fullmatch: `$` would also accept a sha followed by a newline
_LIVE = (ScanStatus.QUEUED, ScanStatus.CLONING, ScanStatus.SCANNING, ScanStatus.INGESTING, ScanStatus.FINISHED)


def do_record_rejection(repository: Repository, provider: str, reason: str) -> None:
    WebhookRejection.objects.create(repository=repository, provider=provider, reason=reason[:100])


def do_receive_delivery(repository: Repository, provider: str, headers, body: bytes) -> tuple[int, str]:
    """(HTTP status, short message) for a delivery whose signature was already verified."""
    delivery_id = host_webhooks.delivery_id(provider, headers, body)
    event = host_webhooks.event_name(provider, headers)
    if WebhookDelivery.objects.filter(provider=provider, delivery_id=delivery_id).exists():
        return 200, "duplicate delivery: already received"
    try:
        push = host_webhooks.parse(provider, event, body, headers.get("Content-Type", "application/json"))
    except (ValueError, UnicodeDecodeError) as exc:
        return 400, f"malformed payload: {exc}"[:200]
    try:
        with transaction.atomic():
            delivery = WebhookDelivery.objects.create(
                repository=repository,
                provider=provider,
                delivery_id=delivery_id,
                event=event,
                ref=push.ref,
                before=push.before[:64],
                after=push.after[:64],
                state=WebhookDelivery.State.IGNORED,
            )
            status, message = _act(repository, delivery, push)
            delivery.outcome = message[:300]
            delivery.save(update_fields=["outcome", "state", "scan"])
    except IntegrityError:  # the same delivery raced in twice
        return 200, "duplicate delivery: already received"
    return status, message


def _act(repository: Repository, delivery: WebhookDelivery, push: host_webhooks.Push) -> tuple[int, str]:
    if push.kind == "ping":
        return 200, "ping received"
    if push.kind == "tag":
        return 202, f"tag push {push.ref} recorded; tags are not scanned"
    if push.kind == "other":
        return 202, "event recorded; nothing to scan"
    if push.kind == "merge_request":
        return 202, record_request_event(repository, push)
    if push.kind in ("review", "check"):
        return 202, (record_review if push.kind == "review" else record_check)(repository, push)
    if push.branch not in repository.branches:
        return 202, f"branch {push.branch} is not tracked; nothing to scan"
    if push.kind == "branch_deleted":
        if push.branch not in repository.gone_branches:
            repository.gone_branches = [*repository.gone_branches, push.branch]
            repository.save(update_fields=["gone_branches"])
        return 202, f"branch {push.branch} deleted on the remote; nothing to scan"
    if not _SHA.fullmatch(push.after):
        return 400, "the push names no commit to scan"
    if push.branch in repository.gone_branches:
        repository.gone_branches = [b for b in repository.gone_branches if b != push.branch]
        repository.save(update_fields=["gone_branches"])
    existing = Scan.objects.filter(
        repository=repository, branch=push.branch, commit_sha=push.after, status__in=_LIVE
    ).first()
    if existing is not None:
        delivery.scan = existing
        return 200, f"commit {push.after[:10]} already scanned or queued (scan {existing.pk})"
    scan = do_create_scan(
        repository, branch=push.branch, commit_sha=push.after, ref=push.ref, trigger=ScanTrigger.PUSH, enqueue=False
    )
    delivery.scan = scan
    delivery.state = WebhookDelivery.State.PENDING
    delivery_pk = delivery.pk
    transaction.on_commit(lambda: enqueue_delivery(delivery_pk))
    return 202, f"scan {scan.pk} of {push.branch}@{push.after[:10]} queued"


def enqueue_delivery(delivery_pk: int) -> bool:
    """Send a pending delivery's scan to the broker; on failure it stays pending for the redelivery task."""
    delivery = WebhookDelivery.objects.select_related("scan").filter(pk=delivery_pk).first()
    if delivery is None or delivery.state != WebhookDelivery.State.PENDING:
        return False
    scan = delivery.scan
    if scan is not None and not scan.is_final:
        try:
            scan_repository.apply_async((scan.pk,), retry=False)
        except Exception as exc:  # broker down: kombu raises its own OperationalError family
            log.warning("delivery %s stays pending, the broker refused the task: %s", delivery_pk, exc)
            return False
    WebhookDelivery.objects.filter(pk=delivery_pk, state=WebhookDelivery.State.PENDING).update(
        state=WebhookDelivery.State.ENQUEUED
    )
    return True
