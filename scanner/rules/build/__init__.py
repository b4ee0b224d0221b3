"""Makefiles, build scripts, Python extension builds: nvcc, sm_XX flags, CUDA link flags and paths, CUDAExtension."""
