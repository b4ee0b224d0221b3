"""One scan, start to finish, as a linear script (the Celery task and the demo both call `run`).

- claim the scan (a new attempt number: only the newest attempt may move it);
- clone exactly the commit (portal.repositories.git), with the previous scan's commit for rename detection;
- scan: files whose blob was scanned before with the same scanner version and configuration reuse the stored
  result; the others go through the scanner's worker pool; progress and heartbeat are stored as it goes;
- ingest in one transaction: scanned files, tracked findings, the summary, and the FINISHED state together.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from portal.findings import tracking
from portal.scans import signals
from portal.repositories.git import CloneError, GitSession
from portal.repositories.urlcheck import validate_clone_url
from portal.scans.constants import ACTIVE_STATUSES, APP_ERROR, USER_ERRORS, WORKER_LOST, ScanStatus
from portal.scans.models import BlobResult, Scan, ScannedFile

log = logging.getLogger(__name__)
_CLAIMABLE = (ScanStatus.QUEUED, *ACTIVE_STATUSES)


class ScanUserError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class Superseded(Exception):
    """The scan was superseded or cancelled while running: stop quietly."""


class Run:
    """The state of one attempt at one scan."""

    def __init__(self, scan: Scan, attempt: int):
        self.scan = scan
        self.attempt = attempt
        self._last_progress = 0.0
        # Our own time limit, checked between steps and inside the scanner pool; Celery's soft/hard limits
        # stay as a safety net.
        self.deadline = time.monotonic() + settings.SCAN_SOFT_TIME_LIMIT

    def check_deadline(self) -> None:
        if time.monotonic() > self.deadline:
            raise ScanUserError("timeout", f"the scan took longer than {settings.SCAN_SOFT_TIME_LIMIT}s "
                                           "(ROCPORT_SCAN_SOFT_TIME_LIMIT)")

    def move(self, to: ScanStatus, **fields) -> None:
        updated = Scan.objects.filter(pk=self.scan.pk, attempts=self.attempt, status__in=_CLAIMABLE).update(
            status=to, heartbeat=timezone.now(), **fields)
        if updated != 1:
            raise Superseded()  # superseded, cancelled, or a newer attempt owns the scan
        self.scan.refresh_from_db()

    def progress(self, done: int, reused: int, force: bool = False) -> None:
        self.check_deadline()
        now = time.monotonic()
        if not force and now - self._last_progress < 1.0:
            return
        self._last_progress = now
        updated = Scan.objects.filter(pk=self.scan.pk, attempts=self.attempt, status=ScanStatus.SCANNING).update(
            files_done=done, files_reused=reused, heartbeat=timezone.now())
        if updated != 1:
            raise Superseded()


def claim(scan_id: int) -> Run | None:
    """Start a new attempt; None when the scan is already final (or lost: too many attempts)."""
    from django.db.models import F

    updated = Scan.objects.filter(pk=scan_id, status__in=_CLAIMABLE).update(attempts=F("attempts") + 1,
                                                                           heartbeat=timezone.now())
    if updated != 1:
        return None
    scan = Scan.objects.select_related("repository").get(pk=scan_id)
    if scan.attempts > settings.SCAN_MAX_ATTEMPTS:
        fail(scan.pk, WORKER_LOST, f"gave up after {scan.attempts - 1} attempts that did not finish "
                                   "(the worker died or was killed each time)")
        return None
    return Run(scan, scan.attempts)


def run(scan_id: int) -> None:
    attempt = claim(scan_id)
    if attempt is None:
        return
    try:
        _run(attempt)
    except Superseded:
        log.info("scan %s stopped: superseded or cancelled", scan_id)
    except ScanUserError as exc:
        fail(scan_id, USER_ERRORS.get(exc.code, f"scan:user:{exc.code}"), exc.message, attempt.attempt)
    except CloneError as exc:
        fail(scan_id, USER_ERRORS.get(exc.code, f"scan:user:{exc.code}"), exc.message, attempt.attempt)


def fail(scan_id: int, code: str, message: str, attempt: int | None = None) -> bool:
    """Write the FAILED state (unless the scan is already final); the final state is always written."""
    query = Scan.objects.filter(pk=scan_id, status__in=_CLAIMABLE)
    if attempt is not None:
        query = query.filter(attempts=attempt)
    failed = query.update(status=ScanStatus.FAILED, error_code=code, error_message=message[:2000],
                          finished=timezone.now(), heartbeat=timezone.now()) == 1
    if failed:
        _announce(signals.scan_ended, Scan.objects.select_related("repository").get(pk=scan_id))
    return failed


def _announce(signal, scan: Scan) -> None:
    """Tell the listeners after the current transaction commits; a listener's error never touches the scan."""
    def send():
        for receiver, result in signal.send_robust(sender=Scan, scan=scan):
            if isinstance(result, Exception):
                log.error("scan %s: %s failed: %r", scan.pk, getattr(receiver, "__qualname__", receiver), result)

    transaction.on_commit(send)


