"""nvcc-only compiler flags in CMake (CMAKE_CUDA_FLAGS, CUDA_NVCC_FLAGS, target_compile_options).

What it finds:
    Flags only nvcc understands, wherever CMake passes them: `-gencode`, `-arch=sm_XX`, `--gpu-architecture`,
    `-maxregcount`, `--extended-lambda` / `--expt-extended-lambda`, `--expt-relaxed-constexpr`, `-Xptxas`,
    `-Xcompiler`, `--use_fast_math`, `-lineinfo`, `-rdc=true`, `--default-stream`. A flag behind a generator
    expression on the NVIDIA compiler (`$<$<CUDA_COMPILER_ID:NVIDIA>:...>`, `$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>`,
    `$<$<CXX_COMPILER_ID:NVIDIA>:...>`, `$<$<STREQUAL:${CMAKE_CUDA_COMPILER_ID},NVIDIA>:...>`), which clang
    evaluates to nothing, is the NVIDIA compiler's already and is not reported. One behind
    `$<COMPILE_LANGUAGE:CUDA>` (or `$<$<COMPILE_LANGUAGE:CUDA>:...>`) reaches CUDA-language sources only: a port
    that compiles them as HIP (`LANGUAGE HIP`) never passes it, so it is info.

    A flag set on source files (`set_source_files_properties(x.cu PROPERTIES COMPILE_OPTIONS ...)`,
    `COMPILE_FLAGS`, `set_property(SOURCE ...)`) is high: it goes to whatever compiles the file, so the HIP
    build passes it to clang and stops; unless a generator expression or an `if()` keeps it to the NVIDIA side
    (`if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")`, `if(USE_CUDA)`, the `else()` of `if(USE_ROCM)`), then
    medium like the rest: a language's flags (`CMAKE_CUDA_FLAGS`, `CUDA_NVCC_FLAGS`) do not reach a HIP build.

Why it breaks on ROCm:
    HIP sources are compiled by clang (hipcc / amdclang++), which rejects nvcc's options or means something
    else by them. Some have a clang spelling, some are unnecessary (clang accepts device lambdas and constexpr
    host functions in device code), and some have no equivalent (there is no ptxas; register limits come
    from `__launch_bounds__`).

Example:
    set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} --extended-lambda -maxregcount=64 -gencode arch=compute_80,code=sm_80")

Use instead:
    `--offload-arch=gfx942` (or `CMAKE_HIP_ARCHITECTURES`) for architectures, `-ffast-math` for
    `--use_fast_math`, `-fgpu-rdc` for `-rdc=true`, `-fgpu-default-stream=per-thread`, `-g`/`-gline-tables-only`
    for `-lineinfo`; drop `--extended-lambda`, `--expt-relaxed-constexpr`, `-Xptxas` and `-maxregcount`
    (use `__launch_bounds__`), pass `-Xcompiler` arguments directly. Set them in `CMAKE_HIP_FLAGS`.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_guide.html
    https://rocm.docs.amd.com/projects/llvm-project/en/latest/reference/rocmcc.html
    https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/index.html
"""

import re

from scanner.analysis.context import Context
from scanner.build import genex
from scanner.model import Risk, Severity
from scanner.rules.cmake._common import arg_position, commands
from scanner.rules.libraries._judgement import cuda_code_only, judged
from scanner.rules.textual import offload_arch, once, text_rule

# flag regex -> what to do on ROCm ({arch} is the target's --offload-arch)
NVCC_FLAGS: list[tuple[re.Pattern, str]] = [
    (re.compile(r"(?<![\w-])(?:-gencode|--generate-code)\b"), "use {arch}"),
    (re.compile(r"(?<![\w-])(?:-arch|--gpu-architecture|-code|--gpu-code)[= ]?(?:sm|compute|lto)_\w+"), "use {arch}"),
    (
        re.compile(r"(?<![\w-])(?:-maxregcount|--maxrregcount)\b"),
        "no equivalent: limit registers with `__launch_bounds__`",
    ),
    (re.compile(r"(?<![\w-])--(?:expt-)?extended-lambda\b"), "drop it: clang accepts device lambdas"),
    (
        re.compile(r"(?<![\w-])--expt-relaxed-constexpr\b"),
        "drop it: clang calls constexpr host functions on the device",
    ),
    (re.compile(r"(?<![\w-])(?:-Xptxas|--ptxas-options)\b"), "drop it: there is no ptxas on ROCm"),
    (
        re.compile(r"(?<![\w-])(?:-Xcompiler|--compiler-options)\b"),
        "pass its arguments directly (clang is the host compiler)",
    ),
    (re.compile(r"(?<![\w-])(?:--use_fast_math|-use_fast_math)\b"), "use `-ffast-math`"),
    (re.compile(r"(?<![\w-])-lineinfo\b"), "use `-gline-tables-only` (or `-g`)"),
    (re.compile(r"(?<![\w-])(?:-rdc|--relocatable-device-code)[= ]?true\b"), "use `-fgpu-rdc`"),
    (re.compile(r"(?<![\w-])--default-stream[= ]?per-thread\b"), "use `-fgpu-default-stream=per-thread`"),
]


_COMPILER_ID = re.compile(r"\$\{CMAKE_(?:CUDA|CXX|HIP)_COMPILER_ID\}")


