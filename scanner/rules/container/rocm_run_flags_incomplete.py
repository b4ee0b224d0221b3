"""A ROCm `docker run` missing part of what ROCm containers need (/dev/dri, the video group, shm, seccomp).

What it finds:
    `docker run` commands that pass `/dev/kfd` (so they mean to use an AMD GPU) but lack `--device=/dev/dri`,
    `--group-add video` (or `render`), a larger shared-memory segment (`--shm-size` or `--ipc=host`), or
    `--security-opt seccomp=unconfined`.

Why it breaks on ROCm:
    Without `/dev/dri` the render nodes are missing and no GPU is found; without the `video`/`render` group a
    non-root user cannot open them ("hipErrorNoDevice"). Docker's default 64 MB `/dev/shm` makes PyTorch
    DataLoader workers and RCCL's shared-memory transport fail on real workloads, and the default seccomp
    profile blocks the memory-policy system calls ROCm uses for NUMA-aware allocation.

Example:
    docker run -it --device=/dev/kfd rocm/pytorch:latest python train.py

Use instead:
    `docker run -it --device=/dev/kfd --device=/dev/dri --group-add video --shm-size 16G
    --security-opt seccomp=unconfined rocm/pytorch:latest ...` (the set AMD's documentation and the ROCm images
    use).

References:
    https://rocm.docs.amd.com/projects/install-on-linux/en/latest/how-to/docker.html
    https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/inference/benchmark-docker/vllm.html
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.container._docker_run import docker_runs
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import once, text_rule

_NEEDED = [
    (re.compile(r"/dev/dri\b"), "--device=/dev/dri"),
    (re.compile(r"--group-add[= ]+\S*(?:video|render)"), "--group-add video"),
    (re.compile(r"--shm-size\b|--ipc[= ]host\b"), "--shm-size 16G"),
    (re.compile(r"seccomp[= :]unconfined|--privileged\b"), "--security-opt seccomp=unconfined"),
]


def check(ctx: Context) -> None:
    for run in docker_runs(ctx):
        if "/dev/kfd" not in run.text:
            continue
        missing = [flag for pattern, flag in _NEEDED if not pattern.search(run.text)]
        if missing:
            line, col = run.where(0)
            once(
                ctx,
                line,
                col,
                f"This ROCm `docker run` lacks {', '.join(f'`{m}`' for m in missing)}: without "
                "them the GPU may be invisible to non-root users, and PyTorch/RCCL run short of shared memory.",
            )


RULE = text_rule(
    name="container-rocm-run-flags-incomplete",
    summary="ROCm docker run without /dev/dri, --group-add video, --shm-size or seccomp=unconfined",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.MEDIUM,
    languages={"shell", "make", "yaml"},
    check=cuda_code_only(check),
)

# It checks the ROCm side itself: a repository that already builds for ROCm still needs it right
# (scanner.analysis.port_notes).
RULE.rocm_side = True