def _run(run_: Run) -> None:
    scan = run_.scan
    repository = scan.repository
    run_.move(ScanStatus.CLONING, started=scan.started or timezone.now())
    previous = (Scan.objects.filter(repository=repository, branch=scan.branch, status=ScanStatus.FINISHED)
                .exclude(pk=scan.pk).order_by("-finished").first())
    try:
        validate_clone_url(repository.clone_url)  # again at clone time: settings or DNS may have changed
    except ValidationError as exc:
        raise ScanUserError("clone_failed", " ".join(exc.messages)) from None
    with GitSession(repository.clone_url, repository.credentials()) as git:
        commit = scan.commit_sha or git.resolve(scan.ref or scan.branch)
        if not scan.commit_sha:
            Scan.objects.filter(pk=scan.pk).update(commit_sha=commit)
            scan.commit_sha = commit
        checkout = git.fetch(commit, ref=scan.branch, previous=previous.commit_sha if previous else "")
        run_.move(ScanStatus.SCANNING)
        _announce(signals.scan_started, scan)
        if scan.branch == repository.default_branch:
            _store_codeowners(repository, checkout.path)
        outcomes, files = _scan_tree(run_, checkout.path, checkout.blobs)
    run_.move(ScanStatus.INGESTING)
    present = set(checkout.blobs)
    with transaction.atomic():
        ScannedFile.objects.bulk_create(files, batch_size=2000)
        report = tracking.ingest(scan, outcomes, present, checkout.renames, first_scan_of_branch=previous is None)
        summary = _summary(scan, files, report)
        updated = Scan.objects.filter(pk=scan.pk, attempts=run_.attempt, status=ScanStatus.INGESTING).update(
            status=ScanStatus.FINISHED, finished=timezone.now(), heartbeat=timezone.now(), summary=summary)
        if updated != 1:
            raise Superseded()  # rolls the whole ingestion back
    _announce(signals.scan_ended, Scan.objects.select_related("repository").get(pk=scan.pk))


