"""Does the port branch build? Before the push, each ported file is compiled on the branch's own tree by the
scanner's compile check (scanner.compile), with the flags the branch's build model gives it (standard, include
directories, defines: scanner.build read on the branch, so the build switch's edits count), and the result is
stored per file on the MergeRequest (`compile_results`) and shown in the request's body and on its page.

Per file: `compiles` (or `compiles-with-stubs`: it builds once the headers this machine lacks are stubbed, named),
`fails` with the first error, or `not-checked` and why (no compiler on the worker, the check turned off, the file
not C++). The check never fails a port: whatever goes wrong becomes "not checked" with the reason. The branch is
compiled as it is (no translation on top): a CUDA header the port left untranslated fails the files that use it,
which is what the branch's build would do.

Imports the scanner and Django settings only; portal.ports.tasks calls `check_branch` through push_port's
`before_push`, portal.ports.describe renders `body_lines`, the page reads `compile_results` with texts.py's labels.
"""

from __future__ import annotations

import contextlib
import logging
import posixpath
import tarfile
import tempfile
from pathlib import Path

from django.conf import settings

from scanner import build
from scanner.compile import CompileChecker, attach, settings_from
from scanner.compile import diagnostics as diags
from scanner.compile.result import COMPILES, COMPILES_WITH_STUBS, FAILS, NOT_CHECKED
from scanner.config import ScanOptions
from scanner.discovery import language_of
from scanner.engine import FileJob

log = logging.getLogger(__name__)

SIDE_BY_SIDE = "side_by_side"  # portal.ports.planning's mode (planning imports describe, which imports this)
MAX_FILES = 200  # files compiled per port; the rest say so
MAX_ERROR = 300  # characters of the first error kept
OFF = "the compile check is off on this portal (ROCPORT_COMPILE_CHECK=off)"


def branch_paths(files: list[str], mode: str) -> list[str]:
    """Where each ported file is on the branch: side by side a `.cu` source's `.hip` copy, else the file itself."""
    out = []
    for path in files:
        stem, ext = posixpath.splitext(path)
        out.append(stem + ".hip" if mode == SIDE_BY_SIDE and ext == ".cu" else path)
    return out


def _not_checked(paths: list[str], reason: str) -> list[dict]:
    return [{"path": path, "status": NOT_CHECKED, "reason": reason} for path in paths]


@contextlib.contextmanager
def branch_tree(session, head: str):
    """The tree of commit `head` (in `session`, a portal.repositories.git.GitSession holding it), extracted to a
    temporary directory for as long as the block runs: (root, scratch)."""
    with tempfile.TemporaryDirectory(prefix="rocport-port-build-") as scratch:
        archive, root = Path(scratch) / "branch.tar", Path(scratch) / "tree"
        session.git("archive", "--format=tar", "-o", str(archive), head)
        root.mkdir()
        with tarfile.open(archive) as tar:
            tar.extractall(root, filter="data")  # regular files and directories inside root only
        archive.unlink()
        yield root, Path(scratch)


def check_branch(session, head: str, paths: list[str], on_tree=None) -> list[dict]:
    """Each of `paths` compiled on the tree of commit `head` (in `session`, a portal.repositories.git.GitSession
    holding it): one dict per path, in order; `on_tree(root)` is then called on the same extracted tree (the
    check on or off). Never raises."""
    try:
        with branch_tree(session, head) as (root, scratch):
            if on_tree is not None:
                on_tree(root)
            if settings.ROCPORT_COMPILE_CHECK == "off":
                return _not_checked(paths, OFF)
            return _check(root, paths, scratch)
    except Exception as error:  # a port never fails for its check: the files say it could not run
        log.warning("compile check of %s failed: %s", head[:12], type(error).__name__, exc_info=True)
        if settings.ROCPORT_COMPILE_CHECK == "off":
            return _not_checked(paths, OFF)
        return _not_checked(paths, f"the check could not run ({type(error).__name__})")


