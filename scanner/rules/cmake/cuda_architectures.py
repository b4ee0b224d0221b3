"""CUDA GPU architectures set in CMake (CMAKE_CUDA_ARCHITECTURES, CUDA_ARCHITECTURES, TORCH_CUDA_ARCH_LIST).

What it finds:
    `CMAKE_CUDA_ARCHITECTURES` and the `CUDA_ARCHITECTURES` target property (set, read or tested), and
    PyTorch's `TORCH_CUDA_ARCH_LIST` set from CMake. A `message()` that prints one is not a use.

Why it breaks on ROCm:
    These name NVIDIA compute capabilities (`70;80;90`, `sm_80`). HIP code is compiled for AMDGPU targets
    (`gfx942` for MI300X, `gfx90a` for MI200) through `CMAKE_HIP_ARCHITECTURES` / `HIP_ARCHITECTURES`; the CUDA
    settings are ignored by the HIP language, so a port that only renames sources builds for CMake's default
    target or none at all, and code objects for the real GPU are missing at run time.

Example:
    set(CMAKE_CUDA_ARCHITECTURES 80 90)
    set_target_properties(kernels PROPERTIES CUDA_ARCHITECTURES "80;90")

Use instead:
    `set(CMAKE_HIP_ARCHITECTURES gfx942)` (or `-DCMAKE_HIP_ARCHITECTURES=gfx942;gfx90a` on the command line),
    the `HIP_ARCHITECTURES` target property, and `PYTORCH_ROCM_ARCH` for PyTorch extensions.

References:
    https://cmake.org/cmake/help/latest/variable/CMAKE_HIP_ARCHITECTURES.html
    https://cmake.org/cmake/help/latest/prop_tgt/HIP_ARCHITECTURES.html
    https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.cmake._common import arg_position, commands
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import arch_list, once, text_rule

_NAMES = {
    "CMAKE_CUDA_ARCHITECTURES": "CMAKE_HIP_ARCHITECTURES",
    "CUDA_ARCHITECTURES": "HIP_ARCHITECTURES",
    "TORCH_CUDA_ARCH_LIST": "PYTORCH_ROCM_ARCH",
}


# A name on its own: a project's variable that merely contains one (`TCNN_CUDA_ARCHITECTURES`, a cache entry of its
# own) is not the setting, and `CMAKE_CUDA_ARCHITECTURES` is not the target property.
_WHOLE = {name: re.compile(rf"(?<![A-Za-z0-9_]){name}(?![A-Za-z0-9_])") for name in _NAMES}


# Commands that print or document text: a `message(STATUS "Using CMAKE_CUDA_ARCHITECTURES ...")` names the
# setting without making it; the `set`/`foreach` beside it is the use.
_TEXT_ONLY = frozenset({"message"})


def check(ctx: Context) -> None:
    for command in commands(ctx):
        if command.name in _TEXT_ONLY:
            continue
        for arg in command.args:
            for name, hip in _NAMES.items():
                found = _WHOLE[name].search(arg.value)
                if found is None:
                    continue
                line, col = arg_position(arg, found.start())
                once(
                    ctx,
                    line,
                    col,
                    f"`{name}` lists NVIDIA compute capabilities; HIP builds read `{hip}` "
                    f"with AMDGPU targets (for these targets: `{arch_list(ctx)}`).",
                    length=len(name),
                    key=name,
                )


RULE = text_rule(
    name="cmake-cuda-architectures",
    summary="CUDA architectures in CMake (CMAKE_CUDA_ARCHITECTURES, CUDA_ARCHITECTURES)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    languages={"cmake"},
    check=cuda_code_only(check),
)