def _scan_tree(run_: Run, root: Path, blobs: dict[str, str]) -> tuple[list[tracking.FileOutcome], list[ScannedFile]]:
    from scanner import ConfigError, ScanOptions, plan, repository
    from scanner.pool import DeadlineExceeded, WorkerPool
    from scanner.rules import rules_run, select

    try:
        options, jobs = plan(root, ScanOptions(jobs=settings.ROCPORT_SCAN_JOBS, translate=True,
                                               translate_backend="builtin",
                                               compile_check=settings.ROCPORT_COMPILE_CHECK == "auto",
                                               hipcc=settings.ROCPORT_HIPCC))
    except ConfigError as exc:
        raise ScanUserError("bad_config", str(exc)) from None
    enabled = select(list(options.enable), list(options.disable))
    compiled = _compile_keys(options, jobs, blobs)
    keys = {job.rel: cache_key(options, enabled, job.rel, job.language, compiled.get(job.rel, ""), root)
            for job in jobs}
    cached = _cached_results(jobs, blobs, keys)
    scan = run_.scan
    Scan.objects.filter(pk=scan.pk).update(files_total=len(jobs))
    outcomes, files, fresh = [], [], []
    done = reused = 0
    for job in jobs:
        if job.rel in cached:
            result = dict(cached[job.rel].result, path=job.rel)
            _record(scan, result, job.rel, blobs, outcomes, files, enabled, rules_run, reused=True,
                    translation=cached[job.rel].translation)
            done += 1
            reused += 1
    run_.progress(done, reused, force=True)
    pending = [job for job in jobs if job.rel not in cached]
    results = WorkerPool(options, options.jobs, deadline=run_.deadline).run(pending)
    try:
        for result in results:
            _take(root, scan, result, blobs, keys, outcomes, files, fresh, enabled, rules_run)
            done += 1
            run_.progress(done, reused)
    except DeadlineExceeded:
        run_.check_deadline()
        raise
    # Repository-level findings (path "."): never cached by blob, the pass re-reads only the few files it needs.
    extra = repository.finalize(root, options, jobs)
    if extra is not None:
        _take(root, scan, extra, blobs, keys, outcomes, files, fresh, enabled, rules_run)
    BlobResult.objects.bulk_create(fresh, ignore_conflicts=True)
    run_.progress(done, reused, force=True)
    return outcomes, files


def _take(root: Path, scan, result, blobs, keys, outcomes, files, fresh, enabled, rules_run) -> None:
    """Record one fresh scanner result, and queue it for the blob cache (stored in batches of 200) with the
    file's text and its translation, for the file and finding pages."""
    data = result.to_dict()
    translation = data.pop("translation", None)
    translated = translation.pop("text", "") if translation else ""
    _record(scan, data, result.path, blobs, outcomes, files, enabled, rules_run, reused=False,
            translation=translation)
    blob = blobs.get(result.path)
    # A compile check that timed out or crashed is tried again next time, not remembered.
    if blob and not result.error and (result.compile or {}).get("cacheable", True):
        fresh.append(BlobResult(blob_sha=blob, cache_key=keys[result.path], result=_without_path(data),
                                translation=translation, source=_read_text(root / result.path),
                                translated=translated))
    if len(fresh) >= 200:
        BlobResult.objects.bulk_create(fresh, ignore_conflicts=True)
        fresh.clear()


def _store_codeowners(repository, root: Path) -> None:
    from portal.findings.ownership import LOCATIONS

    text = next((_read_text(root / name) for name in LOCATIONS if (root / name).is_file()), "")
    if text != repository.codeowners:
        type(repository).objects.filter(pk=repository.pk).update(codeowners=text[:100_000])


def _read_text(path: Path) -> str:
    try:
        # Bytes, not read_text: universal newlines would turn CRLF into LF and shift every column.
        return path.read_bytes().decode("utf-8")[:2_000_000]
    except (OSError, UnicodeDecodeError):
        return ""


def _record(scan, data, path, blobs, outcomes, files, enabled, rules_run, reused, translation) -> None:
    mode = data["parse"]["mode"]
    stats = dict(data["stats"])
    if translation:
        stats["translation"] = {k: translation["stats"][k] for k in ("converted", "unconverted", "changed_lines")}
    check = data.get("compile")
    if check:  # the compile check's outcome (the diagnostics stay in the blob's result)
        stats["compile"] = {"status": check["status"], "target": check["target"],
                            "errors": sum(check["counts"].values())}
    files.append(ScannedFile(scan=scan, path=path, blob_sha=blobs.get(path, ""), language=data["language"], parse_mode=mode,
                             error=data["error"], stats=stats, reused=reused))
    compiled = bool(check) and check["status"] in ("compiles", "compiles-with-stubs", "fails")
    outcomes.append(tracking.FileOutcome(path, rules_run(mode, data["language"], enabled, compiled),
                                         data["findings"]))


