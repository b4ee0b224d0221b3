"""Kubernetes workloads requesting nvidia.com/gpu (resources, node selectors, tolerations, runtimeClassName).

What it finds:
    `nvidia.com/gpu` as a resource limit or request, `nvidia.com/gpu*` node-selector and affinity keys,
    tolerations for the `nvidia.com/gpu` taint, and `runtimeClassName: nvidia`, in Kubernetes manifests and
    Helm values files.

Why it breaks on ROCm:
    `nvidia.com/gpu` is the extended resource advertised by NVIDIA's device plugin. AMD nodes advertise
    `amd.com/gpu` (AMD GPU device plugin / AMD GPU Operator), so the pod stays Pending forever with
    "Insufficient nvidia.com/gpu", and an `nvidia` runtime class does not exist there.

Example:
    resources:
      limits:
        nvidia.com/gpu: 1

Use instead:
    `amd.com/gpu: 1` with the AMD GPU device plugin or the AMD GPU Operator installed; select nodes by the
    labels its node labeller sets (`amd.com/gpu.*`), and drop `runtimeClassName: nvidia`.

References:
    https://github.com/ROCm/k8s-device-plugin
    https://instinct.docs.amd.com/projects/gpu-operator/en/latest/
    https://kubernetes.io/docs/tasks/manage-gpus/scheduling-gpus/
"""

import re

from scanner.analysis.context import Context
from scanner.formats import yaml_doc
from scanner.formats.lines import find
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import mentions, once, text_rule

_FALLBACK = re.compile(r"nvidia\.com/gpu[\w.-]*|runtimeClassName:\s*nvidia")


def check(ctx: Context) -> None:
    if not mentions(ctx, "nvidia"):
        return
    docs = yaml_doc.documents(ctx.source)
    if not docs:
        for line, col, match in find(ctx.source, _FALLBACK):
            _report(ctx, line, col, match.group(0))
        return
    for doc in docs:
        for path, key, value in yaml_doc.walk(doc):
            if key.value.startswith("nvidia.com/gpu"):
                _report(ctx, yaml_doc.line_of(key), yaml_doc.col_of(key), key.value)
            elif path[-1] == "runtimeClassName" and yaml_doc.text(value) == "nvidia":
                _report(ctx, yaml_doc.line_of(key), yaml_doc.col_of(key), "runtimeClassName: nvidia")
            elif path[-1] in ("key", "resource"):
                for scalar in yaml_doc.scalars(value):
                    if scalar.value.startswith("nvidia.com/gpu"):
                        _report(ctx, yaml_doc.line_of(scalar), yaml_doc.col_of(scalar), scalar.value)


def _report(ctx, line: int, col: int, what: str) -> None:
    if what.startswith("runtimeClassName"):
        message = "`runtimeClassName: nvidia` does not exist on AMD nodes: drop it (the AMD device plugin needs none)."
    else:
        message = (
            f"`{what}` is NVIDIA's device-plugin resource/label: AMD nodes advertise `amd.com/gpu` (AMD GPU "
            "device plugin or GPU Operator); the pod would stay Pending."
        )
    once(ctx, line, col, message, length=len(what), key=what)


RULE = text_rule(
    name="container-k8s-nvidia-gpu-resource",
    formerly=("container-k8s-nvidia-gpu",),
    summary="Kubernetes workload requesting nvidia.com/gpu instead of amd.com/gpu",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.HIGH,
    languages={"yaml"},
    check=cuda_code_only(check),
)
