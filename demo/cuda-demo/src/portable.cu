// Code already written for both platforms: ROCport stays quiet here.
#include "common.cuh"

#ifdef __HIP_PLATFORM_AMD__
constexpr int kWavefront = 64;
#else
constexpr int kWavefront = 32;
#endif

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  if (i < n) x[i] *= a + lane * 0;
  int chunks = n % 32;  // bytes per chunk, not lanes
  (void)chunks;
}

__global__ void legacy(float *x) {
  int lane = threadIdx.x % 32;  // rocport: ignore[ROC101] this kernel only ever runs on NVIDIA builds
  x[lane] = 0.f;
}
