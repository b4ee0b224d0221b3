"""FindCUDA's target commands (cuda_add_library, cuda_add_executable, ...).

What it finds:
    The commands of the deprecated FindCUDA module: `cuda_add_library`, `cuda_add_executable`,
    `cuda_add_cublas_to_target`, `cuda_add_cufft_to_target`, `cuda_compile`, `cuda_compile_ptx`,
    `cuda_wrap_srcs`, `cuda_include_directories`, `cuda_select_nvcc_arch_flags`.

Why it breaks on ROCm:
    They exist only after `find_package(CUDA)` found a CUDA toolkit, and they call nvcc directly; on a ROCm
    machine CMake stops with "Unknown CMake command". `cuda_compile_ptx` produces PTX, which AMD GPUs cannot
    load at all.

Example:
    cuda_add_library(kernels STATIC src/gemm.cu src/softmax.cu)
    cuda_add_cublas_to_target(kernels)

Use instead:
    Plain `add_library`/`add_executable` with the sources built as HIP (`enable_language(HIP)`, `.hip` files or
    `LANGUAGE HIP`), and `target_link_libraries(kernels PRIVATE hip::device roc::hipblas)`. FindHIP's
    `hip_add_library` still exists but is legacy; the HIP language is the supported way.

References:
    https://rocm.docs.amd.com/en/latest/conceptual/cmake-packages.html
    https://cmake.org/cmake/help/latest/module/FindCUDA.html
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.cmake._common import commands
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import once, text_rule

_INSTEAD = {
    "cuda_add_library": "`add_library` with the sources built as HIP",
    "cuda_add_executable": "`add_executable` with the sources built as HIP",
    "cuda_add_cublas_to_target": "`target_link_libraries(<target> PRIVATE roc::hipblas)`",
    "cuda_add_cufft_to_target": "`target_link_libraries(<target> PRIVATE hip::hipfft)`",
    "cuda_compile": "HIP sources in a normal target (`enable_language(HIP)`)",
    "cuda_compile_ptx": "HIP code objects (`hipcc --genco`); AMD GPUs cannot load PTX",
    "cuda_compile_fatbin": "HIP code objects (`hipcc --genco`)",
    "cuda_compile_cubin": "HIP code objects (`hipcc --genco`)",
    "cuda_wrap_srcs": "HIP sources in a normal target",
    "cuda_include_directories": "`target_include_directories`",
    "cuda_select_nvcc_arch_flags": "`CMAKE_HIP_ARCHITECTURES`",
    "cuda_build_clean_target": "nothing (FindCUDA bookkeeping)",
}


def check(ctx: Context) -> None:
    for command in commands(ctx):
        instead = _INSTEAD.get(command.name)
        if instead:
            once(
                ctx,
                command.line,
                command.col,
                f"`{command.name}` comes from the deprecated FindCUDA module and "
                f"calls nvcc: it does not exist on ROCm. Use {instead}.",
                length=len(command.name),
            )


RULE = text_rule(
    name="cmake-cuda-add-target",
    summary="FindCUDA target commands (cuda_add_library, cuda_add_executable, ...)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    languages={"cmake"},
    check=cuda_code_only(check),
)
