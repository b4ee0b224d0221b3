"""The library family (ROC130-140): NVIDIA libraries and their ROCm counterparts (cuBLAS to hipBLAS, cuDNN to
MIOpen...); `_judgement` holds what its rules share (other vendors' backends, folding one finding per file)."""
