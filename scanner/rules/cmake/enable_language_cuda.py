"""CUDA enabled as a CMake language.

What it finds:
    `enable_language(CUDA)`, `project(name LANGUAGES CXX CUDA)` (or `project(name CUDA)`) and
    `check_language(CUDA)`: the build compiles `.cu` files with CMake's CUDA language support.
    Where no target of the file compiles a source as CUDA (no `.cu` source, no `LANGUAGE CUDA`, no
    subdirectory, in the file or the project files it includes: a library sample of host C++ calling cuRAND's
    host API), the fix is dropping CUDA from the languages: medium.

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

import os
import posixpath
import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.cmake._common import commands
from scanner.rules.libraries._judgement import cuda_code_only, judged
from scanner.rules.textual import once, text_rule
from scanner.sourcetext import read_capped


def check(ctx: Context) -> None:
    for command in commands(ctx):
        if command.name not in ("enable_language", "project", "check_language"):
            continue
        args = command.args[1:] if command.name == "project" else command.args
        for arg in args:
            if arg.value == "CUDA":
                call = f"{command.name}(... CUDA)" if command.name == "project" else f"{command.name}(CUDA)"
                message = (
                    f"`{call}` needs nvcc and a CUDA toolkit, which ROCm machines do not "
                    "have: enable HIP instead (`enable_language(HIP)` / `project(... HIP)`, CMake >= 3.21) and "
                    "build the sources as HIP."
                )
                if command.name != "check_language" and _compiles_no_cuda(ctx):
                    with judged(ctx, Severity.MEDIUM):
                        once(
                            ctx,
                            arg.line,
                            arg.col,
                            f"`{call}` needs nvcc and a CUDA toolkit, which ROCm machines do not have, but no "
                            "target here compiles a source as CUDA (no `.cu` file, no `LANGUAGE CUDA`, in this file "
                            "or the project files it includes): the fix is dropping CUDA from the languages "
                            "(medium); the C++ sources build with the host compiler.",
                            length=4,
                        )
                    continue
                once(ctx, arg.line, arg.col, message, length=4)


# What compiles a source as CUDA, or may: a `.cu`/`.cuh` name (a source list, a GLOB), the LANGUAGE property, a
# CUDA-only target property; and what adds targets this file cannot see (a subdirectory, an external project).
_CUDA_SOURCE = re.compile(r"\.cuh?\b|\bLANGUAGE\s+CUDA\b|CUDA_SEPARABLE_COMPILATION|CUDA_RESOLVE_DEVICE_SYMBOLS", re.I)
_ELSEWHERE = re.compile(r"^\s*(?:add_subdirectory|ExternalProject_Add|cuda_add_\w+)\s*\(", re.I | re.M)
_TARGET = re.compile(r"^\s*add_(?:executable|library)\s*\(", re.I | re.M)
_COMMENT = re.compile(r"#.*$", re.M)
_DIR_VARIABLES = re.compile(r"\$\{(?:CMAKE_CURRENT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR|PROJECT_SOURCE_DIR)\}/?")


def _compiles_no_cuda(ctx) -> bool:
    """Whether the targets this CMake file makes compile nothing as CUDA: it (with the project files it
    includes) makes a target, adds no subdirectory, and names no `.cu` source nor `LANGUAGE CUDA`. An include
    that cannot be read (a path that is not there) keeps the rule's severity."""
    key = "rocport:cmake-no-cuda-source"
    if key not in ctx.memo:
        texts = [ctx.text]
        directory = posixpath.dirname(ctx.path)
        readable = True
        for command in commands(ctx):
            if command.name != "include" or not command.args:
                continue
            name = _DIR_VARIABLES.sub("", command.args[0].value)
            if "/" not in name and not name.endswith(".cmake"):
                continue  # a module CMake or a package provides (GNUInstallDirs, rapids-cmake)
            path = os.path.normpath(os.path.join(ctx.root or "", directory, name))
            if not ctx.root or "$" in name or not os.path.isfile(path):
                readable = False
                break
            texts.append(read_capped(path, 256 * 1024))
        joined = _COMMENT.sub("", "\n".join(texts))
        ctx.memo[key] = (
            readable
            and bool(_TARGET.search(joined))
            and not _ELSEWHERE.search(joined)
            and not _CUDA_SOURCE.search(joined)
        )
    return ctx.memo[key]


RULE = text_rule(
    name="cmake-enable-language-cuda",
    summary="CUDA enabled as a CMake language (enable_language/project)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    languages={"cmake"},
    check=cuda_code_only(check),
)
