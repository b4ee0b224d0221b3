"""Shell scripts and CI: nvidia-smi, rocm-smi, CUDA_VISIBLE_DEVICES, nvcc checks, NVIDIA runners and CUDA CI images."""
