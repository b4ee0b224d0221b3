"""Sending a scan's JSON report to a ROCport portal from CI (`scan --format json --upload URL`).

- before the scan: where the upload goes (repository, commit, branch), from the options, else from the checkout
  (git run without a shell: HEAD, the current branch, the commit's file list, the origin URL without its
  credentials), else from the CI's own variables when HEAD is detached (GitHub Actions, GitLab CI);
- after the scan: one POST of the report file to `<URL>/api/v1/uploads/` with the token in the Authorization
  header only. The token never appears in output or messages, and redirects are refused so that it is never
  sent to another address.
Plain urllib: nothing here imports Django.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from scanner.version import TOOL_VERSION

ENDPOINT = "/api/v1/uploads/"
TOKEN_ENV = "ROCPORT_TOKEN"
_SHA = re.compile(r"^[0-9a-fA-F]{40}$")
_GIT_TIMEOUT = 60
_HTTP_TIMEOUT = 600  # the portal ingests the whole scan before it answers
# When HEAD is detached (the usual CI checkout), the branch the CI says it built; first match wins.
_CI_BRANCH = (
    "GITHUB_HEAD_REF",
    "GITHUB_REF_NAME",
    "CI_COMMIT_BRANCH",
    "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME",
    "CI_COMMIT_REF_NAME",
)
_CI_COMMIT = ("GITHUB_SHA", "CI_COMMIT_SHA")


class UploadError(Exception):
    """Why the upload cannot happen or did not succeed, in words for a CI log (never containing the token)."""


@dataclass
class Target:
    url: str  # the endpoint
    token: str = field(repr=False)
    commit: str
    branch: str
    repository: int | None = None
    remote: str = ""  # the origin URL, credentials removed; the portal matches it when repository is None
    tree: list[str] | None = None  # the commit's regular files; None when the directory is not a git checkout

    def query(self) -> str:
        params = {"commit": self.commit, "branch": self.branch}
        if self.repository is not None:
            params["repository"] = str(self.repository)
        elif self.remote:
            params["remote"] = self.remote
        return urllib.parse.urlencode(params)


def prepare(
    url: str,
    token: str | None,
    root: Path,
    *,
    repository: int | None = None,
    commit: str | None = None,
    branch: str | None = None,
) -> Target:
    """Everything the upload needs, checked before the scan starts (a CI job fails in seconds, not after it)."""
    token = (token or os.environ.get(TOKEN_ENV, "")).strip()
    if not token:
        raise UploadError(f"no token: set the {TOKEN_ENV} environment variable (from a CI secret) or pass --token")
    if any(c in token for c in "\r\n\0 "):
        raise UploadError("the token contains whitespace or control characters; copy it again")
    git = _Git(root)
    top = git.toplevel()
    if top is not None and top.resolve() != root.resolve():
        raise UploadError(
            f"{root} is inside the git checkout {top}: scan the checkout's root so paths match the "
            "repository's (use --exclude or .rocport.toml to leave directories out)"
        )
    commit = commit or (git.run("rev-parse", "--verify", "HEAD^{commit}") if top else None) or _ci(_CI_COMMIT)
    if not commit or not _SHA.match(commit):
        raise UploadError(
            "no commit: pass --commit with the 40-character sha of the scanned commit"
            if not commit
            else f"--commit {commit!r} is not a 40-character commit sha"
        )
    branch = branch or (git.run("symbolic-ref", "--quiet", "--short", "HEAD") if top else None) or _ci(_CI_BRANCH)
    if not branch:
        raise UploadError("no branch: HEAD is detached and no CI variable names the branch; pass --branch")
    target = Target(url=endpoint(url), token=token, commit=commit.lower(), branch=branch, repository=repository)
    if top is not None:
        target.tree = git.tree(commit) if git.run("cat-file", "-e", f"{commit}^{{commit}}") is not None else None
        if repository is None:
            target.remote = strip_credentials(git.run("remote", "get-url", "origin") or "")
    if repository is None and not target.remote:
        raise UploadError(
            "no repository: pass --repository with the portal's repository id (this directory has "
            "no git remote named origin to match)"
        )
    return target


def endpoint(url: str) -> str:
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UploadError(f"--upload needs the portal's http(s) address, e.g. https://rocport.example.com, not {url!r}")
    if parts.username or parts.password:
        raise UploadError("--upload: put no credentials in the address; the token goes in ROCPORT_TOKEN")
    path = parts.path.rstrip("/")
    if not path.endswith(ENDPOINT.rstrip("/")):
        path += ENDPOINT.rstrip("/")
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path + "/", "", ""))


def strip_credentials(remote: str) -> str:
    """The remote without user and password: GitLab CI's origin URL carries the job token."""
    remote = remote.strip()
    if "://" not in remote:
        return remote.split("@", 1)[-1] if re.match(r"^[^/@]+@[^/:]+:", remote) else remote  # user@host:path
    parts = urllib.parse.urlsplit(remote)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def send(target: Target, report: Path) -> dict:
    """POST the report; the portal's answer ({"scan": id, "url": ..., "tracking": {...}}) or an UploadError."""
    if urllib.parse.urlsplit(target.url).scheme == "http" and not _loopback(target.url):
        print("rocport: warning: the token is sent over plain http; use https", file=sys.stderr)
    size = report.stat().st_size
    with report.open("rb") as body:
        request = urllib.request.Request(
            f"{target.url}?{target.query()}",
            data=body,
            method="POST",
            headers={
                "Authorization": f"Bearer {target.token}",
                "Content-Type": "application/json",
                "Content-Length": str(size),
                "Accept": "application/json",
                "User-Agent": _agent(),
            },
        )
        try:
            with urllib.request.build_opener(_NoRedirect).open(request, timeout=_HTTP_TIMEOUT) as response:
                return json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as exc:
            if 300 <= exc.code < 400:
                raise UploadError(
                    f"the portal redirected to {exc.headers.get('Location', '?')}; pass that "
                    "address to --upload (the token is never sent to a redirect)"
                ) from None
            raise UploadError(f"the portal answered {exc.code}: {_message(exc)}") from None
        except urllib.error.URLError as exc:
            raise UploadError(f"cannot reach {target.url}: {exc.reason}") from None
        except (TimeoutError, ConnectionError) as exc:
            raise UploadError(f"cannot reach {target.url}: {exc}") from None
        except json.JSONDecodeError:
            raise UploadError(f"{target.url} did not answer with JSON: is it a ROCport portal?") from None


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # urllib then raises HTTPError with the 3xx: the Authorization header goes nowhere else


