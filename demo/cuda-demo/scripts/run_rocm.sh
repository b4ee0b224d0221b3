#!/bin/bash
# First attempt at running on the MI300X box (half-ported).
set -euo pipefail

rocm-smi --showproductname
export HIPFLAGS="-D__AMDGCN_WAVEFRONT_SIZE=64"
docker run --rm -it --device=/dev/kfd -p 8000:8000 rocm/vllm:latest \
  vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 4 --distributed-executor-backend mp
