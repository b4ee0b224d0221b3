"""Thrust to rocThrust, which HIPIFY's table leaves out: rocThrust keeps Thrust's `thrust/` headers and API, so Thrust
code stays as written, except the CUDA back end it names explicitly, whose HIP twin rocThrust has
(scanner.translate.thrust): `thrust::cuda::` -> `thrust::hip::`, `thrust/system/cuda/X.h` -> `thrust/system/hip/X.h`."""

from __future__ import annotations

import pytest

from tests.scanner.translate.helpers import body, hipify


def test_thrust_includes_and_calls_are_kept_as_rocthrust_has_them():
    source = (
        "#include <thrust/device_vector.h>\n#include <thrust/sort.h>\n"
        "void f(thrust::device_vector<int>& v) { thrust::sort(thrust::device, v.begin(), v.end()); }\n"
    )
    assert body(source) == source


@pytest.mark.parametrize(
    ("cuda", "hip"),
    [
        ("thrust::cuda::par.on(s)", "thrust::hip::par.on(s)"),
        ("thrust::cuda::par_nosync", "thrust::hip::par_nosync"),
        ("thrust::system::cuda::error_category()", "thrust::system::hip::error_category()"),
        ("thrust::cuda_cub::tag()", "thrust::hip_rocprim::tag()"),
        ("::thrust::cuda::par", "::thrust::hip::par"),
    ],
)
def test_the_cuda_back_ends_namespace_becomes_rocthrusts(cuda, hip):
    assert body(f"auto p = {cuda};\n") == f"auto p = {hip};\n"


@pytest.mark.parametrize(
    "kept",
    ["cuda::std::atomic<int> a;", "my::cuda::thing t;", "auto s = thrust::system::cuda_cub;", "int cuda = 1;"],
)
def test_other_cuda_namespaces_are_not_thrusts(kept):
    assert body(f"{kept}\n") == f"{kept}\n"


def test_the_cuda_back_ends_public_headers_become_their_hip_twins():
    out = body("#include <thrust/system/cuda/execution_policy.h>\n#include <thrust/system/cuda/vector.h>\n")
    assert out == "#include <thrust/system/hip/execution_policy.h>\n#include <thrust/system/hip/vector.h>\n"


def test_the_namespace_is_counted_under_thrusts_api():
    stats = hipify("void f(cudaStream_t s) { auto p = thrust::cuda::par.on(s); }\n").stats
    assert stats.converted_by_api["Thrust API"] == 1 and stats.converted_by_name["cuda"] == 1
