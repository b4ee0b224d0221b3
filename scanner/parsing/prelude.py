"""Builds the hermetic prelude: the hand-written CUDA header plus declarations generated from the name table.

The generated part declares every runtime/driver/library API of HIPIFY's table, so that a call such as
`cudaMallocManaged(&p, n)` or `cudnnCreate(&h)` resolves to a real cursor even though no toolkit header exists.
The shapes are deliberately permissive (variadic templates, `int`-like enum types, opaque handles): the rules
need names and call sites, not exact signatures.
"""

from __future__ import annotations

import functools
import re
from importlib import resources

from scanner import nametable

PRELUDE_PATH = "/__rocport__/cuda_prelude.h"
LIBC_PRELUDE_PATH = "/__rocport__/libc_prelude.h"  # C files get this part alone

_VECTOR_BASES = {
    "char": "signed char",
    "uchar": "unsigned char",
    "short": "short",
    "ushort": "unsigned short",
    "int": "int",
    "uint": "unsigned int",
    "long": "long",
    "ulong": "unsigned long",
    "longlong": "long long",
    "ulonglong": "unsigned long long",
    "float": "float",
    "double": "double",
}
_MATH_FLOAT = (
    "sqrtf rsqrtf cbrtf expf exp2f exp10f expm1f logf log2f log10f log1pf sinf cosf tanf asinf acosf atanf "
    "sinhf coshf tanhf asinhf acoshf atanhf fabsf floorf ceilf truncf roundf rintf erff erfcf erfinvf lgammaf "
    "tgammaf __expf __logf __sinf __cosf __tanf __log2f __exp10f __fsqrt_rn __frcp_rn __saturatef normcdff"
).split()
_MATH_FLOAT2 = "powf fmaxf fminf fmodf atan2f hypotf copysignf fdividef __fdividef __powf __fmul_rn __fadd_rn".split()
_MATH_DOUBLE = "sqrt rsqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan asin acos atan sinh cosh tanh erf erfc floor ceil trunc round rint fabs".split()
_MATH_DOUBLE2 = "pow fmax fmin fmod atan2 hypot copysign".split()

# Type names whose values are used as opaque handles (often compared with or set to nullptr).
_HANDLE_TYPE = re.compile(
    r"(Stream|Event|Handle|handle|Graph|Exec|Node|Array|Mipmapped|Module|Function|Kernel|Library|Context|Ctx|"
    r"Descriptor|Plan|Generator|Comm|MemPool|Resource|Object|Mem$|Info$|Desc_t|_t$)"
)
# Type names used by value with members: a struct keeps `prop.major` parseable as a member access.
_STRUCT_TYPE = re.compile(r"(Prop|Params|Parms|Attributes|Extent|Pos$|PitchedPtr|Config|Properties|_st$|^CUDA_[A-Z])")
_ENUMLIKE_TYPE = re.compile(
    r"(Error|Status|result|Kind|Mode|Type|Attr|Flags?|Format|Op$|Operation|Algo|Policy|Enum|_enum|Order|Level|Pref)"
)


def _vector_types() -> str:
    out = []
    for short, base in _VECTOR_BASES.items():
        for n in (1, 2, 3, 4):
            fields = ", ".join("xyzw"[:n])
            out.append(f"struct {short}{n} {{ {base} {fields}; }};")
            params = ", ".join(f"{base} {c}" for c in "xyzw"[:n])
            out.append(f"__host__ __device__ {short}{n} make_{short}{n}({params});")
    return "\n".join(out)


def _math() -> str:
    out = [f"__host__ __device__ float {f}(float);" for f in _MATH_FLOAT]
    out += [f"__host__ __device__ float {f}(float, float);" for f in _MATH_FLOAT2]
    out += [
        "__host__ __device__ float fmaf(float, float, float);",
        "__host__ __device__ double fma(double, double, double);",
    ]
    out += [f"__host__ __device__ double {f}(double);" for f in _MATH_DOUBLE]
    out += [f"__host__ __device__ double {f}(double, double);" for f in _MATH_DOUBLE2]
    out += [
        "__host__ __device__ int abs(int);",
        "__host__ __device__ int min(int, int);",
        "__host__ __device__ int max(int, int);",
        "__host__ __device__ unsigned umin(unsigned, unsigned);",
        "__host__ __device__ unsigned umax(unsigned, unsigned);",
    ]
    return "\n".join(out)


def _is_constant_name(name: str, kind: str) -> bool:
    if kind == "numeric_literal":
        return True
    if kind:
        return False
    return (
        name.isupper()
        or bool(re.match(r"^(cuda|cu|CU)[A-Z][a-z]+[A-Z]?\w*(Error|Success|Flag|Default)", name))
        or bool(_ENUMERATOR_FAMILY.match(name))
    )