def _without_path(data: dict) -> dict:
    out = dict(data)
    out["path"] = ""
    out["findings"] = [dict(f, path="") for f in data["findings"]]
    return out


def _cached_results(jobs, blobs: dict[str, str], keys: dict[str, str]) -> dict[str, BlobResult]:
    """Stored results for the files whose (blob, cache key) was scanned before; the same blob at two paths
    reuses one row."""
    wanted: dict[tuple[str, str], list[str]] = {}
    for job in jobs:
        if job.rel in blobs:
            wanted.setdefault((blobs[job.rel], keys[job.rel]), []).append(job.rel)
    found: dict[str, BlobResult] = {}
    shas = sorted({sha for sha, _ in wanted})
    for start in range(0, len(shas), 5000):
        for row in BlobResult.objects.filter(blob_sha__in=shas[start:start + 5000]):
            for rel in wanted.get((row.blob_sha, row.cache_key), ()):
                found[rel] = row
    return found


def _compile_keys(options, jobs, blobs: dict[str, str]) -> dict[str, str]:
    """Per file, what its compile check depends on besides its blob (scanner.compile.key_material): the compiler,
    its version, target and flags, and the blobs of the files its translation unit includes."""
    if not options.compile_check:
        return {}
    from scanner import compile as compile_check

    description = compile_check.describe(options)
    return {job.rel: compile_check.key_material(description, job, blobs.get) for job in jobs}


def cache_key(options, enabled, rel: str, language: str = "", compile_key: str = "",
              root: Path | None = None) -> str:
    """Scanner version + everything that changes a file's result, except the file's content (the blob);
    `compile_key`: with the compile check on, what it depends on (`_compile_keys`). Include directories inside
    the checkout count relative to it (`root`): each scan clones into another temporary directory."""
    from scanner.version import TOOL_VERSION

    suffix = Path(rel).suffix.lower()
    material = {
        "scanner": TOOL_VERSION,
        "rules": sorted(rule.code for rule in enabled),
        "target": options.target.to_dict(),
        "defines": list(options.defines),
        "include_dirs": [_relative(str(d), root) for d in options.include_dirs],
        "suffix": suffix,
        # A Dockerfile and a Makefile share the empty suffix; the language discovery gave decides the rules.
        "language": language,
        "max_file_bytes": options.max_file_bytes,
        **({"compile": compile_key} if compile_key else {}),
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def _relative(directory: str, root: Path | None) -> str:
    base = str(root).rstrip("/") + "/" if root else ""
    return "./" + directory[len(base):] if base and directory.startswith(base) else directory


def _summary(scan: Scan, files: list[ScannedFile], report: tracking.IngestReport) -> dict:
    from collections import Counter

    from portal.findings.models import DISMISSED_TRIAGE, Finding

    modes = Counter(f.parse_mode for f in files)
    open_rows = list(Finding.objects.filter(repository=scan.repository, branch=scan.branch, state=Finding.State.OPEN)
                     .values_list("risk", "severity", "triage").annotate(n=Count("id")).order_by())
    open_by_risk: Counter = Counter()
    # The portfolio's work-left estimate: open findings not dismissed by triage, by risk and severity.
    open_by_risk_severity: dict[str, dict[str, int]] = {}
    for risk, severity, triage, n in open_rows:
        open_by_risk[risk] += n
        if triage not in DISMISSED_TRIAGE:
            by_severity = open_by_risk_severity.setdefault(risk, {})
            by_severity[severity] = by_severity.get(severity, 0) + n
    checks = [f.stats["compile"] for f in files if f.stats.get("compile")]
    compile_summary = {"target": next((c["target"] for c in checks if c.get("target")), ""),
                       "files": dict(Counter(c["status"] for c in checks))} if checks else None
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


__all__ = ["run", "fail", "claim", "ScanUserError", "APP_ERROR"]
