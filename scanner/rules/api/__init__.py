"""The CUDA runtime and driver API family (ROC150-163): calls HIP lacks or behaves differently for."""
