"""When HIP gained CUDA APIs that real code uses: the ROCm release whose HIP first has each, from HIP's changelog
(projects/clr/CHANGELOG.md in ROCm/rocm-systems). The rules use it to say whether the profile's ROCm has an API
(scanner.rules.kernel.cooperative_groups_gap); the compile check uses it to tell "this ROCm lacks it, a newer one
has it" from the code's own errors (scanner.compile.diagnostics). Data only: imports nothing."""

from __future__ import annotations

# cooperative_groups names and headers -> the first ROCm whose HIP has them ("HIP 7.13 for ROCm 7.13" adds
# reduce(); "HIP 10.0.0 for ROCm 10.0.0" the scans)
COOPERATIVE_GROUPS_SINCE = {
    "reduce": (7, 13),
    "inclusive_scan": (10, 0),
    "exclusive_scan": (10, 0),
    "cooperative_groups/reduce.h": (7, 13),
    "cooperative_groups/scan.h": (10, 0),
}
# The function objects reduce() takes came in the same header and release
COOPERATIVE_GROUPS_OPERATORS = ("plus", "less", "greater", "bit_and", "bit_or", "bit_xor")
# CUDA's header -> HIP's own name for it
HIP_HEADER_OF = {
    "cooperative_groups/reduce.h": "hip/cooperative_groups/hip_reduce.h",
    "cooperative_groups/scan.h": "hip/cooperative_groups/hip_scan.h",
}


def added_after(hip: tuple[int, ...]) -> dict[str, tuple[int, int]]:
    """The names and HIP header paths a HIP of version `hip` lacks, with the ROCm that added each."""
    out: dict[str, tuple[int, int]] = {}
    for name, since in COOPERATIVE_GROUPS_SINCE.items():
        if tuple(hip[:2]) >= since:
            continue
        if name in HIP_HEADER_OF:
            out[HIP_HEADER_OF[name]] = since
        else:
            out[name] = since
            if name == "reduce":
                out.update(dict.fromkeys(COOPERATIVE_GROUPS_OPERATORS, since))
    return out
