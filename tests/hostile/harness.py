"""What the hostile-repository tests share: repositories built with `git fast-import` (any path bytes, symlinks,
gitlinks, many files in a second), a scan through the real pipeline, and the check that nothing from outside the
checkout reached a stored row."""

from __future__ import annotations

import json
import secrets
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.portal.gitrepos import _ENV, GitRepo

SYMLINK, GITLINK, FILE, EXECUTABLE = "120000", "160000", "100644", "100755"


@dataclass
class Canary:
    """A secret file outside every checkout, and the marker path hostile code would create."""

    root: Path
    secret: Path
    token: str
    marker: Path

    @classmethod
    def create(cls, root: Path) -> Canary:
        root.mkdir(parents=True)
        token = "CANARY" + secrets.token_hex(8)
        secret = root / "secret.h"
        # Tokens clang would quote in a diagnostic ("unknown type name 'CANARY…'") if it ever parsed this file.
        secret.write_text(f"{token} leaked;\nint {token}_b = {token}_c;\n#error {token}\n")
        return cls(root, secret, token, root / "pwned")

    def command(self) -> str:
        """A shell command that leaves the marker (for hooks, drivers, helper URLs)."""
        return f"touch {self.marker}"


def fast_import(
    repo: GitRepo, entries: list[tuple[bytes | str, str, bytes | str]], message: str = "hostile", branch: str = "main"
) -> str:
    """Commit `entries` (path, mode, content: the data of a file or symlink, the commit id of a gitlink) on
    `branch` in one `git fast-import` run, on top of nothing; returns the commit id. Identical contents are
    written once, so 200,000 tiny files cost one blob."""
    blobs: dict[bytes, int] = {}
    out = bytearray()
    for _, mode, content in entries:
        data = content.encode() if isinstance(content, str) else content
        if mode != GITLINK and data not in blobs:
            blobs[data] = len(blobs) + 1
            out += b"blob\nmark :%d\ndata %d\n" % (blobs[data], len(data)) + data + b"\n"
    out += b"commit refs/heads/%s\ncommitter Test <t@example.invalid> 0 +0000\ndata %d\n%s\n" % (
        branch.encode(),
        len(message.encode()),
        message.encode(),
    )
    for path, mode, content in entries:
        raw = path.encode() if isinstance(path, str) else path
        quoted = _quote(raw)
        if mode == GITLINK:
            out += b"M %s %s %s\n" % (mode.encode(), content.encode() if isinstance(content, str) else content, quoted)
        else:
            data = content.encode() if isinstance(content, str) else content
            out += b"M %s :%d %s\n" % (mode.encode(), blobs[data], quoted)
    out += b"\n"
    subprocess.run(
        ["git", "fast-import", "--quiet", "--force"],
        cwd=repo.path,
        env=_ENV,
        input=bytes(out),
        check=True,
        capture_output=True,
    )
    return repo.git("rev-parse", f"refs/heads/{branch}")


def _quote(path: bytes) -> bytes:
    """A fast-import path: C-style quoted, so newlines, quotes and any byte survive."""
    body = bytearray()
    for byte in path:
        if byte in (0x22, 0x5C):
            body += b"\\" + bytes([byte])
        elif byte < 0x20 or byte >= 0x7F:
            body += b"\\%03o" % byte
        else:
            body.append(byte)
    return b'"' + bytes(body) + b'"'


def register(people, url: str, name: str = "hostile", **fields):
    from portal.repositories.models import Repository

    return Repository.objects.create(team=people.team, name=name, clone_url=url, **fields)


def run_scan(repository, commit: str = "", branch: str = ""):
    """One scan through the real pipeline (clone, scanner worker pool, ingestion), in this process."""
    from portal.scans.actions import do_create_scan
    from portal.scans.models import Scan
    from portal.scans.pipeline import runner as pipeline

    scan = do_create_scan(repository, branch=branch, commit_sha=commit, enqueue=False)
    pipeline.run(scan.pk)
    return Scan.objects.get(pk=scan.pk)


def stored_text(scan) -> str:
    """Every piece of text the scan could have stored: the scan row (error, summary), its files (paths, errors,
    statistics), every blob result (source, result, translation), the repository's findings (paths, messages,
    snippets) and the repository's CODEOWNERS copy."""
    from portal.findings.models import Finding
    from portal.scans.models import BlobResult, ScannedFile

    parts = [scan.error_message, json.dumps(scan.summary), scan.repository.codeowners]
    for row in ScannedFile.objects.filter(scan=scan):
        parts += [row.path, row.error, json.dumps(row.stats)]
    for row in BlobResult.objects.all():
        parts += [row.source, row.translated, json.dumps(row.result), json.dumps(row.translation)]
    for row in Finding.objects.filter(repository=scan.repository):
        parts += [row.path, row.message, row.snippet]
    return "\n".join(parts)


def files_of(scan) -> dict[str, object]:
    from portal.scans.models import ScannedFile

    return {row.path: row for row in ScannedFile.objects.filter(scan=scan)}
