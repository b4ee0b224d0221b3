"""Environment check run before serving: GPUs visible, memory, profiling markers."""

import os
import subprocess

import pynvml
import torch


def main() -> None:
    # Plain torch.cuda works the same on ROCm builds of PyTorch: none of this is a finding.
    print("devices:", torch.cuda.device_count(), torch.cuda.is_available())
    for i in range(torch.cuda.device_count()):
        print(torch.cuda.get_device_properties(i).name)
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    print("visible:", visible)
    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(0)
    print(pynvml.nvmlDeviceGetMemoryInfo(handle).total)
    torch.cuda.nvtx.range_push("warmup")
    x = torch.randn(4096, 4096, device="cuda")
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    print(subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout, x.shape)


if __name__ == "__main__":
    main()
