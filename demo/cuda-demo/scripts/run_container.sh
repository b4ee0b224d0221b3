#!/bin/bash
# Build and run the inference image locally.
set -euo pipefail
docker build -t cuda-demo:latest .
docker run --rm -it --gpus all --ipc=host -p 8000:8000 \
  -v "$HOME/.cache/huggingface:/root/.cache/huggingface" \
  cuda-demo:latest
