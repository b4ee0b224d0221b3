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
    that build makes: low. Driver calls reached through a function table loaded with
    `dlopen`/`cuGetProcAddress` (`lib.cuModuleLoadData(...)`) are reported like direct calls.
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
    renamed = hipified_by_torch(ctx) if entry.hip and entry.has_hip_equivalent else ""
    if renamed:
        with judged(ctx, Severity.LOW):
            ctx.report(f"CUDA driver API `{tok.text}`{hip}: {why}. {renamed}")
        return
    ctx.report(f"CUDA driver API `{tok.text}`{hip}: {why}.")


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
