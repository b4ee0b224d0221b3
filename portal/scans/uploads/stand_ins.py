"""The stand-in for a file an upload scanned without its blob: which worker's ScannedFile row speaks for it.

A CI upload stores no blob sha (portal.scans.uploads.actions.do_ingest_upload), so on its own it cannot tell whether a
file changed. Whatever compares blobs (the progress ledger, the patch of reviewed translations, the file page's
review) asks `stand_ins` instead of reading the upload's empty blob_sha: the newest worker scan of the same commit
when there is one, else the newest earlier worker scan of the branch (the previous known state). An upload
therefore never invalidates a translation review by itself.
"""

from __future__ import annotations

from portal.scans.constants import ScanStatus, ScanTrigger
from portal.scans.models import ScannedFile


def stand_ins(scan, paths) -> dict[str, ScannedFile]:
    """path -> the worker's ScannedFile (scan selected) whose blob stands for `paths` of the uploaded `scan`;
    empty for a worker's scan (its blobs are its own). At most two queries."""
    wanted = sorted(set(paths))
    if scan is None or scan.trigger != ScanTrigger.UPLOAD or not wanted:
        return {}
    rows = (
        ScannedFile.objects.filter(scan__repository_id=scan.repository_id, scan__status=ScanStatus.FINISHED)
        .exclude(blob_sha="")
        .exclude(scan__trigger=ScanTrigger.UPLOAD)
        .select_related("scan")
        .order_by("path", "-scan__finished", "-scan_id")
        .distinct("path")
    )
    out: dict[str, ScannedFile] = {}
    if scan.commit_sha:
        out = {row.path: row for row in rows.filter(scan__commit_sha=scan.commit_sha, path__in=wanted)}
    rest = [path for path in wanted if path not in out]
    if rest:
        earlier = rows.filter(scan__branch=scan.branch, scan_id__lt=scan.pk, path__in=rest)
        out.update({row.path: row for row in earlier})
    return out


def known_blobs(scan, blobs: dict[str, str]) -> dict[str, str]:
    """`blobs` (path -> blob sha as `scan` stored it) with each unknown ("") blob of an upload replaced by its
    stand-in's; unknown stays "" when no worker ever scanned the file."""
    missing = [path for path, blob in blobs.items() if not blob]
    if not missing:
        return blobs
    found = stand_ins(scan, missing)
    return {path: blob or (found[path].blob_sha if path in found else "") for path, blob in blobs.items()}
