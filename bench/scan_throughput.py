"""Scanner throughput: generate a realistic CUDA corpus, scan it with 1 and 2 jobs, report lines/s and memory.

    python bench/scan_throughput.py [--files 2000] [--keep DIR] [--json FILE]

The corpus mixes what real CUDA projects hold: kernels with warp reductions and shared memory, host code on the
runtime API and the libraries (cuBLAS, NCCL, cuDNN), headers with macros and templates, and includes of headers
that do not exist on the scanning machine (the toolkit, third-party libraries), so stubbing is exercised too.
Memory: the peak RSS of the parent (which streams results) and of the largest worker; the parent's peak is also
measured on a quarter of the corpus, so growth with the number of files shows.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import jsonout  # noqa: E402

KERNEL = """\
// {name}: generated benchmark kernel file {index}
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include "common/{header}.cuh"

#define BLOCK_{index} {block}

namespace bench{index} {{

template <typename T, int BLOCK>
__global__ void reduce_sum_{index}(const T *__restrict__ in, T *__restrict__ out, int n) {{
  __shared__ T partial[BLOCK / 32];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  T v = tid < n ? in[tid] : T(0);
  for (int offset = 16; offset > 0; offset /= 2) {{
    v += __shfl_down_sync(0xffffffff, v, offset);
  }}
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {{
    v = lane < BLOCK / 32 ? partial[lane] : T(0);
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) atomicAdd(out, v);
  }}
}}

__global__ void saxpy_{index}(int n, float a, const float *x, float *y) {{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {{
    y[i] = a * x[i] + y[i];
  }}
}}

__global__ void transpose_{index}(float *odata, const float *idata, int width, int height) {{
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {{
    if (x < width && (y + j) < height) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  }}
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {{
    if (x < height && (y + j) < width) odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
  }}
}}

__device__ float gelu_{index}(float x) {{
  const float c = 0.7978845608f;
  return 0.5f * x * (1.0f + tanhf(c * (x + 0.044715f * x * x * x)));
}}

__global__ void gelu_kernel_{index}(float *out, const float *in, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = gelu_{index}(in[i]);
}}

__global__ void softmax_{index}(float *out, const float *in, int cols) {{
  extern __shared__ float shm[];
  const float *row = in + blockIdx.x * cols;
  float maxv = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) maxv = fmaxf(maxv, row[c]);
  shm[threadIdx.x] = maxv;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {{
    if (threadIdx.x < s) shm[threadIdx.x] = fmaxf(shm[threadIdx.x], shm[threadIdx.x + s]);
    __syncthreads();
  }}
  maxv = shm[0];
  float sum = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += __expf(row[c] - maxv);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[blockIdx.x * cols + c] = __expf(row[c] - maxv) / sum;
}}

}}  // namespace bench{index}

void launch_{index}(const float *in, float *out, int n, cudaStream_t stream) {{
  dim3 block(BLOCK_{index});
  dim3 grid((n + block.x - 1) / block.x);
  bench{index}::reduce_sum_{index}<float, BLOCK_{index}><<<grid, block, 0, stream>>>(in, out, n);
  bench{index}::saxpy_{index}<<<grid, block, 0, stream>>>(n, 2.0f, in, out);
  bench{index}::gelu_kernel_{index}<<<grid, block, 0, stream>>>(out, in, n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {{
    fprintf(stderr, "launch failed: %s\\n", cudaGetErrorString(err));
  }}
}}
"""

HOST = """\
// {name}: generated host file {index}
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <nccl.h>
#include <vector>
#include <memory>
#include "common/{header}.cuh"

namespace host{index} {{

struct Buffers {{
  float *a = nullptr;
  float *b = nullptr;
  float *c = nullptr;
  size_t n = 0;
}};

static void check(cudaError_t err, const char *what) {{
  if (err != cudaSuccess) {{
    fprintf(stderr, "%s: %s\\n", what, cudaGetErrorString(err));
    exit(1);
  }}
}}

Buffers allocate(size_t n) {{
  Buffers buf;
  buf.n = n;
  check(cudaMalloc(&buf.a, n * sizeof(float)), "cudaMalloc a");
  check(cudaMalloc(&buf.b, n * sizeof(float)), "cudaMalloc b");
  check(cudaMallocManaged(&buf.c, n * sizeof(float)), "cudaMallocManaged c");
  check(cudaMemset(buf.a, 0, n * sizeof(float)), "cudaMemset");
  return buf;
}}

void release(Buffers &buf) {{
  cudaFree(buf.a);
  cudaFree(buf.b);
  cudaFree(buf.c);
}}

void gemm(cublasHandle_t handle, const Buffers &buf, int m, int k) {{
  const float alpha = 1.0f, beta = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, m, k, &alpha, buf.a, m, buf.b, k, &beta, buf.c, m);
}}

void all_reduce(ncclComm_t comm, Buffers &buf, cudaStream_t stream) {{
  ncclAllReduce(buf.c, buf.c, buf.n, ncclFloat, ncclSum, comm, stream);
  cudaStreamSynchronize(stream);
}}

int run(int argc, char **argv) {{
  int devices = 0;
  cudaGetDeviceCount(&devices);
  std::vector<cudaStream_t> streams(devices);
  for (int d = 0; d < devices; ++d) {{
    cudaSetDevice(d);
    cudaStreamCreate(&streams[d]);
  }}
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("%s: %d SMs, warp %d\\n", prop.name, prop.multiProcessorCount, prop.warpSize);
  Buffers buf = allocate({block} * 1024);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, streams[0]);
  cudaMemcpyAsync(buf.b, buf.a, buf.n * sizeof(float), cudaMemcpyDeviceToDevice, streams[0]);
  cudaEventRecord(stop, streams[0]);
  cudaEventSynchronize(stop);
  float ms = 0.f;
  cudaEventElapsedTime(&ms, start, stop);
  printf("copy took %f ms\\n", ms);
  release(buf);
  for (auto s : streams) cudaStreamDestroy(s);
  return argc > 1 ? atoi(argv[1]) : 0;
}}

}}  // namespace host{index}
"""

HEADER = """\
// generated common header {index}
#pragma once
#include <cuda_runtime.h>
#include <cstdint>

