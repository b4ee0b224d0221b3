"""NVRTC runtime compilation.

What it finds:
    Includes of `nvrtc.h` and lines calling NVRTC (`nvrtcCreateProgram`, `nvrtcCompileProgram`,
    `nvrtcGetPTX`, `nvrtcGetCUBIN`, `nvrtcGetLoweredName`, ...).

Why it breaks on ROCm:
    NVRTC does not exist on ROCm and the build fails. hipRTC offers the same calls under hiprtc* names
    (hipify renames them), but it compiles to AMDGPU code objects, not PTX: code that fetches PTX and
    patches it, hands it to `cuModuleLoadDataEx` with JIT options, or caches it per `sm_XX`, must change;
    compile options naming NVIDIA architectures (`--gpu-architecture=compute_80`, `-arch=sm_80`) or
    nvcc-only flags are rejected or ignored at run time, and NVVM IR / LTO-IR retrieval has no counterpart.

    In a project that already builds for ROCm through PyTorch's hipify (its setup.py tests `IS_HIP_EXTENSION` or
    `torch.version.hip`, and the file is one of its extension sources or has HIP branches of its own), a name
    hipify renames is a rename that build makes: low. Names with no hipRTC counterpart keep the rule's severity.

Example:
    const char *opts[] = {"--gpu-architecture=compute_80", "-default-device"};
    nvrtcCompileProgram(prog, 2, opts);
    nvrtcGetPTX(prog, ptx);

Use instead:
    hipRTC: `#include <hip/hiprtc.h>`, `hiprtcCreateProgram`, `hiprtcCompileProgram` with
    `--offload-arch=gfx90a` (or no architecture option: the current device's is used), `hiprtcGetCodeSize`/
    `hiprtcGetCode` for the code object, loaded with `hipModuleLoadData`.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_rtc.html
    https://rocm.docs.amd.com/projects/HIPIFY/en/latest/tables/CUDA_RTC_API_supported_by_HIP.html
    https://docs.nvidia.com/cuda/nvrtc/index.html
"""

from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Use, hip_name, library_rule
from scanner.rules.libraries._judgement import hipified_by_torch

_SPECIAL = {
    "nvrtcCompileProgram": "`nvrtcCompileProgram` → `hiprtcCompileProgram`; architecture options must name a gfx "
    "target (--offload-arch=gfx90a), not compute_XX/sm_XX.",
    "nvrtcGetPTX": "`nvrtcGetPTX` → `hiprtcGetCode`, which returns an AMDGPU code object, not PTX: load it with "
    "hipModuleLoadData and do not post-process it as PTX.",
    "nvrtcGetPTXSize": "`nvrtcGetPTXSize` → `hiprtcGetCodeSize` (an AMDGPU code object, not PTX).",
    "nvrtcGetCUBIN": "`nvrtcGetCUBIN` → `hiprtcGetCode` (an AMDGPU code object).",
    "nvrtcGetCUBINSize": "`nvrtcGetCUBINSize` → `hiprtcGetCodeSize` (an AMDGPU code object).",
}


def _use(ctx, tok) -> str:
    name = tok.text
    if name in _SPECIAL:
        return _SPECIAL[name]
    hip = hip_name(ctx, name)
    if hip:
        return f"NVRTC `{name}` → hipRTC `{hip}` (hipify renames it); hipRTC produces AMDGPU code objects, not PTX."
    return f"NVRTC `{name}` has no hipRTC equivalent: rework this step of the runtime compilation."


def _judge(ctx):
    """Low where the project's PyTorch build hipifies the file and the name has a hipRTC counterpart."""
    why = hipified_by_torch(ctx)
    if not why or (ctx.event == "identifier" and not hip_name(ctx, ctx.token.text)):
        return None
    return Severity.LOW, None, why


RULE = library_rule(
    name="ptx-nvrtc-runtime-compilation",
    formerly=("nvrtc-runtime-compilation",),
    summary="NVRTC runtime compilation (port to hipRTC, which emits AMDGPU code objects, not PTX)",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.MEDIUM,
    headers=[
        Header(
            r"nvrtc\.h",
            "<{header}> (NVRTC) is not on ROCm: use hipRTC (<hip/hiprtc.h>), which compiles to "
            "AMDGPU code objects, not PTX.",
        ),
    ],
    uses=[Use("nvrtc", _use, r"nvrtc[A-Z]\w*", call=True, known_only=True)],
    judge=_judge,
)
