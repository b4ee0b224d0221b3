"""Cloning as a hostile-input operation.

- git runs without a shell, with no system or global config, no terminal prompt, hooks off, no submodules, and
  an allow-list of transport protocols;
- exactly the wanted commit (a hex object id, never an option) is fetched, shallow; its tree is listed before
  checkout and refused when it holds more files or bytes than the limits (a small pack can expand to gigabytes);
  the tree is checked out with symlinks off (a symlink becomes a small file holding its target), so nothing can
  point out of the temporary directory;
- a time limit and a size limit kill git's whole process group; the directory is removed afterwards (at any depth);
- paths are decoded as the file system does (surrogate escapes); a path that is not UTF-8 is left out of the
  blob list (it cannot be stored), and the scanner reports it as skipped;
- credentials reach git through an askpass script and environment variables (never the command line, never logs);
- every failure is a CloneError with a stable, user-facing code.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

from portal.repositories.urlcheck import transport_allowed
from scanner.tree_walk import walk_entries

# ScannedFile.path and Finding.path hold 1,000 characters: a longer path (a 1,000-deep tree) is refused up front,
# not left to fail the ingestion.
MAX_PATH_CHARS = 1000
_OBJECT_ID = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")  # SHA-1 or SHA-256: never something git parses as an option


class CloneError(Exception):
    """A user error while getting the code (bad URL, auth, missing commit, too large, timeout)."""

    def __init__(self, code: str, message: str, detail: str = ""):
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail  # git's whole stderr, lower-cased, URLs masked: for callers that classify further

    def __reduce__(self):  # picklable (a Celery result or a failure crossing processes), args included
        return (type(self), (self.code, self.message, self.detail))


_ASKPASS = """#!/bin/sh
case "$1" in
  Username*) printf '%s\\n' "$ROCPORT_GIT_USERNAME" ;;
  *) printf '%s\\n' "$ROCPORT_GIT_PASSWORD" ;;
