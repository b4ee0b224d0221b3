"""One scan, start to finish, as a linear script (the Celery task and the demo both call `run`).

- claim the scan (a new attempt number: only the newest attempt may move it);
- plan: clone exactly the commit (portal.repositories.git, kept for this process by portal.scans.checkouts), with
  the previous scan's commit for rename detection; list the files; those whose blob was scanned before with the
  same scanner version and configuration reuse the stored result; run the repository-level pass; cut the other
  files into shards (portal.scans.shards) and store the plan, so that any worker can scan a shard;
- scan the shards: here, one after the other (the demo, `make run`, a repository that fits in one shard), or as
  one Celery task each on any worker (`run(..., distribute=True)`); each shard stores its results as it goes;
- ingest once every shard is done, in one transaction: scanned files, tracked findings, the summary, and the
  FINISHED state together.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, F
from django.utils import timezone

from portal.findings import tracking
from portal.repositories.crypto import CredentialsUnreadable
from portal.repositories.git import CloneError, GitSession
from portal.repositories.urlcheck import validate_clone_url
from portal.scans import signals
from portal.scans.constants import ACTIVE_STATUSES, APP_ERROR, USER_ERRORS, WORKER_LOST, ScanStatus
from portal.scans.heartbeat import Heartbeat
from portal.scans.models import BlobResult, Scan, ScannedFile, ScanPlan, ScanShard, ShardFileResult
from scanner.sourcetext import decode_source

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
            raise ScanUserError(
                "timeout", f"the scan took longer than {settings.SCAN_SOFT_TIME_LIMIT}s (ROCPORT_SCAN_SOFT_TIME_LIMIT)"
            )

    def move(self, to: ScanStatus, **fields) -> None:
        updated = Scan.objects.filter(pk=self.scan.pk, attempts=self.attempt, status__in=_CLAIMABLE).update(
            status=to, heartbeat=timezone.now(), **fields
        )
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
            files_done=done, files_reused=reused, heartbeat=timezone.now()
        )
        if updated != 1:
            raise Superseded()


def claim(scan_id: int) -> Run | None:
    """Start a new attempt; None when the scan is already final (or lost: too many attempts)."""
    from django.db.models import F

    updated = Scan.objects.filter(pk=scan_id, status__in=_CLAIMABLE).update(
        attempts=F("attempts") + 1, heartbeat=timezone.now()
    )
    if updated != 1:
        return None
    scan = Scan.objects.select_related("repository").get(pk=scan_id)
    if scan.attempts > settings.SCAN_MAX_ATTEMPTS:
        fail(
            scan.pk,
            WORKER_LOST,
            f"gave up after {scan.attempts - 1} attempts that did not finish (the worker died or was killed each time)",
        )
        return None
    return Run(scan, scan.attempts)


def run(scan_id: int, *, distribute: bool = False, task_id: str = "", worker: str = "") -> None:
    """Plan the scan, then scan its shards here one after the other and ingest; with `distribute` (the Celery
    task), a plan of several shards is sent to the broker instead, one task per shard, and the shard that finishes
    last queues the ingestion. A single shard is scanned here either way: no round trip for a small repository."""
    from portal.scans import checkouts, shards

    attempt = claim(scan_id)
    if attempt is None:
        return
    try:
        shard_ids = _plan(attempt)
        if distribute and len(shard_ids) > 1:
            send_shards(shard_ids)
            return
        outcome = shards.Outcome.LAST if not shard_ids else None
        for shard_id in shard_ids:
            outcome = shards.Outcome.RETRY
            while outcome is shards.Outcome.RETRY:
                outcome = shards.run(
                    shard_id,
                    task_id=task_id or shards.new_task_id(),
                    worker=worker or _hostname(),
                    deadline=attempt.deadline,
                )
                if outcome is shards.Outcome.RETRY and distribute:
                    send_shards([shard_id])  # the next attempt on whichever worker is free
                    return
                task_id = ""  # an attempt after a failure is another claim
        if outcome is shards.Outcome.LAST:
            ingest(scan_id)
    except Superseded:
        log.info("scan %s stopped: superseded or cancelled", scan_id)
    except ScanUserError as exc:
        fail(scan_id, USER_ERRORS.get(exc.code, f"scan:user:{exc.code}"), exc.message, attempt.attempt)
    except CloneError as exc:
        fail(scan_id, USER_ERRORS.get(exc.code, f"scan:user:{exc.code}"), exc.message, attempt.attempt)
    except CredentialsUnreadable:
        fail(
            scan_id,
            USER_ERRORS["credentials_unreadable"],
            "the repository's stored credentials cannot be decrypted with the configured keys "
            "(ROCPORT_CREDENTIALS_KEYS); enter them again on the repository's settings page",
            attempt.attempt,
        )
    finally:
        if not distribute:
            checkouts.release()  # the demo and the tests: nothing left on disk


def send_shards(shard_ids: list[int]) -> None:
    """One Celery task per shard, sent after the current transaction commits."""
    from portal.scans.tasks import scan_shard

    ScanShard.objects.filter(pk__in=shard_ids).update(queued_at=timezone.now())
    for shard_id in shard_ids:
        transaction.on_commit(lambda shard_id=shard_id: scan_shard.delay(shard_id))


def _hostname() -> str:
    import socket

    return f"{os.getpid()}@{socket.gethostname()}"


def fail(scan_id: int, code: str, message: str, attempt: int | None = None) -> bool:
    """Write the FAILED state (unless the scan is already final); the final state is always written. The stored
    results of its shards go (the blob cache keeps what is reusable); the shard rows stay, for the scan page."""
    query = Scan.objects.filter(pk=scan_id, status__in=_CLAIMABLE)
    if attempt is not None:
        query = query.filter(attempts=attempt)
    failed = (
        query.update(
            status=ScanStatus.FAILED,
            error_code=code,
            error_message=message[:2000],
            finished=timezone.now(),
            heartbeat=timezone.now(),
        )
        == 1
    )
    if failed:
        ShardFileResult.objects.filter(scan_id=scan_id).delete()
        ScanPlan.objects.filter(pk=scan_id).delete()
        _announce(signals.scan_ended, Scan.objects.select_related("repository").get(pk=scan_id))
    return failed


def _announce(signal, scan: Scan) -> None:
    """Tell the listeners after the current transaction commits; a listener's error never touches the scan."""

    def send():
        for receiver, result in signal.send_robust(sender=Scan, scan=scan):
            if isinstance(result, Exception):
                log.error("scan %s: %s failed: %r", scan.pk, getattr(receiver, "__qualname__", receiver), result)

    transaction.on_commit(send)


