"""The notification email: who gets it (the team's managers and admins, further addresses) and what it says
(repository, branch, commit, how many new findings, the most severe of them, the scan's link), through Django's
email backend (EMAIL_* settings). One message per recipient, so addresses are not shown to each other."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from portal.accounts.models import Membership
from portal.links import site_url
from portal.statuses.outcome import scan_url, severity_label

TOP = 10  # findings listed in the email; the link shows the rest


def recipients(setting) -> list[str]:
    """Addresses in a stable order, each once (case-insensitively)."""
    addresses: list[str] = []
    if setting.all_managers:
        addresses += list(
            Membership.objects.filter(
                team_id=setting.team_id, role__in=(Membership.Role.MANAGER, Membership.Role.ADMIN)
            )
            .exclude(user__email="")
            .order_by("user__username")
            .values_list("user__email", flat=True)
        )
    addresses += setting.recipients
    seen: set[str] = set()
    unique = []
    for address in addresses:
        if address.lower() not in seen:
            seen.add(address.lower())
            unique.append(address)
    return unique


def render(scan, findings: list, count: int, threshold: str) -> tuple[str, str]:
    context = {
        "scan": scan,
        "repository": scan.repository,
        "findings": findings,
        "count": count,
        "more": max(count - len(findings), 0),
        "severity": severity_label(threshold),
        "url": scan_url(scan),
        "settings_url": site_url(reverse("statuses:notifications", args=[scan.repository.team_id])),
    }
    with translation.override(settings.LANGUAGE_CODE):
        subject = render_to_string("statuses/email/new_findings_subject.txt", context)
        body = render_to_string("statuses/email/new_findings.txt", context)
    return " ".join(subject.split()), body  # a header is one line


def send(scan, findings: list, count: int, threshold: str, addresses: list[str]) -> None:
    subject, body = render(scan, findings, count, threshold)
    messages = [EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [address]) for address in addresses]
    with get_connection() as connection:
        connection.send_messages(messages)
