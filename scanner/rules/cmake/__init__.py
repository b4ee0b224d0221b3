"""CMake: CUDA as a CMake language, FindCUDA/CUDAToolkit, CUDA targets, architectures, nvcc flags, CUDA libraries."""
