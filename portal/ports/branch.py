"""The port branch: reviewed translations committed on the scanned commit and pushed as a new branch, with git's
plumbing in a bare repository (no working copy is checked out, so no file of the repository is ever written to
disk and no hook or filter of it runs).

Safety, by construction rather than by care:
- the branch is named by the caller from a fixed prefix and a row id, and is pushed only if it does not exist on
  the remote (checked with ls-remote right before; a plain push, never forced, could otherwise only fast-forward);
- the scanned commit must still be an ancestor of the target branch (in its newest 200 commits), else the caller
  is told to rescan: a translation of code that is gone would undo someone's change;
- the commit is deterministic (dates from the request's creation), so a retry after a push that was not recorded
  makes the same commit and finds the branch already holding it;
- every git command runs through GitSession: no shell, no system or global config, an askpass script for the
  credentials, a time limit.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from portal.repositories.git import HTTP_FORBIDDEN, CloneError, GitSession

ANCESTRY_DEPTH = 200


class PortError(Exception):
    """A step of the port failed; `code` is stable (pages and retries key on it), the message is for people."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Author:
    name: str
    email: str


@dataclass
class Pushed:
    commit: str
    already_there: bool  # a retry: the branch already held exactly this commit


@dataclass
class CommitSpec:
    """One commit of the port: its message and the files it writes (path -> new text)."""

    message: str
    files: dict[str, str]


class BaseReader:
    """The scanned commit's files as the port's planner sees them, read from the fetched objects."""

    def __init__(self, session: GitSession, base: str):
        self.session, self.base = session, base

    def paths(self) -> list[str]:
        out = self.session.git("ls-tree", "-r", "-z", "--name-only", self.base)
        return [path for path in out.split("\0") if path]

    def blob_sha(self, path: str) -> str:
        """The file's blob id on the scanned commit; "" when it has none."""
        try:
            return self.session.git("rev-parse", "--verify", "--quiet", f"{self.base}:{path}").strip()
        except CloneError:
            return ""

    def text(self, path: str, limit: int = 1024 * 1024) -> str | None:
        """The file's text; None when it is missing, larger than `limit` or not UTF-8 (left alone, then)."""
        try:
            if int(self.session.git("cat-file", "-s", f"{self.base}:{path}").strip()) > limit:
                return None
            text = self.session.git("cat-file", "blob", f"{self.base}:{path}")
        except (CloneError, ValueError):
            return None
        return None if any("\udc80" <= c <= "\udcff" for c in text) else text  # surrogate escapes: not UTF-8


def _git_date(moment: datetime) -> str:
    return f"{int(moment.timestamp())} +0000"


def push_port(
    session: GitSession,
    *,
    base: str,
    target_branch: str,
    branch: str,
    plan: Callable[[BaseReader], list[CommitSpec]],
    author: Author,
    committer: Author,
    when: datetime,
    before_push: Callable[[GitSession, str], None] | None = None,
) -> Pushed:
    """Commit what `plan` asks for (one commit per CommitSpec, in order, the first on `base`; `plan` may read the
    scanned commit's files, e.g. build files to rewrite) and push the last as the new branch `branch`.
    `before_push(session, head)` runs once the commits are made, before the push (the compile check)."""
    if not branch.startswith("rocport/") or branch == target_branch:
        raise PortError("bad_branch", f"refusing to push to {branch!r}: only new rocport/ branches are pushed")
    try:
        return _push_port(session, base, target_branch, branch, plan, author, committer, when, before_push)
    except CloneError as error:  # any other git step (the remote failing between fetch and push, a timeout)
        raise PortError("git_failed" if error.code != "timeout" else "timeout", error.message) from None


def _push_port(session, base, target_branch, branch, plan, author, committer, when, before_push=None) -> Pushed:
    session.work.mkdir(exist_ok=True)
    session.git("init", "--quiet", "--bare", ".")
    session.git("remote", "add", "origin", "--", session.url)
    _check_base_on_target(session, base, target_branch)
    commits = [spec for spec in plan(BaseReader(session, base)) if spec.files]
    if not commits:
        raise PortError("nothing_to_commit", "the reviewed translations change no file: nothing to commit")
    head = base
    for spec in commits:
        head = _commit(session, head, spec.files, spec.message, author, committer, when)
    if before_push is not None:
        before_push(session, head)
    existing = _remote_head(session, branch)
    if existing == head:
        return Pushed(head, already_there=True)
    if existing:
        raise PortError(
            "branch_exists",
            f"the branch {branch} already exists on the remote with other commits; ROCport never overwrites a branch",
        )
    try:
        session.git("push", "--quiet", "--no-verify", "origin", f"{head}:refs/heads/{branch}")
    except CloneError as error:
        raise _push_error(error, branch) from None
    return Pushed(head, already_there=False)