def check(ctx: Context) -> None:
    nvidia_only = _nvidia_only_commands(ctx)
    for command in commands(ctx):
        if command.name in ("message", "cuda_select_nvcc_arch_flags"):
            continue
        per_source = _per_source_property(command) and (command.line, command.col) not in nvidia_only
        severity = Severity.HIGH if per_source else Severity.MEDIUM
        help_texts = _help_texts(command)
        for index, arg in enumerate(command.args):
            if "-" not in arg.value or index in help_texts:
                continue
            # Behind a generator expression clang evaluates to nothing
            # (`$<$<CUDA_COMPILER_ID:NVIDIA>:--expt-relaxed-constexpr>`): the NVIDIA compiler's flag already.
            # `$<$<STREQUAL:${CMAKE_CUDA_COMPILER_ID},NVIDIA>:...>`: the compiler id is Clang's on ROCm.
            for_amd = (
                genex.evaluate(_COMPILER_ID.sub("Clang", arg.value), "cuda", "hipcc", [])
                if "$<" in arg.value
                else arg.value
            )
            # `$<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>`: sources a port compiles as HIP never get it.
            as_hip = (
                genex.evaluate(_COMPILER_ID.sub("Clang", arg.value), "hip", "hipcc", [])
                if "$<" in arg.value
                else arg.value
            )
            for pattern, advice in NVCC_FLAGS:
                for match in pattern.finditer(arg.value):
                    if for_amd is not arg.value and not pattern.search(for_amd):
                        continue
                    if as_hip is not arg.value and not pattern.search(as_hip):
                        line, col = arg_position(arg, match.start())
                        flag = match.group(0)
                        with judged(ctx, Severity.INFO):
                            once(
                                ctx,
                                line,
                                col,
                                f"`{flag}` is an nvcc option, but a generator expression gives it to CUDA-language "
                                "sources only: sources the port compiles as HIP (LANGUAGE HIP) never get it; drop "
                                "it with the CUDA language.",
                                length=len(flag),
                                key=flag,
                            )
                        continue
                    line, col = arg_position(arg, match.start())
                    flag = match.group(0)
                    message = (
                        f"`{flag}` is an nvcc option; HIP's clang rejects it: "
                        f"{advice.format(arch='`' + offload_arch(ctx) + '`')}."
                    )
                    if per_source:
                        message += (
                            f" It is set on the source file (`{command.name}`), so it reaches whatever compiles "
                            "the file: built as HIP, clang gets it and the build stops."
                        )
                    with judged(ctx, severity):
                        once(ctx, line, col, message, length=len(flag), key=flag)


_SOURCE_OPTIONS = frozenset({"COMPILE_OPTIONS", "COMPILE_FLAGS"})


def _help_texts(command) -> set[int]:
    """Indexes of the arguments that are help text for people, never flags: an `option()`'s description
    (`option(USE_FAST_MATH "Build with '--use_fast_math'?" ON)`) and a cache entry's docstring."""
    name = command.name.lower()
    if name in ("option", "cmake_dependent_option"):
        return {1}
    values = [arg.value for arg in command.args]
    if name == "set" and "CACHE" in values:
        return {values.index("CACHE") + 2}
    return set()


def _per_source_property(command) -> bool:
    """`set_source_files_properties(x.cu PROPERTIES COMPILE_OPTIONS ...)` or
    `set_property(SOURCE x.cu [APPEND] PROPERTY COMPILE_FLAGS ...)`: options of the file, whatever compiles it."""
    values = [a.value for a in command.args]
    if command.name == "set_source_files_properties":
        return any(v in _SOURCE_OPTIONS for v in values)
    if command.name == "set_property" and values[:1] == ["SOURCE"]:
        return any(v in _SOURCE_OPTIONS for v in values)
    return False


_NVIDIA_CONDITION = re.compile(r"(?<!NOT )\b(?:\w*NVIDIA\w*|\w*NVCC\w*|(?:USE|WITH|ENABLE)_CUDA\w*|CUDA\w*_FOUND)\b")
_AMD_CONDITION = re.compile(r"(?<!NOT )\b(?:\w*HIP\w*|\w*ROCM\w*|\w*ROCm\w*|\w*AMD\w*)\b")


def _nvidia_only_commands(ctx) -> set[tuple[int, int]]:
    """Positions of the commands inside an `if()` for the NVIDIA side only: the branch of a condition naming
    NVIDIA, nvcc or a CUDA switch (`if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")`, `if(USE_CUDA)`), or the
    `else()` of one naming HIP or ROCm."""
    out: set[tuple[int, int]] = set()
    stack: list[list] = []  # [condition text, in the else branch]
    for command in commands(ctx):
        name = command.name
        condition = " ".join(a.value for a in command.args)
        if name == "if":
            stack.append([condition, False])
        elif name == "elseif" and stack:
            stack[-1] = [condition, False]
        elif name == "else" and stack:
            stack[-1][1] = True
        elif name == "endif" and stack:
            stack.pop()
        elif any(
            (_NVIDIA_CONDITION.search(text) and not in_else) or (_AMD_CONDITION.search(text) and in_else)
            for text, in_else in stack
        ):
            out.add((command.line, command.col))
    return out


RULE = text_rule(
    name="cmake-nvcc-flags",
    summary="nvcc-only flags in CMake (-gencode, -arch=sm_XX, -maxregcount, --extended-lambda, ...)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    languages={"cmake"},
    check=cuda_code_only(check),
)
