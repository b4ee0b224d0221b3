"""find_package for the CUDA toolkit or a CUDA-only library.

What it finds:
    `find_package(CUDA)` (the FindCUDA module, deprecated since CMake 3.10), `find_package(CUDAToolkit)`, and
    `find_package` of NVIDIA libraries that have ROCm counterparts under other names (`CUDNN`, `NCCL`,
    `TensorRT`, `NVTX`).

Why it breaks on ROCm:
    There is no CUDA toolkit on a ROCm machine: a REQUIRED find fails at configure time, an optional one
    silently turns the GPU part of the build off. The ROCm libraries ship their own CMake packages
    (`hip`, `hipblas`, `rccl`, `miopen`, ...), found under /opt/rocm.

Example:
    find_package(CUDAToolkit REQUIRED)
    find_package(NCCL REQUIRED)

Use instead:
    `find_package(hip REQUIRED)` plus one package per library (`find_package(hipblas)`, `find_package(rccl)`,
    `find_package(miopen)`), with `CMAKE_PREFIX_PATH` including `/opt/rocm`. TensorRT has no ROCm equivalent
    (MIGraphX is the closest).

References:
    https://rocm.docs.amd.com/en/latest/conceptual/cmake-packages.html
    https://cmake.org/cmake/help/latest/module/FindCUDA.html
    https://cmake.org/cmake/help/latest/module/FindCUDAToolkit.html
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.cmake._common import commands
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import once, text_rule

_PACKAGES = {
    "cuda": "FindCUDA is deprecated and needs the CUDA toolkit: use `find_package(hip REQUIRED)` and the ROCm "
    "libraries' own packages",
    "cudatoolkit": "ROCm has no CUDA toolkit: use `find_package(hip REQUIRED)` and one package per library "
    "(`hipblas`, `hipfft`, `rocrand`, ...)",
    "cudnn": "cuDNN → MIOpen: `find_package(miopen)` (its API differs: a port, not a rename)",
    "nccl": "NCCL → RCCL: `find_package(rccl)` (target `rccl::rccl`)",
    "tensorrt": "TensorRT has no ROCm build: MIGraphX (`find_package(migraphx)`) is the closest",
    "nvtx": "NVTX → roctx (rocprofiler-sdk / roctracer)",
    "nvtx3": "NVTX → roctx (rocprofiler-sdk / roctracer)",
    "cutlass": "CUTLASS → Composable Kernel (`find_package(composable_kernel)`)",
    "cub": "CUB → hipCUB (`find_package(hipcub)`)",
    "thrust": "Thrust → rocThrust (`find_package(rocthrust)`)",
}


def check(ctx: Context) -> None:
    for command in commands(ctx):
        if command.name != "find_package" or not command.args:
            continue
        arg = command.args[0]
        advice = _PACKAGES.get(arg.value.lower())
        if advice:
            once(
                ctx,
                arg.line,
                arg.col,
                f"`find_package({arg.value})` fails on ROCm machines: {advice}.",
                length=len(arg.value),
            )


RULE = text_rule(
    name="cmake-find-package-cuda",
    summary="find_package of the CUDA toolkit or a CUDA-only library",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    languages={"cmake"},
    check=cuda_code_only(check),
)
