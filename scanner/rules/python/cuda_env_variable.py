"""CUDA runtime environment variables set (Python, shell, Dockerfile, YAML) that ROCm ignores or names differently.

What it finds:
    Code that sets a CUDA driver/runtime environment variable for itself or for a child process. In Python:
    `os.environ["CUDA_LAUNCH_BLOCKING"] = "1"`, `os.environ.setdefault(...)`, `os.environ.update({...})`,
    `os.putenv(...)`, `env={"CUDA_DEVICE_MAX_CONNECTIONS": "1"}`, `dict(os.environ, CUDA_MODULE_LOADING="LAZY")`,
    or `CUDA_LAUNCH_BLOCKING=1 python ...` in a command string. In shell scripts, Makefiles, Dockerfiles and
    YAML: `export X=v`, `X=v command`, `env X=v command`, `ENV X=v` (and the old `ENV X v`), a YAML `env:` key
    (`X: "1"`), a compose list entry (`- X=1`) and a Kubernetes `- name: X`. The variables:
    `CUDA_LAUNCH_BLOCKING`, `CUDA_DEVICE_MAX_CONNECTIONS`, `CUDA_MPS_ACTIVE_THREAD_PERCENTAGE` (low), and
    `CUDA_MODULE_LOADING`, `CUDA_CACHE_PATH` / `CUDA_CACHE_DISABLE` / `CUDA_CACHE_MAXSIZE`, `CUDA_FORCE_PTX_JIT`,
    `CUDA_DEVICE_ORDER` (info: nothing to set on ROCm) and `PYTORCH_CUDA_ALLOC_CONF` (info: PyTorch's ROCm
    build reads it). Reading a variable, `echo`ed or printed text that names one, `CUDA_VISIBLE_DEVICES` (which
    HIP honours: ROC233), `TORCH_CUDA_ARCH_LIST` (ROC212), `NCCL_*` (RCCL reads them: ROC253) and
    `CUBLAS_WORKSPACE_CONFIG` (PyTorch reads it on ROCm too) are not reported.

Why it breaks on ROCm:
    These variables are read by NVIDIA's driver, which is not there: on ROCm the assignment silently does
    nothing. `CUDA_LAUNCH_BLOCKING=1` no longer serializes launches, so a kernel fault is reported at a later,
    unrelated call (HIP's switch is `HIP_LAUNCH_BLOCKING`); `CUDA_DEVICE_MAX_CONNECTIONS=1`, which Megatron-style
    code sets to keep communication and compute kernels in issue order for overlap, has no effect (HIP's
    hardware queues per device are `GPU_MAX_HW_QUEUES`); MPS does not exist, so
    `CUDA_MPS_ACTIVE_THREAD_PERCENTAGE` limits nothing (ROCm masks compute units with `HSA_CU_MASK` or
    `ROC_GLOBAL_CU_MASK`). Lazy module loading and the PTX JIT cache are CUDA mechanisms with no ROCm
    counterpart to configure; `CUDA_DEVICE_ORDER=PCI_BUS_ID` does not reorder HIP's devices.
    `PYTORCH_CUDA_ALLOC_CONF` keeps working (ROCm builds of PyTorch read it, and `PYTORCH_HIP_ALLOC_CONF` when it
    is unset), but its values were tuned for NVIDIA memory sizes.

Example:
    os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
    os.environ.setdefault("CUDA_DEVICE_MAX_CONNECTIONS", "1")

Use instead:
    Set the ROCm variable beside the CUDA one when `torch.version.hip` is set: `HIP_LAUNCH_BLOCKING=1` (or
    `AMD_SERIALIZE_KERNEL=3`, which PyTorch's ROCm error messages suggest), `GPU_MAX_HW_QUEUES` for the
    queue count (measure: the effect on overlap differs from CUDA's connections), `HSA_CU_MASK` /
    `ROC_GLOBAL_CU_MASK` for partitioning; drop `CUDA_MODULE_LOADING`, `CUDA_DEVICE_ORDER` and the `CUDA_CACHE_*`
    settings (match GPUs by PCI bus id with `hipDeviceGetPCIBusId` where the order matters); re-measure the
    allocator settings on the AMD GPU.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/env_variables.html
    https://rocm.docs.amd.com/en/latest/how-to/setting-cus.html
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#cuda-environment-variables
    https://docs.pytorch.org/docs/stable/notes/hip.html
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only, judged
from scanner.rules.python._env import SET, env_uses
from scanner.rules.textual import SCRIPT_LANGUAGES, matches, mentions, once, text_rule

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
    "CUDA_DEVICE_ORDER": (
        "ROCm ignores it: HIP numbers GPUs in its runtime's own order, not by this setting; drop it and match "
        "GPUs by PCI bus id (`hipDeviceGetPCIBusId`) where the order matters",
        Severity.INFO,
        Risk.RUNTIME_FAILURE,
    ),
    "PYTORCH_CUDA_ALLOC_CONF": (
        "it keeps working: ROCm builds of PyTorch read it (`PYTORCH_HIP_ALLOC_CONF` when it is unset); its values "
        "were tuned for NVIDIA memory sizes, so re-measure them on the AMD GPU",
        Severity.INFO,
        Risk.PERFORMANCE,
    ),
}
_NAMES = re.compile("|".join(sorted(_VARIABLES)))
_ALTERNATION = "|".join(sorted(_VARIABLES))
# A setting in a script, Makefile, Dockerfile or YAML file: `X=v` (`export`, `env`, `ENV`, a command prefix, a
# compose list entry), a YAML key `X: v`, a Kubernetes `name: X`, the old Dockerfile form `ENV X v`. Not `$X`,
# `${X}`, `${X:-0}` (reads).
_SETTING = re.compile(
    rf"(?<![\w${{])(?P<assign>{_ALTERNATION})(?=\s*[:?+]?=)"
    rf"|(?<![\w${{])(?P<key>{_ALTERNATION})[\"']?(?=\s*:(?:\s|$))"
    rf"|\bname:\s*[\"']?(?P<k8s>{_ALTERNATION})[\"']?\s*$"
    rf"|^\s*ENV\s+(?P<env>{_ALTERNATION})(?=\s+\S)"
)
# A shell line that only prints (`echo "set CUDA_LAUNCH_BLOCKING=1 to debug"`), unless it writes into a file.
_MESSAGE_LINE = re.compile(r"^\s*(?:echo|printf)\b(?!.*>)")


def check(ctx: Context) -> None:
    if not mentions(ctx, "cuda_"):
        return
    if ctx.language == "python":
        settings = [(use.line, use.col, use.name) for use in env_uses(ctx.source, _NAMES) if use.kind == SET]
    else:
        settings = []
        for line, _col, match in matches(ctx, _SETTING):
            group = match.lastgroup or ""
            if not _MESSAGE_LINE.match(ctx.line_text(line)):
                settings.append((line, match.start(group) + 1, match.group(group)))
    for line, col, name in settings:
        what, severity, risk = _VARIABLES[name]
        with judged(ctx, severity, risk):
            once(ctx, line, col, f"`{name}` is set here, but {what}.", length=len(name), key=name)


RULE = text_rule(
    name="python-cuda-env-variable",
    summary="CUDA runtime environment variable set (Python, scripts, ENV, YAML) that ROCm ignores "
    "(CUDA_LAUNCH_BLOCKING, ...)",
    risk=Risk.PERFORMANCE,
    severity=Severity.LOW,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)
