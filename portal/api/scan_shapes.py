"""The API's answer for a scan, as the scan endpoints and the repository's scan list give it: state, progress, and
the statistics of a finished scan read defensively from its summary (an older summary's shape is left out)."""

from __future__ import annotations

from portal.scans.constants import ScanStatus
from portal.scans.models import Scan
from portal.scans.texts import advice  # the scan page's advice per error code, translated


def scan_out(scan: Scan) -> dict:
    return {
        "id": scan.pk,
        "repository_id": scan.repository_id,
        "branch": scan.branch,
        "ref": scan.ref,
        "commit_sha": scan.commit_sha,
        "trigger": scan.trigger,
        "status": scan.status,
        "is_final": scan.is_final,
        "error_code": scan.error_code,
        "error_message": scan.error_message,
        "created": scan.created,
        "started": scan.started,
        "finished": scan.finished,
        "progress": {
            "files_done": scan.files_done,
            "files_total": scan.files_total,
            "files_reused": scan.files_reused,
            "percent": scan.progress_percent,
        },
    }


def scan_detail(scan: Scan) -> dict:
    return {**scan_out(scan), "advice": advice(scan.error_code), "statistics": _statistics(scan)}


def _statistics(scan: Scan) -> dict | None:
    if scan.status != ScanStatus.FINISHED or not isinstance(scan.summary, dict):
        return None
    summary = scan.summary
    open_by_risk = counts(summary.get("open_by_risk"))
    translation = counts(summary.get("translation"))
    return {
        "tracking": counts(summary.get("tracking")),
        "open_by_risk": open_by_risk,
        "open_total": sum(open_by_risk.values()),
        "translation": {"converted": translation.get("converted", 0), "unconverted": translation.get("unconverted", 0)},
        "parse_modes": counts(summary.get("parse_modes")),
        "files": _count(summary.get("files")),
        "lines": _count(summary.get("lines")),
    }


def _count(value) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def counts(value) -> dict[str, int]:
    """A summary's {name: count} mapping; anything else in it (an older summary's shape) is left out."""
    if not isinstance(value, dict):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, int) and not isinstance(v, bool)}
