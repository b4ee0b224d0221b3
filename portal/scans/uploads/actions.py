"""The upload ingestion entry: a scan made in CI (already parsed and checked by portal.scans.uploads.parsing)
recorded with the pipeline's own steps, as a worker's scan is."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from portal.findings import tracking
from portal.findings.models import Finding
from portal.repositories.models import Repository
from portal.scans import signals
from portal.scans.constants import ScanStatus, ScanTrigger
from portal.scans.models import Scan, ScannedFile
from portal.scans.pipeline.endings import announce
from portal.scans.pipeline.ingestion import record, summarize
from scanner.rules import catalogue, select


def do_ingest_upload(repository, upload, *, commit_sha: str, branch: str, acting_user) -> Scan:
    """A scan made in CI (`upload`: a checked portal.scans.uploads.parsing.Upload), recorded as a worker's scan is:
    ScannedFile rows, tracked findings with their events, the summary and FINISHED in one transaction, then
    scan_started and scan_ended after the commit. Raises IntegrityError when a worker ingests the same branch at
    the same moment (the caller answers "retry").

    The uploader's word goes no further than its own scan: no blob sha is stored and nothing enters the blob
    cache, because both are shared across repositories by sha (a claimed sha would show another repository's
    source, or poison its cached results). Without the commit's file list (`upload.tree`), no finding is fixed
    for its file's absence: a file left out of the scan and a deleted one look the same."""
    # The pipeline's own steps (one code path for a worker's scan and an upload): result -> ScannedFile and
    # FileOutcome (ingestion.record), the summary, the signals sent after commit.
    known = catalogue()
    enabled = select() if upload.rules is None else [known[code] for code in upload.rules if code in known]
    now = timezone.now()
    with transaction.atomic():
        # Uploads of one repository one at a time: two ingestions of a branch would race on finding identities.
        Repository.objects.select_for_update().filter(pk=repository.pk).exists()
        first = not Scan.objects.filter(repository=repository, branch=branch, status=ScanStatus.FINISHED).exists()
        scan = Scan.objects.create(
            repository=repository,
            branch=branch,
            commit_sha=commit_sha,
            trigger=ScanTrigger.UPLOAD,
            status=ScanStatus.INGESTING,
            attempts=1,
            started=now,
            heartbeat=now,
            files_total=len(upload.files),
            files_done=len(upload.files),
        )
        outcomes, files = [], []
        for data in upload.files:
            record(
                scan,
                data,
                data["path"],
                {},
                outcomes,
                files,
                enabled,
                reused=False,
                translation=upload.translations.get(data["path"]),
            )
        scanned = {data["path"] for data in upload.files}
        if upload.tree is not None:
            present = upload.tree | scanned
        else:
            present = scanned | set(
                Finding.objects.filter(repository=repository, branch=branch).values_list("path", flat=True).distinct()
            )
        ScannedFile.objects.bulk_create(files, batch_size=2000)
        report = tracking.ingest(scan, outcomes, present, {}, first_scan_of_branch=first)
        summary = summarize(scan, files, report)
        summary["upload"] = {
            "by": acting_user.get_username(),
            "tool_version": upload.tool_version,
            "tree": upload.tree is not None,
        }
        Scan.objects.filter(pk=scan.pk).update(
            status=ScanStatus.FINISHED, finished=timezone.now(), heartbeat=timezone.now(), summary=summary
        )
        announce(signals.scan_started, scan)
        finished = Scan.objects.select_related("repository").get(pk=scan.pk)
        announce(signals.scan_ended, finished)
    return finished
