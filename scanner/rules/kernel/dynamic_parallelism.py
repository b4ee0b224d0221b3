"""Dynamic parallelism: a kernel launched from device code.

What it finds:
    A `kernel<<<...>>>` launch written inside a `__global__` or `__device__` function, and calls of the
    CUDA device runtime from device code: `cudaDeviceSynchronize()`, `cudaLaunchDevice`,
    `cudaGetParameterBuffer`. Launches in host code, and device-side code behind `#ifndef __CUDA_ARCH__`
    (the host pass) or a HIP guard, are not reported.

Why it breaks on ROCm:
    HIP has no dynamic parallelism: a `__global__` function can only be launched from the host, and there
    is no device runtime (no device-side `hipDeviceSynchronize`, no `-rdc` device launch). HIP-Clang
    rejects the launch in device code, so the file does not compile; the algorithm has to be restructured.

Example:
    __global__ void parent(int *data, int n) {
      if (threadIdx.x == 0 && n > 1) child<<<n / 256, 256>>>(data, n);
      cudaDeviceSynchronize();
    }

Use instead:
    Launch the child work from the host (a loop of launches, or a work queue filled by the parent kernel
    and consumed by a persistent kernel), or capture the launch sequence in a HIP graph. Recursive
    algorithms (quicksort, adaptive meshes) usually become an explicit host-side stack of launches.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html#global
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_guide.html
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#cuda-dynamic-parallelism

Known problems:
    Needs the AST to know which function a launch is in: in a file that libclang cannot parse, nothing is
    reported. A launch inside a `__device__` lambda defined in a host function is not seen.
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.kernel._common import in_host_pass
from scanner.rules.libraries._judgement import cuda_code_only

_DEVICE_RUNTIME = frozenset(
    {
        "cudaDeviceSynchronize",
        "cudaLaunchDevice",
        "cudaLaunchDeviceV2",
        "cudaGetParameterBuffer",
        "cudaGetParameterBufferV2",
    }
)


def check(ctx: Context) -> None:
    fn = ctx.function
    if fn is None or not fn.runs_on_device or ctx.hip_guarded or in_host_pass(ctx):
        return
    where = "kernel" if fn.is_kernel else "device function"
    if ctx.event == "launch":
        name = ctx.launch_kernel or _template_kernel_name(ctx)
        kernel = f"`{name}`" if name else "a kernel"
        ctx.report(
            f"{kernel} is launched from {where} `{fn.name}` (dynamic parallelism), which HIP does not "
            "support; launch it from the host instead."
        )
        return
    name = ctx.token.text
    ctx.report(
        f"`{name}` in {where} `{fn.name}` belongs to CUDA's device runtime (dynamic parallelism), which "
        "HIP does not have; synchronize and launch from the host."
    )


def _template_kernel_name(ctx) -> str:
    """`child<256><<<...>>>`: the name before the template arguments."""
    code = ctx.view.code
    i = ctx.view.index(ctx.token) - 1
    if i < 0 or code[i].text not in (">", ">>"):
        return ""
    depth = 0
    while i >= 0:
        text = code[i].text
        depth += {">": 1, ">>": 2, "<": -1}.get(text, 0)
        if depth <= 0:
            break
        i -= 1
    return code[i - 1].text if i > 0 and code[i - 1].kind == "identifier" else ""


RULE = Rule(
    name="kernel-dynamic-parallelism",
    formerly=("dynamic-parallelism",),
    summary="Kernel launched from device code (dynamic parallelism), unsupported by HIP",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    on=("launch", "identifier"),
    names=_DEVICE_RUNTIME,
    check=cuda_code_only(check),
)
