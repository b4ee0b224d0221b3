"""A scan's ingestion: every stored result (the shards' rows and the blob cache) read once and ingested in one
transaction with the ScannedFile rows, the tracked findings, the summary and the FINISHED state. A CI upload
(portal.scans.uploads.actions) records its files with the same `record` and `summary`."""

from __future__ import annotations

import logging
from collections import Counter

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F
from django.utils import timezone

from portal.findings import tracking
from portal.findings.models import DISMISSED_TRIAGE, Finding
from portal.scans import signals
from portal.scans.constants import APP_ERROR, WORKER_LOST, ScanStatus
from portal.scans.models import BlobResult, Scan, ScannedFile, ScanPlan, ScanShard, ShardFileResult
from portal.scans.pipeline import ported
from portal.scans.pipeline.endings import announce, fail
from portal.scans.pipeline.errors import Superseded
from portal.scans.pipeline.heartbeat import Heartbeat
from scanner import faultpoints
from scanner.rules import catalogue, rules_run

log = logging.getLogger(__name__)


def ingest(scan_id: int) -> None:
    """Read every stored result of the scan and ingest once, in one transaction (the ingestion task, or the
    planner when it scanned the shards itself). A second delivery finds the scan final or ingested: a no-op."""
    plan = ScanPlan.objects.filter(pk=scan_id).first()
    if plan is None:
        return
    claimed = Scan.objects.filter(
        pk=scan_id, attempts=plan.attempt, status__in=(ScanStatus.SCANNING, ScanStatus.INGESTING)
    )
    if claimed.update(status=ScanStatus.INGESTING, heartbeat=timezone.now()) != 1:
        return
    ScanPlan.objects.filter(pk=scan_id).update(ingest_attempts=F("ingest_attempts") + 1)
    plan.ingest_attempts += 1  # counts ingestions that died: a rare race between two only miscounts by one
    if plan.ingest_attempts > settings.SCAN_MAX_ATTEMPTS:
        fail(
            scan_id,
            WORKER_LOST,
            f"gave up ingesting after {plan.ingest_attempts - 1} attempts that did not "
            "finish (the worker died or was killed each time)",
            plan.attempt,
        )
        return
    faultpoints.reached("ingest.start", scan=scan_id, attempt=plan.ingest_attempts)
    scan = Scan.objects.select_related("repository").get(pk=scan_id)
    try:
        with Heartbeat(lambda: Scan.objects.filter(pk=scan_id, attempts=plan.attempt, status=ScanStatus.INGESTING)):
            outcomes, files, missing = _stored_results(scan, plan)
            if missing:
                fail(
                    scan_id,
                    APP_ERROR,
                    f"{len(missing)} files have no stored result "
                    f"({', '.join(missing[:3])}{' ...' if len(missing) > 3 else ''})",
                    plan.attempt,
                )
                return
            with transaction.atomic():
                # The plan row serialises ingestions: a second one waits here, then finds the plan gone.
                if not ScanPlan.objects.select_for_update().filter(pk=scan_id, attempt=plan.attempt).exists():
                    return
                ScannedFile.objects.bulk_create(files, batch_size=2000)
                report = tracking.ingest(
                    scan,
                    outcomes,
                    set(plan.present),
                    plan.renames,
                    first_scan_of_branch=plan.first_scan_of_branch,
                    carried=ported.carried(scan, outcomes, files),
                )
                summary = summarize(scan, files, report)
                ShardFileResult.objects.filter(scan_id=scan_id).delete()
                ScanShard.objects.filter(scan_id=scan_id).update(entries=[])  # the counts stay, for the scan page
                ScanPlan.objects.filter(pk=scan_id).delete()
                faultpoints.reached("ingest.commit", scan=scan_id, attempt=plan.ingest_attempts)
                updated = Scan.objects.filter(pk=scan_id, attempts=plan.attempt, status=ScanStatus.INGESTING).update(
                    status=ScanStatus.FINISHED, finished=timezone.now(), heartbeat=timezone.now(), summary=summary
                )
                if updated != 1:
                    raise Superseded()  # rolls the whole ingestion back
    except Superseded:
        log.info("scan %s: ingestion stopped, the scan was superseded or cancelled", scan_id)
        return
    announce(signals.scan_ended, Scan.objects.select_related("repository").get(pk=scan_id))


