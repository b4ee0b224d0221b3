"""Container commands in scripts and CI, read for the platform they target (scanner.analysis.port_notes): which
engine verb a command line runs (`docker run`, `podman build`), the image a build tags and a run starts, and whether
either is for another architecture (Jetson's l4t and `-igpu` images, arm64, `--platform linux/arm64`), so a note can
say the line is not migration work."""

from __future__ import annotations

import re

# NGC's `-igpu` tags are the integrated-GPU (Jetson, IGX) builds, arm64 only; dustynv/ holds Jetson containers.
FOREIGN_IMAGE = re.compile(
    r"--platform=\S*(?:arm64|aarch64)|\bl4t-|/l4t|jetson|\barm64v8/|aarch64|-igpu\b|\bdustynv/", re.I
)
# A Dockerfile named for another architecture: `Dockerfile.jetson`, `jetson.Dockerfile`, `Dockerfile.aarch64`.
FOREIGN_NAME = re.compile(r"(?:^|[._-])(?:jetson|l4t|aarch(?:64)?|arm64|igpu|tegra)(?:[._-]|$)", re.I)
# An image named for another architecture in a script (`aarch_wheel`, `myorg/trainer:arm64`), and a build or run
# asking for one (`--platform linux/arm64`).
FOREIGN_TAG = re.compile(r"(?:^|[._/:-])(?:jetson|l4t|aarch(?:64)?|arm64(?:v8)?|igpu|tegra)(?:[._/:-]|$)", re.I)
ARM_PLATFORM = re.compile(r"(?:arm64|aarch64)", re.I)
ENGINES = frozenset({"docker", "podman", "nerdctl"})
# `docker run` options that take no value: any other option without `=` takes the next word.
RUN_SWITCHES = frozenset(
    {
        "--rm",
        "-i",
        "-t",
        "-it",
        "-ti",
        "-d",
        "-itd",
        "--privileged",
        "--init",
        "--detach",
        "--interactive",
        "--tty",
        "--read-only",
        "-P",
        "--publish-all",
        "--no-healthcheck",
        "--sig-proxy",
        "--oom-kill-disable",
    }
)


def engine_verb(words: list[tuple[str, int]]) -> str:
    """`run` for `docker run` / `docker container create`, `build` for `docker build` / `docker buildx build`."""
    names = [w for w, _ in words]
    if names and names[0] == "sudo":
        names = names[1:]
    if not names or names[0] not in ENGINES:
        return ""
    rest = [n for n in names[1:4] if n not in ("container", "buildx", "image")]
    if rest and rest[0] in ("run", "create"):
        return "run"
    return "build" if rest and rest[0] == "build" else ""


def option_value(names: list[str], index: int) -> str:
    name = names[index]
    return name.split("=", 1)[1] if "=" in name else (names[index + 1] if index + 1 < len(names) else "")


def foreign_build(words: list[tuple[str, int]]) -> tuple[str, bool]:
    """The tag a `docker build` gives its image, and whether it builds for another architecture."""
    names = [w for w, _ in words]
    tag, foreign = "", False
    for index, name in enumerate(names):
        option = name.split("=", 1)[0]
        if option in ("-t", "--tag"):
            tag = option_value(names, index)
            foreign = foreign or bool(FOREIGN_TAG.search(tag))
        elif option in ("-f", "--file"):
            dockerfile = option_value(names, index).rsplit("/", 1)[-1]
            foreign = foreign or bool(FOREIGN_NAME.search(dockerfile.replace("Dockerfile", "")))
        elif option == "--platform":
            foreign = foreign or bool(ARM_PLATFORM.search(option_value(names, index)))
    return tag, foreign


def foreign_run_image(words: list[tuple[str, int]], built: set[str]) -> str:
    """The image of a `docker run` when it is for another architecture, or empty."""
    names = [w for w, _ in words]
    start = next(i for i, n in enumerate(names) if n in ("run", "create")) + 1
    index, platform = start, ""
    while index < len(names) and names[index].startswith("-"):
        name = names[index]
        if name.split("=", 1)[0] == "--platform":
            platform = option_value(names, index)
        index += 1 if "=" in name or name in RUN_SWITCHES else 2
    image = names[index] if index < len(names) else ""
    if not image:
        return ""
    if ARM_PLATFORM.search(platform):
        return f"--platform {platform} {image}"
    if image in built or FOREIGN_TAG.search(image) or FOREIGN_IMAGE.search(image):
        return image
    return ""
