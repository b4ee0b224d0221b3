"""nvcc-only compiler flags in CMake (CMAKE_CUDA_FLAGS, CUDA_NVCC_FLAGS, target_compile_options).

What it finds:
    Flags only nvcc understands, wherever CMake passes them: `-gencode`, `-arch=sm_XX`, `--gpu-architecture`,
    `-maxregcount`, `--extended-lambda` / `--expt-extended-lambda`, `--expt-relaxed-constexpr`, `-Xptxas`,
    `-Xcompiler`, `--use_fast_math`, `-lineinfo`, `-rdc=true`, `--default-stream`. A flag behind a generator
    expression on the NVIDIA compiler (`$<$<CUDA_COMPILER_ID:NVIDIA>:...>`, `$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>`),
    which clang evaluates to nothing, is the NVIDIA compiler's already and is not reported.

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
from scanner.rules.libraries._judgement import cuda_code_only
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


def check(ctx: Context) -> None:
    for command in commands(ctx):
        if command.name in ("message", "cuda_select_nvcc_arch_flags"):
            continue
        for arg in command.args:
            if "-" not in arg.value:
                continue
            # Behind a generator expression clang evaluates to nothing
            # (`$<$<CUDA_COMPILER_ID:NVIDIA>:--expt-relaxed-constexpr>`): the NVIDIA compiler's flag already.
            for_amd = genex.evaluate(arg.value, "cuda", "hipcc", []) if "$<" in arg.value else arg.value
            for pattern, advice in NVCC_FLAGS:
                for match in pattern.finditer(arg.value):
                    if for_amd is not arg.value and not pattern.search(for_amd):
                        continue
                    line, col = arg_position(arg, match.start())
                    flag = match.group(0)
                    once(
                        ctx,
                        line,
                        col,
                        f"`{flag}` is an nvcc option; HIP's clang rejects it: "
                        f"{advice.format(arch='`' + offload_arch(ctx) + '`')}.",
                        length=len(flag),
                        key=flag,
                    )


RULE = text_rule(
    name="cmake-nvcc-flags",
    summary="nvcc-only flags in CMake (-gencode, -arch=sm_XX, -maxregcount, --extended-lambda, ...)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    languages={"cmake"},
    check=cuda_code_only(check),
)
