"""NVML used.

What it finds:
    Includes of `nvml.h` and lines calling or naming the NVML API (`nvmlInit_v2`,
    `nvmlDeviceGetHandleByIndex`, `nvmlDeviceGetMemoryInfo`, `nvmlDevice_t`, `nvmlReturn_t`, ...).

Why it breaks on ROCm:
    NVML (NVIDIA Management Library, behind nvidia-smi) does not exist on ROCm. AMD's counterpart is
    the AMD SMI library (`amdsmi.h`, behind `amd-smi`), with a different API: processors are enumerated
    through sockets (`amdsmi_get_socket_handles`, `amdsmi_get_processor_handles`), metrics have different
    names, units and granularity, and some NVML queries (e.g. NVLink, MIG specifics) have no counterpart.

Example:
    nvmlDeviceGetHandleByIndex_v2(0, &dev);
    nvmlDeviceGetUtilizationRates(dev, &util);

Use instead:
    AMD SMI: `#include <amd_smi/amdsmi.h>`, `amdsmi_init(AMDSMI_INIT_AMD_GPUS)`,
    `amdsmi_get_socket_handles`/`amdsmi_get_processor_handles`, then `amdsmi_get_gpu_activity`,
    `amdsmi_get_gpu_memory_usage`, `amdsmi_get_power_info`, ...; `amdsmi_shut_down()`. (ROCm SMI,
    `rocm_smi.h`, is the older library AMD SMI replaces.)

References:
    https://rocm.docs.amd.com/projects/amdsmi/en/latest/
    https://docs.nvidia.com/deploy/nvml-api/index.html
"""

from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Use, library_rule

RULE = library_rule(
    name="nvml-usage",
    summary="NVML use (port to AMD SMI: a different API)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    headers=[
        Header(r"nvml\.h", "<{header}> (NVML) is not on ROCm: port to AMD SMI (<amd_smi/amdsmi.h>), whose API "
                           "differs."),
    ],
    uses=[
        Use("nvml", "NVML `{name}` has no ROCm equivalent under that name: rewrite with AMD SMI (amdsmi_*).",
            r"nvml[A-Z]\w*"),
    ],
)