def _check_base_on_target(session: GitSession, base: str, target_branch: str) -> None:
    fetch = (
        "fetch",
        "--quiet",
        "--no-tags",
        f"--depth={ANCESTRY_DEPTH}",
        "origin",
        f"+refs/heads/{target_branch}:refs/remotes/origin/target",
    )
    try:
        try:
            session.git(*fetch, watch_size=True)
        except CloneError as error:
            if error.code in ("auth_failed", "timeout", "repo_too_large"):
                raise
            time.sleep(1)  # a dropped connection: one more try before failing the port, as for the branch check
            session.git(*fetch, watch_size=True)
    except CloneError as error:
        if error.code == "auth_failed":
            raise PortError("auth_failed", "the repository refused the credentials: check them in Settings") from None
        raise PortError("fetch_failed", f"could not read {target_branch}: {error.message}") from None
    try:
        session.git("merge-base", "--is-ancestor", base, "refs/remotes/origin/target")
    except CloneError:
        raise PortError(
            "target_moved",
            f"{target_branch} no longer contains the scanned commit {base[:10]} (or moved more than "
            f"{ANCESTRY_DEPTH} commits past it): scan {target_branch} again and review the new translations",
        ) from None


def _commit(
    session: GitSession,
    parent: str,
    files: dict[str, str],
    message: str,
    author: Author,
    committer: Author,
    when: datetime,
) -> str:
    index = session.root / "port-index"
    env = {"GIT_INDEX_FILE": str(index)}
    session.git("read-tree", parent, env=env)
    for path, text in sorted(files.items()):
        mode = _mode(session, parent, path)
        blob = session.git("hash-object", "-w", "--stdin", stdin=text.encode("utf-8")).strip()
        session.git("update-index", "--add", "--cacheinfo", f"{mode},{blob},{path}", env=env)
    tree = session.git("write-tree", env=env).strip()
    stamp = _git_date(when)
    identity = {
        "GIT_AUTHOR_NAME": author.name,
        "GIT_AUTHOR_EMAIL": author.email,
        "GIT_AUTHOR_DATE": stamp,
        "GIT_COMMITTER_NAME": committer.name,
        "GIT_COMMITTER_EMAIL": committer.email,
        "GIT_COMMITTER_DATE": stamp,
    }
    return session.git("commit-tree", tree, "-p", parent, stdin=message.encode("utf-8"), env=identity).strip()


def _mode(session: GitSession, base: str, path: str) -> str:
    """The file's mode on `base` (an executable stays executable); a file the base does not have is 100644."""
    out = session.git("ls-tree", "-z", base, "--", path)
    mode = out.split(" ", 1)[0] if out else ""
    return mode if mode in ("100644", "100755") else "100644"


def _remote_head(session: GitSession, branch: str) -> str:
    try:
        out = session.git("ls-remote", "--heads", "origin", f"refs/heads/{branch}")
    except CloneError as error:
        if error.code in ("auth_failed", "timeout"):
            raise
        time.sleep(1)  # a connection reset between the fetch and this check: one more try before failing the port
        out = session.git("ls-remote", "--heads", "origin", f"refs/heads/{branch}")
    for line in out.splitlines():
        sha, _, name = line.partition("\t")
        if name == f"refs/heads/{branch}":
            return sha
    return ""


def _push_error(error: CloneError, branch: str) -> PortError:
    text = (error.detail or error.message).lower()  # git names the refusal on a later line than the first
    # A 403 only as git's HTTP status: the refusal's text names the pushed commit, whose hex may hold "403".
    if (
        error.code == "auth_failed"
        or HTTP_FORBIDDEN.search(text)
        or any(s in text for s in ("permission", "denied", "not allowed", "protected branch", "unauthorized"))
    ):
        return PortError(
            "no_write_access",
            "the repository's credentials can read but not push: give them write access (or download the patch)",
        )
    if "rejected" in text or "non-fast-forward" in text or "already exists" in text:
        return PortError("branch_exists", f"the remote refused to create {branch}: a branch of that name exists")
    return PortError("push_failed", f"the push of {branch} failed: {error.message}")
