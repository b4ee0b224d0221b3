"""CUDA enabled as a CMake language.

What it finds:
    `enable_language(CUDA)`, `project(name LANGUAGES CXX CUDA)` (or `project(name CUDA)`) and
    `check_language(CUDA)`: the build compiles `.cu` files with CMake's CUDA language support.

Why it breaks on ROCm:
    CMake's CUDA language needs a CUDA compiler (nvcc, or clang with a CUDA toolkit) and configures against
    the CUDA toolkit; a ROCm machine has neither, so configuration stops with "No CMAKE_CUDA_COMPILER could be
    found". HIP is a CMake language of its own since CMake 3.21.

Example:
    cmake_minimum_required(VERSION 3.18)
    project(demo LANGUAGES CXX CUDA)

Use instead:
    `project(demo LANGUAGES CXX HIP)` or `enable_language(HIP)` (CMake >= 3.21, ROCm's `hip` package), build
    the (hipified) sources as HIP (`.hip` files, or `set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)`)
    and set `CMAKE_HIP_ARCHITECTURES`. A project that must build for both keeps the language a cache option.

References:
    https://rocm.docs.amd.com/en/latest/conceptual/cmake-packages.html
    https://cmake.org/cmake/help/latest/command/enable_language.html
    https://cmake.org/cmake/help/latest/prop_sf/LANGUAGE.html
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.cmake._common import commands
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import once, text_rule


def check(ctx: Context) -> None:
    for command in commands(ctx):
        if command.name not in ("enable_language", "project", "check_language"):
            continue
        args = command.args[1:] if command.name == "project" else command.args
        for arg in args:
            if arg.value == "CUDA":
                call = f"{command.name}(... CUDA)" if command.name == "project" else f"{command.name}(CUDA)"
                once(
                    ctx,
                    arg.line,
                    arg.col,
                    f"`{call}` needs nvcc and a CUDA toolkit, which ROCm machines do not "
                    "have: enable HIP instead (`enable_language(HIP)` / `project(... HIP)`, CMake >= 3.21) and "
                    "build the sources as HIP.",
                    length=4,
                )


RULE = text_rule(
    name="cmake-enable-language-cuda",
    summary="CUDA enabled as a CMake language (enable_language/project)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    languages={"cmake"},
    check=cuda_code_only(check),
)
