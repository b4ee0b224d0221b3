"""Real git repositories for tests: built with the git CLI, committed file by file."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "PATH": "/usr/bin:/bin:/usr/local/bin",
    "HOME": "/tmp",
}


@dataclass
class GitRepo:
    path: Path

    @classmethod
    def create(cls, path: Path) -> GitRepo:
        path.mkdir(parents=True)
        repo = cls(path)
        repo.git("init", "--quiet", "--initial-branch=main")
        return repo

    @property
    def url(self) -> str:
        return f"file://{self.path}"

    def git(self, *args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=self.path, env=_ENV, check=True, capture_output=True, text=True
        ).stdout.strip()

    def write(self, rel: str, text: str) -> None:
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)

    def commit(self, message: str = "change", **files: str) -> str:
        for rel, text in files.items():
            self.write(rel.replace("__", "/"), text)
        self.git("add", "-A")
        self.git("commit", "--quiet", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD")

    def branch(self, name: str) -> None:
        self.git("checkout", "--quiet", "-B", name)
