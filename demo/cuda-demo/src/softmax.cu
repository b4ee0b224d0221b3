// Row softmax and layer norm, one block per row.
#include "common.cuh"
#include "ptx_utils.cuh"

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK, 4) softmax_kernel(float *out, const float *in, int cols) {
  __shared__ float warp_max[BLOCK / 32];
  __shared__ float warp_sum[32];
  const float *row = in + blockIdx.x * cols;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;

  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += BLOCK) m = fmaxf(m, ld_nc(row + c));
  m = warp_reduce_max(m);
  if (lane == 0) warp_max[warp] = m;
  __syncthreads();
  m = lane < BLOCK / 32 ? warp_max[lane] : -INFINITY;
  m = warp_reduce_max(m);

  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) s += __expf(row[c] - m);
  s = warp_reduce_sum(s);
  if (lane == 0) warp_sum[warp] = s;
  __syncthreads();
  s = warp_reduce_sum(lane < BLOCK / 32 ? warp_sum[lane] : 0.f);

  for (int c = threadIdx.x; c < cols; c += BLOCK) out[blockIdx.x * cols + c] = __expf(row[c] - m) / s;
}

__global__ void count_positive(const float *x, int n, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned ballot = __ballot_sync(0xffffffff, i < n && x[i] > 0.f);
  if ((threadIdx.x & 31) == 0) atomicAdd(count, __popc(ballot));
}

__global__ void layer_norm(float *out, const float *in, const float *gamma, int cols) {
  // Per-warp partial sums; lane masks built in 32 bits.
  int lane = threadIdx.x & 31;
  unsigned lower = (1u << lane) - 1;
  float v = in[blockIdx.x * cols + threadIdx.x];
  float mean = warp_reduce_sum(v) / cols;
#if __CUDA_ARCH__ >= 800
  float var = warp_reduce_sum((v - mean) * (v - mean)) / cols;
#else
  float var = 1.f;
#endif
  out[blockIdx.x * cols + threadIdx.x] = (v - mean) * rsqrtf(var + 1e-5f) * gamma[threadIdx.x] + lower * 0.f;
}

void launch_softmax(float *out, const float *in, int rows, int cols, cudaStream_t stream) {
  softmax_kernel<256><<<rows, 256, 0, stream>>>(out, in, cols);
  CUDA_CHECK(cudaGetLastError());
}
