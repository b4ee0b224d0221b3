"""The scan page: live progress (a polled partial that stops itself at a final state) and, for a failed scan,
what went wrong and what to do, never a stack trace."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseStopPolling

from portal.accounts.access import membership_for
from portal.scans.exports import formats as export_formats
from portal.scans.models import Scan
from portal.scans.pipeline import shards as shard_runs
from portal.scans.texts import SETTINGS_CODES, advice


def _scan_for(request, pk: int) -> Scan:
    scan = get_object_or_404(Scan.objects.select_related("repository__team"), pk=pk)
    membership_for(request.user, scan.repository.team_id)  # 404 for another team's scan
    return scan


# The parse modes in the order the page lists them, with what each means for the findings
PARSE_MODES = (
    ("ast", _("full syntax tree")),
    ("ast-stubbed", _("syntax tree with stubbed headers")),
    ("tokens", _("tokens only: syntax-tree rules did not run")),
    ("text", _("not C++: file-level rules")),
    ("error", _("not analysed")),
)


def duration_text(seconds: float) -> str:
    """42 s, 3 min 5 s, 2 h 7 min: what a reader takes in at a glance."""
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return _("%(h)d h %(m)d min") % {"h": hours, "m": minutes}
    if minutes:
        return _("%(m)d min %(s)d s") % {"m": minutes, "s": secs}
    return _("%(s)d s") % {"s": secs}


def _timing(scan: Scan) -> dict:
    """When the scan was queued, started and finished, and how long it ran (or has been running)."""
    end = scan.finished or (None if scan.is_final else timezone.now())
    seconds = max(0.0, (end - scan.started).total_seconds()) if scan.started and end else None
    return {
        "queued_at": scan.created,
        "started_at": scan.started,
        "finished_at": scan.finished,
        "seconds": seconds,
        "duration": duration_text(seconds) if seconds is not None else "",
    }


def _parse_modes(scan: Scan) -> list[tuple[str, str, int]]:
    counts = (scan.summary or {}).get("parse_modes") or {}
    known = [(mode, label, counts[mode]) for mode, label in PARSE_MODES if counts.get(mode)]
    return known + [(mode, "", n) for mode, n in sorted(counts.items()) if mode not in dict(PARSE_MODES) and n]


def _context(scan: Scan) -> dict:
    # How the scan was split, and over how many processes of how many workers (each shard's last run).
    processes = set(scan.shards.exclude(worker="").values_list("worker", flat=True))
    shards = {"count": scan.shards.count(), "workers": len({shard_runs.worker_name(p) for p in processes})}
    return {
        "shard_processes": len(processes),
        **_timing(scan),
        "parse_modes": _parse_modes(scan),
        "scan": scan,
        "advice": advice(scan.error_code),
        "advice_settings": scan.error_code in SETTINGS_CODES,
        "repository": scan.repository,
        "shard_count": shards["count"],
        "shard_workers": shards["workers"],
        "downloads": export_formats.downloads(scan),  # the registry's formats
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
