"""cuda_fp16.h's and cuda_bf16.h's conversions that HIP's hip_fp16.h and hip_bf16.h lack, spelled with what they have
(same values), which hipify leaves as written and the translation then fails to compile:

- `__double2half(x)` -> `__half(__half_raw{static_cast<_Float16>(x)})`: one rounding, to nearest even, from double
  straight to half, as CUDA's does (`__float2half((float)x)` would round twice); `__half_raw` and its constructor
  are there even under `__HIP_NO_HALF_CONVERSIONS__`;
- `__floats2bfloat162_rn(a, b)` -> `__float22bfloat162_rn(make_float2(a, b))`: both halves rounded to nearest even;
- `__float2bfloat162_rn(x)` -> `__bfloat162bfloat162(__float2bfloat16(x))`: x rounded once to nearest even (HIP's
  `__float2bfloat16` is a `static_cast<__bf16>`), in both halves; x evaluated once, as CUDA's does;
- `make_bfloat162(x, y)` -> `__halves2bfloat162(x, y)`: the pair (x, y), HIP's name for cuda_bf16.h's maker;
- and one address conversion: `__cvta_generic_to_shared(p)` -> `((unsigned long long)(__attribute__((address_space(3)))
  const void*)(p))`, the shared-memory (LDS) address of p as PTX's cp.async takes it; scanner.translate.ptx turns such
  an address back into a pointer;
- cuda_pipeline_primitives.h's copies, done synchronously like cp.async's (scanner.translate.ptx):
  `__pipeline_memcpy_async(dst, src, n)` -> `__builtin_memcpy(dst, src, n)` (the zero-filling 4-argument form is
  left), `__pipeline_commit()` -> `((void)0)`, `__pipeline_wait_prior(n)` -> `((void)(n))`.
Every edit sits on the call's own tokens (its name, parentheses), so the names inside its arguments are still
translated. Host and device code alike: both headers declare these `__host__ __device__`.
"""

from __future__ import annotations

from scanner.translate.tokenwalk import Span, call_at

Edit = tuple[int, int, bytes]

# name -> (argument count, what replaces the name and its "(", what replaces its ")")
_REWRITES = {
    b"__double2half": (1, b"__half(__half_raw{static_cast<_Float16>(", b")})"),
    b"__floats2bfloat162_rn": (2, b"__float22bfloat162_rn(make_float2(", b"))"),
    b"__float2bfloat162_rn": (1, b"__bfloat162bfloat162(__float2bfloat16(", b"))"),
    b"make_bfloat162": (2, b"__halves2bfloat162(", b")"),
    b"__pipeline_memcpy_async": (3, b"__builtin_memcpy(", b")"),
    b"__pipeline_commit": (0, b"((void)0", b")"),
    b"__pipeline_wait_prior": (1, b"((void)(", b"))"),
    b"__cvta_generic_to_shared": (1, b"((unsigned long long)(__attribute__((address_space(3))) const void*)(", b"))"),
}
CALLS = frozenset(_REWRITES)


def header(name: bytes) -> bytes | None:
    """The HIP header that declares what the rewrite of `name` calls (none for the address conversion)."""
    return b"hip/hip_bf16.h" if b"bfloat16" in name else b"hip/hip_fp16.h" if b"half" in name else None


def call_edits(data: bytes, spans: list[Span], i: int, name: bytes) -> list[Edit]:
    """The edits for the call whose name is token i; none when it is not called with the expected arguments."""
    call = call_at(data, spans, i)
    count, opening, closing = _REWRITES[name]
    if call is None or len(call[2]) != count:
        return []
    paren, close, _ = call
    close_start = spans[close][1]
    return [(spans[i][1], spans[paren][1] + spans[paren][2], opening), (close_start, close_start + 1, closing)]
