"""CUDA driver API (cuda.h) calls and handles.

What it finds:
    Calls of CUDA driver API functions (`cuInit`, `cuCtxCreate`, `cuModuleLoad`, `cuModuleGetFunction`,
    `cuLaunchKernel`, `cuMemAlloc`, `cuLinkCreate`...) and the driver handle types `CUcontext`, `CUmodule`,
    `CUfunction`, `CUdeviceptr`, `CUlinkState`. One finding per line.

Why it breaks on ROCm:
    hipify maps the driver API to `hipDrv*`/`hipModule*`/`hip*`, but three things do not carry over: HIP
    deprecates contexts (`hipCtx*` exist only as shims over the device's primary context); module loading
    needs AMDGPU code objects (`.hsaco`/`.co` from `hipcc --genco` or hipRTC), so code that loads PTX,
    cubin or fatbin images, or links them with `cuLink*`, fails at run time; and driver and runtime handles
    are interchangeable in HIP, so code that juggles both may behave differently.

Example:
    cuModuleLoad(&module, "kernels.ptx");
    cuModuleGetFunction(&fn, module, "saxpy");
    cuLaunchKernel(fn, grid, 1, 1, 256, 1, 1, 0, stream, args, nullptr);

Use instead:
    The runtime API (`hipSetDevice`, `hipMalloc`, `<<<>>>` launches) where possible; otherwise
    `hipModuleLoad`/`hipModuleLoadData` with a code object built for the target GPUs
    (`hipcc --genco --offload-arch=gfx942`) or compiled with hipRTC, and `hipModuleLaunchKernel`.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_driver_api.html
    https://rocm.docs.amd.com/projects/HIPIFY/en/latest/reference/tables/CUDA_Driver_API_functions_supported_by_HIP.html
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/deprecated_api_list.html

Known problems:
    Driver names with no HIP equivalent are reported by ROC150, deprecated/removed ones by ROC151/ROC152,
    graph calls by ROC162, unified-memory hints by ROC163 and texture references by ROC153; a line that only
    uses such names is not reported here. In a project that already builds for ROCm through PyTorch's hipify
    (its setup.py tests `IS_HIP_EXTENSION` or `torch.version.hip`, and the file is one of its extension sources
    or has HIP branches of its own), a driver name hipify renames (`CUfunction`, `cuLaunchKernel`) is a rename
    that build makes: low. Elsewhere too, a name hipify renames one to one and whose HIP call works on ROCm
    (`CUdeviceptr`, `cuMemAlloc`, `cuDeviceGetAttribute`, `cuLaunchKernel`; the contexts, as deprecated shims) is
    a rename a porting tool makes: low. Module and linker names (`cuModuleLoadData`, `cuLink*`: PTX and cubin do
    not load) keep the rule's severity, and so do names reached through a table of entry points the code loads
    itself (`lib.cuMemAlloc(...)`, a file that opens `libcuda.so` or calls `cuGetProcAddress`): renaming the names
    does not port the loader.
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.api._common import api_rule_check, names_owned_by
from scanner.rules.base import Rule
from scanner.rules.libraries._judgement import hipified_by_torch, judged

NAMES = names_owned_by("ROC161")
_MODULE = re.compile(r"^(cuModule|cuLink|cuLibrary|CUmodule$|CUlinkState$|CUlibrary$)")
_CONTEXT = re.compile(r"^(cuCtx|cuDevicePrimaryCtx|CUcontext$)")


def check(ctx: Context) -> None:
    tok = ctx.token
    if ctx.platform_guarded or ctx.reported_on(tok.line):
        return
    entry = ctx.names.get(tok.text)
    if entry is None:
        return
    hip = f" -> `{entry.hip}`" if entry.hip else ""
    if _MODULE.match(tok.text):
        why = "HIP modules load AMDGPU code objects (hipcc --genco or hipRTC), never PTX, cubin or fatbin"
    elif _CONTEXT.match(tok.text):
        why = "HIP deprecates contexts; use hipSetDevice and streams instead"
    else:
        why = "prefer the runtime API, or port to the hipDrv*/hipModule* equivalent"
    if ctx.rule.severity == Severity.INFO:  # a declaration (api_rule_check): the note stands
        ctx.report(f"CUDA driver API `{tok.text}`{hip}: {why}.")
        return
    renamed = hipified_by_torch(ctx) if entry.hip and entry.has_hip_equivalent else ""
    if renamed:
        with judged(ctx, Severity.LOW):
            ctx.report(f"CUDA driver API `{tok.text}`{hip}: {why}. {renamed}")
        return
    if entry.hip and entry.has_hip_equivalent and not _MODULE.match(tok.text) and not _loads_driver(ctx, tok):
        with judged(ctx, Severity.LOW):
            ctx.report(f"CUDA driver API `{tok.text}`{hip}: {why}. {_RENAME}")
        return
    ctx.report(f"CUDA driver API `{tok.text}`{hip}: {why}.")


_RENAME = (
    "hipify renames it one to one and the HIP call works on ROCm (contexts as deprecated shims over the primary "
    "context): a rename a porting tool makes (low)."
)
_LOADS_DRIVER = re.compile(
    r"libcuda\.so|\b(?:dlsym|GetProcAddress|cuGetProcAddress\w*|cudaGetDriverEntryPoint\w*)\s*\("
)


def _loads_driver(ctx, tok) -> bool:
    """The name is reached through a table of entry points the code loads itself (`lib.cuMemAlloc(...)`,
    `dlopen("libcuda.so.1")`, `cuGetProcAddress`): renaming the name does not port the loader, which must move to
    HIP's own (`hipGetProcAddress`) or go. Judged true at medium there (xgboost's and DeepEP's driver tables),
    where a direct call hipify renames was judged a rename (low) round after round."""
    before = ctx.view.neighbour(tok, -1)
    if before is not None and before.text in (".", "->"):
        return True
    key = "rocport:loads-cuda-driver"
    if key not in ctx.memo:
        ctx.memo[key] = bool(_LOADS_DRIVER.search(ctx.text))
    return ctx.memo[key]


RULE = Rule(
    name="api-driver-api-usage",
    formerly=("driver-api-usage",),
    summary="CUDA driver API (cu* functions, CUcontext/CUmodule handles)",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.MEDIUM,
    on=("identifier",),
    names=NAMES,
    check=api_rule_check(check),
)
