"""The scan page: live progress (a polled partial that stops itself at a final state) and, for a failed scan,
what went wrong and what to do, never a stack trace."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseStopPolling

from portal.accounts.access import membership_for
from portal.scans.models import Scan

# error_code -> what to do about it (user errors name the fix; app errors say it is ours)
ADVICE = {
    "scan:user:clone-failed": _(
        "Git could not fetch the repository. Check the clone URL and that this server can reach the host."
    ),
    "scan:user:auth-failed": _(
        "The repository refused the credentials. Update the username and token on the repository's settings page."
    ),
    "scan:user:ref-not-found": _("The branch does not exist on the remote. Check the tracked branches."),
    "scan:user:commit-not-found": _(
        "The commit is no longer on the remote (a force push?). The next push or "
        "the periodic reconciliation scans the new head."
    ),
    "scan:user:repo-too-large": _(
        "The repository is larger than this server allows (ROCPORT_CLONE_MAX_BYTES, "
        "ROCPORT_CLONE_MAX_FILES). Remove large or generated files from the branch or "
        "ask an administrator to raise the limit."
    ),
    "scan:user:timeout": _(
        "The scan took longer than its time limit. Exclude vendored code in .rocport.toml or "
        "ask an administrator to raise ROCPORT_SCAN_SOFT_TIME_LIMIT."
    ),
    "scan:user:bad-config": _("The repository's .rocport.toml is invalid: the message names the key to fix."),
    "scan:user:path-too-long": _(
        "A path in the repository is longer than this server can store (1,000 "
        "characters). Shorten it, or scan the project with the command line."
    ),
    "scan:user:credentials-unreadable": _(
        "The stored credentials cannot be decrypted: the server's keys changed "
        "(ROCPORT_CREDENTIALS_KEYS). Enter the username and token again on the "
        "repository's settings page."
    ),
    "scan:user:protocol-not-allowed": _("This URL's protocol is not allowed on this server. Use https or ssh."),
    "scan:app:worker-lost": _(
        "The scanning worker stopped several times. This is on our side; the "
        "administrators have the logs. Start the scan again later."
    ),
    "scan:app:shard-failed": _(
        "One part of the scan (a shard) failed on every attempt; the message names its "
        "files. This is on our side: the administrators have the logs. Start the scan "
        "again; if it fails the same way, report it."
    ),
    "scan:app:internal-error": _(
        "Something went wrong on our side; the administrators have the logs. Start "
        "the scan again; if it fails the same way, report it."
    ),
}


def _scan_for(request, pk: int) -> Scan:
    scan = get_object_or_404(Scan.objects.select_related("repository__team"), pk=pk)
    membership_for(request.user, scan.repository.team_id)  # 404 for another team's scan
    return scan


def _context(scan: Scan) -> dict:
    # One query: how the scan was split, and over how many worker processes (hostname of each shard's last run).
    shards = scan.shards.aggregate(count=Count("id"), workers=Count("worker", distinct=True))
    return {
        "scan": scan,
        "advice": ADVICE.get(scan.error_code, ""),
        "repository": scan.repository,
        "shard_count": shards["count"],
        "shard_workers": shards["workers"],
    }


@require_GET
@login_required
def scan_detail(request, pk: int):
    return render(request, "scans/detail.html", _context(_scan_for(request, pk)))


@require_GET
@login_required
def scan_progress(request, pk: int):
    scan = _scan_for(request, pk)
    response = render(request, "scans/detail.html#progress", _context(scan))
    if scan.is_final:
        # HTTP 286: htmx stops polling; the final partial replaces the live one.
        return HttpResponseStopPolling(response.content)
    return response
