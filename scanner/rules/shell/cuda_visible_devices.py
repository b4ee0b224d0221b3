"""CUDA_VISIBLE_DEVICES used to select GPUs in scripts, containers, CI and Python.

What it finds:
    `CUDA_VISIBLE_DEVICES` set or read in shell scripts, Makefiles, Dockerfiles, YAML and Python
    (`os.environ["CUDA_VISIBLE_DEVICES"]`). Setting it (or naming it) is info: it works. Reading it to learn
    which GPUs a process has is low. Printed or logged text that names it is not reported.

Why it breaks on ROCm:
    Setting it does not break: the HIP runtime honours `CUDA_VISIBLE_DEVICES` for compatibility, as it does
    `HIP_VISIBLE_DEVICES`, so HIP programs and PyTorch see the selected GPUs. ROCm's own variables are
    `HIP_VISIBLE_DEVICES` (HIP) and `ROCR_VISIBLE_DEVICES` (the ROCr runtime beneath it, applied first, for
    every ROCm runtime: combining both renumbers devices), and tools outside HIP ignore the CUDA name. Reading
    it is what can go wrong: launchers on AMD nodes (Slurm, Ray) may set only the ROCm variables, so a script
    that counts its GPUs from `CUDA_VISIBLE_DEVICES` sees none.

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

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only, judged
from scanner.rules.python._env import READ, env_uses
from scanner.rules.textual import SCRIPT_LANGUAGES, matches, mentions, once, text_rule

_NAME = "CUDA_VISIBLE_DEVICES"
_VARIABLE = re.compile(rf"(?<![\w]){_NAME}(?!\w)")
_SET = (
    f"`{_NAME}` works on ROCm: HIP honours it, as it does `HIP_VISIBLE_DEVICES`. ROCm's own variables are "
    "`HIP_VISIBLE_DEVICES` and `ROCR_VISIBLE_DEVICES` (beneath HIP, for the whole ROCm stack); only tools outside "
    "HIP ignore the CUDA name."
)
_READ = (
    f"Reading `{_NAME}` to learn the GPUs: on AMD nodes a launcher may set only `ROCR_VISIBLE_DEVICES` or "
    "`HIP_VISIBLE_DEVICES`, so it can be unset while GPUs are assigned; read those too, or ask the runtime "
    "(`torch.cuda.device_count()`)."
)


def check(ctx: Context) -> None:
    if not mentions(ctx, "cuda_visible_devices"):
        return
    if ctx.language == "python":
        uses = [(use.line, use.col, use.kind == READ) for use in env_uses(ctx.source, _VARIABLE)]
    else:
        uses = [
            (line, col, ctx.line_text(line)[: col - 1].endswith(("$", "${")))
            for line, col, _ in matches(ctx, _VARIABLE)
        ]
    for line, col, read in uses:
        if read:
            once(ctx, line, col, _READ, length=len(_NAME))
        else:
            with judged(ctx, Severity.INFO):
                once(ctx, line, col, _SET, length=len(_NAME))


RULE = text_rule(
    name="shell-cuda-visible-devices",
    summary="CUDA_VISIBLE_DEVICES read to find the GPUs (HIP honours it; ROCm's own: HIP_/ROCR_VISIBLE_DEVICES)",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.LOW,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)
