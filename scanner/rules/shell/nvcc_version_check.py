"""Scripts that probe for nvcc (`nvcc --version`, `which nvcc`, `command -v nvcc`).

What it finds:
    `nvcc --version`, `nvcc -V`, `which nvcc`, `command -v nvcc`, `type nvcc`, `hash nvcc`, in shell scripts,
    Makefiles, Dockerfiles, CI YAML and Python strings: environment checks and CUDA-version detection.

Why it breaks on ROCm:
    There is no nvcc on a ROCm machine: the check fails, and the script exits ("CUDA not found") or takes its
    CPU-only path, or parses an empty version string, although the GPU stack is there.

Example:
    if ! command -v nvcc >/dev/null; then echo "CUDA toolkit missing"; exit 1; fi
    CUDA_VERSION=$(nvcc --version | awk '/release/ {print $6}')

Use instead:
    `hipcc --version` / `hipconfig --version` (HIP), `amd-smi version` (driver and ROCm), or the ROCm version file
    `$ROCM_PATH/.info/version`; in Python, `torch.version.hip`.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/env_variables.html
    https://rocm.docs.amd.com/projects/HIPCC/en/latest/
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import command_matches, cuda_code_only
from scanner.rules.textual import SCRIPT_LANGUAGES, mentions, once, text_rule

_CHECK = re.compile(
    r"(?<![\w.-])(?:[\w${}()./-]*/)?nvcc\s+(?:--version|-V)\b"
    r"|\b(?:which|command\s+-v|type|hash)\s+(?:[\w${}()./-]*/)?nvcc\b"
)


def check(ctx: Context) -> None:
    if not mentions(ctx, "nvcc"):
        return
    for line, col, match in command_matches(ctx, _CHECK):
        if ctx.port.ported:  # the repository builds for ROCm: this probe is on (or next to) its NVIDIA path
            message = (
                f"`{match.group(0)}` probes for the CUDA toolkit: right for the NVIDIA build, but where this "
                "also runs on the ROCm path, probe `hipcc --version` / `hipconfig --version` there."
            )
        else:
            message = (
                f"`{match.group(0)}` probes for the CUDA toolkit, which ROCm machines do not have: check "
                "`hipcc --version` / `hipconfig --version` or `$ROCM_PATH/.info/version` instead."
            )
        once(ctx, line, col, message, length=len(match.group(0)))


RULE = text_rule(
    name="shell-nvcc-version-check",
    summary="scripts probing for nvcc (nvcc --version, which nvcc)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)