def _plan(run_: Run) -> list[int]:
    """Clone, list the files, look up the blob cache, run the repository-level pass, and store the plan and its
    shards (replacing those of an earlier attempt); returns the shard ids, in path order."""
    from portal.scans import checkouts, shards
    from scanner import repository as repository_pass

    scan = run_.scan
    repository = scan.repository
    run_.move(ScanStatus.CLONING, started=scan.started or timezone.now())
    previous = (
        Scan.objects.filter(repository=repository, branch=scan.branch, status=ScanStatus.FINISHED)
        .exclude(pk=scan.pk)
        .order_by("-finished")
        .first()
    )
    try:
        validate_clone_url(repository.clone_url)  # again at clone time: settings or DNS may have changed
    except ValidationError as exc:
        raise ScanUserError("clone_failed", " ".join(exc.messages)) from None
    with Heartbeat(lambda: Scan.objects.filter(pk=scan.pk, attempts=run_.attempt, status=ScanStatus.CLONING)):
        if not scan.commit_sha:
            with GitSession(repository.clone_url, repository.credentials()) as git:
                commit = git.resolve(scan.ref or scan.branch)
            Scan.objects.filter(pk=scan.pk).update(commit_sha=commit)
            scan.commit_sha = commit
        checkout, memo = checkouts.checkout(
            repository, scan.commit_sha, ref=scan.branch, previous=previous.commit_sha if previous else ""
        )
        root = checkout.path
        if scan.branch == repository.default_branch:
            _store_codeowners(repository, root)
        options, jobs, enabled, keys = plan_files(root, checkout.blobs, memo)
        reused = _cached_paths(jobs, checkout.blobs, keys)
        run_.check_deadline()
        # Repository-level findings (path "."): never cached by blob, the pass re-reads only the few files it needs.
        extra = repository_pass.finalize(root, options, jobs)
        groups = shards.split([job for job in jobs if job.rel not in reused], root)
    with transaction.atomic():
        if run_.attempt > 1:  # an earlier attempt's plan: its tasks find nothing to do
            ScanShard.objects.filter(scan=scan).delete()
            ShardFileResult.objects.filter(scan=scan).delete()
            ScanPlan.objects.filter(pk=scan.pk).delete()
        ScanPlan.objects.create(
            scan=scan,
            attempt=run_.attempt,
            present=sorted(checkout.blobs),
            renames=checkout.renames,
            rules=[rule.code for rule in enabled],
            first_scan_of_branch=previous is None,
            files=[[job.rel, checkout.blobs.get(job.rel, ""), keys[job.rel], job.rel in reused] for job in jobs],
        )
        created = ScanShard.objects.bulk_create(
            # queued_at: a shard never claimed (its planner died before sending it) counts as lost for the sweeper
            ScanShard(
                scan=scan,
                number=number,
                scan_attempt=run_.attempt,
                files=len(group),
                queued_at=timezone.now(),
                bytes=sum(size for _, size in group),
                entries=[[job.rel, checkout.blobs.get(job.rel, ""), keys[job.rel]] for job, _ in group],
            )
            for number, group in enumerate(groups, start=1)
        )
        if extra is not None:
            data = extra.to_dict()
            ShardFileResult.objects.create(
                scan=scan, path=extra.path, result=data, translation=data.pop("translation", None)
            )
        moved = Scan.objects.filter(pk=scan.pk, attempts=run_.attempt, status=ScanStatus.CLONING).update(
            status=ScanStatus.SCANNING,
            heartbeat=timezone.now(),
            files_total=len(jobs),
            files_done=len(reused),
            files_reused=len(reused),
        )
        if moved != 1:
            raise Superseded()  # rolls the plan back
        scan.status = ScanStatus.SCANNING
        _announce(signals.scan_started, scan)
    return [shard.pk for shard in created]


