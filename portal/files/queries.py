"""What the file page and the patch read: a file as of the newest finished default-branch scan that has it.

Every function is a constant number of indexed queries:
- the scanned file: the repository's finished default-branch scans (`scan_branch_recent`) joined to their
  ScannedFile row by the `one_result_per_path` unique index (scan, path), newest first, LIMIT 1;
- the blob: BlobResult by `one_result_per_blob` (blob_sha, cache_key);
- the file's open findings: the `finding_identity` unique index, whose prefix is (repository, branch, path).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from portal.findings.models import Finding
from portal.scans.constants import ScanStatus, ScanTrigger
from portal.scans.models import BlobResult, Scan, ScannedFile
from portal.scans.uploads.stand_ins import stand_ins


@dataclass
class FileVersion:
    scan: Scan
    scanned: ScannedFile
    blob: BlobResult | None  # None when the file was not analysed (an error) and nothing was stored
    # A CI upload carries findings and counts, never the file's text (portal.scans.uploads.actions): its text,
    # translation and compile check come from a worker's scan of the same commit (`text_scan`) if one exists.
    uploaded: bool = False
    text_scan: Scan | None = None
    # An upload of a commit no worker scanned: the blob of the newest earlier worker scan, which a review is
    # matched against (portal.scans.uploads.stand_ins), and its stored result.
    review_blob: str = ""
    review_blob_result: BlobResult | None = None

    @property
    def review_key(self) -> tuple[str, str]:
        """(blob sha, translation digest) a translation review must match to apply to this version."""
        if self.review_blob:
            result = self.review_blob_result
            return self.review_blob, translation_digest(result.translated if result else "")
        return self.scanned.blob_sha, self.translation_sha

    @property
    def source(self) -> str:
        return self.blob.source if self.blob else ""

    @property
    def translated(self) -> str:
        return self.blob.translated if self.blob else ""

    @property
    def translation(self) -> dict:
        return (self.blob.translation or {}) if self.blob else {}

    @property
    def has_translation(self) -> bool:
        return bool(self.blob and self.blob.translation and self.blob.translated)

    @property
    def translation_sha(self) -> str:
        return translation_digest(self.translated)

    @property
    def parse(self) -> dict:
        return (self.blob.result or {}).get("parse", {}) if self.blob else {}

    @property
    def compile(self) -> dict | None:
        """The compile check of this file in its scan (scanner.compile): status, target, stubs, diagnostics; None
        when the scan did not run the check. Diagnostics come from the blob's stored result, the status from the
        scan's own row."""
        summary = (self.scanned.stats or {}).get("compile")
        if not summary:
            return None
        stored = (self.blob.result or {}).get("compile") if self.blob else None
        if stored and stored.get("status") == summary.get("status"):
            return stored
        return {
            "status": summary.get("status", ""),
            "target": summary.get("target", ""),
            "compiler": "",
            "reason": "",
            "note": "",
            "unit": "",
            "stubbed": [],
            "diagnostics": [],
            "counts": {},
            "set_aside": 0,
        }


def translation_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest() if text else ""


def finished_default_scans(repository):
    return Scan.objects.filter(repository=repository, branch=repository.default_branch, status=ScanStatus.FINISHED)


def newest_scan(repository) -> Scan | None:
    return finished_default_scans(repository).order_by("-finished", "-id").first()


def blob_for(blob_sha: str) -> BlobResult | None:
    """The stored result of a blob; with several scanner configurations, the newest one."""
    if not blob_sha:
        return None
    return BlobResult.objects.filter(blob_sha=blob_sha).order_by("-id").first()


def file_version(repository, path: str) -> FileVersion | None:
    """The file as of the newest finished scan of the default branch that has it; None if no scan has it."""
    scanned = (
        ScannedFile.objects.filter(
            scan__repository=repository,
            scan__branch=repository.default_branch,
            scan__status=ScanStatus.FINISHED,
            path=path,
        )
        .select_related("scan")
        .order_by("-scan__finished", "-scan_id")
        .first()
    )
    if scanned is None:
        return None
    if scanned.scan.trigger != ScanTrigger.UPLOAD or scanned.blob_sha:
        return FileVersion(scanned.scan, scanned, blob_for(scanned.blob_sha))
    stand_in = stand_ins(scanned.scan, [path]).get(path)
    if stand_in is None:
        return FileVersion(scanned.scan, scanned, None, uploaded=True)
    if stand_in.scan.commit_sha != scanned.scan.commit_sha:
        # an earlier commit's text is not shown as this one's, but its review still holds (uploads.stand_ins)
        version = FileVersion(scanned.scan, scanned, None, uploaded=True)
        version.review_blob = stand_in.blob_sha
        version.review_blob_result = blob_for(stand_in.blob_sha)
        return version
    return FileVersion(scanned.scan, stand_in, blob_for(stand_in.blob_sha), uploaded=True, text_scan=stand_in.scan)


def open_findings(repository, path: str) -> list[Finding]:
    return list(
        Finding.objects.filter(
            repository=repository, branch=repository.default_branch, path=path, state=Finding.State.OPEN
        ).order_by("line", "column", "id")
    )


def findings_by_line(findings: list[Finding]) -> dict[int, list[Finding]]:
    by_line: dict[int, list[Finding]] = {}
    for finding in findings:
        by_line.setdefault(finding.line, []).append(finding)
    return by_line
