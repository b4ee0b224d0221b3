"""CUDA API name that HIP does not provide.

What it finds:
    Any use of a CUDA runtime or driver API name that HIPIFY's tables (6.3) list with no HIP equivalent:
    `cuCtxGetDevResource`, `cudaProfilerInitialize`, `cudaGraphConditionalHandleCreate`,
    `cudaMemcpyArrayToArray`, `cudaThreadSetLimit`, `CUdevResource`... Names that exist only in a roc*
    library and not in hip* are reported with the roc* name. One finding per name per line.

Why it breaks on ROCm:
    hipify leaves such names untranslated, so the ported file does not compile: there is no hip* function,
    type or enumerator to call. The feature must be redesigned around what HIP offers, or the code kept
    CUDA-only behind a platform guard. An error code with no HIP counterpart (`cudaErrorStubLibrary`,
    `CUDA_ERROR_NVLINK_UNCORRECTABLE`) is a high build break: nothing is left to compare with or switch on,
    so the handling around it must be rewritten; other names are medium. The Tensor Memory Accelerator
    and thread-block clusters (`CUtensorMap`, `cuTensorMapEncodeTiled`, `CU_TENSOR_MAP_*`,
    `cudaLaunchKernelEx` cluster attributes) are Hopper hardware no AMD GPU has: a kernel built on them is
    rewritten, not ported, so they are critical.

Example:
    cudaMemcpyArrayToArray(dst, 0, 0, src, 0, 0, bytes, cudaMemcpyDeviceToDevice);
    cudaProfilerInitialize("cfg", "out.csv", cudaKeyValuePair);

Use instead:
    The nearest HIP feature (e.g. `hipMemcpy2DArrayToArray` or `hipMemcpy3D` for array copies,
    `hipDeviceSetLimit` for `cudaThreadSetLimit`, rocprofiler instead of the legacy profiler API), or keep
    the CUDA path under `#ifndef __HIP_PLATFORM_AMD__` with a HIP alternative beside it.

References:
    https://rocm.docs.amd.com/projects/HIPIFY/en/latest/reference/tables/CUDA_Runtime_API_functions_supported_by_HIP.html
    https://rocm.docs.amd.com/projects/HIPIFY/en/latest/reference/tables/CUDA_Driver_API_functions_supported_by_HIP.html
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_guide.html

Known problems:
    The tables are HIPIFY 6.3's: a name HIP added later is still reported (`cudaMemoryTypeUnregistered` is
    skipped; `cudaLaunchKernelExC` and `cudaLaunchConfig_t` say that HIP now has them, and that the launch
    attributes still need a look). Device functions are skipped (HIPIFY marks e.g.
    `__shfl_down_sync` or the bf16 conversions unsupported although HIP provides them; ROC106 covers
    their lane masks), and so are bf16/fp8 types (`__nv_bfloat162`, `__nv_fp8_e4m3`: HIP has
    `__hip_bfloat162`, `__hip_fp8_e4m3`). cuDNN, cuBLASLt, NVRTC and CUB names belong to ROC131,
    ROC138, ROC122 and ROC135, cuBLAS/cuFFT/cuRAND/cuSPARSE/cuSOLVER names to ROC132 (which says when
    HIP has no equivalent); texture/surface references to ROC153. A name this rule reports is not
    also reported as deprecated or removed (ROC151/ROC152): its message says so instead. Only
    CUDA-prefixed names and `_t` typedefs are matched, so library tag names such as `pruneInfo` are not.
    A name the file declares itself (`enum cudaError_t { cudaErrorStubLibrary = 34 };` for weak stubs,
    `typedef enum X_enum {...} CUmemRangeHandleType;` for builds without cuda.h) is a note only (info) on the
    lines that see that declaration and no CUDA header: it compiles anywhere.
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.api._common import api_rule_check, names_owned_by
from scanner.rules.base import Rule
from scanner.rules.libraries._judgement import judged

NAMES = names_owned_by("ROC150")
# Names HIPIFY 6.3 lists without a HIP equivalent that later HIP releases provide (HIP's execution-control API).
_HIP_ADDED_LATER = {"cudaLaunchKernelExC": "hipLaunchKernelExC", "cudaLaunchConfig_t": "hipLaunchConfig_t"}
# The runtime's and the driver's error enumerators (cudaError_t, CUresult).
_ERROR_CODE = re.compile(r"^(cudaError[A-Z]\w*|CUDA_ERROR_\w+)$")
# Hopper's Tensor Memory Accelerator and thread-block clusters: hardware, not an API gap.
_HOPPER_HARDWARE = re.compile(r"tensor_?map|cluster", re.I)


def check(ctx: Context) -> None:
    name = ctx.token.text
    if ctx.platform_guarded or ctx.reported_on(ctx.token.line, f"`{name}`"):
        return
    entry = ctx.names.get(name)
    if entry is None:
        return
    own = _own_declaration(ctx, name)
    if own:
        with judged(ctx, Severity.INFO):
            ctx.report(
                f"`{name}` is this file's own declaration (line {own}), for builds without CUDA's headers, not "
                "CUDA's: it compiles anywhere; a note only."
            )
        return
    later = _HIP_ADDED_LATER.get(name)
    if later:
        with judged(ctx, Severity.MEDIUM):
            ctx.report(
                f"`{name}` is missing from HIPIFY 6.3's tables, but current HIP has `{later}`: port it by hand, and "
                "check the launch attributes the configuration sets (thread-block clusters, programmatic stream "
                "serialization) that AMD GPUs do not have."
            )
        return
    if entry.status == "roc_only" and entry.roc:
        message = f"`{name}` has no hip* equivalent, only `{entry.roc}` in a roc* library (HIPIFY 6.3 tables)"
    else:
        message = f"`{name}` has no HIP equivalent (HIPIFY 6.3 tables)"
    if entry.cuda_removed:
        message += f"; CUDA removed it in {entry.cuda_removed}"
    elif entry.cuda_deprecated:
        message += f"; CUDA deprecated it in {entry.cuda_deprecated}"
    message += ": redesign this part or keep it CUDA-only behind a platform guard."
    if _HOPPER_HARDWARE.search(name):
        ctx.report(
            message + " It drives Hopper hardware (the Tensor Memory Accelerator, thread-block clusters) that "
            "no AMD GPU has: the kernel around it is a rewrite."
        )
        return
    if _ERROR_CODE.match(name):
        with judged(ctx, Severity.HIGH):
            ctx.report(message + " An error code HIP does not have: the comparison or `case` does not compile.")
        return
    with judged(ctx, Severity.MEDIUM):
        ctx.report(message)


def _own_declaration(ctx: Context, name: str) -> int:
    """The line where the file itself defines `name` (`enum cudaError_t { cudaErrorStubLibrary = 34 };`,
    `typedef enum X_enum {...} CUmemRangeHandleType;`, `typedef int CUdevice;`), when this line sees that
    definition (under the same `#if` branches) and not a CUDA header's: 0 otherwise."""
    key = "rocport:own-cuda-declarations"
    own = ctx.memo.get(key)
    if own is None:
        own = ctx.memo[key] = _own_declarations(ctx)
    line = own.get(name, 0)
    if not line:
        return 0
    view = ctx.view
    outer = [(g.line, g.directive) for g in view.guards_at(line)]
    inner = [(g.line, g.directive) for g in view.guards_at(ctx.token.line)]
    if inner[: len(outer)] != outer:
        return 0
    includes = [i for i in view.includes if _CUDA_HEADER.search(i.header)]
    seen = ([(g.line, g.directive) for g in view.guards_at(i.line)] for i in includes if i.line < ctx.token.line)
    if any(inner[: len(guards)] == guards for guards in seen):
        return 0  # a CUDA header this line sees too: the names may be CUDA's
    return line


