"""The device functions that emulate PTX's warp-wide matrix instructions (`ldmatrix`, `mma.sync`), written once into
a translated file that uses them (scanner.translate.ptx_warp); the semantics test compiles this same text for the
host with a simulated warp (tests/scanner/translate/test_ptx_warp_semantics.py).

A CUDA warp is 32 lanes; a gfx942 wavefront is 64, so each 32-lane half of a wavefront runs as one warp, as the
kernel's own `threadIdx.x % 32` arithmetic already assumes: every exchange is `__shfl(v, src, 32)`, which HIP keeps
within the caller's 32-lane group. Each lane computes its own fragment of D from the A and B elements it fetches
from the lanes that own them, laid out as the PTX ISA's "Matrix Fragments for mma.m16n8k*" tables say
(groupID = lane / 4, threadID_in_group = lane % 4, element i of a fragment counted from the first register's low
bits). Products of f16, bf16 and tf32 values are exact in float and s8/u8 products in int, so the sums differ from
the tensor cores' only in the order of float additions, which the ISA does not fix; an f16 accumulator is summed
in float and rounded once to f16. Exact, but slow: dozens of shuffles per instruction; a port to MFMA (rocWMMA or
`__builtin_amdgcn_mfma_*`) is what makes it fast, and ROC120/ROC139 keep saying so.

The hooks a host build replaces: `__lane_id()`, `__shfl(unsigned, int, int)`, `__device__`, and
ROCPORT_SHARED_BYTES, the bytes at a 32-bit shared-memory (LDS) address as PTX takes it (from
`__cvta_generic_to_shared` or `cvta.to.shared`), the same conversion as the cp.async rewrite's (scanner.translate.ptx).
"""

from __future__ import annotations

GUARD = "ROCPORT_PTX_WARP_EMULATION"

