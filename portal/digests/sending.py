"""Who gets the weekly digest, and sending it exactly once per team, user and week.

The week is the most recent completed ISO week (Monday 00:00 to Sunday 24:00, settings.TIME_ZONE): any run from
the following Monday on sends it, none sends an older one. Each run first records a DigestSent row for every
subscriber who may get it (members of the team with an email address; the unique constraint makes the insert a
no-op for the rows already there), then sends the rows whose `sent_at` is null, one at a time: each is locked
with SKIP LOCKED in its own transaction, sent, and marked sent before the commit. So a second run, a restarted
beat or two workers at once send once; an SMTP failure leaves `sent_at` null and the next run tries again.
The one window left is a crash between the SMTP server accepting a message and the commit: that email is sent
again (at least once rather than maybe never)."""

from __future__ import annotations

import logging
import smtplib
from datetime import date, timedelta

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.db.models import Exists, OuterRef, Subquery
from django.template.loader import render_to_string
from django.utils import timezone, translation

from portal.accounts.models import Membership
from portal.digests import content
from portal.digests.models import DigestSent, DigestSubscription

log = logging.getLogger(__name__)


def covered_week(today: date) -> date:
    """The Monday of the most recent completed ISO week on `today`."""
    return today - timedelta(days=today.weekday() + 7)


def _member() -> Exists:
    return Exists(Membership.objects.filter(user=OuterRef("user"), team=OuterRef("team")))


def claim(week: date) -> None:
    """Record the week's digest of every subscriber who may get it (a no-op for those recorded already)."""
    wanted = (
        DigestSubscription.objects.filter(_member(), user__is_active=True)
        .exclude(user__email="")
        .values_list("team_id", "user_id")
    )
    DigestSent.objects.bulk_create(
        [DigestSent(team_id=team, user_id=user, week=week) for team, user in wanted], ignore_conflicts=True
    )


def unsent(week: date):
    """The week's digests not sent yet whose user may still get them (a member who opted in, with an address),
    annotated with the language asked for."""
    language = DigestSubscription.objects.filter(user=OuterRef("user"), team=OuterRef("team")).values("language")
    return (
        DigestSent.objects.filter(week=week, sent_at__isnull=True, user__is_active=True)
        .filter(_member())
        .exclude(user__email="")
        .annotate(language=Subquery(language[:1]))
        .filter(language__isnull=False)
    )


def render(digest: content.TeamDigest, language: str) -> tuple[str, str]:
    with translation.override(language):
        context = {"digest": digest, "language": translation.get_language()}
        subject = render_to_string("digests/email/weekly_subject.txt", context)
        body = render_to_string("digests/email/weekly.txt", context)
    return " ".join(subject.split()), body  # a header is one line


def send_week(week: date) -> int:
    """Send the week's digests not sent yet; returns how many went out."""
    claim(week)
    digests: dict[int, content.TeamDigest] = {}  # one per team and run
    tried: list[int] = []
    broken: list[int] = []  # teams whose digest could not be built this run
    sent = 0
    connection = get_connection()  # opened at the first message: most runs find nothing to send
    try:
        while True:
            with transaction.atomic():
                record = (
                    unsent(week)
                    .exclude(pk__in=tried)
                    .exclude(team_id__in=broken)
                    .select_related("team", "user")
                    .select_for_update(skip_locked=True, of=("self",))
                    .order_by("team_id", "user_id")
                    .first()
                )
                if record is None:
                    break
                tried.append(record.pk)
                if record.team_id not in digests:
                    try:
                        with transaction.atomic():  # a savepoint: the record's lock outlives a failed build
                            digests[record.team_id] = content.build(record.team, week)
                    except Exception:
                        # One team's figures must not hold back every other team's digest.
                        log.exception("weekly digest of team %s, week of %s: not built", record.team_id, week)
                        broken.append(record.team_id)
                        continue
                subject, body = render(digests[record.team_id], record.language)
                message = EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [record.user.email])
                try:
                    connection.open()  # a no-op once open
                    connection.send_messages([message])
                except (smtplib.SMTPException, OSError) as exc:
                    # Neither the address nor the server's reply (which may quote it) goes to the log.
                    log.warning(
                        "weekly digest of team %s for user %s, week of %s: %s; the next run tries again",
                        record.team_id,
                        record.user_id,
                        week,
                        type(exc).__name__,
                    )
                    continue
                DigestSent.objects.filter(pk=record.pk).update(sent_at=timezone.now())
                sent += 1
    finally:
        connection.close()
    if tried:
        log.info("weekly digests of the week of %s: %d sent, %d not sent", week, sent, len(tried) - sent)
    return sent
