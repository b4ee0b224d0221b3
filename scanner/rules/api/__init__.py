"""The CUDA runtime and driver API family (ROC150-153, ROC159-163): calls HIP lacks or treats differently."""