HELPERS = r"""
#ifndef ROCPORT_PTX_WARP_EMULATION
#define ROCPORT_PTX_WARP_EMULATION
// ldmatrix and mma.sync, emulated by ROCport's translation with 32-lane shuffles: exact but slow;
// port to MFMA (rocWMMA or __builtin_amdgcn_mfma_*) for speed. Each 32-lane half of a wavefront is one warp.
#ifndef ROCPORT_SHARED_BYTES
#define ROCPORT_SHARED_BYTES(address) \
    ((const unsigned char*)(__attribute__((address_space(3))) unsigned char*)(unsigned long long)(address))
#endif
namespace rocport_ptx {
enum kind { f16, bf16, tf32, s8, u8 };

__device__ inline unsigned lane() { return __lane_id() & 31u; }
__device__ inline unsigned from(unsigned value, unsigned source) { return __shfl(value, (int)source, 32); }

// ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16: lanes 8j..8j+7 give the row addresses of matrix j; a lane
// gets, of matrix j, row lane/4 at columns 2*(lane%4) and +1 (.trans: rows 2*(lane%4) and +1 at column lane/4).
template <int count, bool trans>
__device__ inline void ldmatrix(unsigned address, unsigned* d) {
    const unsigned group = lane() >> 2, in_group = lane() & 3u;
#pragma unroll
    for (int j = 0; j < count; ++j) {
        if (!trans) {
            const unsigned row = from(address, 8u * j + group);
            __builtin_memcpy(&d[j], ROCPORT_SHARED_BYTES(row) + 4u * in_group, 4);
        } else {
            const unsigned low_row = from(address, 8u * j + 2u * in_group);
            const unsigned high_row = from(address, 8u * j + 2u * in_group + 1u);
            unsigned short low, high;
            __builtin_memcpy(&low, ROCPORT_SHARED_BYTES(low_row) + 2u * group, 2);
            __builtin_memcpy(&high, ROCPORT_SHARED_BYTES(high_row) + 2u * group, 2);
            d[j] = (unsigned)high << 16 | low;
        }
    }
}

// Element e of a 32-bit fragment register, as its value (low bits first).
template <kind k> struct element;
template <> struct element<f16> {
    static constexpr int per = 2;
    __device__ static float at(unsigned r, int e) { return (float)__builtin_bit_cast(_Float16, (unsigned short)(r >> 16 * e)); }
};
template <> struct element<bf16> {
    static constexpr int per = 2;
    __device__ static float at(unsigned r, int e) { return __builtin_bit_cast(float, (r >> 16 * e) << 16); }
};
// a .tf32 operand is a 32-bit float of which the tensor core reads sign, exponent and the 10 upper mantissa bits
template <> struct element<tf32> {
    static constexpr int per = 1;
    __device__ static float at(unsigned r, int) { return __builtin_bit_cast(float, r & 0xffffe000u); }
};
template <> struct element<s8> {
    static constexpr int per = 4;
    __device__ static int at(unsigned r, int e) { return (signed char)(r >> 8 * e); }
};
template <> struct element<u8> {
    static constexpr int per = 4;
    __device__ static int at(unsigned r, int e) { return (unsigned char)(r >> 8 * e); }
};

// Where element i of a lane's A and B fragments sits (the ISA's tables, t = threadID_in_group): A's row is groupID
// (+8 when upper(i)), its column a_col(i, t); B's row is b_row(i, t), its column groupID. K and the elements per
// register pick the table.
template <int K, int per> struct layout;
template <> struct layout<16, 2> {  // m16n8k16 .f16/.bf16: a0..a7 in 4 registers, b0..b3 in 2
    static constexpr int a_regs = 4, b_regs = 2;
    static constexpr bool upper(int i) { return !(i < 2 || (i >= 4 && i < 6)); }
    static constexpr int a_col(int i, int t) { return t * 2 + (i & 1) + (i >= 4 ? 8 : 0); }
    static constexpr int b_row(int i, int t) { return t * 2 + (i & 1) + (i >= 2 ? 8 : 0); }
};
template <> struct layout<8, 2> {  // m16n8k8 .f16/.bf16: a0..a3 in 2 registers, b0..b1 in 1
    static constexpr int a_regs = 2, b_regs = 1;
    static constexpr bool upper(int i) { return i >= 2; }
    static constexpr int a_col(int i, int t) { return t * 2 + (i & 1); }
    static constexpr int b_row(int i, int t) { return t * 2 + i; }
};
template <> struct layout<8, 1> {  // m16n8k8 .tf32: a0..a3 in 4 registers, b0..b1 in 2
    static constexpr int a_regs = 4, b_regs = 2;
    static constexpr bool upper(int i) { return i == 1 || i == 3; }
    static constexpr int a_col(int i, int t) { return t + (i >= 2 ? 4 : 0); }
    static constexpr int b_row(int i, int t) { return t + (i >= 1 ? 4 : 0); }
};
template <> struct layout<32, 4> {  // m16n8k32 .s8/.u8: a0..a15 in 4 registers, b0..b7 in 2
    static constexpr int a_regs = 4, b_regs = 2;
    static constexpr bool upper(int i) { return !(i < 4 || (i >= 8 && i < 12)); }
    static constexpr int a_col(int i, int t) { return t * 4 + (i & 3) + (i >= 8 ? 16 : 0); }
    static constexpr int b_row(int i, int t) { return t * 4 + (i & 3) + (i >= 4 ? 16 : 0); }
};

// The rows groupID and groupID + 8 of A and the columns 2*t and 2*t + 1 of B that this lane's C/D fragment needs
// (c0, c1 at row groupID, c2, c3 at groupID + 8; columns 2*t + (i & 1)), fetched from their owners: A's row r is
// held by lanes 4*(r % 8) + 0..3, B's column n by lanes 4*n + 0..3.
template <int K, kind ka, kind kb, typename value>
__device__ inline void gather(const unsigned* a, const unsigned* b, value (&rows)[2][K], value (&cols)[2][K]) {
    using A = element<ka>;
    using B = element<kb>;
    using L = layout<K, A::per>;
    const unsigned group = lane() >> 2, in_group = lane() & 3u;
#pragma unroll
    for (int r = 0; r < L::a_regs; ++r) {
#pragma unroll
        for (int t = 0; t < 4; ++t) {
            const unsigned v = from(a[r], 4u * group + t);
#pragma unroll
            for (int e = 0; e < A::per; ++e) {
                const int i = r * A::per + e;
                rows[L::upper(i) ? 1 : 0][L::a_col(i, t)] = A::at(v, e);
            }
        }
    }
#pragma unroll
    for (int r = 0; r < L::b_regs; ++r) {
#pragma unroll
        for (int j = 0; j < 2; ++j) {
#pragma unroll
            for (int t = 0; t < 4; ++t) {
                const unsigned v = from(b[r], 4u * (2u * in_group + j) + t);
#pragma unroll
                for (int e = 0; e < B::per; ++e) {
                    cols[j][L::b_row(r * B::per + e, t)] = B::at(v, e);
                }
            }
        }
    }
}

// mma.sync.aligned.m16n8k{8,16}.row.col.f32.{f16,bf16,tf32}.{f16,bf16,tf32}.f32: d, c four floats
template <int K, kind ka, kind kb>
__device__ inline void mma(float* d, const unsigned* a, const unsigned* b, const float* c) {
    float rows[2][K], cols[2][K];
    gather<K, ka, kb>(a, b, rows, cols);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        float sum = c[i];
#pragma unroll
        for (int k = 0; k < K; ++k) sum += rows[i >> 1][k] * cols[i & 1][k];
        d[i] = sum;
    }
}

// mma.sync.aligned.m16n8k{8,16}.row.col.f16.f16.f16.f16: d, c two f16x2 registers (c0, c1 | c2, c3 << 16)
template <int K>
__device__ inline void mma_f16(unsigned* d, const unsigned* a, const unsigned* b, const unsigned* c) {
    const float wide[4] = {element<f16>::at(c[0], 0), element<f16>::at(c[0], 1), element<f16>::at(c[1], 0),
                           element<f16>::at(c[1], 1)};
    float sums[4];
    mma<K, f16, f16>(sums, a, b, wide);
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        const unsigned low = __builtin_bit_cast(unsigned short, (_Float16)sums[2 * r]);
        const unsigned high = __builtin_bit_cast(unsigned short, (_Float16)sums[2 * r + 1]);
        d[r] = high << 16 | low;
    }
}

// mma.sync.aligned.m16n8k32.row.col[.satfinite].s32.{s8,u8}.{s8,u8}.s32: d, c four ints, wrapping (or clamped)
template <int K, kind ka, kind kb, bool satfinite>
__device__ inline void mma_s32(unsigned* d, const unsigned* a, const unsigned* b, const unsigned* c) {
    int rows[2][K], cols[2][K];
    gather<K, ka, kb>(a, b, rows, cols);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        long long sum = (int)c[i];
#pragma unroll
        for (int k = 0; k < K; ++k) sum += rows[i >> 1][k] * cols[i & 1][k];
        if (satfinite) sum = sum < -2147483647LL - 1 ? -2147483647LL - 1 : sum > 2147483647LL ? 2147483647LL : sum;
        d[i] = (unsigned)sum;
    }
}
}  // namespace rocport_ptx
#endif  // ROCPORT_PTX_WARP_EMULATION
"""
