"""Kernel-language rules (ROC154-158): __CUDA_ARCH__ tests, launch bounds and other device-code constructs."""
