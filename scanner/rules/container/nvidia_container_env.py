"""NVIDIA container runtime variables (NVIDIA_VISIBLE_DEVICES, NVIDIA_DRIVER_CAPABILITIES, NVIDIA_REQUIRE_CUDA).

What it finds:
    `NVIDIA_VISIBLE_DEVICES`, `NVIDIA_DRIVER_CAPABILITIES`, `NVIDIA_REQUIRE_CUDA` and `NVIDIA_DISABLE_REQUIRE`
    set or passed in Dockerfiles (`ENV`), compose and Kubernetes YAML, and shell scripts (`docker run -e`).

Why it breaks on ROCm:
    They are read by the NVIDIA container toolkit's runtime hook, which mounts the driver and devices into the
    container. ROCm containers get GPUs from device files (`/dev/kfd`, `/dev/dri`) passed explicitly; the
    variables are ignored, so a deployment that relied on them to expose or select GPUs starts with none, or
    with all of them.

Example:
    ENV NVIDIA_VISIBLE_DEVICES=all
    ENV NVIDIA_DRIVER_CAPABILITIES=compute,utility

Use instead:
    Pass the devices (`--device=/dev/kfd --device=/dev/dri`, compose `devices:`), and select GPUs with
    `HIP_VISIBLE_DEVICES` / `ROCR_VISIBLE_DEVICES` (or by passing only some `/dev/dri/renderD*` nodes); on
    Kubernetes, the AMD GPU device plugin assigns devices.

References:
    https://rocm.docs.amd.com/projects/install-on-linux/en/latest/how-to/docker.html
    https://rocm.docs.amd.com/en/latest/conceptual/gpu-isolation.html
    https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import matches, mentions, once, text_rule

_VARIABLE = re.compile(
    r"(?<![\w$])(NVIDIA_VISIBLE_DEVICES|NVIDIA_DRIVER_CAPABILITIES|NVIDIA_REQUIRE_CUDA"
    r"|NVIDIA_DISABLE_REQUIRE)(?!\w)"
)


def check(ctx: Context) -> None:
    if not mentions(ctx, "nvidia_"):
        return
    for line, col, match in matches(ctx, _VARIABLE):
        once(
            ctx,
            line,
            col,
            f"`{match.group(1)}` is read only by the NVIDIA container runtime: ROCm containers get "
            "GPUs from `--device=/dev/kfd --device=/dev/dri`, selected with HIP_VISIBLE_DEVICES / "
            "ROCR_VISIBLE_DEVICES.",
            length=len(match.group(1)),
            key=match.group(1),
        )


RULE = text_rule(
    name="container-nvidia-container-env",
    formerly=("container-nvidia-runtime-env",),
    summary="NVIDIA container runtime variables (NVIDIA_VISIBLE_DEVICES, NVIDIA_DRIVER_CAPABILITIES)",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.LOW,
    languages={"dockerfile", "yaml", "shell", "make"},
    check=cuda_code_only(check),
)
