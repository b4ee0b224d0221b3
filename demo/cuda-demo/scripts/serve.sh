#!/bin/bash
# Launch the OpenAI-compatible server on four GPUs.
set -euo pipefail

export CUDA_VISIBLE_DEVICES=0,1,2,3
export VLLM_ATTENTION_BACKEND=FLASHINFER
export NCCL_NVLS_ENABLE=1
export NCCL_ALGO=Ring

nvidia-smi --query-gpu=name,memory.total --format=csv,noheader

exec python -m vllm.entrypoints.openai.api_server \
  --model meta-llama/Llama-3.1-70B-Instruct \
  --tensor-parallel-size 4 \
  --max-model-len 32768
