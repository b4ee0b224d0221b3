"""`docker run --gpus` / `--runtime=nvidia`: GPUs requested from the NVIDIA container runtime.

What it finds:
    `docker run` (and `podman run`, `nerdctl run`, `docker create`) with `--gpus ...` or `--runtime=nvidia`, in
    shell scripts, Makefiles and CI YAML, continuation lines included. A command line only printed for a person
    to run (`echo "To reproduce: docker run --gpus all ..."` after a failed CI job) is not reported.

Why it breaks on ROCm:
    `--gpus` is implemented by the NVIDIA container toolkit. On a ROCm host the daemon answers "could not
    select device driver "" with capabilities: [[gpu]]", or, with a CDI setup, the container starts without the
    devices ROCm needs. ROCm containers need the kernel driver's device files and the group that may open them.

Example:
    docker run --rm --gpus all -v $PWD:/work my/trainer:cuda python train.py

Use instead:
    `docker run --device=/dev/kfd --device=/dev/dri --group-add video --shm-size 16G
    --security-opt seccomp=unconfined ...` with a `rocm/*` image (select GPUs by passing only some
    `/dev/dri/renderD*` nodes or with HIP_VISIBLE_DEVICES).

References:
    https://rocm.docs.amd.com/projects/install-on-linux/en/latest/how-to/docker.html
    https://docs.docker.com/engine/containers/resource_constraints/#gpu
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.container._docker_run import docker_runs
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import once, text_rule

_FLAG = re.compile(r"(?<![\w-])(--gpus(?:[= ]\S+)?|--runtime[= ]nvidia)")
ROCM_FLAGS = "--device=/dev/kfd --device=/dev/dri --group-add video --shm-size 16G --security-opt seccomp=unconfined"


def check(ctx: Context) -> None:
    for run in docker_runs(ctx):
        for match in _FLAG.finditer(run.text):
            line, col = run.where(match.start())
            once(
                ctx,
                line,
                col,
                f"`{match.group(1)}` asks the NVIDIA container runtime for GPUs; ROCm containers need `{ROCM_FLAGS}`.",
                length=len(match.group(1)),
                key=match.group(1),
            )


RULE = text_rule(
    name="container-docker-gpus-flag",
    summary="docker run --gpus / --runtime=nvidia instead of ROCm's device flags",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.HIGH,
    languages={"shell", "make", "yaml", "dockerfile"},
    check=cuda_code_only(check),
)
