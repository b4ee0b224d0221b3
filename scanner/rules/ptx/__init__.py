"""The PTX family (ROC120-123): inline PTX assembly and NVVM builtins that no AMD target assembles."""
