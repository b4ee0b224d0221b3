"""A bare git repository served over smart HTTP on 127.0.0.1 with several users, some of whom may only read, the
way a host gives a deploy key or a token read access only: their pushes are refused with 403 before git
http-backend sees them (servers.GitHttpServer has one user, who may push).

Every request is recorded (user, method, path, the status sent back), and a pre-receive hook in the served
repository logs each ref update a push asks for (old, new, ref), so a test can tell "nothing was pushed" from "a
push was tried and refused", and a branch creation (old = 000...) from an update or a force-push. Hostile
servers: `fail_when` answers chosen requests with a 500; `before_push` runs something (a branch appearing) at a
push's ref discovery, after the client's own checks.
"""

from __future__ import annotations

import base64
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.portal import servers
from tests.portal.gitrepos import _ENV

ZERO = "0" * 40
_HOOK = """#!/bin/sh
cat >> '{log}'
"""


@dataclass
class Seen:
    user: str
    method: str
    path: str
    status: int

    @property
    def push(self) -> bool:
        return "git-receive-pack" in self.path


@dataclass
class Commit:
    parents: list[str]
    author: str  # "Name <email>"
    committer: str
    generated_by: str  # the Generated-by trailer's value
    message: str


class _Handler(servers._Handler):
    served: ServedRepo

    def _user(self) -> str | None:
        header = self.headers.get("Authorization", "")
        if not header.startswith("Basic "):
            return None
        try:
            name, _, password = base64.b64decode(header[6:]).decode().partition(":")
        except ValueError:
            return None
        known = self.served.users.get(name)
        return name if known and known[0] == password else None

    def _serve(self) -> None:
        served = self.served
        user = self._user()
        if user is None:
            served.seen.append(Seen("", self.command, self.path, 401))
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="git"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if "git-receive-pack" in self.path and not served.users[user][1]:
            served.seen.append(Seen(user, self.command, self.path, 403))
            text = f"Permission to {self.path.split('/')[1]} denied to {user}.\n".encode()
            self.send_response(403)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(text)))
            self.end_headers()
            self.wfile.write(text)
            return
        if served.fail_when is not None and served.fail_when(Seen(user, self.command, self.path, 500)):
            served.seen.append(Seen(user, self.command, self.path, 500))
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        served.seen.append(Seen(user, self.command, self.path, 200))
        if self.command == "GET" and "service=git-receive-pack" in self.path and served.before_push:
            served.before_push.pop(0)()  # something that happens between the client's checks and its push
        self.credentials = (user, served.users[user][0])  # REMOTE_USER for http-backend: pushes are allowed
        super()._serve()

    do_GET = _serve
    do_POST = _serve


class ServedRepo:
    """`users`: name -> (password, may push). `publish` makes the served bare copy of a work repository."""

    def __init__(self, root: Path, users: dict[str, tuple[str, bool]]):
        self.root = root
        self.root.mkdir(parents=True, exist_ok=True)
        self.users = users
        self.seen: list[Seen] = []
        self.name = ""
        self.before_push: list = []  # callables run once each, at a push's ref discovery
        self.fail_when = None  # a predicate over an authorised request: true answers it with a 500
        handler = type("Handler", (_Handler,), {"served": self, "root": root, "credentials": ("", "")})
        self.server = servers.serve_http(handler)
        self.port = self.server.server_address[1]

    def publish(self, source: Path, name: str = "project.git") -> str:
        """A bare clone of `source` served as `name`, with the push log hook and the rules a host's protected
        branches have (no deletion, no non-fast-forward update); returns its URL."""
        self.name = name
        subprocess.run(["git", "clone", "--quiet", "--bare", str(source), str(self.path)], env=_ENV, check=True)
        self.git("config", "receive.denyNonFastForwards", "true")
        self.git("config", "receive.denyDeletes", "true")
        hook = self.path / "hooks" / "pre-receive"
        hook.write_text(_HOOK.format(log=self.root / "pushes.log"))
        hook.chmod(0o755)
        return self.url

    @property
    def path(self) -> Path:
        return self.root / self.name

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/{self.name}"

    def git(self, *args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=self.path, env=_ENV, check=True, capture_output=True, text=True
        ).stdout.strip()

    def heads(self) -> dict[str, str]:
        out = self.git("for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads/")
        return dict(line.split(" ", 1) for line in out.splitlines() if line)

    def new_commit(self, tree_of: str, message: str, parent: str | None = None) -> str:
        """A commit made on the server (no push) with `tree_of`'s tree; a new root without `parent`."""
        tree = self.git("rev-parse", f"{tree_of}^{{tree}}")
        return self.git("commit-tree", tree, *(["-p", parent] if parent else []), "-m", message)

    def commit(self, sha: str) -> Commit:
        fields = "%P%x00%an <%ae>%x00%cn <%ce>%x00%(trailers:key=Generated-by,valueonly,separator=%x2C)%x00%B"
        parents, author, committer, generated_by, message = self.git("log", "-1", f"--format={fields}", sha).split("\0")
        return Commit(parents.split(), author, committer, generated_by.strip(), message)

    def changed(self, old: str, new: str) -> list[str]:
        """The paths that differ between two commits (no rename detection), sorted."""
        return sorted(self.git("diff", "--no-renames", "--name-only", old, new).split("\n"))

    def blob(self, commit: str, path: str) -> bytes:
        """The exact bytes of a file at a commit."""
        return subprocess.run(
            ["git", "cat-file", "blob", f"{commit}:{path}"], cwd=self.path, env=_ENV, check=True, capture_output=True
        ).stdout

    def assert_one_new_commit(self, branch: str, base: str, files: dict[str, bytes], **identity: str) -> str:
        """`branch` was created by one push (never updated, never forced) and holds one commit on `base` that
        changes exactly `files` to these bytes; the other branches are as they were. `identity`: the commit's
        author, committer, generated_by as Commit has them. Returns the commit."""
        head = self.heads()[branch]
        assert self.pushed() == [(ZERO, head, f"refs/heads/{branch}")]
        commit = self.commit(head)
        assert commit.parents == [base]
        assert {name: getattr(commit, name) for name in identity} == identity
        assert self.changed(base, head) == sorted(files)
        assert {path: self.blob(head, path) for path in files} == files
        return head

    def has_branch(self, name: str) -> bool:
        return name in self.heads()

    def pushed(self) -> list[tuple[str, str, str]]:
        """The ref updates pushes asked for and the hook saw (old, new, ref), in order."""
        log = self.root / "pushes.log"
        if not log.exists():
            return []
        return [tuple(line.split()) for line in log.read_text().splitlines() if line.strip()]

    def push_attempts(self) -> list[Seen]:
        """The push requests made with credentials (git's first, anonymous try gets a 401 and is left out)."""
        return [seen for seen in self.seen if seen.push and seen.status != 401]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
