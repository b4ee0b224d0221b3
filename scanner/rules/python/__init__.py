"""Python and its packaging: CUDA-only wheels and indexes, CUDA-only imports, torch.cuda.nvtx (plain torch.cuda is fine)."""
