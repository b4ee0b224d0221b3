"""Changes to the commit status and notification settings (by managers), and queueing what a scan's start and end
ask for: at most one status post per scan and phase, at most one email per scan, each sent by a Celery task
(portal.statuses.tasks, published through portal.statuses.publishing; neither imports this module)."""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from portal.repositories.urlcheck import check_host_is_public
from portal.scans.constants import ScanStatus
from portal.statuses.models import CommitStatusConfig, NotificationSetting, ScanNotification, StatusPost
from portal.statuses.publishing import publish
from portal.statuses.tasks import post_commit_status, send_scan_notification

log = logging.getLogger(__name__)


def check_api_url(url: str) -> str:
    """The API base URL, stripped of a trailing slash; https only, and (like clone URLs) no loopback or private
    host unless ROCPORT_ALLOW_PRIVATE_HOSTS: the worker sends the token there."""
    url = url.strip().rstrip("/")
    parts = urlsplit(url)
    allowed = ("https", "http") if settings.ROCPORT_ALLOW_PRIVATE_HOSTS else ("https",)
    if parts.scheme not in allowed or not parts.hostname:
        raise ValidationError(_("Enter the API's https:// URL, for example https://api.github.com."))
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ValidationError(
            _("The API URL takes no user name, password, query or fragment; the token has its own field.")
        )
    check_host_is_public(parts.hostname)
    return url


def do_save_commit_status_settings(
    repository,
    *,
    enabled: bool,
    provider: str,
    api_url: str,
    project: str,
    threshold: str,
    token: str = "",
    clear_token: bool = False,
    acting_user,
) -> CommitStatusConfig:
    """Save the settings; an empty `token` keeps the stored one. Turning statuses on needs a token."""
    config = CommitStatusConfig.objects.filter(repository=repository).first() or CommitStatusConfig(
        repository=repository
    )
    config.enabled, config.provider, config.api_url = enabled, provider, api_url
    config.project, config.threshold = project, threshold
    if clear_token:
        config.token_encrypted = ""
    elif token:
        config.set_token(token)
    if config.enabled and not config.token_encrypted:
        raise ValidationError(_("Commit statuses need a token: enter one, or leave statuses off."))
    config.save()
    # The token is not logged, nor whether it changed hands in plain text: only that the settings changed.
    log.info(
        "commit status settings of repository %s saved by %s (enabled=%s, provider=%s)",
        repository.pk,
        acting_user.pk,
        config.enabled,
        config.provider,
    )
    return config


def do_save_notification_setting(
    team, *, enabled: bool, all_managers: bool, recipients: list[str], threshold: str, acting_user
) -> NotificationSetting:
    if enabled and not all_managers and not recipients:
        raise ValidationError(_("Name at least one recipient, or send to all managers."))
    setting, _created = NotificationSetting.objects.update_or_create(
        team=team,
        defaults={"enabled": enabled, "all_managers": all_managers, "recipients": recipients, "threshold": threshold},
    )
    log.info("notification settings of team %s saved by %s (enabled=%s)", team.pk, acting_user.pk, enabled)
    return setting


def queue_commit_status(scan, phase: str) -> StatusPost | None:
    """Record the status the scan's start or end asks for and hand it to the posting task; None when the repository
    posts no statuses or this scan and phase were queued already (a signal sent twice)."""
    config = CommitStatusConfig.objects.filter(repository_id=scan.repository_id, enabled=True).first()
    if config is None:
        return None
    try:
        with transaction.atomic():
            post = StatusPost.objects.create(repository_id=scan.repository_id, scan=scan, phase=phase)
    except IntegrityError:
        return None  # this phase of this scan is queued or posted already
    if not scan.commit_sha:
        _skip(post, "the scan ended before its commit was known")
        return post
    transaction.on_commit(lambda: publish(post_commit_status, StatusPost, post.pk))
    return post


def queue_notification(scan) -> ScanNotification | None:
    """Claim the scan's one email when the team wants one and the scan added findings; None otherwise, and when
    the email was claimed already."""
    if scan.status != ScanStatus.FINISHED or not scan.summary.get("tracking", {}).get("new"):
        return None
    team_id = scan.repository.team_id
    if not NotificationSetting.objects.filter(team_id=team_id, enabled=True).exists():
        return None
    try:
        with transaction.atomic():
            notification = ScanNotification.objects.create(scan=scan, team_id=team_id)
    except IntegrityError:
        return None  # claimed by an earlier delivery of the signal
    transaction.on_commit(lambda: publish(send_scan_notification, ScanNotification, notification.pk))
    return notification


def _skip(post: StatusPost, why: str) -> None:
    StatusPost.objects.filter(pk=post.pk).update(
        outcome=StatusPost.Outcome.SKIPPED, detail=why[:500], updated=timezone.now()
    )
