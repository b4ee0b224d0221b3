"""Celery tasks: post one commit status, send one scan's notification email. Both retry with backoff on what may
pass (the network, 5xx, an SMTP server that is down), a limited number of times, and record how it went; neither
can touch the scan, which was final (or running) before they were queued."""

from __future__ import annotations

import logging
import smtplib

from celery import shared_task
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone

from portal.hosts import statuses as host_statuses
from portal.repositories.urlcheck import check_host_is_public
from portal.statuses import notifications, outcome
from portal.statuses.models import CommitStatusConfig, NotificationSetting, ScanNotification, StatusPost
from portal.statuses.publishing import UNPUBLISHED, publish

log = logging.getLogger(__name__)

# Six attempts with exponential backoff (2, 4, 8, 16, 32 s, each with full jitter) ride out a host's restart or a
# short outage without holding a worker: a retry is a new message with a countdown, not a sleep.
MAX_RETRIES = 5
_BACKOFF = {"retry_backoff": 2, "retry_backoff_max": 300, "retry_jitter": True, "max_retries": MAX_RETRIES}


@shared_task(bind=True, autoretry_for=(host_statuses.TransientError,), **_BACKOFF)
def post_commit_status(self, post_id: int) -> str:
    post = StatusPost.objects.select_related("scan", "repository").filter(pk=post_id).first()
    if post is None:
        return "gone"
    if post.outcome not in (StatusPost.Outcome.QUEUED, StatusPost.Outcome.RETRYING):
        return post.outcome  # a redelivered message: posted, refused or skipped already
    scan = post.scan
    if (
        post.phase == StatusPost.Phase.STARTED
        and StatusPost.objects.filter(scan=scan, phase=StatusPost.Phase.ENDED, outcome=StatusPost.Outcome.SENT).exists()
    ):
        # A pending retried after the verdict was posted would overwrite it on the host.
        return _record(post, StatusPost.Outcome.SKIPPED, detail="the final status was posted first")
    config = CommitStatusConfig.objects.filter(repository_id=post.repository_id).first()
    if config is None or not config.enabled:
        return _record(post, StatusPost.Outcome.SKIPPED, detail="commit statuses were turned off")
    if post.phase == StatusPost.Phase.STARTED:
        state, description = outcome.pending_status()
    else:
        state, description = outcome.final_status(scan, config.threshold)
    attempt = self.request.retries + 1
    fields = {"state": state, "description": description[:200], "attempts": attempt}
    token = ""
    try:
        token = config.token()
        request = host_statuses.build(
            config.provider,
            api_url=config.api_url,
            project=config.project,
            sha=scan.commit_sha,
            token=token,
            state=state,
            description=description,
            target_url=outcome.scan_url(scan),
        )
        _check_host(request.host)  # again at send time: DNS may have changed since the settings were saved
        status = host_statuses.send(request, timeout=settings.ROCPORT_STATUS_TIMEOUT, token=token)
    except host_statuses.TransientError as exc:
        last = self.request.retries >= self.max_retries
        log.warning(
            "commit status %s of scan %s (repository %s, %s): %s; %s",
            state,
            scan.pk,
            post.repository_id,
            config.provider,
            exc,
            "giving up" if last else f"attempt {attempt}, will retry",
        )
        _record(
            post,
            StatusPost.Outcome.FAILED if last else StatusPost.Outcome.RETRYING,
            http_status=exc.status,
            detail=str(exc),
            **fields,
        )
        raise  # autoretry_for: a new message with a backoff countdown, or the end after the last attempt
    except (host_statuses.PermanentError, ValueError) as exc:
        # ValueError: the stored token cannot be decrypted (the credentials key changed).
        log.warning(
            "commit status %s of scan %s (repository %s, %s) refused: %s",
            state,
            scan.pk,
            post.repository_id,
            config.provider,
            exc,
        )
        return _record(
            post, StatusPost.Outcome.FAILED, http_status=getattr(exc, "status", None), detail=str(exc), **fields
        )
    log.info("commit status %s of scan %s posted to %s (HTTP %s)", state, scan.pk, config.provider, status)
    return _record(post, StatusPost.Outcome.SENT, http_status=status, detail="", **fields)


@shared_task
def resend_unpublished() -> int:
    """Publish again the posts and emails whose task never reached the broker (beat, every minute); returns how
    many reached it this time. Only rows marked by `publishing.publish` are touched, so a task that is merely
    waiting in a long queue is never sent twice."""
    sent = 0
    for task, model in ((post_commit_status, StatusPost), (send_scan_notification, ScanNotification)):
        for pk in model.objects.filter(outcome="queued", detail=UNPUBLISHED).values_list("pk", flat=True)[:1000]:
            # Cleared before publishing: a worker that takes the task at once must not find the mark.
            model.objects.filter(pk=pk, detail=UNPUBLISHED).update(detail="")
            if not publish(task, model, pk):
                return sent  # still down: the rest waits for the next round
            sent += 1
    return sent


def _check_host(host: str) -> None:
    try:
        check_host_is_public(host)
    except ValidationError as exc:
        raise host_statuses.PermanentError(" ".join(exc.messages)) from None


def _record(post: StatusPost, outcome_: str, **fields) -> str:
    if "detail" in fields:
        fields["detail"] = fields["detail"][:500]
    StatusPost.objects.filter(pk=post.pk).update(outcome=outcome_, updated=timezone.now(), **fields)
    return outcome_


@shared_task(bind=True, autoretry_for=(smtplib.SMTPException, OSError), **_BACKOFF)
def send_scan_notification(self, notification_id: int) -> str:
    notification = ScanNotification.objects.select_related("scan__repository__team").filter(pk=notification_id).first()
    if notification is None:
        return "gone"
    if notification.outcome != ScanNotification.Outcome.QUEUED:
        return notification.outcome  # sent (or settled) already: one email per scan
    scan = notification.scan
    setting = NotificationSetting.objects.filter(team_id=notification.team_id, enabled=True).first()
    if setting is None:
        return _settle(notification, ScanNotification.Outcome.NOTHING, detail="notifications were turned off")
    findings = outcome.new_findings(scan, setting.threshold)
    count = findings.count()
    if not count:
        return _settle(
            notification,
            ScanNotification.Outcome.NOTHING,
            detail=f"no new {outcome.severity_label(setting.threshold)} findings",
        )
    recipients = notifications.recipients(setting)
    if not recipients:
        return _settle(
            notification,
            ScanNotification.Outcome.NOTHING,
            count=count,
            detail="nobody to send to (no manager has an email address)",
        )
    try:
        notifications.send(scan, list(findings[: notifications.TOP]), count, setting.threshold, recipients)
    except (smtplib.SMTPException, OSError) as exc:
        last = self.request.retries >= self.max_retries
        log.warning(
            "notification email for scan %s: %s; %s", scan.pk, type(exc).__name__, "giving up" if last else "will retry"
        )
        if last:
            _settle(
                notification,
                ScanNotification.Outcome.FAILED,
                count=count,
                recipients=recipients,
                detail=f"{type(exc).__name__}: {exc}",
            )
        raise
    log.info("notification email for scan %s sent to %d recipients (%d new findings)", scan.pk, len(recipients), count)
    return _settle(
        notification, ScanNotification.Outcome.SENT, count=count, recipients=recipients, detail="", sent=timezone.now()
    )


def _settle(notification: ScanNotification, outcome_: str, **fields) -> str:
    if "detail" in fields:
        fields["detail"] = fields["detail"][:500]
    ScanNotification.objects.filter(pk=notification.pk).update(outcome=outcome_, **fields)
    return outcome_
