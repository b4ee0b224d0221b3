"""Linking CUDA libraries in CMake (CUDA::cudart, CUDA::cublas, cudnn, nccl, nvinfer, ${CUDA_LIBRARIES}).

What it finds:
    The CUDAToolkit imported targets (`CUDA::cudart`, `CUDA::cublas`, `CUDA::cufft`, `CUDA::nvToolsExt`,
    ...), FindCUDA's variables (`${CUDA_LIBRARIES}`, `${CUDA_CUBLAS_LIBRARIES}`), `cudnn`/`nccl` and TensorRT's
    libraries (`nvinfer`, `nvinfer_plugin`, `nvonnxparser`, the `TensorRT::nvinfer`-style targets of a
    `FindTensorRT` module, `${TensorRT_LIBRARIES}`) named in `target_link_libraries`, and the same libraries
    looked up with `find_library(VAR nvinfer ...)` / `find_library(VAR NAMES cublas ...)`. A link inside an
    `if()` that holds only where CUDA was found (`if(TARGET CUDA::cupti)`, `if(UNIX AND CUDAToolkit_FOUND)`,
    the `else()` of `if(NOT TARGET CUDA::nvml)`) is info: on a ROCm machine without the CUDA toolkit the test is
    false and CMake skips it. The `TARGET CUDA::cupti` test itself links nothing and is not reported, nor is a
    `message()` naming `${NCCL_LIBRARIES}` or a find module's (`FindNCCL.cmake`) own `try_run` of what it found,
    nor a find module's `set()` or `if()` that stores or tests a library path (`set(_lib "${NCCL_LIBRARY}")`):
    the module's `find_library` and the imported target it defines are reported instead.

Why it breaks on ROCm:
    Neither the targets nor the libraries exist on a ROCm machine: configuration fails on the unknown
    target (or a `REQUIRED` `find_library`), or linking fails with `cannot find -lcudart`. Each CUDA library has
    a ROCm counterpart with its own CMake package and target name; TensorRT has none (its inference path is
    ported to MIGraphX, not relinked). The CUDA runtime, driver and NVRTC (`CUDA::cudart`, `CUDA::cuda_driver`,
    `CUDA::nvrtc`, `CUDA::toolkit`, `${CUDA_LIBRARIES}`) are medium: HIP's runtime target or hipRTC replaces each
    under one other name. The libraries keep the rule's severity.

Example:
    target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas nccl)

Use instead:
    `hip::host` / `hip::device` for the runtime, `roc::hipblas`, `roc::hipblaslt`, `hip::hipfft`,
    `hip::hiprand`, `roc::hipsparse`, `roc::hipsolver`, `rccl::rccl`, `MIOpen` for cuDNN, roctx for NVTX,
    each after its `find_package` (the message names the one to use); `migraphx::c` after
    `find_package(migraphx)` once TensorRT code is ported to MIGraphX.

References:
    https://rocm.docs.amd.com/en/latest/conceptual/cmake-packages.html
    https://rocm.docs.amd.com/en/latest/reference/api-libraries.html
    https://cmake.org/cmake/help/latest/module/FindCUDAToolkit.html
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.cmake._common import arg_position, commands, cuda_presence_guard
from scanner.rules.libraries._judgement import cuda_code_only, judged
from scanner.rules.textual import TENSORRT_LIBRARIES, library_replacement, once, text_rule

# `CUDA::cublas`; a FindTensorRT module's `TensorRT::nvinfer` / `TensorRT::OnnxParser`-style targets.
_IMPORTED = re.compile(r"CUDA::(\w+)|(?P<trt>TensorRT::\w+)", re.I)
_VARIABLE = re.compile(
    r"\$\{(CUDA_LIBRARIES|CUDA_(\w+?)_LIBRAR(?:Y|IES)|(CUDNN|NCCL)_LIBRAR(?:Y|IES)|(?P<trt>TENSORRT_LIBRAR(?:Y|IES)))\}",
    re.I,
)
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
} | TENSORRT_LIBRARIES
# The CUDA runtime, the driver, NVRTC and the toolkit's umbrella target: HIP's runtime (`hip::host`,
# `hip::device`) and hipRTC take their place under another name, so the fix is that name (medium in the policy's
# build-break band). The libraries (cuBLAS, cuDNN, NCCL, TensorRT) keep the rule's severity.
_RUNTIME = frozenset({"cudart", "cuda_driver", "cuda", "toolkit", "nvrtc"})
_ONE_NAME = "The ROCm counterpart is one name away (medium)."
# find_library's keywords: the names come after NAMES (or are the one argument after the variable).
_FIND_LIBRARY_KEYWORDS = frozenset(
    {"NAMES", "NAMES_PER_DIR", "HINTS", "PATHS", "PATH_SUFFIXES", "DOC", "NO_CACHE", "REQUIRED", "OPTIONAL"}
)


# Commands that name a library without linking it: a message's text (`FATAL_ERROR "... ${NCCL_LIBRARIES}"`).
_TEXT_ONLY = frozenset({"message"})
# A find module's own probe of the library it found (FindNCCL.cmake's version `try_run` with `LINK_LIBRARIES
# ${NCCL_LIBRARIES}`): the dependency is the `find_package` that loads the module, reported where the project's
# targets link the library.
_PROBES = frozenset({"try_run", "try_compile"})
# A find module's bookkeeping of the path it was given or found (`set(_user_lib "${NCCL_LIBRARY}")`,
# `if(IS_DIRECTORY "${NCCL_LIBRARY}")`): it stores or tests a path, which a user may point at the ROCm library.
_BOOKKEEPING = frozenset({"set", "unset", "if", "elseif", "else", "endif", "list", "get_filename_component"})
_FIND_MODULE = re.compile(r"(?:^|/)Find\w+\.cmake$")


def check(ctx: Context) -> None:
    find_module = bool(_FIND_MODULE.search(ctx.path))
    for command in commands(ctx):
        if command.name in _TEXT_ONLY or (find_module and command.name in _PROBES | _BOOKKEEPING):
            continue
        guard = cuda_presence_guard(ctx, command) if command.name in _LINK_COMMANDS else ""
        if guard:
            with judged(ctx, Severity.INFO):
                _command(ctx, command, guard)
        else:
            _command(ctx, command, "")


def _command(ctx, command, guard: str) -> None:
    """Report the CUDA libraries one command names; `guard`: the if() that keeps a ROCm build out of it."""
    tested = command.name in ("if", "elseif", "while")
    for k, arg in enumerate(command.args):
        if tested and k > 0 and command.args[k - 1].value == "TARGET":
            continue  # `if(TARGET CUDA::cupti)` asks whether it exists: it links nothing
        for match in _IMPORTED.finditer(arg.value):
            base = "nvinfer" if match.group("trt") else match.group(1).lower().removesuffix("_static")
            _report(ctx, arg, match.start(), match.group(0), base, guard)
        for match in _VARIABLE.finditer(arg.value):
            base = "nvinfer" if match.group("trt") else (match.group(2) or match.group(3) or "cudart").lower()
            _report(ctx, arg, match.start(), match.group(0), base, guard)
        if command.name in _LINK_COMMANDS and arg.value.lower() in _BARE:
            _report(ctx, arg, 0, arg.value, arg.value.lower(), guard)
    if command.name == "find_library":
        for arg in _library_names(command):
            _report(ctx, arg, 0, arg.value, arg.value.lower())


def _library_names(command) -> list:
    """The CUDA library names `find_library(VAR name ...)` / `find_library(VAR NAMES a b ...)` looks for."""
    args = command.args[1:]
    if args and args[0].value == "NAMES":
        names = []
        for arg in args[1:]:
            if arg.value in _FIND_LIBRARY_KEYWORDS:
                break
            names.append(arg)
    else:
        names = args[:1]
    return [arg for arg in names if arg.value.lower() in _BARE]


def _report(ctx, arg, offset: int, spelled: str, library: str, guard: str = "") -> None:
    line, col = arg_position(arg, offset)
    kind = "a TensorRT" if library in TENSORRT_LIBRARIES else "a CUDA"
    replacement = library_replacement(library, "cmake")
    if guard:
        message = (
            f"`{spelled}` is {kind} library, linked only under `{guard}`, which is false on a ROCm machine without "
            f"the CUDA toolkit: configuring and linking skip it there. Link {replacement} under a HIP check if "
            "the ROCm build needs that feature."
        )
    else:
        message = f"`{spelled}` is {kind} library that ROCm machines do not have: link {replacement} instead."
        if library in _RUNTIME:
            with judged(ctx, Severity.MEDIUM):
                once(ctx, line, col, f"{message} {_ONE_NAME}", length=len(spelled), key=spelled)
            return
    once(ctx, line, col, message, length=len(spelled), key=spelled)


RULE = text_rule(
    name="cmake-cuda-library-targets",
    summary="CUDA libraries linked in CMake (CUDA::cudart, CUDA::cublas, cudnn, nccl, ...)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    languages={"cmake"},
    check=cuda_code_only(check),
)