def _message(exc: urllib.error.HTTPError) -> str:
    try:
        body = exc.read(20_000)
        answer = json.loads(body)
        # `detail`: every API error; `error`: what an older portal answered an upload with
        message = answer.get("detail") or answer.get("error") if isinstance(answer, dict) else None
        return str(message or body.decode("utf-8", "replace")[:500])
    except (ValueError, AttributeError, OSError):
        return exc.reason or "no message"


def _loopback(url: str) -> bool:
    return urllib.parse.urlsplit(url).hostname in ("127.0.0.1", "localhost", "::1")


def _agent() -> str:
    return f"rocport-scanner/{TOOL_VERSION}"


def _ci(names: tuple[str, ...]) -> str:
    return next((os.environ[n].strip() for n in names if os.environ.get(n, "").strip()), "")


class _Git:
    """git in the scanned directory: an argument list (no shell), no prompts, no optional locks."""

    def __init__(self, root: Path):
        self.root = root
        self.env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}

    def run(self, *args: str) -> str | None:
        """stdout without the final newline, or None when git fails or is missing."""
        try:
            done = subprocess.run(
                ["git", "-C", str(self.root), *args],
                capture_output=True,
                env=self.env,
                timeout=_GIT_TIMEOUT,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        if done.returncode != 0:
            return None
        return done.stdout.decode("utf-8", "surrogateescape").rstrip("\n")

    def toplevel(self) -> Path | None:
        top = self.run("rev-parse", "--show-toplevel")
        return Path(top) if top else None

    def tree(self, commit: str) -> list[str] | None:
        """The commit's regular files, as the portal's clone lists them (symlinks and submodules left out)."""
        out = self.run("ls-tree", "-r", "-z", "--full-tree", commit)
        if out is None:
            return None
        paths = []
        for entry in out.split("\0"):
            meta, _, path = entry.partition("\t")
            fields = meta.split()
            if len(fields) == 3 and fields[1] == "blob" and fields[0] in ("100644", "100755"):
                paths.append(path)
        return paths
