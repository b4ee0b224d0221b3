"""Compose services given GPUs through the NVIDIA runtime (runtime: nvidia, device reservations, gpus:).

What it finds:
    In compose files: `runtime: nvidia`, `deploy.resources.reservations.devices` entries with
    `driver: nvidia` or `capabilities: [gpu]`, and the service-level `gpus:` key.

Why it breaks on ROCm:
    Each of these goes through the NVIDIA container toolkit. On a ROCm host `docker compose up` fails ("unknown
    or invalid runtime name: nvidia", "could not select device driver") or starts the service without GPUs.

Example:
    services:
      inference:
        image: rocm/vllm
        deploy:
          resources:
            reservations:
              devices:
                - driver: nvidia
                  count: all
                  capabilities: [gpu]

Use instead:
    `devices: [/dev/kfd, /dev/dri]`, `group_add: [video]`, `shm_size: 16g`,
    `security_opt: [seccomp=unconfined]` on the service (and `ipc: host` where the workload needs it).

References:
    https://rocm.docs.amd.com/projects/install-on-linux/en/latest/how-to/docker.html
    https://docs.docker.com/compose/how-tos/gpu-support/
"""

import re

from scanner.analysis.context import Context
from scanner.formats import yaml_doc
from scanner.formats.lines import find
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import once, text_rule

_INSTEAD = (
    "use `devices: [/dev/kfd, /dev/dri]`, `group_add: [video]`, `shm_size: 16g` and "
    "`security_opt: [seccomp=unconfined]` for ROCm"
)
_FALLBACK = re.compile(r"^\s*(runtime:\s*nvidia|driver:\s*[\"']?nvidia|gpus:)")


def check(ctx: Context) -> None:
    if ctx.parse_error:
        for line, col, match in find(ctx.source, _FALLBACK, 1):
            once(ctx, line, col, f"`{match.group(1)}` requests GPUs from the NVIDIA runtime: {_INSTEAD}.")
        return
    if "compose" not in yaml_doc.kinds(ctx.source):
        return
    for doc in yaml_doc.documents(ctx.source):
        for _, _, service in yaml_doc.items(yaml_doc.get(doc, "services")):
            _service(ctx, service)


def _service(ctx, service) -> None:
    runtime = yaml_doc.get(service, "runtime")
    if yaml_doc.text(runtime) == "nvidia":
        once(
            ctx,
            yaml_doc.line_of(runtime),
            yaml_doc.col_of(runtime),
            f"`runtime: nvidia` is the NVIDIA container runtime: {_INSTEAD}.",
        )
    gpus = yaml_doc.get(service, "gpus")
    if gpus is not None:
        once(
            ctx,
            yaml_doc.line_of(gpus),
            yaml_doc.col_of(gpus),
            f"`gpus:` is served by the NVIDIA container toolkit: {_INSTEAD}.",
        )
    resources = yaml_doc.get(yaml_doc.get(service, "deploy"), "resources")
    devices = yaml_doc.get(yaml_doc.get(resources, "reservations"), "devices")
    for device in yaml_doc.elements(devices):
        driver = yaml_doc.text(yaml_doc.get(device, "driver"))
        capabilities = {yaml_doc.text(c) for c in yaml_doc.scalars(yaml_doc.get(device, "capabilities"))}
        if driver == "nvidia" or (not driver and "gpu" in capabilities):
            once(
                ctx,
                yaml_doc.line_of(device),
                yaml_doc.col_of(device),
                f"This device reservation asks the NVIDIA driver for GPUs: {_INSTEAD}.",
            )


RULE = text_rule(
    name="container-compose-nvidia-gpu",
    summary="compose service with runtime: nvidia, an nvidia device reservation or gpus:",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.HIGH,
    languages={"yaml"},
    check=cuda_code_only(check),
)
