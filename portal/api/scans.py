"""API operations on one scan: its state, progress and, once finished, its statistics (from the scan's summary,
which the pipeline writes in the same transaction as the findings)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from ninja import Router

from portal.accounts.access import membership_for
from portal.api import schemas as s
from portal.api.scan_shapes import scan_detail
from portal.scans.models import Scan

router = Router(tags=["scans"])


@router.get(
    "/scans/{scan_id}/",
    response={200: s.ScanDetail, **s.ERRORS},
    summary="One scan: state, progress, and statistics once finished",
)
def get_scan(request, scan_id: int = s.path_id()):
    scan = get_object_or_404(Scan.objects.select_related("repository"), pk=scan_id)
    membership_for(request.user, scan.repository.team_id)  # 404 for another team's scan
    return scan_detail(scan)