def _own_declarations(ctx: Context) -> dict[str, int]:
    found: dict[str, int] = {}
    in_enum = False
    for number, text in enumerate(ctx.lines, 1):
        if re.search(r"\benum\b[^;]*\{", text):
            in_enum = True
        for match in _DEFINES.finditer(text):
            found.setdefault(match.group(1) or match.group(2) or match.group(3), number)
        if in_enum:
            enumerator = _ENUMERATOR.match(text)
            if enumerator:
                found.setdefault(enumerator.group(1), number)
        if "}" in text:
            in_enum = False
    return found


# `enum cudaError_t {`, `} CUresult;` closing a typedef, `typedef int CUdevice;`.
_DEFINES = re.compile(r"\benum\s+(\w+)\s*[{:]|^\s*\}\s*(\w+)\s*;|\btypedef\b[^;{}()]*\b(\w+)\s*;")
# An enumerator: `cudaErrorStubLibrary = 34`, `CU_POINTER_ATTRIBUTE_SYNC_MEMOPS =` (value on the next line).
_ENUMERATOR = re.compile(r"^\s*(\w+)\s*(?:=[^;]*)?,?\s*(?://.*|/\*.*)?$")
_CUDA_HEADER = re.compile(r"(?:^|/)(?:cuda|cuda_runtime|cuda_runtime_api|driver_types|cudaTypedefs)\.h$")


RULE = Rule(
    name="api-cuda-api-without-hip-equivalent",
    formerly=("cuda-api-without-hip-equivalent",),
    summary="CUDA API name with no HIP equivalent in HIPIFY's tables",
    risk=Risk.BUILD_BREAK,
    severity=Severity.CRITICAL,  # Hopper's TMA and clusters; error codes are judged high, other names medium
    on=("identifier",),
    names=NAMES,
    check=api_rule_check(check),
)