def plan_files(root: Path, blobs: dict[str, str], memo: dict):
    """The scanner's plan of a checkout: (options, jobs, enabled rules, cache key per path). Computed once per
    checkout and settings (`memo` lives as long as the kept checkout): the planner and every shard on this process
    share it."""
    from scanner import ConfigError, ScanOptions, plan
    from scanner.rules import select

    wanted = (settings.ROCPORT_SCAN_JOBS, settings.ROCPORT_COMPILE_CHECK, settings.ROCPORT_HIPCC)
    if memo.get("settings") != wanted:
        try:
            options, jobs = plan(
                root,
                ScanOptions(
                    jobs=settings.ROCPORT_SCAN_JOBS,
                    translate=True,
                    translate_backend="builtin",
                    compile_check=settings.ROCPORT_COMPILE_CHECK == "auto",
                    hipcc=settings.ROCPORT_HIPCC,
                ),
            )
        except ConfigError as exc:
            raise ScanUserError("bad_config", str(exc)) from None
        enabled = select(list(options.enable), list(options.disable))
        compiled = _compile_keys(options, jobs, blobs)
        keys = {
            job.rel: cache_key(options, enabled, job.rel, job.language, compiled.get(job.rel, ""), root) for job in jobs
        }
        memo.update(settings=wanted, plan=(options, jobs, enabled, keys))
    return memo["plan"]


def ingest(scan_id: int) -> None:
    """Read every stored result of the scan and ingest once, in one transaction (the ingestion task, or the
    planner when it scanned the shards itself). A second delivery finds the scan final or ingested: a no-op."""
    from django.db.models import F

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
                    scan, outcomes, set(plan.present), plan.renames, first_scan_of_branch=plan.first_scan_of_branch
                )
                summary = _summary(scan, files, report)
                ShardFileResult.objects.filter(scan_id=scan_id).delete()
                ScanShard.objects.filter(scan_id=scan_id).update(entries=[])  # the counts stay, for the scan page
                ScanPlan.objects.filter(pk=scan_id).delete()
                updated = Scan.objects.filter(pk=scan_id, attempts=plan.attempt, status=ScanStatus.INGESTING).update(
                    status=ScanStatus.FINISHED, finished=timezone.now(), heartbeat=timezone.now(), summary=summary
                )
                if updated != 1:
                    raise Superseded()  # rolls the whole ingestion back
    except Superseded:
        log.info("scan %s: ingestion stopped, the scan was superseded or cancelled", scan_id)
        return
    _announce(signals.scan_ended, Scan.objects.select_related("repository").get(pk=scan_id))


