"""NCCL environment tuning that RCCL ignores or reads differently (NCCL_NVLS_ENABLE, NCCL_ALGO, channel counts).

What it finds:
    `NCCL_*` variables set in scripts, Dockerfiles, YAML and Python that either name NVIDIA-only features
    (`NCCL_NVLS_*` NVLink SHARP, `NCCL_MNNVL_*`, `NCCL_CUMEM_*`, `NCCL_COLLNET_*`, `NCCL_P2P_NVL_*`,
    `NCCL_NVB_*`) or carry NVIDIA-topology tuning (`NCCL_ALGO`, `NCCL_PROTO`, `NCCL_MIN_NCHANNELS`,
    `NCCL_MAX_NCHANNELS`, `NCCL_BUFFSIZE`, `NCCL_NTHREADS`, `NCCL_P2P_LEVEL`, `NCCL_NET_GDR_LEVEL`). Debug and
    interface settings (`NCCL_DEBUG`, `NCCL_SOCKET_IFNAME`, `NCCL_IB_HCA`) mean the same to RCCL and are not
    reported; neither are files that already mention ROCm or RCCL (tuned for it).

Why it breaks on ROCm:
    RCCL reads the `NCCL_*` names, so nothing fails, but NVLink-only features do not exist on AMD's Infinity
    Fabric (xGMI) and the values tuned for an NVLink/NVSwitch topology are wrong for MI300X: collectives run
    slower than RCCL's defaults, or than AMD's recommended settings (the practitioner's MI300X setup uses
    `NCCL_MIN_NCHANNELS=112`).

Example:
    export NCCL_NVLS_ENABLE=1
    export NCCL_ALGO=Ring
    export NCCL_MAX_NCHANNELS=16

Use instead:
    Drop the NVIDIA-only variables; start from RCCL's defaults and AMD's MI300X tuning guide
    (`NCCL_MIN_NCHANNELS=112` for single-node collectives, `HSA_FORCE_FINE_GRAIN_PCIE=1` where needed), and
    re-measure with rccl-tests before keeping any override.

References:
    https://rocm.docs.amd.com/projects/rccl/en/latest/how-to/rccl-usage-tips.html
    https://rocm.docs.amd.com/en/latest/how-to/system-optimization/mi300x.html
    https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html
"""

import re

from scanner.formats.lines import code_lines
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import SCRIPT_LANGUAGES, matches, mentions, once, text_rule

_NVIDIA_ONLY = re.compile(r"NCCL_(?:NVLS|MNNVL|CUMEM|COLLNET|P2P_NVL|NVB|SHARP)\w*")
_TUNING = re.compile(r"NCCL_(?:ALGO|PROTO|MIN_NCHANNELS|MAX_NCHANNELS|MIN_CTAS|MAX_CTAS|BUFFSIZE|NTHREADS|P2P_LEVEL"
                     r"|NET_GDR_LEVEL|NET_GDR_READ|CROSS_NIC|P2P_NET_CHUNKSIZE|P2P_PCI_CHUNKSIZE)")
# A setting: an assignment, ENV, a YAML key or env entry, an os.environ key.
_SETTING = re.compile(r"(?<![\w$])(NCCL_[A-Z0-9_]+)(?=\s*[=:]|[\"']?\]?\s*=|\s+\S|[\"']\s*[,:\]]|$)")
_PORTED = re.compile(r"\b(?:rocm|rccl|hip|mi300x?|mi325x?|mi355x?)\b", re.I)


def check(ctx) -> None:
    if not mentions(ctx, "nccl_"):
        return
    ported = any(_PORTED.search(text) for _, text in code_lines(ctx.facts))
    for line, col, match in matches(ctx, _SETTING, 1):
        name = match.group(1)
        if _NVIDIA_ONLY.fullmatch(name):
            once(ctx, line, col, f"`{name}` configures an NVIDIA-only NCCL feature (NVLink SHARP, multi-node NVLink, "
                 "cuMem, CollNet): RCCL has none of them on AMD's Infinity Fabric; drop it.", length=len(name),
                 key=name)
        elif _TUNING.fullmatch(name) and not ported:
            once(ctx, line, col, f"`{name}` is NCCL tuning for an NVIDIA topology; RCCL reads it too, so the value "
                 "applies to MI300X's xGMI fabric: start from RCCL's defaults / AMD's MI300X guidance (e.g. "
                 "NCCL_MIN_NCHANNELS=112) and re-measure with rccl-tests.", length=len(name), key=name)


RULE = text_rule(
    name="serving-nccl-env-tuning",
    summary="NCCL environment tuning that RCCL ignores or reads differently (NVLS, ALGO, channel counts)",
    risk=Risk.PERFORMANCE,
    severity=Severity.LOW,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)
