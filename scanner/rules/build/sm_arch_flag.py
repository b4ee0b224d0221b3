"""NVIDIA GPU architecture flags in build scripts (-arch=sm_XX, -gencode, TORCH_CUDA_ARCH_LIST).

What it finds:
    `-arch=sm_80`, `-arch sm_90a`, `-gencode arch=compute_80,code=sm_80`, `--gpu-architecture=...`,
    `--generate-code`, and `TORCH_CUDA_ARCH_LIST=...`, in Makefiles, shell scripts, Dockerfiles, CI YAML and
    Python build scripts (`extra_compile_args`). CMake files are ROC205's.

Why it breaks on ROCm:
    `sm_XX`/`compute_XX` are NVIDIA compute capabilities. hipcc/clang compile for AMDGPU targets named
    `gfxNNN` with `--offload-arch`; `-gencode` and `--gpu-architecture` are rejected ("unknown argument"),
    `-arch=sm_80` is ignored with a warning, and a build without the right `--offload-arch` has no code object
    for the GPU it runs on ("invalid device function" at the first launch). The fix is a flag: medium, the
    severity policy's build break whose counterpart is one flag away (a compile that stops, or a run-time
    failure at the first launch, both medium).
    `TORCH_CUDA_ARCH_LIST` breaks nothing: ROCm builds of PyTorch ignore it and read `PYTORCH_ROCM_ARCH`
    (unset, an extension is built for every GPU the PyTorch build supports: slower builds, bigger
    binaries), so it is reported at info as a performance note.

    Flags in a CI or tooling Python script (under `ci/`, `.github/`, a `pre-commit/`, `lint/` or `docs/` folder)
    that imports no build API and names no compiler or build tool are data it hands elsewhere (the options of
    Compiler Explorer links in a README): low. Flags an `echo` only prints are not reported.

Example:
    nvcc -O3 -gencode arch=compute_80,code=sm_80 -c kernels.cu
    export TORCH_CUDA_ARCH_LIST="8.0;9.0"

Use instead:
    `--offload-arch=gfx942` (one per target: `gfx90a` MI200, `gfx942` MI300X, `gfx950` MI350), and
    `PYTORCH_ROCM_ARCH=gfx942` for PyTorch extensions.

References:
    https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html
    https://rocm.docs.amd.com/projects/llvm-project/en/latest/reference/rocmcc.html
    https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/index.html#gpu-name-gpu-architecture
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.build._common import build_matches, not_a_build, nvidia_arch_only
from scanner.rules.libraries._judgement import cuda_code_only, judged
from scanner.rules.textual import SCRIPT_LANGUAGES, arch_list, offload_arch, once, text_rule

_FLAG = re.compile(
    # nvcc's (and clang-CUDA's) architecture options with an NVIDIA value.
    r"(?P<flag>(?<![\w-])(?:-arch|--gpu-architecture|-code|--gpu-code|--cuda-gpu-arch|--offload-arch)(?:=|\s+)"
    r"[\"']?(?:sm|compute|lto)_\w+"
    # -gencode / --generate-code, and their `arch=compute_XX,code=sm_XX` written as a separate argument.
    r"|(?<![\w-])(?:-gencode|--generate-code)(?:[= ][\"']?arch=(?:[\w,=\[\]]|\$[({]?\w+[)}]?)+|(?![\w-]))"
    r"|(?<![\w-])arch=compute_\w+"
    # A variable holding an NVIDIA architecture (`CUDA_ARCH ?= sm_80`, `GPU_ARCH=sm_86`).
    r"|(?<![\w$])[A-Z0-9_]*ARCH[A-Z0-9_]*\s*(?:::=|:=|\?=|\+=|=)\s*[\"']?(?:sm|compute)_\d+\w*)"
    # PyTorch's architecture list, and CMake's when a script passes it on the command line.
    r"|(?<!\w)(?P<torch>TORCH_CUDA_ARCH_LIST)(?!\w)"
    r"|(?<![\w-])-D(?P<cmake>CMAKE_CUDA_ARCHITECTURES)(?!\w)|(?<![\w$])(?P<env>CUDAARCHS)(?!\w)"
)


def check(ctx: Context) -> None:
    for line, col, match in build_matches(ctx, _FLAG):
        if match.group("torch"):
            with judged(ctx, Severity.INFO, Risk.PERFORMANCE):
                once(
                    ctx,
                    line,
                    col,
                    "`TORCH_CUDA_ARCH_LIST` is ignored by ROCm builds of PyTorch, which read "
                    "`PYTORCH_ROCM_ARCH`: nothing breaks, but without it an extension is built for every GPU the "
                    f'PyTorch build supports (for these targets: `PYTORCH_ROCM_ARCH="{arch_list(ctx)}"`).',
                    length=len(match.group(0)),
                )
            continue
        if match.group("cmake") or match.group("env"):
            name = match.group("cmake") or match.group("env")
            hip = "CMAKE_HIP_ARCHITECTURES" if match.group("cmake") else "HIPARCHS"
            message = (
                f"`{name}` lists NVIDIA compute capabilities; CMake's HIP language reads `{hip}` with "
                f'AMDGPU targets (for these targets: `{hip}="{arch_list(ctx)}"`).'
            )
        else:
            message = (
                f"`{match.group('flag')}` names an NVIDIA GPU architecture; hipcc/clang compile for AMDGPU "
                f"targets: use `{offload_arch(ctx)}`."
            )
        only = nvidia_arch_only(ctx, line)
        if only:
            with judged(ctx, Severity.INFO):
                once(ctx, line, col, f"{message} {only}", length=len(match.group(0)))
            continue
        data = not_a_build(ctx)
        if data:
            with judged(ctx, Severity.LOW):
                once(ctx, line, col, f"{message} {data}", length=len(match.group(0)))
            continue
        once(ctx, line, col, message, length=len(match.group(0)))


RULE = text_rule(
    name="build-sm-arch-flag",
    summary="NVIDIA architecture flags (-arch=sm_XX, -gencode, TORCH_CUDA_ARCH_LIST) in build scripts",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)