def _stored_results(scan: Scan, plan: ScanPlan):
    """(FileOutcomes, ScannedFiles, paths without a result) from the shards' rows and the blob cache."""
    from scanner.rules import catalogue, rules_run

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
        _record(scan, result, path, blobs, outcomes, files, enabled, rules_run, reused=reused, translation=translation)
    for path, (result, translation) in stored.items():
        if path not in blobs and result is not None:  # the repository-level result (path ".")
            _record(
                scan, result, path, blobs, outcomes, files, enabled, rules_run, reused=False, translation=translation
            )
    return outcomes, files, missing


def fresh_result(root: Path, result, blobs, keys) -> tuple[dict, dict | None, BlobResult | None]:
    """A fresh scanner result as stored: (its dict, its translation without the text, the blob cache row to
    write, or None when the result must not be remembered). The cache row has the file's text and its
    translation, for the file and finding pages."""
    data = result.to_dict()
    translation = data.pop("translation", None)
    translated = translation.pop("text", "") if translation else ""
    blob = blobs.get(result.path)
    # A compile check that timed out or crashed is tried again next time, not remembered.
    if blob and not result.error and (result.compile or {}).get("cacheable", True):
        return (
            data,
            translation,
            BlobResult(
                blob_sha=blob,
                cache_key=keys[result.path],
                result=_without_path(data),
                translation=translation,
                source=_read_text(root / result.path),
                translated=translated,
            ),
        )
    return data, translation, None


def _store_codeowners(repository, root: Path) -> None:
    from portal.findings.ownership import LOCATIONS

    text = next((_read_text(root / name) for name in LOCATIONS if (root / name).is_file()), "")
    if text != repository.codeowners:
        type(repository).objects.filter(pk=repository.pk).update(codeowners=text[:100_000])


def _read_text(path: Path) -> str:
    try:
        # Bytes, not read_text: universal newlines would turn CRLF into LF and shift every column. Never more
        # than the cap is read: a 2 GB CODEOWNERS must not cost 2 GB of memory.
        with open(path, "rb") as handle:
            data = handle.read(2_000_001)
        # As the scanner read it (Latin-1 when it is not UTF-8), so the page shows the lines its findings are on.
        return "" if len(data) > 2_000_000 else decode_source(data)[0]
    except OSError:
        return ""


def _record(scan, data, path, blobs, outcomes, files, enabled, rules_run, reused, translation) -> None:
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


def _without_path(data: dict) -> dict:
    out = dict(data)
    out["path"] = ""
    out["findings"] = [dict(f, path="") for f in data["findings"]]
    return out


def _cached_paths(jobs, blobs: dict[str, str], keys: dict[str, str]) -> set[str]:
    """The paths whose (blob, cache key) is in the blob cache (their pairs only: the results are read once, by the
    ingestion)."""
    wanted: dict[tuple[str, str], list[str]] = {}
    for job in jobs:
        if job.rel in blobs:
            wanted.setdefault((blobs[job.rel], keys[job.rel]), []).append(job.rel)
    found: set[str] = set()
    shas = sorted({sha for sha, _ in wanted})
    for start in range(0, len(shas), 5000):
        for pair in BlobResult.objects.filter(blob_sha__in=shas[start : start + 5000]).values_list(
            "blob_sha", "cache_key"
        ):
            found.update(wanted.get(pair, ()))
    return found


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


def _compile_keys(options, jobs, blobs: dict[str, str]) -> dict[str, str]:
    """Per file, what its compile check depends on besides its blob (scanner.compile.key_material): the compiler,
    its version, target and flags, and the blobs of the files its translation unit includes."""
    if not options.compile_check:
        return {}
    from scanner import compile as compile_check

    description = compile_check.describe(options)
    return {job.rel: compile_check.key_material(description, job, blobs.get) for job in jobs}


def cache_key(options, enabled, rel: str, language: str = "", compile_key: str = "", root: Path | None = None) -> str:
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
        "port": options.port.key(),  # the repository's own ROCm path changes what a finding says
        **({"compile": compile_key} if compile_key else {}),
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def _relative(directory: str, root: Path | None) -> str:
    base = str(root).rstrip("/") + "/" if root else ""
    return "./" + directory[len(base) :] if base and directory.startswith(base) else directory


def _summary(scan: Scan, files: list[ScannedFile], report: tracking.IngestReport) -> dict:
    from collections import Counter

    from portal.findings.models import DISMISSED_TRIAGE, Finding

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


__all__ = ["run", "fail", "claim", "ScanUserError", "APP_ERROR"]
