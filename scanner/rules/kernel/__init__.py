"""Kernel-language rules (ROC154-158): cooperative-groups gaps, __CUDA_ARCH__ tests, dynamic parallelism,
__launch_bounds__'s second argument, static shared memory over the limit; `_common` holds what they share."""
