"""nvidia-smi in scripts, CI, Dockerfiles and Python (subprocess calls).

What it finds:
    `nvidia-smi` run from shell scripts, Makefiles, Dockerfiles, CI and deployment YAML, and named in Python
    strings (`subprocess.run(["nvidia-smi", ...])`).

Why it breaks on ROCm:
    nvidia-smi talks to the NVIDIA driver through NVML; there is neither on an AMD host, so the command is
    missing and scripts that gate on it ("no GPU found"), or parse its output (`--query-gpu=...`), fail.

Example:
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader

Use instead:
    `amd-smi` (`amd-smi list`, `amd-smi static`, `amd-smi metric`, `amd-smi monitor`, with `--json` or `--csv`
    for parsing; its fields differ, so parsing code changes too). `rocm-smi` still works but is being retired
    in favour of amd-smi (ROC232). In Python, the `amdsmi` package replaces pynvml.

References:
    https://rocm.docs.amd.com/projects/amdsmi/en/latest/
    https://rocm.docs.amd.com/projects/amdsmi/en/latest/how-to/amdsmi-cli-tool.html
"""

import re

from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import SCRIPT_LANGUAGES, matches, mentions, once, text_rule

_COMMAND = re.compile(r"(?<![\w.-])nvidia-smi(?![\w.-])")


def check(ctx) -> None:
    if not mentions(ctx, "nvidia-smi"):
        return
    for line, col, match in matches(ctx, _COMMAND):
        once(ctx, line, col, "nvidia-smi does not exist on AMD hosts: use `amd-smi` (list / static / metric / "
             "monitor, `--json` for parsing); rocm-smi is being retired.", length=len(match.group(0)))


RULE = text_rule(
    name="shell-nvidia-smi",
    summary="nvidia-smi in scripts, CI or Python (→ amd-smi)",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.MEDIUM,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)
