"""NCCL environment settings that RCCL ignores or reads differently (NVLS, CollNet, NVIDIA-only algorithms).

What it finds:
    `NCCL_*` variables set in scripts, Dockerfiles, YAML and Python that RCCL ignores or treats differently:
    NVIDIA-only features (`NCCL_NVLS_*` NVLink SHARP, `NCCL_MNNVL_*`, `NCCL_COLLNET_*`, `NCCL_P2P_NVL_*`,
    `NCCL_NVB_*`, `NCCL_SHARP_*`), `NCCL_CUMEM_*` for targets before ROCm 10.0 (RCCL documents
    `NCCL_CUMEM_ENABLE` from 10.0, disabled by default), and `NCCL_ALGO` naming an algorithm RCCL does not
    have (`NVLS`, `NVLSTree`, `CollNetDirect`, `CollNetChain`). Settings RCCL reads with the same meaning
    (`NCCL_ALGO=Ring`, channel and CTA counts, `NCCL_PROTO`, `NCCL_BUFFSIZE`, `NCCL_P2P_LEVEL`,
    `NCCL_NET_GDR_LEVEL`, `NCCL_CROSS_NIC`, debug and interface settings) are not reported, nor are reads and
    messages that only name a variable.

Why it breaks on ROCm:
    RCCL reads the `NCCL_*` names, so nothing fails, but NVLink-only features do not exist on AMD's Infinity
    Fabric (xGMI): the setting does nothing, and the behaviour it was meant to buy (in-switch reductions,
    multi-node NVLink) is not there. An `NCCL_ALGO` that names such an algorithm leaves RCCL to its own
    choice. Tuning RCCL honours the same way still carries NVIDIA-topology values, but that is measured, not
    migrated (see Use instead).

Example:
    export NCCL_NVLS_ENABLE=1
    export NCCL_ALGO=NVLSTree

Use instead:
    Drop the NVIDIA-only variables; start from RCCL's defaults and AMD's MI300X tuning guide
    (`NCCL_MIN_NCHANNELS=112` for single-node collectives, `HSA_FORCE_FINE_GRAIN_PCIE=1` where needed), and
    re-measure any NCCL tuning kept from NVIDIA machines with rccl-tests.

References:
    https://rocm.docs.amd.com/projects/rccl/en/latest/api-reference/env-variables.html
    https://rocm.docs.amd.com/projects/rccl/en/latest/how-to/rccl-usage-tips.html
    https://rocm.docs.amd.com/en/latest/how-to/system-optimization/mi300x.html
    https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import command_matches, cuda_code_only
from scanner.rules.textual import SCRIPT_LANGUAGES, mentions, once, text_rule

_NVIDIA_ONLY = re.compile(r"NCCL_(?:NVLS|MNNVL|COLLNET|P2P_NVL|NVB|SHARP)\w*")
_CUMEM = re.compile(r"NCCL_CUMEM\w*")
_RCCL_CUMEM = (10, 0)  # RCCL's environment-variable reference lists NCCL_CUMEM_ENABLE from ROCm 10.0
# NCCL_ALGO values naming algorithms built on NVLink SHARP or CollNet, which RCCL does not have.
_NVIDIA_ALGOS = re.compile(r"\b(?:NVLS\w*|CollNet\w*)\b", re.I)
# A setting: an assignment, ENV, a YAML key or env entry, an os.environ key.
_SETTING = re.compile(r"(?<![\w$])(NCCL_[A-Z0-9_]+)(?=\s*[=:]|[\"']?\]?\s*=|\s+\S|[\"']\s*[,:\]]|$)")
_VALUE = re.compile(r"^[\"'\]]*\s*[=: ]\s*[\"']?([^\"'\s;]+)")


def check(ctx: Context) -> None:
    if not mentions(ctx, "nccl_"):
        return
    for line, col, match in command_matches(ctx, _SETTING, 1):
        name = match.group(1)
        if _NVIDIA_ONLY.fullmatch(name):
            once(
                ctx,
                line,
                col,
                f"`{name}` configures an NVIDIA-only NCCL feature (NVLink SHARP, multi-node NVLink, "
                "CollNet): RCCL has none of them on AMD's Infinity Fabric, so it does nothing; drop it.",
                length=len(name),
                key=name,
            )
        elif _CUMEM.fullmatch(name) and not (name == "NCCL_CUMEM_ENABLE" and ctx.target.rocm_at_least(*_RCCL_CUMEM)):
            once(
                ctx,
                line,
                col,
                f"`{name}` configures NCCL's cuMem allocations, which RCCL ignores before ROCm "
                f"10.0 (the target is {ctx.target.rocm_text}; from 10.0 RCCL reads NCCL_CUMEM_ENABLE, off by "
                "default).",
                length=len(name),
                key=name,
            )
        elif name == "NCCL_ALGO":
            value = _VALUE.match(ctx.line_text(line)[match.end(1) :])
            algos = _NVIDIA_ALGOS.findall(value.group(1)) if value else []
            if algos:
                once(
                    ctx,
                    line,
                    col,
                    f"`NCCL_ALGO` names {', '.join(f'`{a}`' for a in algos)}, which RCCL does not "
                    "have (NVLink SHARP / CollNet): it is left to RCCL's own choice; use Ring or Tree, or drop it.",
                    length=len(name),
                    key=name,
                )


RULE = text_rule(
    name="serving-nccl-env-tuning",
    summary="NCCL environment settings that RCCL ignores or reads differently (NVLS, CollNet, NVIDIA algorithms)",
    risk=Risk.PERFORMANCE,
    severity=Severity.LOW,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)
