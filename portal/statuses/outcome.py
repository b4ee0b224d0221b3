"""What a scan means for the git host and for the team: its new findings at or above a severity, the commit status
(state and a one-line description) and the scan page's absolute URL."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext

from portal.findings.models import DISMISSED_TRIAGE, SEVERITY_RANK, Finding
from portal.links import site_url
from portal.scans.constants import ScanStatus


def scan_url(scan) -> str:
    return site_url(reverse("scans:detail", args=[scan.pk]))


def new_findings(scan, threshold: str):
    """Findings this scan saw first, at or above `threshold`, still open and not silenced (an inline ignore, or a
    dismissing triage inherited from the default branch), most severe first."""
    if not scan.summary.get("tracking", {}).get("new"):
        return Finding.objects.none()  # the tracking summary says nothing is new: no query needed
    return (
        Finding.objects.filter(
            repository_id=scan.repository_id,
            branch=scan.branch,
            first_seen=scan,
            state=Finding.State.OPEN,
            suppressed=False,
            severity_rank__gte=SEVERITY_RANK[threshold],
        )
        .exclude(triage__in=DISMISSED_TRIAGE)
        .order_by("-severity_rank", "path", "line", "id")
    )


def severity_label(threshold: str) -> str:
    """ "high+" reads as "high or above"; nothing is above critical."""
    return threshold if threshold == "critical" else f"{threshold}+"


def pending_status() -> tuple[str, str]:
    with translation.override(settings.LANGUAGE_CODE):
        return "pending", gettext("ROCport is scanning this commit")


def final_status(scan, threshold: str) -> tuple[str, str]:
    """(state, description) of a final scan in GitHub's state names, in the site's language (the host shows it to
    everyone): error for a failed scan, failure when it added findings at or above the threshold, else success."""
    with translation.override(settings.LANGUAGE_CODE):
        if scan.status == ScanStatus.SUPERSEDED:
            # The host shows "pending" for this commit until told otherwise; the newer commit gets its own verdict.
            return "error", gettext("Not scanned to the end: a newer scan of the branch replaced it")
        if scan.status != ScanStatus.FINISHED:
            reason = scan.error_code.rsplit(":", 1)[-1] or scan.status
            return "error", gettext("The ROCport scan failed (%(reason)s)") % {"reason": reason}
        label = severity_label(threshold)
        count = new_findings(scan, threshold).count()
        if count:
            return "failure", ngettext(
                "%(count)d new %(severity)s finding", "%(count)d new %(severity)s findings", count
            ) % {"count": count, "severity": label}
        return "success", gettext("No new %(severity)s findings") % {"severity": label}