def _stored_results(scan: Scan, plan: ScanPlan):
    """(FileOutcomes, ScannedFiles, paths without a result) from the shards' rows and the blob cache."""
    known = catalogue()
    stored = {
        path: (result, translation)
        for path, result, translation in ShardFileResult.objects.filter(scan_id=scan.pk)
        .values_list("path", "result", "translation")
        .iterator(chunk_size=2000)
    }
    from_cache = [
        (path, blob, key) for path, blob, key, _reused in plan.files if stored.get(path, (None, None))[0] is None
    ]
    cached = _cached_results(from_cache)
    blobs = {path: blob for path, blob, _key, _reused in plan.files}
    outcomes: list[tracking.FileOutcome] = []
    files: list[ScannedFile] = []
    missing: list[str] = []
    enabled = [known[code] for code in plan.rules if code in known]  # as the planner resolved them
    for path, blob, key, reused in plan.files:
        result, translation = stored.get(path, (None, None))
        if result is None:
            row = cached.get((blob, key)) if (reused or path in stored) else None
            if row is None:
                missing.append(path)
                continue
            result = dict(row.result, path=path)
            translation = {"stats": row.translation_stats} if row.translation_stats else None
        record(scan, result, path, blobs, outcomes, files, enabled, reused=reused, translation=translation)
    for path, (result, translation) in stored.items():
        if path not in blobs and result is not None:  # the repository-level result (path ".")
            record(scan, result, path, blobs, outcomes, files, enabled, reused=False, translation=translation)
    return outcomes, files, missing


def _cached_results(entries) -> dict[tuple[str, str], BlobResult]:
    """Stored results by (blob, cache key) for `entries` [(path, blob, key)]; the same blob at two paths reuses
    one row."""
    wanted = {(blob, key) for _path, blob, key in entries if blob}
    found: dict[tuple[str, str], BlobResult] = {}
    shas = sorted({sha for sha, _ in wanted})
    for start in range(0, len(shas), 5000):
        # Only the translation's statistics: the diff text (kilobytes a file) is for the file page, not ingestion.
        rows = (
            BlobResult.objects.filter(blob_sha__in=shas[start : start + 5000])
            .only("blob_sha", "cache_key", "result")
            .annotate(translation_stats=F("translation__stats"))
        )
        for row in rows:
            if (row.blob_sha, row.cache_key) in wanted:
                found[(row.blob_sha, row.cache_key)] = row
    return found


def record(scan, data, path, blobs, outcomes, files, enabled, reused, translation) -> None:
    """One file's stored result as a ScannedFile (appended to `files`) and a FileOutcome for tracking (to
    `outcomes`), with the rules that really ran on it."""
    mode = data["parse"]["mode"]
    stats = dict(data["stats"])
    if translation:
        stats["translation"] = {k: translation["stats"][k] for k in ("converted", "unconverted", "changed_lines")}
    check = data.get("compile")
    if check:  # the compile check's outcome (the diagnostics stay in the blob's result)
        stats["compile"] = {
            "status": check["status"],
            "target": check["target"],
            "errors": sum(check["counts"].values()),
        }
    files.append(
        ScannedFile(
            scan=scan,
            path=path,
            blob_sha=blobs.get(path, ""),
            language=data["language"],
            parse_mode=mode,
            error=data["error"],
            stats=stats,
            reused=reused,
        )
    )
    compiled = bool(check) and check["status"] in ("compiles", "compiles-with-stubs", "fails")
    outcomes.append(tracking.FileOutcome(path, rules_run(mode, data["language"], enabled, compiled), data["findings"]))


def summarize(scan: Scan, files: list[ScannedFile], report: tracking.IngestReport) -> dict:
    """The scan's summary (what the pages and the portfolio read instead of counting rows)."""
    modes = Counter(f.parse_mode for f in files)
    open_rows = list(
        Finding.objects.filter(repository=scan.repository, branch=scan.branch, state=Finding.State.OPEN)
        .values_list("risk", "severity", "triage")
        .annotate(n=Count("id"))
        .order_by()
    )
    open_by_risk: Counter = Counter()
    # The portfolio's work-left estimate: open findings not dismissed by triage, by risk and severity.
    open_by_risk_severity: dict[str, dict[str, int]] = {}
    for risk, severity, triage, n in open_rows:
        open_by_risk[risk] += n
        if triage not in DISMISSED_TRIAGE:
            by_severity = open_by_risk_severity.setdefault(risk, {})
            by_severity[severity] = by_severity.get(severity, 0) + n
    checks = [f.stats["compile"] for f in files if f.stats.get("compile")]
    compile_summary = (
        {
            "target": next((c["target"] for c in checks if c.get("target")), ""),
            "files": dict(Counter(c["status"] for c in checks)),
        }
        if checks
        else None
    )
    converted = sum(f.stats.get("translation", {}).get("converted", 0) for f in files)
    unconverted = sum(f.stats.get("translation", {}).get("unconverted", 0) for f in files)
    return {
        "tracking": report.to_dict(),
        "untouched_paths": report.untouched_paths,
        "parse_modes": dict(modes),
        "open_by_risk": dict(open_by_risk),
        "open_by_risk_severity": open_by_risk_severity,
        "files": len(files),
        "lines": sum(f.stats.get("lines", 0) for f in files),
        "translation": {"converted": converted, "unconverted": unconverted},
        **({"compile": compile_summary} if compile_summary else {}),
    }
