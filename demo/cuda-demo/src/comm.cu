// Multi-GPU helpers: NCCL all-reduce, NVTX ranges, managed memory hints, NVML telemetry.
#include <nccl.h>
#include <nvToolsExt.h>
#include <nvml.h>
#include <cuda.h>
#include "common.cuh"

texture<float, 1, cudaReadModeElementType> lookup_tex;

__global__ void gather(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch(lookup_tex, i);
}

void all_reduce(ncclComm_t comm, float *buf, size_t n, cudaStream_t stream) {
  nvtxRangePushA("all_reduce");
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, stream);
  nvtxRangePop();
}

void prefetch(float *managed, size_t bytes, int device, cudaStream_t stream) {
  cudaMemAdvise(managed, bytes, cudaMemAdviseSetPreferredLocation, device);
  cudaMemPrefetchAsync(managed, bytes, device, stream);
}

unsigned gpu_temperature() {
  nvmlDevice_t dev;
  unsigned temp = 0;
  nvmlInit();
  nvmlDeviceGetHandleByIndex(0, &dev);
  nvmlDeviceGetTemperature(dev, NVML_TEMPERATURE_GPU, &temp);
  return temp;
}

void driver_launch(CUfunction fn, void **args) {
  cuInit(0);
  cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, 0, args, 0);
}

bool is_device_pointer(const void *p) {
  cudaPointerAttributes attr;
  cudaPointerGetAttributes(&attr, p);
  return attr.type == 2;
}

void capture(cudaStream_t stream, cudaGraph_t *graph) {
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(stream, graph);
}