def _check(root: Path, paths: list[str], scratch: Path) -> list[dict]:
    tree = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and not p.is_symlink())
    model = build.read(str(root), tree)
    options = ScanOptions(compile_check=True, hipcc=settings.ROCPORT_HIPCC)
    jobs = []
    for rel in paths[:MAX_FILES]:
        language = "cuda" if rel.endswith(".hip") else language_of(posixpath.basename(rel)) or "other"
        jobs.append(FileJob(str(root / rel), rel, language, build=model.of(rel)))
    jobs = {job.rel: job for job in attach(root, options, jobs)}
    checker = CompileChecker(settings_from(options), lambda rel, text, path: text, str(scratch))
    out = []
    try:
        for rel in paths:
            job = jobs.get(rel)
            if job is None:
                out += _not_checked([rel], f"more than {MAX_FILES} files in this port: not checked")
                continue
            if not (root / rel).is_file():
                out += _not_checked([rel], "not on the branch")
                continue
            reason = checker.skip_reason(job, job.language, True)
            if reason:
                out += _not_checked([rel], reason)
                continue
            text = (root / rel).read_text(encoding="utf-8", errors="replace")
            out.append(_summary(rel, checker.check(job, text, text)))
    finally:
        checker.close()
    return out


def _summary(rel: str, result) -> dict:
    """What is stored per file: the status, why (not checked, failed elsewhere), the first error, what judged it."""
    row = {"path": rel, "status": result.status, "reason": result.reason}
    errors = [d for d in result.diagnostics if d.kind not in diags.NOT_ERRORS and d.message]
    if result.status == FAILS and errors:
        first = next((d for d in errors if d.path == rel), errors[0])
        row["error"] = f"{first.path}:{first.hip_line}: {first.message}"[:MAX_ERROR]
    row |= {"compiler": result.compiler, "target": result.target, "std": result.std, "build": result.build}
    if result.stubbed:
        row["stubbed"] = list(result.stubbed[:10])
    return row


# -- the request's body ---------------------------------------------------------------------------------------
_BODY_WORDS = {
    COMPILES: "builds",
    COMPILES_WITH_STUBS: "builds with stubs",
    FAILS: "fails",
    NOT_CHECKED: "not checked",
}
BODY_LISTED = 50  # rows in the body; GitHub's body limit is 65,536 characters, this stays under ~25,000


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell: one line, no pipe, no backtick run that breaks the code span."""
    return " ".join(text.replace("|", "\\|").replace("`", "'").split())[:MAX_ERROR]


def body_lines(results: list[dict]) -> list[str]:
    """The request body's "Does it build?" section: one table row per file (empty when nothing was recorded)."""
    if not results:
        return []
    counts = {status: sum(1 for r in results if r["status"] == status) for status in _BODY_WORDS}
    summary = ", ".join(f"{n} {_BODY_WORDS[status]}" for status, n in counts.items() if n)
    first = next((r for r in results if r.get("target")), {})
    judged = f" for `{first['target']}` ({_cell(first.get('compiler', ''))})" if first else ""
    out = [
        "**Does it build?**",
        "",
        f"Compiled on this branch{judged} with the flags its build model gives each file: {summary}.",
        "",
        "| file | result | detail |",
        "| --- | --- | --- |",
    ]
    for row in results[:BODY_LISTED]:
        status = row["status"]
        if status == FAILS:
            detail = f"`{_cell(row.get('error') or row.get('reason') or 'errors')}`"
        elif status == COMPILES_WITH_STUBS:
            detail = "stubbed: " + ", ".join(f"`{_cell(n)}`" for n in row.get("stubbed", [])) or ""
        elif status == NOT_CHECKED:
            detail = _cell(row.get("reason", ""))
        else:
            detail = _cell("; ".join(filter(None, (row.get("std", ""), row.get("build", "")))))
        out.append(f"| `{_cell(row['path'])}` | {_BODY_WORDS.get(status, _cell(status))} | {detail} |")
    if len(results) > BODY_LISTED:
        out.append(f"| and {len(results) - BODY_LISTED} more | | |")
    return out


def build_left_lines(items: list[list]) -> list[str]:
    """The request body's list of what the build switch could not switch surely, for a person: one line each."""
    if not items:
        return []
    out = ["**Build: left for a person**", ""]
    for path, line, what, why in items[:BODY_LISTED]:
        out.append(f"- `{_cell(f'{path}:{line}')}` `{_cell(what)}`: {_cell(why)}")
    if len(items) > BODY_LISTED:
        out.append(f"- and {len(items) - BODY_LISTED} more")
    return out
