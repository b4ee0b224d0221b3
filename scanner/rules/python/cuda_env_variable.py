"""CUDA runtime environment variables set from Python that ROCm ignores or names differently.

What it finds:
    Python code that sets a CUDA driver/runtime environment variable for itself or for a child process:
    `os.environ["CUDA_LAUNCH_BLOCKING"] = "1"`, `os.environ.setdefault(...)`, `os.putenv(...)`,
    `env={"CUDA_DEVICE_MAX_CONNECTIONS": "1"}`, `dict(os.environ, CUDA_MODULE_LOADING="LAZY")`, or
    `CUDA_LAUNCH_BLOCKING=1 python ...` in a command string. The variables: `CUDA_LAUNCH_BLOCKING`,
    `CUDA_DEVICE_MAX_CONNECTIONS`, `CUDA_MPS_ACTIVE_THREAD_PERCENTAGE` (low), and `CUDA_MODULE_LOADING`,
    `CUDA_CACHE_PATH` / `CUDA_CACHE_DISABLE` / `CUDA_CACHE_MAXSIZE`, `CUDA_FORCE_PTX_JIT` (info: nothing to
    set on ROCm). Reading a variable, `CUDA_VISIBLE_DEVICES` (which HIP honours: ROC233) and messages that
    only name one are not reported.

Why it breaks on ROCm:
    These variables are read by NVIDIA's driver, which is not there: on ROCm the assignment silently does
    nothing. `CUDA_LAUNCH_BLOCKING=1` no longer serializes launches, so a kernel fault is reported at a later,
    unrelated call (HIP's switch is `HIP_LAUNCH_BLOCKING`); `CUDA_DEVICE_MAX_CONNECTIONS=1`, which Megatron-style
    code sets to keep communication and compute kernels in issue order for overlap, has no effect (HIP's
    hardware queues per device are `GPU_MAX_HW_QUEUES`); MPS does not exist, so
    `CUDA_MPS_ACTIVE_THREAD_PERCENTAGE` limits nothing (ROCm masks compute units with `HSA_CU_MASK` or
    `ROC_GLOBAL_CU_MASK`). Lazy module loading and the PTX JIT cache are CUDA mechanisms with no ROCm
    counterpart to configure.

Example:
    os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
    os.environ.setdefault("CUDA_DEVICE_MAX_CONNECTIONS", "1")

Use instead:
    Set the ROCm variable beside the CUDA one when `torch.version.hip` is set: `HIP_LAUNCH_BLOCKING=1` (or
    `AMD_SERIALIZE_KERNEL=3`, which PyTorch's ROCm error messages suggest), `GPU_MAX_HW_QUEUES` for the
    queue count (measure: the effect on overlap differs from CUDA's connections), `HSA_CU_MASK` /
    `ROC_GLOBAL_CU_MASK` for partitioning; drop `CUDA_MODULE_LOADING` and the `CUDA_CACHE_*` settings.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/env_variables.html
    https://rocm.docs.amd.com/en/latest/how-to/setting-cus.html
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#cuda-environment-variables
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only, judged
from scanner.rules.python._env import SET, env_uses
from scanner.rules.textual import mentions, once, text_rule

# name -> (what happens on ROCm and what to set instead, severity, risk)
_VARIABLES = {
    "CUDA_LAUNCH_BLOCKING": (
        "ROCm ignores it, so launches stay asynchronous and a kernel fault shows up at a later call; set "
        "`HIP_LAUNCH_BLOCKING=1` (or `AMD_SERIALIZE_KERNEL=3`) for ROCm",
        Severity.LOW,
        Risk.RUNTIME_FAILURE,
    ),
    "CUDA_DEVICE_MAX_CONNECTIONS": (
        "ROCm ignores it, so the kernel issue order it is set for (communication/compute overlap) is not "
        "enforced; HIP's hardware queues per device are `GPU_MAX_HW_QUEUES` (measure the overlap on ROCm)",
        Severity.LOW,
        Risk.PERFORMANCE,
    ),
    "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE": (
        "MPS does not exist on ROCm, so it limits nothing; mask compute units with `HSA_CU_MASK` or "
        "`ROC_GLOBAL_CU_MASK`",
        Severity.LOW,
        Risk.PERFORMANCE,
    ),
    "CUDA_MODULE_LOADING": (
        "it is CUDA's lazy-loading switch, which ROCm ignores: nothing to set",
        Severity.INFO,
        Risk.PERFORMANCE,
    ),
    "CUDA_CACHE_PATH": (
        "it configures CUDA's PTX JIT cache, which ROCm does not have: nothing to set",
        Severity.INFO,
        Risk.PERFORMANCE,
    ),
    "CUDA_CACHE_DISABLE": (
        "it configures CUDA's PTX JIT cache, which ROCm does not have: nothing to set",
        Severity.INFO,
        Risk.PERFORMANCE,
    ),
    "CUDA_CACHE_MAXSIZE": (
        "it configures CUDA's PTX JIT cache, which ROCm does not have: nothing to set",
        Severity.INFO,
        Risk.PERFORMANCE,
    ),
    "CUDA_FORCE_PTX_JIT": (
        "ROCm runs AMDGPU code objects, never PTX, so it does nothing",
        Severity.INFO,
        Risk.PERFORMANCE,
    ),
}
_NAMES = re.compile("|".join(sorted(_VARIABLES)))


def check(ctx: Context) -> None:
    if not mentions(ctx, "cuda_"):
        return
    for use in env_uses(ctx.source, _NAMES):
        if use.kind != SET:
            continue
        what, severity, risk = _VARIABLES[use.name]
        with judged(ctx, severity, risk):
            once(ctx, use.line, use.col, f"`{use.name}` is set here, but {what}.", length=len(use.name), key=use.name)


RULE = text_rule(
    name="python-cuda-env-variable",
    summary="CUDA runtime environment variable set from Python that ROCm ignores (CUDA_LAUNCH_BLOCKING, ...)",
    risk=Risk.PERFORMANCE,
    severity=Severity.LOW,
    languages={"python"},
    check=cuda_code_only(check),
)