# Enumerators HIPIFY's table lists without a kind (no HIP counterpart), whose families kernels launched with
# cudaLaunchKernelEx assign to a cudaLaunchAttribute's id: values, not functions.
_ENUMERATOR_FAMILY = re.compile(
    r"^(?!cudaLaunchMemSyncDomainMap)cuda(LaunchAttribute|LaunchMemSyncDomain|ClusterSchedulingPolicy)[A-Z][A-Za-z]*$"
)


# The special streams (cudaStreamLegacy, CU_STREAM_PER_THREAD) are handles, not the int values flags are.
_STREAM_HANDLE = re.compile(r"Stream(Legacy|PerThread)|STREAM_(LEGACY|PER_THREAD)")
_DEFINE_VALUE = re.compile(r"^(?:cuda[A-Z]\w*|CU_[A-Z0-9_]+|CUDA_[A-Z0-9_]+|CUDART_[A-Z0-9_]+)$")


def _type_declaration(name: str) -> str:
    if _STRUCT_TYPE.search(name):
        return f"struct {name} {{ int __rocport_opaque; }};"
    if _ENUMLIKE_TYPE.search(name) and not name.endswith("Handle_t"):
        return f"typedef int {name};"
    if _HANDLE_TYPE.search(name):
        return f"typedef struct __rocport_{name} *{name};"
    return f"typedef int {name};"


# The half and bfloat16 intrinsics return their own types: `half2 r = __floats2half2_rn(a, b)` and `return
# __hadd2(x, y)` from a function returning half2 only parse when the prelude says so (a double does not convert).
_RETURNS = (
    (re.compile(r"2float2$"), "float2"),
    (re.compile(r"2(float|double|int|uint|ll|ull|short|ushort|char|uchar)(_\w+)?$"), "double"),
    (re.compile(r"bfloat162|^__h\w*2_bf16$"), "__nv_bfloat162"),
    (re.compile(r"half2|^__h[a-z]*2(_\w+)?$|^__h2\w+$"), "__half2"),
    (re.compile(r"2bfloat16(_\w+)?$|^__float2bfloat16|bf16$"), "__nv_bfloat16"),
    (re.compile(r"2half(_\w+)?$|^__h(add|sub|mul|div|fma|neg|abs|max|min)(_sat|_rn|_nan|_relu)?$"), "__half"),
)


def _device_return(name: str) -> str:
    for pattern, type_name in _RETURNS:
        if pattern.search(name):
            return type_name
    return "double"


def _return_type(name: str) -> str:
    if name.endswith(("GetErrorString", "GetErrorName", "GetStatusString", "GetStatusName", "GetErrorEnum")):
        return "const char *"
    return "int"


@functools.cache
def libc_prelude_text() -> str:
    return resources.files("scanner.data").joinpath("prelude/libc_prelude.h").read_text(encoding="utf-8")


@functools.cache
def prelude_text() -> str:
    handwritten = resources.files("scanner.data").joinpath("prelude/cuda_prelude.h").read_text(encoding="utf-8")
    handwritten = handwritten.replace("/*@LIBC@*/", libc_prelude_text())
    declared = set(re.findall(r"[A-Za-z_]\w*", handwritten))
    table = nametable.load()
    types, constants, functions = [], [], []
    for entry in table.entries:
        name, kind = entry.cuda, entry.kind
        if entry.is_header or name in declared or not nametable.is_identifier(name):
            continue
        if kind == "define":
            # Flag and limit macros (cudaEventBlockingSync, cudaStreamNonBlocking, CU_MEMHOSTALLOC_*, CUDART_INF_F)
            # are values; the function-like ones (CUB_MAX, CubDebug) and the stream handles stay undeclared.
            if _DEFINE_VALUE.match(name) and not _STREAM_HANDLE.search(name):
                declared.add(name)
                constants.append(name)
            continue
        declared.add(name)
        if kind == "type" or (not kind and (name.endswith("_t") or re.match(r"^CU[a-z]", name))):
            types.append(_type_declaration(name))
        elif _is_constant_name(name, kind):
            constants.append(name)
        elif kind in ("device_function", "device_library", "device_type"):
            functions.append(f"template <class... A> __host__ __device__ {_device_return(name)} {name}(A...);")
        else:
            functions.append(f"template <class... A> {_return_type(name)} {name}(A &&...);")
    # One enum per 500 names keeps each declaration small enough for clang's diagnostics to stay readable.
    enums = ["enum : int { " + ", ".join(constants[i : i + 500]) + " };" for i in range(0, len(constants), 500)]
    # Inside a namespace pulled in by a using-directive: the translation unit then has a handful of top-level
    # children instead of ~6,500, and walking it to find the main file's declarations stays cheap.
    return "\n".join(
        [
            handwritten,
            "namespace __rocport_api {",
            _vector_types(),
            _math(),
            *types,
            *enums,
            *functions,
            "}",
            "using namespace __rocport_api;",
            "",
        ]
    )
