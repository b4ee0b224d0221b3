"""Linking CUDA libraries in CMake (CUDA::cudart, CUDA::cublas, cudnn, nccl, ${CUDA_LIBRARIES}).

What it finds:
    The CUDAToolkit imported targets (`CUDA::cudart`, `CUDA::cublas`, `CUDA::cufft`, `CUDA::nvToolsExt`,
    ...), FindCUDA's variables (`${CUDA_LIBRARIES}`, `${CUDA_CUBLAS_LIBRARIES}`), and `cudnn`/`nccl` named in
    `target_link_libraries`.

Why it breaks on ROCm:
    Neither the targets nor the libraries exist on a ROCm machine: configuration fails on the unknown
    target, or linking fails with `cannot find -lcudart`. Each library has a ROCm counterpart with its own
    CMake package and target name.

Example:
    target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas nccl)

Use instead:
    `hip::host` / `hip::device` for the runtime, `roc::hipblas`, `roc::hipblaslt`, `hip::hipfft`,
    `hip::hiprand`, `roc::hipsparse`, `roc::hipsolver`, `rccl::rccl`, `MIOpen` for cuDNN, roctx for NVTX,
    each after its `find_package` (the message names the one to use).

References:
    https://rocm.docs.amd.com/en/latest/conceptual/cmake-packages.html
    https://rocm.docs.amd.com/en/latest/reference/api-libraries.html
    https://cmake.org/cmake/help/latest/module/FindCUDAToolkit.html
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.cmake._common import arg_position, commands
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import library_replacement, once, text_rule

_IMPORTED = re.compile(r"CUDA::(\w+)")
_VARIABLE = re.compile(r"\$\{(CUDA_LIBRARIES|CUDA_(\w+?)_LIBRAR(?:Y|IES)|(CUDNN|NCCL)_LIBRAR(?:Y|IES))\}", re.I)
_LINK_COMMANDS = ("target_link_libraries", "link_libraries", "add_dependencies")
_BARE = {
    "cudart",
    "cublas",
    "cublaslt",
    "cufft",
    "curand",
    "cusparse",
    "cusolver",
    "cudnn",
    "nccl",
    "nvtoolsext",
    "nvrtc",
    "nvidia-ml",
}


def check(ctx: Context) -> None:
    for command in commands(ctx):
        for arg in command.args:
            for match in _IMPORTED.finditer(arg.value):
                name = match.group(1)
                base = name.lower().removesuffix("_static")
                _report(ctx, arg, match.start(), match.group(0), base)
            for match in _VARIABLE.finditer(arg.value):
                base = (match.group(2) or match.group(3) or "cudart").lower()
                _report(ctx, arg, match.start(), match.group(0), base)
            if command.name in _LINK_COMMANDS and arg.value.lower() in _BARE:
                _report(ctx, arg, 0, arg.value, arg.value.lower())


def _report(ctx, arg, offset: int, spelled: str, library: str) -> None:
    line, col = arg_position(arg, offset)
    once(
        ctx,
        line,
        col,
        f"`{spelled}` is a CUDA library that ROCm machines do not have: link "
        f"{library_replacement(library, 'cmake')} instead.",
        length=len(spelled),
        key=spelled,
    )


RULE = text_rule(
    name="cmake-cuda-library-targets",
    summary="CUDA libraries linked in CMake (CUDA::cudart, CUDA::cublas, cudnn, nccl, ...)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    languages={"cmake"},
    check=cuda_code_only(check),
)
