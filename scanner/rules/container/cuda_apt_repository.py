"""CUDA package repositories and packages installed (developer.download.nvidia.com, cuda-keyring, cuda-toolkit).

What it finds:
    NVIDIA's CUDA package repository (`developer.download.nvidia.com/compute/cuda/repos`), `cuda-keyring`,
    the NVIDIA container toolkit, and installs of CUDA packages (`cuda-toolkit-12-4`, `cuda-nvcc-*`,
    `libcudnn9*`, `libnccl*`, `cuda-drivers`, `nvidia-driver-*`) in Dockerfiles, shell scripts, Makefiles
    and Ansible/cloud-init YAML. A hint printed for the reader (`$(info ... apt install libnccl2 ...)`, `echo`) is
    not an install and is not reported, nor is a conda recipe's `ignore_run_exports` / `ignore_run_exports_from`
    list (meta.yaml), which declares that a package is not a run dependency. A file whose only match is a fetch
    of the repository's signing key (`apt-key adv --fetch-keys .../3bf863cc.pub`), with no repository added and
    no CUDA package installed, only refreshes the key of a CUDA base image's apt source: info.

Why it breaks on ROCm:
    The packages are NVIDIA's toolkit and drivers; on a ROCm image or host they install libraries nothing
    can use (or fail: the drivers need NVIDIA hardware), and the build still lacks ROCm.

Example:
    RUN wget https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/cuda-keyring_1.1-1_all.deb
    RUN dpkg -i cuda-keyring_1.1-1_all.deb && apt-get update && apt-get install -y cuda-toolkit-12-4

Use instead:
    Start from a `rocm/*` image; on a host or plain image, add AMD's repository (`repo.radeon.com`) with
    `amdgpu-install --usecase=rocm` or the `rocm` apt packages (`rocm-hip-sdk`, `rocm-libs`, `rccl`, `miopen-hip`).

References:
    https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/quick-start.html
    https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/install-methods/amdgpu-installer-index.html
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only, judged
from scanner.rules.textual import matches, once, text_rule

_PATTERN = re.compile(
    r"developer\.download\.nvidia\.com/compute/(?:cuda|machine-learning)/repos\S*"
    r"|(?<![\w-])cuda-keyring\S*"
    r"|(?<![\w-])nvidia-container-toolkit(?![\w-])"
    r"|(?<![\w/.-])(?:cuda-toolkit(?:-[\d-]+)?|cuda-(?:nvcc|libraries|runtime|cudart|compiler)(?:-dev)?(?:-[\d-]+)?"
    r"|cuda-drivers|cuda-\d+-\d+|libcudnn\d*(?:-dev|-cuda-\d+)?|libnccl\d*(?:-dev)?|nvidia-driver-\d+\S*"
    r"|libnvinfer\d*(?:-dev)?|tensorrt-dev)(?=[\s=;&|\\'\"]|$)"
)
# The repository's signing key (`apt-key adv --fetch-keys .../repos/ubuntu1804/x86_64/3bf863cc.pub`): mmcv's CI
# refreshes the key of the CUDA image's own apt source and installs nothing from it.
_KEY_FILE = re.compile(r"/repos/\S*\.pub$")
# Text printed for the reader: make's $(info)/$(warning)/$(error), echo and printf.
_MESSAGE = re.compile(r"\$\((?:info|warning|error)\s|(?<![\w-])(?:echo|printf)\s")
_INSTALL = re.compile(r"\b(?:apt-get|apt|yum|dnf|zypper|microdnf)\b|\bpkg:|\bname:|\bpackages:|^\s*-\s")


def check(ctx: Context) -> None:
    found = list(matches(ctx, _PATTERN))
    keys_only = bool(found) and all(_KEY_FILE.search(match.group(0)) for _, _, match in found)
    for line, col, match in found:
        text = match.group(0)
        is_repo = "download.nvidia.com" in text or "keyring" in text or "container-toolkit" in text
        if not is_repo and not _install_context(ctx, line):
            continue
        if keys_only:
            with judged(ctx, Severity.INFO):
                once(
                    ctx,
                    line,
                    col,
                    "This fetches the signing key of NVIDIA's CUDA package repository, and nothing in this file "
                    "adds the repository or installs from it: it refreshes the key of an apt source the CUDA base "
                    "image already has, so `apt-get update` keeps working there. A ROCm image has no such source: "
                    "drop the step with the CUDA base image.",
                    length=len(text),
                    key="repo",
                )
            continue
        if ctx.language == "yaml" and _parent_keys(ctx.lines, line) & _NOT_DEPENDENCIES:
            continue  # conda-build: the package is NOT a run dependency of the recipe
        if _MESSAGE.search(ctx.line_text(line)[: col - 1]):
            continue  # `$(info ... sudo apt install libnccl2 ...)`: a hint printed to the reader, not an install
        what = "NVIDIA's CUDA package repository" if is_repo else f"the CUDA package `{text}`"
        once(
            ctx,
            line,
            col,
            f"This installs {what}: no use on ROCm. Install ROCm from repo.radeon.com "
            "(`amdgpu-install --usecase=rocm`, or the `rocm` packages) or start from a `rocm/*` image.",
            length=len(text),
            key="repo" if is_repo else text,
        )


# A conda recipe's lists of packages whose run exports are ignored (meta.yaml `build:`).
_NOT_DEPENDENCIES = frozenset({"ignore_run_exports", "ignore_run_exports_from"})
_YAML_KEY = re.compile(r"^(\s*)(?:-\s+)?([\w.-]+)\s*:")


def _parent_keys(lines: list[str], line: int) -> set[str]:
    """The keys of the YAML mappings that enclose `line`, by indentation (a conda recipe's Jinja templating
    defeats a YAML parser, so the lines are read as they are indented)."""
    text = lines[line - 1]
    indent = len(text) - len(text.lstrip())
    keys = set()
    for number in range(line - 1, 0, -1):
        above = lines[number - 1]
        if not above.strip() or above.lstrip().startswith("#"):
            continue
        found = _YAML_KEY.match(above)
        depth = len(above) - len(above.lstrip())
        if found and depth < indent:
            keys.add(found.group(2))
            indent = depth
        if depth == 0:
            break
    return keys


def _install_context(ctx, line: int) -> bool:
    """A package name counts inside a package-manager command, or in a YAML package list."""
    lines = ctx.lines
    for number in range(line, max(line - 6, 0), -1):
        text = lines[number - 1]
        if number < line and not text.rstrip().endswith("\\") and ctx.language != "yaml":
            return False  # the command ended on an earlier line
        if _INSTALL.search(text):
            return True
    return False


RULE = text_rule(
    name="container-cuda-apt-repository",
    formerly=("container-cuda-package-repository",),
    summary="CUDA package repository or CUDA packages installed (cuda-keyring, cuda-toolkit, libcudnn)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    languages={"dockerfile", "shell", "make", "yaml"},
    check=cuda_code_only(check),
)
