"""`__launch_bounds__` with a second (or third) argument.

What it finds:
    `__launch_bounds__(MAX_THREADS, MIN_BLOCKS)` and `__launch_bounds__(MAX_THREADS, MIN_BLOCKS,
    MAX_BLOCKS_PER_CLUSTER)` on a kernel, a literal MAX_THREADS above 1024, and a comma inside template
    arguments in the list. A single argument, and a second argument of literally 0 or 1 (no occupancy request
    on either platform), are not reported.

Why it breaks on ROCm:
    In CUDA the second argument is the minimum number of resident blocks per multiprocessor. HIP keeps the
    syntax but reads it as MIN_WARPS_PER_EXECUTION_UNIT, the minimum number of wavefronts per SIMD, passed
    to the compiler as `amdgpu_waves_per_eu`. The same number therefore asks for a different occupancy:
    too large a value caps the registers per thread far below what the kernel needs (spills to scratch,
    much slower) or exceeds what the GPU can hold. That is tuning: the kernel still compiles and computes the
    same result, so the finding is low, and medium from 8 (a budget of 64 registers per thread or fewer on
    CDNA, where spills are likely). The third argument (CUDA 12 clusters) has no HIP counterpart and HIP's
    macro does not accept it, and a first argument above 1024 threads exceeds what an AMD workgroup can hold:
    the file does not compile, so those are high build breaks. So is a comma inside template arguments
    (`__launch_bounds__(Traits<A, B>::kThreads, 1)`): nvcc's `__launch_bounds__` passes its arguments through
    whole, but HIP's is a macro that picks its form by how many arguments the preprocessor counts, and the
    preprocessor splits at that comma; the message says so rather than naming a cluster argument.

Example:
    __global__ void __launch_bounds__(256, 4) gemm_kernel(const float *a, const float *b, float *c);

Use instead:
    Convert the value for AMD (HIP porting guide, CU mode as on CDNA):
    MIN_WARPS_PER_EXECUTION_UNIT = MIN_BLOCKS_PER_MULTIPROCESSOR * MAX_THREADS_PER_BLOCK / (warpSize * 2),
    and select it per platform, e.g. `#ifdef __HIP_PLATFORM_AMD__ __launch_bounds__(256, 8) #else
    __launch_bounds__(256, 4) #endif`, or keep only the first argument and tune occupancy by measurement.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_guide.html#porting-from-cuda-launch-bounds
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html#launch-bounds
    https://llvm.org/docs/AMDGPUUsage.html

Known problems:
    Read from tokens: a `__launch_bounds__` hidden in a project macro (`C10_LAUNCH_BOUNDS_2(...)`,
    `#define KERNEL_BOUNDS __launch_bounds__(256, 2)`) is seen only where the macro is defined, not used,
    and a value spelled as a macro or template parameter is not evaluated. A `<` after a name that a `>` in
    the list closes is read as opening template arguments, one that none closes as a comparison.
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.kernel._common import int_of_tokens, paren_arguments, paren_arguments_with_templates
from scanner.rules.libraries._judgement import cuda_code_only, judged

# The most threads an AMD workgroup holds (and a CUDA block): more does not compile.
_AMD_MAX_WORKGROUP = 1024
# Registers per lane a wavefront may use on CDNA (gfx90a/gfx942: 512 VGPRs and AGPRs together), shared by the
# waves one EU keeps resident: from 8 waves on, each thread gets 64 or fewer and a real kernel spills.
_VGPRS_PER_LANE = 512
_SPILLING_WAVES = 8


def check(ctx: Context) -> None:
    if ctx.hip_guarded:
        return
    view = ctx.view
    i = view.index(ctx.token)
    code = view.code
    if i < 0 or i + 1 >= len(code) or code[i + 1].text != "(":
        return
    args = paren_arguments_with_templates(code, i + 1)
    if not args:
        return
    split = paren_arguments(code, i + 1) or []
    if len(split) > len(args):
        template = next(_written(arg) for arg in args if any(t.text == "," for t in arg))
        ctx.report(
            f"a comma inside template arguments (`{template}`) splits HIP's `__launch_bounds__`, a "
            f"macro that picks its form by the number of arguments: the preprocessor does not pair `<` with "
            f"`>`, so HIP sees {len(split)} arguments and the kernel does not compile (nvcc's macro passes them "
            "through whole). Put the expression in parentheses or name it with a constexpr."
        )
        return
    max_threads = int_of_tokens(args[0])
    if max_threads is not None and max_threads > _AMD_MAX_WORKGROUP:
        written = f"{max_threads}, ..." if len(args) > 1 else str(max_threads)
        ctx.report(
            f"`__launch_bounds__({written})` asks for more than {_AMD_MAX_WORKGROUP} threads per block, more "
            "than an AMD workgroup holds: HIP-Clang rejects it."
        )
        return
    if len(args) < 2:
        return
    if len(args) >= 3:
        ctx.report(
            "`__launch_bounds__` with a third argument (max blocks per cluster) does not compile with "
            "HIP, which has no thread-block clusters; drop it for AMD."
        )
        return
    min_blocks = int_of_tokens(args[1])
    if min_blocks is not None and min_blocks <= 1:
        return
    text = " ".join(t.text for t in args[1])
    message = (
        f"the second `__launch_bounds__` argument `{text}` means min blocks per SM in CUDA but min "
        "wavefronts per execution unit (amdgpu_waves_per_eu) in HIP; convert it per platform (HIP "
        "porting guide) or drop it."
    )
    if min_blocks is not None and min_blocks >= _SPILLING_WAVES:
        with judged(ctx, Severity.MEDIUM, Risk.PERFORMANCE):
            ctx.report(
                f"{message} Read as {min_blocks} waves per EU it caps each thread at "
                f"{_VGPRS_PER_LANE // min_blocks} registers on CDNA: spills are likely."
            )
        return
    with judged(ctx, Severity.LOW, Risk.PERFORMANCE):
        ctx.report(f"{message} An occupancy hint: the kernel still compiles and computes the same result.")


def _written(tokens) -> str:
    """Tokens as a person writes them: `Traits<A, B>::kThreads`, `typename Cfg::Policy`."""
    out = ""
    for prev, tok in zip([None, *tokens], tokens):
        if prev is not None and (
            prev.text == ","
            or (prev.text[-1].isalnum() or prev.text[-1] == "_")
            and (tok.text[0].isalnum() or tok.text[0] == "_")
        ):
            out += " "
        out += tok.text
    return out if len(out) <= 80 else out[:77] + "..."


RULE = Rule(
    name="kernel-launch-bounds-second-argument",
    formerly=("launch-bounds-second-argument",),
    summary="__launch_bounds__ second argument means min blocks/SM in CUDA but min waves/EU in HIP",
    risk=Risk.BUILD_BREAK,  # the highest its findings reach; an occupancy hint is judged low/medium performance
    severity=Severity.HIGH,
    on=("identifier",),
    names=frozenset({"__launch_bounds__"}),
    check=cuda_code_only(check),
)
