"""Shared by the docker-run rules: `docker|podman|nerdctl run ...` commands found in a file's logical lines."""

from __future__ import annotations

import re
from dataclasses import dataclass

from scanner.formats.lines import LogicalLine, echoed
from scanner.rules.textual import logical, mentions

_RUN = re.compile(r"(?<![\w-])(?:sudo\s+)?(?:docker|podman|nerdctl)(?:\s+container)?\s+(?:run|create)\b")


@dataclass(frozen=True)
class DockerRun:
    logical: LogicalLine
    start: int  # offset of `docker` in logical.text
    text: str  # the command up to the end of its logical line (or the next `&&`/`;`)

    def where(self, offset: int) -> tuple[int, int]:
        return self.logical.where(self.start + offset)


def docker_runs(ctx) -> list[DockerRun]:
    cached = ctx.memo.get("docker_runs")
    if cached is not None:
        return cached
    out: list[DockerRun] = []
    if mentions(ctx, "docker") or mentions(ctx, "podman") or mentions(ctx, "nerdctl"):
        for item in logical(ctx):
            for match in _RUN.finditer(item.text):
                if echoed(item.text, match.start()):
                    continue  # `echo "docker run --gpus all ..."`: a hint printed for a person to run
                rest = item.text[match.start() :]
                end = re.search(r"&&|\|\||;", rest)
                out.append(DockerRun(item, match.start(), rest[: end.start()] if end else rest))
    ctx.memo["docker_runs"] = out
    return out
