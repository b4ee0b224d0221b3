"""Shared memory beyond the LDS of one AMD workgroup.

What it finds:
    - a kernel or device function whose static `__shared__` variables together take more bytes than the
      target's LDS per workgroup (64 KiB on MI300X/gfx942 and RDNA, 160 KiB on MI350/gfx950);
    - `cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, N)` with a constant N
      above that limit;
    - a kernel launch whose dynamic shared-memory size (`<<<grid, block, N>>>`) is a constant above it.
    Dynamic `extern __shared__` arrays have no static size and are not counted.

Why it breaks on ROCm:
    NVIDIA GPUs since Volta offer up to 96-227 KiB of shared memory per block (dynamic, after an opt-in
    with cudaFuncSetAttribute), and kernels tuned for A100/H100 use it. An AMD workgroup can address only
    the LDS of one compute unit: 64 KiB on CDNA3 and RDNA. Static allocations above it fail to compile
    ("local memory limit exceeded"); dynamic requests above it make the launch or hipFuncSetAttribute fail
    at run time.

Example:
    cudaFuncSetAttribute(attention_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024);
    attention_kernel<<<grid, 128, 160 * 1024>>>(q, k, v, o);

Use instead:
    Retile for 64 KiB: smaller tiles (fewer rows per block, or fewer pipeline stages), or split the work
    across more workgroups; query `hipDeviceProp_t::sharedMemPerBlock` (and
    `maxSharedMemoryPerMultiProcessor`) at run time instead of assuming the NVIDIA figure.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/understand/hardware_implementation.html
    https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#shared-memory-8-x

Known problems:
    Sizes that depend on template parameters are unknown before instantiation and are not checked;
    `__shared__` variables at file scope and those in called device functions are not added to a kernel's
    total. Arrays sized inside an inactive `#if` branch of the host-side parse are not seen.
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.libraries._judgement import cuda_code_only

_DYNAMIC_ATTRIBUTES = frozenset({"cudaFuncAttributeMaxDynamicSharedMemorySize"})


def _limit(ctx) -> str:
    lds = ctx.target.lds_bytes
    targets = ", ".join(ctx.target.targets)
    return f"{lds // 1024} KiB ({lds} bytes) of LDS per workgroup on {targets}"


def check(ctx: Context) -> None:
    if ctx.event == "function":
        _check_function(ctx)
    elif ctx.callee_name == "cudaFuncSetAttribute":
        _check_attribute(ctx)
    elif ctx.callee_name == "__cudaPushCallConfiguration":
        _check_launch(ctx)


def _check_function(ctx) -> None:
    fn = ctx.function
    if fn is None or fn.node is not ctx.node or not fn.runs_on_device:
        return
    total, count = 0, 0
    for node in ctx.node.walk():
        if node.is_var_decl and node.is_shared:
            size = node.type_size
            if size > 0:
                total += size
                count += 1
    limit = ctx.target.lds_bytes
    if total <= limit or ctx.hip_guarded:
        return
    what = "kernel" if fn.is_kernel else "device function"
    ctx.report(
        f"{what} `{fn.name}` declares {total} bytes of static __shared__ memory "
        f"({count} variable{'s' if count > 1 else ''}), more than the {_limit(ctx)}; retile to fit.",
        at=ctx.node,
    )


def _check_attribute(ctx) -> None:
    attribute, value = ctx.arg(1), ctx.arg(2)
    if attribute is None or attribute.strip().name not in _DYNAMIC_ATTRIBUTES:
        return
    size = ctx.literal_value(value)
    if size is None or size <= ctx.target.lds_bytes or ctx.hip_guarded:
        return
    ctx.report(
        f"requests {size} bytes of dynamic shared memory, more than the {_limit(ctx)}; "
        "hipFuncSetAttribute and the launch will fail. Retile to fit."
    )


def _check_launch(ctx) -> None:
    args = ctx.args
    if len(args) < 3:
        return
    size = ctx.literal_value(args[2])
    if size is None or size <= ctx.target.lds_bytes or ctx.hip_guarded:
        return
    ctx.report(
        f"the launch asks for {size} bytes of dynamic shared memory, more than the "
        f"{_limit(ctx)}; the launch will fail. Retile to fit.",
        at=args[2],
    )


RULE = Rule(
    name="kernel-static-shared-memory-over-limit",
    formerly=("static-shared-memory-over-limit",),
    summary="Shared memory per block above the AMD LDS limit (64 KiB on MI300X)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    on=("function", "call"),
    check=cuda_code_only(check),
)
