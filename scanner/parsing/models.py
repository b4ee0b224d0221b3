"""Models of the dependency headers GPU code is written against, for a parse where the real headers are absent.

A PyTorch extension includes `torch/extension.h`, a CUTLASS kernel `cutlass/cutlass.h` and `cute/tensor.hpp`; these
arrive with an installed `torch` or a git submodule, which a scan rarely has. Stubbed empty, such a header costs the
translation unit its declarations ("use of undeclared identifier 'at'"). Like the prelude models libc, CUB and
Thrust, the files under scanner/data/models/ declare the API surface real code calls (and AMD's CK tile, the other
side of many such projects; SYCL, the Intel GPU backend beside a CUDA one; ExecuTorch, the other runtime a PyTorch
operator library builds its kernels for; Parrots and TensorFlow, the other frameworks CUDA operators bind to, with
Abseil, whose `absl::Status` TensorFlow's operators return; Catch2 and GoogleTest, the test macros of a project's unit
tests; dmlc-core, the submodule XGBoost and MXNet build on; nvbench, NVIDIA's benchmark harness of CUDA libraries; MathDx, NVIDIA's device-side solver,
BLAS, FFT and random-number libraries; RAPIDS' RAFT, RMM and logger, which cuML and the other RAPIDS libraries build on; OpenMP's runtime calls; CBLAS and MKL, a CPU backend's
BLAS; the Java Native Interface of JVM bindings; libcu++, the CUDA toolkit's `cuda::std`, `cuda::barrier` and
`cuda::ptx`), permissively (variadic templates, values that convert to anything): enough that the unit keeps its
declarations, not a reimplementation.

A header is modelled only when no include directory has it: a real header set (a --include-dir, a submodule
checkout, the build model's include directories) always wins, because the parse only stubs what it cannot find.
"""

from __future__ import annotations

import functools
from importlib import resources

MODEL_DIR = "/__rocport_models__"

# Which model a missing header maps to: by the spelled path's first folder, or by the whole name.
_BY_FOLDER = {
    "torch": "torch",
    "ATen": "torch",
    "c10": "torch",
    "pybind11": "pybind11",
    "cutlass": "cutlass",
    "cute": "cute",
    "ck_tile": "ck_tile",
    "sycl": "sycl",
    "executorch": "executorch",
    "parrots": "parrots",
    "catch2": "catch2",
    "gtest": "googletest",
    "gmock": "googletest",
    "dmlc": "dmlc",
    "nvbench": "nvbench",
    "cusolverdx": "mathdx",
    "cublasdx": "mathdx",
    "cufftdx": "mathdx",
    "curanddx": "mathdx",
    "raft": "raft",
    "rmm": "rmm",
    "rapids_logger": "rapids_logger",
    "tensorflow": "tensorflow",
    "absl": "abseil",
    # libcu++ (CCCL): `cuda/std/type_traits`, `cuda/barrier`, `nv/target`; a project's own `cuda/` folder is never
    # modelled, because a model stands in only for a header no include directory has.
    "cuda": "libcudacxx",
    "nv": "libcudacxx",
}
# `CL/` is OpenCL's folder too: only its SYCL header is modelled.
_BY_NAME = {
    "Python.h": "python",
    "torch/extension.h": "torch",
    "torch/all.h": "torch",
    "CL/sycl.hpp": "sycl",
    "catch.hpp": "catch2",
    "omp.h": "openmp",
    "cblas.h": "cblas",
    "mkl.h": "cblas",
    "mkl_cblas.h": "cblas",
    "mkl_vml.h": "cblas",
    "mkl_service.h": "cblas",
    "openblas/cblas.h": "cblas",
    "jni.h": "jni",
    "cusolverdx.hpp": "mathdx",
    "cublasdx.hpp": "mathdx",
    "cufftdx.hpp": "mathdx",
    "curanddx.hpp": "mathdx",
}
# A model that needs another's declarations includes it itself; this order is only for the health's listing.
# "permissive" (the value of any shape the template-library models return) stands in for no header.
FAMILIES = (
    "torch",
    "parrots",
    "tensorflow",
    "abseil",
    "pybind11",
    "python",
    "executorch",
    "cutlass",
    "cute",
    "ck_tile",
    "sycl",
    "libcudacxx",
    "catch2",
    "googletest",
    "dmlc",
    "nvbench",
    "mathdx",
    "raft",
    "rmm",
    "rapids_logger",
    "openmp",
    "cblas",
    "jni",
    "permissive",
)


def model_for(header: str) -> str:
    """The model family standing in for a missing header as the source spells it, or "" (an empty stub)."""
    name = header.strip().lstrip("./")
    if name in _BY_NAME:
        return _BY_NAME[name]
    folder = name.split("/", 1)[0] if "/" in name else ""
    return _BY_FOLDER.get(folder, "")


def model_path(family: str) -> str:
    return f"{MODEL_DIR}/{family}.h"


def stub_text(header: str) -> str:
    """What the stub of a missing header holds: an include of its model, or nothing."""
    family = model_for(header)
    return f'#include "{model_path(family)}"\n' if family else ""


@functools.cache
def model_text(family: str) -> str:
    return resources.files("scanner.data").joinpath(f"models/{family}.h").read_text(encoding="utf-8")


def model_files(families) -> list[tuple[str, str]]:
    """The unsaved files a parse needs for these families: each model, with those its models include."""
    return list(_model_files(frozenset(families)))


@functools.cache
def _model_files(families: frozenset[str]) -> tuple[tuple[str, str], ...]:
    needed = _closure(families)
    return tuple((model_path(family), model_text(family)) for family in FAMILIES if family in needed)


def models_pch_text() -> str:
    """The include lines that put every model into the prelude's precompiled header. ROCPORT_MODELS_PCH is defined
    while they are read: what a model keeps for the units that include its header (a library's short macros, after
    its include guard) stays out, and the stub's include of the model defines it in such a unit only."""
    includes = "".join(f'#include "{model_path(family)}"\n' for family in FAMILIES)
    return f"#define ROCPORT_MODELS_PCH\n{includes}#undef ROCPORT_MODELS_PCH\n"


def _closure(families) -> set[str]:
    needed, queue = set(), list(families)
    while queue:
        family = queue.pop()
        if family in needed:
            continue
        needed.add(family)
        text = model_text(family)
        queue += [other for other in FAMILIES if f'"{model_path(other)}"' in text]
    return needed


def modelled_families(stubbed) -> list[str]:
    """The families among a parse's stubbed headers, in FAMILIES order."""
    found = {model_for(name) for name in stubbed} - {""}
    return [family for family in FAMILIES if family in found]