#define WARP_SIZE 32
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {{
  for (int o = WARP_SIZE / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}}

__host__ __device__ inline int align_up(int x, int a) {{ return CEIL_DIV(x, a) * a; }}

struct LaunchConfig {{
  dim3 grid;
  dim3 block;
  size_t shared_bytes;
}};

inline LaunchConfig config_for(int n, int threads) {{
  LaunchConfig c;
  c.block = dim3(threads);
  c.grid = dim3(CEIL_DIV(n, threads));
  c.shared_bytes = 0;
  return c;
}}
"""


def generate(root: Path, files: int, seed: int = 7) -> int:
    rng = random.Random(seed)
    (root / "src" / "common").mkdir(parents=True)
    headers = max(1, files // 20)
    lines = 0
    for index in range(headers):
        text = HEADER.format(index=index)
        (root / "src" / "common" / f"h{index}.cuh").write_text(text)
        lines += text.count("\n")
    for index in range(files - headers):
        template, suffix = (KERNEL, ".cu") if rng.random() < 0.6 else (HOST, ".cpp")
        # Real files hold several such units: 1 to 3 here, ~160 lines on average.
        parts = [
            template.format(
                index=f"{index}_{part}",
                name=f"f{index}",
                header=f"h{rng.randrange(headers)}",
                block=rng.choice([128, 256, 512]),
            )
            for part in range(rng.choice([1, 2, 2, 3]))
        ]
        text = "\n".join(parts)
        sub = root / "src" / f"mod{index % 40}"
        sub.mkdir(exist_ok=True)
        (sub / f"f{index}{suffix}").write_text(text)
        lines += text.count("\n")
    return lines


def measure(root: Path, jobs: int, limit: int | None = None) -> dict:
    """Scan in a fresh process, so its peak RSS and its workers' are its own."""
    code = (
        "import json, resource, sys, time\n"
        "from scanner import ScanOptions, plan\n"
        "from scanner.pool import WorkerPool\n"
        f"options, work = plan({str(root)!r}, ScanOptions(jobs={jobs}))\n"
        f"work = work[:{limit}] if {limit!r} else work\n"
        "start = time.perf_counter(); lines = files = findings = 0; modes = {}\n"
        "for r in WorkerPool(options, options.jobs).run(work):\n"
        "    files += 1; lines += r.stats.lines; findings += len(r.findings)\n"
        "    modes[r.health.mode.value] = modes.get(r.health.mode.value, 0) + 1\n"
        "elapsed = time.perf_counter() - start\n"
        "print(json.dumps({'files': files, 'lines': lines, 'findings': findings, 'seconds': elapsed,\n"
        "  'modes': modes, 'parent_rss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,\n"
        "  'worker_rss_mb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    import json

    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--keep", help="generate the corpus here and keep it")
    jsonout.add_argument(parser)
    args = parser.parse_args()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="rocport-bench-"))
    if root.exists() and any(root.iterdir()):
        shutil.rmtree(root)
    root.mkdir(parents=True, exist_ok=True)
    try:
        t0 = time.perf_counter()
        lines = generate(root, args.files)
        print(f"corpus: {args.files} files, {lines} lines, generated in {time.perf_counter() - t0:.1f}s at {root}")
        quarter = measure(root, 1, limit=args.files // 4)
        print(f"parent peak RSS on {quarter['files']} files: {quarter['parent_rss_mb']:.0f} MB")
        figures = {"files": args.files, "lines": lines, "parent_rss_mb_quarter": quarter["parent_rss_mb"]}
        for jobs in (1, 2):
            m = measure(root, jobs)
            rate = m["lines"] / m["seconds"]
            print(
                f"jobs={jobs}: {m['files']} files, {m['lines']} lines in {m['seconds']:.1f}s = {rate:,.0f} lines/s "
                f"({rate / jobs:,.0f} per worker); {m['findings']} findings; modes {m['modes']}; "
                f"peak RSS parent {m['parent_rss_mb']:.0f} MB, largest worker {m['worker_rss_mb']:.0f} MB"
            )
            figures.update(
                {
                    f"lines_per_second_{jobs}": rate,
                    f"seconds_{jobs}": m["seconds"],
                    f"parent_rss_mb_{jobs}": m["parent_rss_mb"],
                    f"worker_rss_mb_{jobs}": m["worker_rss_mb"],
                    f"findings_{jobs}": m["findings"],
                }
            )
        figures["lines_per_second_per_core"] = figures["lines_per_second_1"]
        figures["scaling_2"] = figures["lines_per_second_2"] / figures["lines_per_second_1"]
        print(f"scaling from 1 to 2 processes: {figures['scaling_2']:.2f}x")
        jsonout.write(args.json, figures)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
