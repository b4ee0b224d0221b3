"""CUDA API name deprecated by NVIDIA.

What it finds:
    Uses of CUDA runtime, driver and math-library names that CUDA marks deprecated (and has not yet
    removed): `cudaThreadSynchronize`, `cudaMemcpyToArray`, `cudaDeviceSetSharedMemConfig`,
    `cuDeviceComputeCapability`, `cudaLaunchCooperativeKernelMultiDevice`, deprecated cuSPARSE helpers...
    One finding per name per line.

Why it breaks on ROCm:
    hipify translates most of them to an equally old HIP entry point (`hipDeviceSynchronize`,
    `hipMemcpyToArray`), several of which HIP itself deprecates or implements as no-ops (shared-memory bank
    configuration has no meaning on AMD GPUs). Porting is the moment to move to the supported API once,
    instead of carrying deprecated calls into a second code base.

Example:
    cudaThreadSynchronize();
    cudaMemcpyToArray(arr, 0, 0, host, bytes, cudaMemcpyHostToDevice);

Use instead:
    The replacement CUDA documents (`cudaDeviceSynchronize`, `cudaMemcpy2DToArray`, ...) and then its HIP
    equivalent; drop shared-memory bank configuration calls.

References:
    https://docs.nvidia.com/cuda/cuda-runtime-api/deprecated.html
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/deprecated_api_list.html
    https://rocm.docs.amd.com/projects/HIPIFY/en/latest/reference/tables/CUDA_Runtime_API_functions_supported_by_HIP.html

Known problems:
    Names with no HIP equivalent are reported by ROC150, removed names by ROC152, texture references by
    ROC153, cuDNN names by ROC131 — never also here. Deprecated enumerators (error codes, device
    attributes) are reported as well; they compile on HIP but may never be returned.
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.api._common import api_rule_check, names_owned_by
from scanner.rules.base import Rule

NAMES = names_owned_by("ROC151")


def check(ctx: Context) -> None:
    name = ctx.token.text
    if ctx.platform_guarded or ctx.reported_on(ctx.token.line, f"`{name}`"):
        return
    entry = ctx.names.get(name)
    if entry is None:
        return
    hip = f" (HIP: `{entry.hip}`)" if entry.hip else ""
    ctx.report(
        f"`{name}` is deprecated since CUDA {entry.cuda_deprecated}{hip}; "
        "move to its documented replacement while porting."
    )


RULE = Rule(
    name="api-cuda-api-deprecated",
    formerly=("cuda-api-deprecated",),
    summary="CUDA API name deprecated by NVIDIA (port to its replacement)",
    risk=Risk.DEPRECATION,
    severity=Severity.LOW,
    on=("identifier",),
    names=NAMES,
    check=api_rule_check(check),
)
