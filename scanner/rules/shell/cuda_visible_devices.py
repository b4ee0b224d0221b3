"""CUDA_VISIBLE_DEVICES used to select GPUs in scripts, containers, CI and Python.

What it finds:
    `CUDA_VISIBLE_DEVICES` set or read in shell scripts, Makefiles, Dockerfiles, YAML and Python
    (`os.environ["CUDA_VISIBLE_DEVICES"]`).

Why it breaks on ROCm:
    The HIP runtime honours `CUDA_VISIBLE_DEVICES` for compatibility, so HIP programs and PyTorch mostly keep
    working; what breaks is everything beneath and beside HIP. ROCm's own isolation variables are
    `HIP_VISIBLE_DEVICES` (HIP) and `ROCR_VISIBLE_DEVICES` (the ROCr runtime, applied first: combining both
    renumbers devices), tools that are not HIP programs ignore CUDA_VISIBLE_DEVICES, and launchers such as Ray or
    Slurm set the ROCm variables on AMD nodes, so a script that reads `CUDA_VISIBLE_DEVICES` to count its GPUs
    sees none.

Example:
    export CUDA_VISIBLE_DEVICES=0,1,2,3
    n_gpus = len(os.environ["CUDA_VISIBLE_DEVICES"].split(","))

Use instead:
    `HIP_VISIBLE_DEVICES` (or `ROCR_VISIBLE_DEVICES` for the whole ROCm stack) on AMD machines, and
    `torch.cuda.device_count()` rather than parsing the variable.

References:
    https://rocm.docs.amd.com/en/latest/conceptual/gpu-isolation.html
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/env_variables.html
"""

import re

from scanner.model import Risk, Severity
from scanner.rules.textual import SCRIPT_LANGUAGES, matches, mentions, once, text_rule

_VARIABLE = re.compile(r"(?<![\w])CUDA_VISIBLE_DEVICES(?!\w)")


def check(ctx) -> None:
    if not mentions(ctx, "cuda_visible_devices"):
        return
    for line, col, match in matches(ctx, _VARIABLE):
        once(ctx, line, col, "`CUDA_VISIBLE_DEVICES` is honoured by HIP only for compatibility: on ROCm select GPUs "
             "with `HIP_VISIBLE_DEVICES` (or `ROCR_VISIBLE_DEVICES`), which launchers set and non-HIP tools read.",
             length=len(match.group(0)))


RULE = text_rule(
    name="shell-cuda-visible-devices",
    summary="CUDA_VISIBLE_DEVICES to select GPUs (→ HIP_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES)",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.LOW,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=check,
)
