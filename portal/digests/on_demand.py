"""The weekly digest a user asks for on their profile page: its preview (the email as it would read) and "send me
now". Both are the digest of the most recent completed week, built and rendered exactly as the beat's task does
(content.build, sending.render), for one team the caller has checked the user is a member of. A digest sent now is
extra: it is not recorded as the week's (DigestSent), so the weekly one still comes."""

from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.core.mail import EmailMessage
from django.utils import timezone

from portal.digests import content, sending

log = logging.getLogger(__name__)


@dataclass
class Preview:
    week: date  # the Monday of the week it covers
    subject: str
    body: str


def preview(team, language: str) -> Preview:
    """The digest of `team` for the last completed week, in `language`."""
    week = sending.covered_week(timezone.localdate())
    subject, body = sending.render(content.build(team, week), language)
    return Preview(week, subject, body)


def do_send_digest_now(team, language: str, *, acting_user) -> bool:
    """Send the previewed digest to `acting_user`'s own address (the caller checks there is one); False when the
    mail server did not take it."""
    digest = preview(team, language)
    message = EmailMessage(digest.subject, digest.body, settings.DEFAULT_FROM_EMAIL, [acting_user.email])
    try:
        message.send()
    except (smtplib.SMTPException, OSError) as exc:
        # Neither the address nor the server's reply (which may quote it) goes to the log.
        log.warning("digest of team %s sent now to user %s: %s", team.pk, acting_user.pk, type(exc).__name__)
        return False
    log.info("digest of team %s, week of %s, sent now to user %s", team.pk, digest.week, acting_user.pk)
    return True
