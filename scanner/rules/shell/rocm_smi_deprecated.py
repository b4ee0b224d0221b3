"""rocm-smi, the ROCm SMI tool being retired in favour of amd-smi.

What it finds:
    `rocm-smi` run from scripts, Makefiles, Dockerfiles, YAML or Python strings: often the first thing a
    half-ported script switches to from nvidia-smi.

Why it breaks on ROCm:
    It works today, but AMD has announced rocm-smi's retirement: AMD SMI (`amd-smi`, library `amdsmi`) is its
    replacement and gets the new GPUs' metrics first. Scripts parsing rocm-smi's text output break when it
    goes (and already differ between ROCm releases).

Example:
    rocm-smi --showproductname --showmeminfo vram

Use instead:
    `amd-smi static --asic --vram` / `amd-smi metric` / `amd-smi monitor`, with `--json` for machine-readable
    output.

References:
    https://rocm.docs.amd.com/projects/amdsmi/en/latest/
    https://rocm.docs.amd.com/projects/rocm_smi_lib/en/latest/
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import command_matches, cuda_code_only
from scanner.rules.textual import SCRIPT_LANGUAGES, mentions, once, text_rule

_COMMAND = re.compile(r"(?<![\w.-])rocm-smi(?![\w.-])")


def check(ctx: Context) -> None:
    if not mentions(ctx, "rocm-smi"):
        return
    for line, col, match in command_matches(ctx, _COMMAND):
        once(
            ctx,
            line,
            col,
            "rocm-smi is being retired: use `amd-smi` (static / metric / monitor, `--json` for parsing).",
            length=len(match.group(0)),
        )


RULE = text_rule(
    name="shell-rocm-smi-deprecated",
    formerly=("shell-rocm-smi",),
    summary="rocm-smi (being retired; → amd-smi)",
    risk=Risk.DEPRECATION,
    severity=Severity.LOW,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)

# It checks the ROCm side itself: a repository that already builds for ROCm still needs it right
# (scanner.analysis.port_notes).
RULE.rocm_side = True