esac
"""


@dataclass
class Checkout:
    path: Path  # the working tree (a temporary directory)
    commit: str
    blobs: dict[str, str] = field(default_factory=dict)  # path -> blob sha (regular files only)
    renames: dict[str, str] = field(default_factory=dict)  # old path -> new path, from git's rename detection
    # Each submodule's outcome (portal.repositories.submodules.Outcome.to_dict): fetched or why not.
    submodules: list[dict] = field(default_factory=list)


class GitSession:
    """One temporary directory, one repository; use as a context manager so the directory is always removed."""

    def __init__(self, url: str, credentials: tuple[str, str] | None = None):
        self.url = url
        self.credentials = credentials
        self.root = Path(tempfile.mkdtemp(prefix="rocport-clone-"))
        self.work = self.root / "tree"
        self.home = self.root / "home"
        self.home.mkdir()
        self.deadline = time.monotonic() + settings.ROCPORT_CLONE_TIMEOUT
        self.max_bytes = settings.ROCPORT_CLONE_MAX_BYTES  # what a fetch may write under `root` (a submodule's less)
        self.max_bytes_setting = "ROCPORT_CLONE_MAX_BYTES"  # named when the limit is reached

    def __enter__(self) -> GitSession:
        return self

    def __exit__(self, *exc) -> None:
        remove_tree(self.root)

    # -- environment ------------------------------------------------------------------------------------
    def _env(self) -> dict[str, str]:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "LANG": "C",
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_ASKPASS": str(self._askpass()),
            "SSH_ASKPASS": "/bin/false",
            "GIT_SSH_COMMAND": f"ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new "
            f"-o UserKnownHostsFile={self.home / 'known_hosts'}",
        }
        if self.credentials:
            username, secret = self.credentials
            if secret.startswith("-----BEGIN") and "PRIVATE KEY" in secret:
                key = self.home / "id_key"
                key.write_text(secret if secret.endswith("\n") else secret + "\n")
                key.chmod(0o600)
                env["GIT_SSH_COMMAND"] += f" -o IdentitiesOnly=yes -i {key}"
            else:
                env["ROCPORT_GIT_USERNAME"] = username or "git"
                env["ROCPORT_GIT_PASSWORD"] = secret
        return env

    def _askpass(self) -> Path:
        path = self.home / "askpass.sh"
        if not path.exists():
            path.write_text(_ASKPASS)
            path.chmod(0o700)
        return path

    def _config(self) -> list[str]:
        # The transports: the same rule as the URL check (portal.repositories.urlcheck.transport_allowed)
        pairs = {"protocol.allow": "never"}
        for scheme in ("https", "http", "ssh", "git", "file"):
            pairs[f"protocol.{scheme}.allow"] = "always" if transport_allowed(scheme) else "never"
        pairs |= {
            "core.hooksPath": os.devnull,
            "core.symlinks": "false",
            "core.fsmonitor": "false",
            "submodule.recurse": "false",
            "fetch.recurseSubmodules": "false",
            "transfer.fsckObjects": "true",
            "credential.helper": "",
            "http.followRedirects": "false",
        }
        out: list[str] = []
        for key, value in pairs.items():
            out += ["-c", f"{key}={value}"]
        return out

    # -- running git ------------------------------------------------------------------------------------
    def git(
        self,
        *args: str,
        cwd: Path | None = None,
        watch_size: bool = False,
        stdin: bytes | None = None,
        env: dict[str, str] | None = None,
    ) -> str:
        """Run git with the session's hardening; `stdin`: bytes to feed it (hash-object, commit-tree), `env`:
        variables on top of the session's (an index file, an author)."""
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise CloneError("timeout", f"getting the code took longer than {settings.ROCPORT_CLONE_TIMEOUT}s")
        cmd = ["git", *self._config(), *args]
        # Bytes, decoded below: text mode would turn a "\r" in a path into "\n" (universal newlines)
        process = subprocess.Popen(
            cmd,
            cwd=cwd or self.work,
            env={**self._env(), **(env or {})},
            stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        too_large = threading.Event()
        if watch_size:
            threading.Thread(target=self._watch_size, args=(process, too_large), daemon=True).start()
        try:
            raw_out, raw_err = process.communicate(input=stdin, timeout=remaining)
        except subprocess.TimeoutExpired:
            _kill(process)
            raise CloneError(
                "timeout", f"getting the code took longer than {settings.ROCPORT_CLONE_TIMEOUT}s"
            ) from None
        # surrogateescape: a path that is not UTF-8 decodes as os.walk decodes it, instead of raising
        stdout, stderr = (raw.decode("utf-8", "surrogateescape") for raw in (raw_out, raw_err))
        if too_large.is_set():
            raise CloneError(
                "repo_too_large", f"the repository is larger than {self.max_bytes} bytes ({self.max_bytes_setting})"
            )
        if process.returncode != 0:
            raise classify(stderr, self.url)
        return stdout

    def _watch_size(self, process: subprocess.Popen, too_large: threading.Event) -> None:
        while process.poll() is None:
            if _tree_size(self.root) > self.max_bytes:
                too_large.set()
                # Signal only: the calling thread is in communicate() and reaps the process; a second
                # communicate() from this thread would race it for the pipes (EBADF).
                _signal_group(process)
                return
            time.sleep(0.2)

    # -- operations ---------------------------------------------------------------------------------------
    def resolve(self, ref: str) -> str:
        """The commit a branch (or tag, or full ref) points at on the remote."""
        self.work.mkdir(exist_ok=True)
        out = self.git("ls-remote", "--", self.url, ref, f"refs/heads/{ref}", f"refs/tags/{ref}", cwd=self.root)
        for line in out.splitlines():
            sha, _, name = line.partition("\t")
            if name in (ref, f"refs/heads/{ref}", f"refs/tags/{ref}"):
                return sha
        raise CloneError("ref_not_found", f"the branch or ref {ref!r} does not exist in the repository")

    def branches(self) -> list[str]:
        """The remote's branch names (`git ls-remote --heads`), with the same hardening as a clone."""
        self.work.mkdir(exist_ok=True)
        out = self.git("ls-remote", "--heads", "--", self.url, cwd=self.root)
        names = []
        for line in out.splitlines():
            _sha, _, name = line.partition("\t")
            if name.startswith("refs/heads/"):
                names.append(name[len("refs/heads/") :])
        return names

    def fetch(self, commit: str, ref: str = "", previous: str = "") -> Checkout:
        """Fetch exactly `commit` (shallow), check it out with symlinks off, and list its blobs; with `previous`,
        also fetch that commit's tree for rename detection (best effort)."""
        if not _OBJECT_ID.match(commit):
            # A value from outside (a webhook, a row) placed after "origin" would be parsed as an option by git
            # (`--upload-pack=...` runs a command): only an object id goes on the command line.
            raise CloneError("commit_not_found", f"{commit[:80]!r} is not a commit id")
        self.work.mkdir(exist_ok=True)
        self.git("init", "--quiet", ".")
        self.git("remote", "add", "origin", "--", self.url)
        try:
            self.git("fetch", "--quiet", "--no-tags", "--depth=1", "origin", commit, watch_size=True)
        except CloneError as first:
            if first.code not in ("commit_not_found", "clone_failed") or not ref:
                raise
            # Servers that refuse a fetch by sha: fetch the branch and look for the commit in its recent history.
            self.git("fetch", "--quiet", "--no-tags", "--depth=200", "origin", f"refs/heads/{ref}", watch_size=True)
        try:
            kind = self.git("cat-file", "-t", commit).strip()
        except CloneError:
            kind = ""
        if kind != "commit":
            raise CloneError("commit_not_found", f"commit {commit} is not in the repository")
        blobs = self._inventory(commit)
        self.git("checkout", "--quiet", "--detach", commit, watch_size=True)
        if _tree_size(self.root) > settings.ROCPORT_CLONE_MAX_BYTES:
            raise CloneError("repo_too_large", "the checked-out tree is larger than ROCPORT_CLONE_MAX_BYTES")
        checkout = Checkout(self.work, commit, blobs)
        if previous and previous != commit:
            checkout.renames = self._renames(previous, commit)
        return checkout

    def _inventory(self, commit: str) -> dict[str, str]:
        """The commit's regular files (path -> blob sha), from its tree alone; refuses a tree over the file or
        byte limit before anything is written (checking out 200,000 files or a 2 GB blob would be the damage)."""
        blobs, files, size = {}, 0, 0
        out = self.git("ls-tree", "-r", "-l", "-z", "--full-tree", commit)
        for entry in out.split("\0"):
            if not entry:
                continue
            meta, _, path = entry.partition("\t")
            mode, kind, sha, length = meta.split()
            if kind != "blob":
                continue  # a submodule (commit) is never fetched
            files += 1
            size += int(length)
            if len(path) > MAX_PATH_CHARS:
                raise CloneError(
                    "path_too_long", f"the path {path[:60]!r}... is longer than {MAX_PATH_CHARS} characters"
                )
            if mode in ("100644", "100755") and storable_path(path):
                blobs[path] = sha
        if files > settings.ROCPORT_CLONE_MAX_FILES:
            raise CloneError(
                "repo_too_large",
                f"the commit has {files} files, more than {settings.ROCPORT_CLONE_MAX_FILES} (ROCPORT_CLONE_MAX_FILES)",
            )
        if size > settings.ROCPORT_CLONE_MAX_BYTES:
            raise CloneError(
                "repo_too_large",
                f"the commit's files hold {size} bytes, more than "
                f"{settings.ROCPORT_CLONE_MAX_BYTES} (ROCPORT_CLONE_MAX_BYTES)",
            )
        return blobs

    def _renames(self, previous: str, commit: str) -> dict[str, str]:
        try:
            self.git("fetch", "--quiet", "--no-tags", "--depth=1", "origin", previous)
            out = self.git("diff", "--name-status", "-M", "-z", previous, commit)
        except CloneError:
            return {}  # the old commit is gone (force push) or not fetchable by sha: no git rename detection
        parts = out.split("\0")
        renames, i = {}, 0
        while i < len(parts) - 1:
            status = parts[i]
            if status.startswith("R") and i + 2 < len(parts):
                if storable_path(parts[i + 1]) and storable_path(parts[i + 2]):
                    renames[parts[i + 1]] = parts[i + 2]
                i += 3
            elif status.startswith("C") and i + 2 < len(parts):
                i += 3
            else:
                i += 2
        return renames


# An HTTP status git reports ("The requested URL returned error: 403"), not any "403" in the text: a port or a path
# in the URL or a redirect's location may hold those digits too.
HTTP_FORBIDDEN = re.compile(r"returned error: 40[13]\b|\b403 forbidden\b")
_URL = re.compile(r"[a-z][a-z0-9+.-]*://\S+")


def classify(stderr: str, url: str) -> CloneError:
    error = _classify(stderr, url)
    masked = stderr.replace(url, "<repository>") if url else stderr
    error.detail = _URL.sub("<url>", masked.lower())[:4000]
    return error


def _classify(stderr: str, url: str) -> CloneError:
    text = _URL.sub("<url>", stderr.lower())
    first = next((line.strip() for line in stderr.splitlines() if line.strip()), "git failed")
    first = first.replace(url, "<repository>")[:300]
    first = first.encode("utf-8", "surrogateescape").decode("utf-8", "replace")  # storable, whatever git printed
    if HTTP_FORBIDDEN.search(text) or any(
        s in text
        for s in (
            "authentication failed",
            "could not read username",
            "could not read password",
            "permission denied (publickey",
            "http basic: access denied",
            "invalid username or password",
        )
    ):
        return CloneError("auth_failed", "the repository refused the credentials (or needs some)")
    if any(
        s in text
        for s in (
            "not our ref",
            "unadvertised object",
            "couldn't find remote ref",
            "no such remote ref",
            "bad object",
            "did not send all necessary objects",
        )
    ):
        return CloneError("commit_not_found", f"the commit or ref is not in the repository ({first})")
    if "gitmodules" in text and ("disallowed" in text or "fsck" in text or "gitmodules" in first.lower()):
        # transfer.fsckObjects: git refuses a commit whose .gitmodules holds a URL or path it knows to be an attack
        # (`--upload-pack=...`, a name climbing out of .git/modules): the whole commit, before anything is written.
        return CloneError("clone_failed", f"git refused the commit: its .gitmodules is unsafe ({first})")
    if "transport" in text and "not allowed" in text:
        return CloneError("protocol_not_allowed", "this URL's protocol is not allowed on this server")
    return CloneError("clone_failed", f"git could not get the repository: {first}")


def _kill(process: subprocess.Popen) -> None:
    _signal_group(process)
    process.communicate()


def _signal_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def storable_path(path: str) -> bool:
    """False for a path git gave us with surrogate escapes (not UTF-8): PostgreSQL cannot store it."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _tree_size(root: Path) -> int:
    """Bytes under `root` (scanner.tree_walk: no recursion, so a 1,000-deep tree is measured too)."""
    total = 0
    for entry in walk_entries(str(root)):
        try:
            if not entry.is_dir(follow_symlinks=False):
                total += entry.stat(follow_symlinks=False).st_size
        except OSError:
            pass
    return total


def remove_tree(root: Path) -> None:
    """Remove `root` whatever its depth: shutil.rmtree recurses once per level in Python 3.11 and raises
    RecursionError on a 1,000-deep checkout (leaving it on disk); rm walks iteratively."""
    subprocess.run(
        ["rm", "-rf", "--", str(root)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
