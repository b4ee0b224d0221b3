"""What each CUDA name and header becomes, decided once per option set from HIPIFY's table.

A name is converted when its entry is supported (or experimental) in HIP; with `--roc`, names that have a
rocBLAS/rocSPARSE/... spelling take it, and names HIP lacks but a roc* library has become convertible. Everything
else stays as written and is counted as unconverted, the way hipify-clang counts it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

from scanner.nametable import NameEntry, load
from scanner.translate import thrust


@dataclass(frozen=True, slots=True)
class Target:
    replacement: bytes | None  # None: no HIP equivalent, left as written
    kind: str  # hipify-clang's statistics category
    api: str
    reason: str = ""
    experimental: bool = False  # HIP has it as experimental: renamed only with --experimental


_RUNTIME_APIS = ("CUDA RT API", "CUDA Driver API")


def _kind(entry: NameEntry) -> str:
    """The statistics category. Unsupported rows carry none in the table: derive it from the name's shape;
    runtime/driver functions whose category is unknown are counted as "function" (not a hipify category)."""
    if entry.kind:
        return entry.kind
    name = entry.cuda
    if name.startswith("__"):
        return "device_function"
    if name.endswith("_t") or re.match(r"^CU[a-z]", name):
        return "type"
    if re.match(r"^[A-Z0-9_]+$", name):
        return "numeric_literal"
    return "function" if entry.api in _RUNTIME_APIS else "library"


def decide(entry: NameEntry, roc: bool) -> tuple[str | None, str]:
    """(replacement or None, why not converted)."""
    status = entry.status
    if status in ("supported", "experimental"):
        if roc and entry.roc:
            return entry.roc, ""
        return (entry.hip or None), ("" if entry.hip else "HIP has no equivalent")
    if status == "roc_only":
        return (entry.roc, "") if roc else (None, "only a roc* equivalent exists (translate with --roc)")
    if status == "hip_unsupported":
        if roc and entry.roc:
            return entry.roc, ""
        return None, "hip* libraries lack it" + (" (a roc* equivalent exists: --roc)" if entry.roc else "")
    if status == "roc_unsupported":
        return (None, "roc* libraries lack it") if roc else ((entry.hip or None), "")
    return None, "HIP has no equivalent"


# Device functions HIPIFY's table (at the commit the scanner ships) calls unsupported that HIP has under the same
# name: the warp shuffles with a mask came in HIP 6.2 (behind HIP_ENABLE_WARP_SYNC_BUILTINS) and are declared by
# default since HIP 7.0, so both profiles' headers (HIP 7.2 and 7.14) have them. They are kept as they are and
# counted as converted, not as references HIP lacks.
HIP_SAME_NAME = frozenset({"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync"})


# Device functions HIPIFY's table calls unsupported that HIP spells otherwise, with the same effect: `__trap()` aborts
# the kernel and reports it to the host, which on AMD is clang's `__builtin_trap()` (s_trap; HIP's device `abort()` is
# that builtin too). diff-gaussian-rasterization's and llm.c's error checks call it.
HIP_OTHER_NAME = {"__trap": "__builtin_trap"}
# cuda_bf16.h's float to bf16 conversion rounding to nearest even: HIP's __float2bfloat16 is that conversion
# (a `__bf16` made from the float, rounded to nearest even) in HIP 7.2 and 7.14, which lack the `_rn` name
HIP_OTHER_NAME["__float2bfloat16_rn"] = "__float2bfloat16"
# CUDA's device breakpoint (`__brkpt()`: stops the thread for a debugger) is clang's debug trap on AMD (`s_trap 3`,
# what a debugger attached to the wave catches); HIP declares no `__brkpt`.
HIP_OTHER_NAME["__brkpt"] = "__builtin_debugtrap"

# Block-scope atomics (CUDA's `atomicAdd_block`, ...: atomic among the threads of one block) -> HIP's device-scope
# atomics of the same operation, which are atomic among more threads: a stronger guarantee, the same results. HIPIFY's
# table has no row for them.
BLOCK_ATOMICS = {
    f"atomic{op}_block": f"atomic{op}"
    for op in ("Add", "Sub", "Exch", "Min", "Max", "Inc", "Dec", "CAS", "And", "Or", "Xor")
}
# Runtime names HIPIFY's table (at the commit the scanner ships) calls unsupported that both bundled HIPs (7.2 and
# 7.14) declare under the hip spelling with the same meaning and arguments: stream attributes (HIP defines
# hipStreamAttrValue/hipStreamAttrID and the hipStreamAttribute* values as its launch attributes', as CUDA does),
# synchronization policies, event record and wait flags. Checked one by one against hip_runtime_api.h.
HIP_NEWER = {
    name: "hip" + name[4:]
    for name in (
        "cudaStreamAttrValue",
        "cudaStreamAttrID",
        "cudaStreamAttributeAccessPolicyWindow",
        "cudaStreamAttributeSynchronizationPolicy",
        "cudaStreamAttributeMemSyncDomainMap",
        "cudaStreamAttributeMemSyncDomain",
        "cudaStreamAttributePriority",
        "cudaStreamSetAttribute",
        "cudaStreamGetAttribute",
        "cudaStreamCopyAttributes",
        "cudaStreamGetId",
        "cudaSynchronizationPolicy",
        "cudaSyncPolicyAuto",
        "cudaSyncPolicySpin",
        "cudaSyncPolicyYield",
        "cudaSyncPolicyBlockingSync",
        "cudaEventRecordWithFlags",
        "cudaEventRecordDefault",
        "cudaEventRecordExternal",
        "cudaEventWaitDefault",
        "cudaEventWaitExternal",
        "cudaOccupancyAvailableDynamicSMemPerBlock",
        "cudaLaunchConfig_t",
        "cudaLaunchAttribute",
        "cudaLaunchKernelExC",
    )
} | {"cudaDevAttrMemoryPoolSupportedHandleTypes": "hipDeviceAttributeMemoryPoolSupportedHandleTypes"}
# The extensible launch (cudaLaunchConfig_t with its attributes, cudaLaunchKernelExC and the C++ template
# cudaLaunchKernelEx, which the table lacks): HIP 7.2 and 7.14 declare the same structures and calls. Thread-block
# clusters (cudaLaunchAttributeClusterDimension) have no counterpart on AMD GPUs and stay, reported.
EXTENSIBLE_LAUNCH = {"cudaLaunchKernelEx": "hipLaunchKernelEx"}
CLUSTER_REASON = "thread-block clusters (sm_90) have no counterpart on AMD GPUs: launch without them"
# CUDA's graphics map flags, which programs also pass to cudaGraphicsGLRegisterBuffer: the same values (0, 1, 2) as
# its register flags, whose HIP twins HIP has (HIP has no map-flag enum of its own).
HIP_NEWER |= {f"cudaGraphicsMapFlags{f}": f"hipGraphicsRegisterFlags{f}" for f in ("None", "ReadOnly", "WriteDiscard")}
# cuda_fp8.h's API, which HIPIFY's table (at the commit the scanner ships) calls unsupported: hip/hip_fp8.h has each under
# the hip spelling, the same OCP formats (E4M3, E5M2) and the same arguments in HIP 7.2 and 7.14 (checked one by one
# against amd_hip_fp8.h). On gfx942, whose fp8 hardware is FNUZ, HIP declares the OCP types' device conversions for
# the host only, so a kernel computing with them does not build there: the compiler says so, nothing is faked.
HIP_NEWER |= {
    f"__nv_{name}": f"__hip_{name}"
    for name in (
        *(f"fp8{width}_{kind}" for width in ("", "x2", "x4") for kind in ("e4m3", "e5m2", "storage_t")),
        "fp8_interpretation_t",
        "saturation_t",
        *(
            f"cvt_{conversion}"
            for conversion in (
                "float_to_fp8",
                "float2_to_fp8x2",
                "double_to_fp8",
                "double2_to_fp8x2",
                "halfraw_to_fp8",
                "halfraw2_to_fp8x2",
                "bfloat16raw_to_fp8",
                "bfloat16raw2_to_fp8x2",
                "fp8_to_halfraw",
                "fp8x2_to_halfraw2",
            )
        ),
    )
} | {f"__NV_{name}": f"__HIP_{name}" for name in ("E4M3", "E5M2", "SATFINITE", "NOSAT")}
# cuBLAS's deprecated algorithm names that mean what a name HIP has means: since CUDA 11 CUBLAS_GEMM_DEFAULT lets
# cuBLAS use tensor cores too, so `..._TENSOR_OP` only allows what the default already does (cuBLAS's documentation:
# "[DEPRECATED] ... Allows the library to use Tensor Core operations whenever possible"). Each is translated as its
# twin is (hipBLAS's HIPBLAS_GEMM_DEFAULT; rocBLAS's standard algorithm with --roc).
DEPRECATED_TWINS = {
    "CUBLAS_GEMM_DEFAULT_TENSOR_OP": "CUBLAS_GEMM_DEFAULT",
    "CUBLAS_GEMM_DFALT_TENSOR_OP": "CUBLAS_GEMM_DEFAULT",
}
# CUDA types a program may name by their struct tag (`struct cudaGraphicsResource *res`) whose HIP name is a typedef:
# after `struct`, the tag HIP's typedef names (`typedef struct _hipGraphicsResource hipGraphicsResource`, 7.2 and 7.14)
STRUCT_TAGS = {b"cudaGraphicsResource": b"_hipGraphicsResource"}
# The calling convention of a host callback (`void CUDART_CB done(cudaStream_t, cudaError_t, void*)`): empty on
# Linux, __stdcall on Windows; HIP's callbacks (hipStreamCallback_t, hipHostFn_t) take the default one, so it goes.
# (the driver API's CUDA_CB stays: the table calls it unsupported and ROC150 reports it)
CALLBACK_CONVENTIONS = ("CUDART_CB",)
# CUDA's directed-rounding arithmetic (`__fadd_rd`, `__dmul_ru`, `__fsqrt_rz`, ...): HIP declares it only under
# OCML_BASIC_ROUNDED_OPERATIONS, and ROCm's device libraries dropped the OCML functions it calls (ROCm/hip#750,
# HIPIFY#480), so no spelling builds; round-to-nearest (`_rn`) forms HIP has are translated as the table says.
_DIRECTED_ROUNDING = re.compile(r"^__[fd](?:add|sub|mul|div|rcp|sqrt|fma|fmaf|mul24)_r[duz]$")
DIRECTED_ROUNDING_REASON = (
    "HIP has no directed-rounding arithmetic: ROCm's device libraries dropped the OCML functions behind "
    "OCML_BASIC_ROUNDED_OPERATIONS; rewrite with round-to-nearest or bound the error by hand"
)


@functools.cache
def name_map(roc: bool) -> dict[bytes, Target]:
    table = load()
    out = {}
    for name, entry in table.by_name.items():
        replacement, reason = (name, "") if name in HIP_SAME_NAME else decide(entry, roc)
        replacement = HIP_OTHER_NAME.get(name) or HIP_NEWER.get(name) or replacement
        if replacement is None and _DIRECTED_ROUNDING.match(name):
            reason = DIRECTED_ROUNDING_REASON
        elif replacement is None and "Cluster" in name and entry.api in _RUNTIME_APIS:
            reason = CLUSTER_REASON
        out[name.encode()] = Target(
            replacement.encode() if replacement else None,
            _kind(entry),
            entry.api,
            reason if replacement is None else "",
            experimental=entry.status == "experimental",
        )
    for cuda, twin in DEPRECATED_TWINS.items():
        out[cuda.encode()] = out[twin.encode()]
    for cuda in CALLBACK_CONVENTIONS:
        out[cuda.encode()] = Target(b"", "define", "CUDA RT API")
    for cuda, hip in EXTENSIBLE_LAUNCH.items():
        out.setdefault(cuda.encode(), Target(hip.encode(), "function", "CUDA RT API"))
    for cuda, hip in BLOCK_ATOMICS.items():
        out.setdefault(cuda.encode(), Target(hip.encode(), "device_function", "CUDA RT API"))
    for cuda, hip in _HEADER_GUARDS.items():
        out[cuda.encode()] = Target(hip.encode(), "define", "CUDA RT API")
    if not roc:  # with --roc, cuBLAS becomes rocBLAS, whose header is not bundled to say its guard
        for cuda, hip in _HIPBLAS_GUARDS.items():
            out[cuda.encode()] = Target(hip.encode(), "define", "cuBLAS API")
    return out


# The include guards of CUDA's runtime headers, which code tests to know that a header came before it (the
# cuda-samples' helper_cuda.h declares checkCudaErrors under `#ifdef __DRIVER_TYPES_H__` and findCudaDevice under
# `#ifdef __CUDA_RUNTIME_H__`): HIPIFY's table has none, so its translation hides them. Each becomes the guard of
# the HIP header its include is translated to (the same in HIP 7.2 and 7.14).
_HEADER_GUARDS = {
    "__DRIVER_TYPES_H__": "HIP_INCLUDE_HIP_DRIVER_TYPES_H",
    "__CUDA_RUNTIME_H__": "HIP_INCLUDE_HIP_HIP_RUNTIME_H",
    "__CUDA_RUNTIME_API_H__": "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H",
}
# cuBLAS's, for the hipBLAS header cublas_v2.h becomes (helper_cuda.h's `_cudaGetErrorEnum(cublasStatus_t)`, which
# its checkCudaErrors needs once a program includes cuBLAS).
_HIPBLAS_GUARDS = {"CUBLAS_API_H_": "HIPBLAS_H", "CUBLAS_V2_H_": "HIPBLAS_H"}


# Headers HIPIFY maps that the 6.3 table does not list (cooperative groups' algorithm headers), and CUDA's bf16
# header, whose HIP twin (hip/hip_bf16.h: __hip_bfloat16, __bfloat162float...) the table predates.
_EXTRA_HEADERS = {
    "cooperative_groups/reduce.h": "hip/cooperative_groups/hip_reduce.h",
    "cooperative_groups/scan.h": "hip/cooperative_groups/hip_scan.h",
    "cuda_bf16.h": "hip/hip_bf16.h",
    "cuda_fp8.h": "hip/hip_fp8.h",  # and its names (HIP_NEWER)
    "cuda_pipeline_primitives.h": "",  # its calls become synchronous copies (scanner.translate.halfcalls)
    # OpenGL interop: HIP ships its counterpart (hipGraphicsGLRegisterBuffer...), whose names the table has
    "cuda_gl_interop.h": "hip/hip_gl_interop.h",
}
# NCCL, which HIPIFY's table leaves out: RCCL keeps its whole API (`ncclAllReduce`, `ncclComm_t`, `NCCL_VERSION_CODE`,
# never renamed) under its own header name (ROC133 says the same).
_LIBRARY_HEADERS = {"nccl.h": ("rccl/rccl.h", "NCCL API")}
# The bf16 types of cuda_bf16.h's API. HIPIFY's table gives `__nv_bfloat16` hipBLAS's `hip_bfloat16` (a struct
# without __bfloat162float and the rest); in a file that includes cuda_bf16.h the kernels use the header's own
# API, whose HIP spelling is hip_bf16.h's __hip_bfloat16.
BF16_HEADER = b"cuda_bf16.h"
_CUBLAS_INCLUDE = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*[<\"]cublas", re.MULTILINE)


def uses_bf16_api(data: bytes) -> bool:
    """Whether a file's bf16 types are cuda_bf16.h's (hip_bf16.h's `__hip_bfloat16`, `bf16_name_map`): when it
    includes that header, and also when it includes no cuBLAS header, for then `__nv_bfloat16` reached it through a
    header of the project that does (llm.c's kernels and their common.h, shared by host and device code: hipBLAS's
    `hip_bfloat16` there fails to build against the header's `__hip_bfloat16`). Only a file that includes cuBLAS
    and not cuda_bf16.h keeps the table's hipBLAS type, as hipify-clang writes it for hipBLAS's bf16 API."""
    return BF16_HEADER in data or not _CUBLAS_INCLUDE.search(data)


_BF16_TYPES = {
    "__nv_bfloat16": "__hip_bfloat16",
    "nv_bfloat16": "__hip_bfloat16",
    "__nv_bfloat162": "__hip_bfloat162",
    "nv_bfloat162": "__hip_bfloat162",
    "__nv_bfloat16_raw": "__hip_bfloat16_raw",
    "__nv_bfloat162_raw": "__hip_bfloat162_raw",
}


@functools.cache
def bf16_name_map(roc: bool) -> dict[bytes, Target]:
    """`name_map` for a file that includes cuda_bf16.h: its bf16 types become hip_bf16.h's."""
    out = dict(name_map(roc))
    for cuda, hip in _BF16_TYPES.items():
        out[cuda.encode()] = Target(hip.encode(), "device_type", "CUDA RT API")
    return out


@functools.cache
def _cub_headers() -> dict[str, str]:
    """CUB's own headers (`cub/block/block_load.cuh`) -> hipCUB's twins (`hipcub/block/block_load.hpp`): HIPIFY's
    table maps only `cub/cub.cuh`, and hipCUB keeps CUB's layout (scanner/data/hipcub_headers.txt lists it)."""
    text = resources.files("scanner.data").joinpath("hipcub_headers.txt").read_text(encoding="utf-8")
    stems = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return {f"cub/{stem}.cuh": f"hipcub/{stem}.hpp" for stem in stems}


@functools.cache
def header_map(roc: bool) -> dict[str, Target]:
    table = load()
    out = {name: Target(hip.encode(), "include", "CUB API") for name, hip in _cub_headers().items()}
    out |= {name: Target(hip.encode(), "include", "CUDA RT API") for name, hip in _EXTRA_HEADERS.items()}
    out |= {name: Target(hip.encode(), "include", api) for name, (hip, api) in _LIBRARY_HEADERS.items()}
    out |= {name: Target(hip.encode(), "include", thrust.API) for name, hip in thrust.HEADERS.items()}
    for name, entry in table.headers.items():
        replacement, reason = decide(entry, roc)
        if replacement is None and entry.status == "supported" and not entry.hip:
            replacement, reason = "", ""  # nothing to include in HIP (device_launch_parameters.h): removed
        out[name] = Target(replacement.encode() if replacement is not None else None, entry.kind, entry.api, reason)
    return out


@functools.cache
def shared_with_c() -> frozenset[bytes]:
    """Names plain C/C++ (CPU, Vulkan, Metal code) uses too, so they say nothing about a file being CUDA: the
    table's entries that keep their name in HIP (`max`, `exp`, `fabsf`, `clock`, `GLuint`) and CUDA's plain-named
    math functions (`saturate`, `umin`). The `__`-prefixed intrinsics (`__syncthreads`, `__expf`) are CUDA's own."""
    out = set()
    for name, entry in load().by_name.items():
        if name.startswith("__") or entry.api != "CUDA RT API":  # CUB_MAX is CUB's
            continue
        if entry.hip == name or _kind(entry) == "device_function":
            out.add(name.encode())
    return frozenset(out)


@functools.cache
def hip_names() -> frozenset[bytes]:
    """Every HIP or roc* name of the table that is not also a CUDA name (a mapping line's right-hand side)."""
    table = load()
    out = {name.encode() for entry in table.by_name.values() for name in (entry.hip, entry.roc) if name}
    return frozenset(out - {name.encode() for name in table.by_name})
