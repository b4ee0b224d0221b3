"""Serving configuration: vLLM attention backends and launch flags, NCCL tuning that RCCL reads differently."""
