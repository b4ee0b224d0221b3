"""Thrust's CUDA back end spelled as rocThrust's HIP one.

rocThrust (ROCm's Thrust) keeps Thrust's `thrust/` headers and `thrust::` API, so most Thrust code translates by
keeping it as it is (HIPIFY's table has no Thrust entry at all). What names CUDA explicitly has a HIP twin in
rocThrust, with the same members: the back end's namespace (`thrust::cuda::par.on(stream)`,
`thrust::system::cuda::`, the implementation namespace `thrust::cuda_cub::`) and its public headers
(`thrust/system/cuda/execution_policy.h`, ...). rocThrust 3.3.0 has no `thrust::cuda` namespace, so these would
not build untranslated; `thrust::hip` (`hip_rocprim` inside) is the same policy on HIP streams.
"""

from __future__ import annotations

from scanner.translate.tokenwalk import IDENT, next_code, prev_code, text

API = "Thrust API"
# thrust/system/cuda/<name>.h -> thrust/system/hip/<name>.h: the public headers, every one with a twin in rocThrust
# 3.3.0 (ROCm 6.3, the one scanner/compile/data/rocm-headers.tar.xz bundles); detail/ headers are left alone.
_TWINS = ("config", "error", "execution_policy", "future", "memory", "memory_resource", "pointer", "vector")
HEADERS = {f"thrust/system/cuda/{name}.h": f"thrust/system/hip/{name}.h" for name in _TWINS}
# the namespaces, when they follow `thrust::` or `thrust::system::` and are followed by `::`
NAMESPACES = {b"cuda": b"hip", b"cuda_cub": b"hip_rocprim"}


def namespace_at(data: bytes, spans: list, i: int) -> bytes | None:
    """rocThrust's spelling of the namespace named at token i (`cuda` in `thrust::cuda::par`), or None when the word
    is not Thrust's back-end namespace there (a project's own `cuda::` namespace, libcu++'s `cuda::std`)."""
    hip = NAMESPACES.get(text(data, spans[i]))
    if hip is None:
        return None
    after = next_code(spans, i)
    if after >= len(spans) or text(data, spans[after]) != b"::":
        return None
    scope = prev_code(spans, i)
    if scope < 0 or text(data, spans[scope]) != b"::":
        return None
    owner = prev_code(spans, scope)
    if owner < 0 or spans[owner][0] != IDENT:
        return None
    name = text(data, spans[owner])
    if name == b"thrust":
        return hip
    if name == b"system" and hip == b"hip":  # thrust::system::cuda::
        scope = prev_code(spans, owner)
        owner = prev_code(spans, scope)
        if scope >= 0 and owner >= 0 and text(data, spans[scope]) == b"::" and text(data, spans[owner]) == b"thrust":
            return hip
    return None
