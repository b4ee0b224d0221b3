"""ROC214 where the CUDA toolkit's location sits: in the build a ROCm port runs (its severity), or in CI and
packaging automation that prepares its own CUDA runner or builder image (low)."""

from __future__ import annotations

from scanner import ScanOptions, scan
from scanner.model import Severity
from tests.scanner.helpers import write_tree

ENV_SCRIPT = """#!/bin/bash
case "$1" in
  cu121)
    export CUDA_HOME=/usr/local/cuda-12.1
    ;;
esac
"""
MAKEFILE = """NVCC = $(CUDA_HOME)/bin/nvcc
all:
\t$(NVCC) -c k.cu -o k.o
"""


def _roc214(root) -> dict[str, list]:
    found: dict[str, list] = {}
    for result in scan(str(root), ScanOptions()):
        for finding in result.findings:
            if finding.rule == "ROC214":
                found.setdefault(result.path, []).append(finding)
    return found


def test_toolkit_location_in_ci_and_packaging_is_low_and_in_the_build_keeps_its_severity(tmp_path):
    root = write_tree(
        tmp_path,
        {
            ".github/workflows/cuda/Linux-env.sh": ENV_SCRIPT,
            "packaging/linux_wheels/build.sh": ENV_SCRIPT,
            "scripts/env.sh": ENV_SCRIPT,
            "Makefile": MAKEFILE,
            "k.cu": "__global__ void k() {}\n",
        },
    )
    found = _roc214(root)
    for automation in (".github/workflows/cuda/Linux-env.sh", "packaging/linux_wheels/build.sh"):
        assert found[automation] and all(f.severity == Severity.LOW for f in found[automation]), automation
        assert "CI or packaging automation" in found[automation][0].message
    # A script outside CI and packaging, and the Makefile the build runs, keep the rule's severity.
    assert all(f.severity == Severity.MEDIUM for f in found["scripts/env.sh"])
    assert all(f.severity == Severity.MEDIUM for f in found["Makefile"])
