"""Severities and messages that say what really happens on ROCm: each case is a shape measured on real CUDA
projects whose finding overstated (or misnamed) the risk. The fixtures check where findings are; these tests
check how they are judged."""

from __future__ import annotations

from pathlib import Path

import pytest

from scanner.engine import Analyzer, FileJob
from scanner.model import Risk, Severity
from scanner.port import Port
from scanner.rules import catalogue, select
from scanner.target import TargetProfile
from tests.scanner.helpers import RULE_FIXTURES, analyze_repository, parser

PORTED = Port(evidence=("a HIP build in CMakeLists.txt (`enable_language(HIP)`)",))


def findings(path: Path, codes, *, port: Port = Port(), target: TargetProfile = TargetProfile(), root=None):
    from scanner.discovery import language_of

    root = root or path.parent
    rel = path.relative_to(root).as_posix()
    job = FileJob(str(path), rel, language_of(path.name, path.parent.relative_to(root).as_posix()) or "cuda")
    result = Analyzer(parser(), select(list(codes)), target, 2_000_000, port=port).analyze(job)
    assert result.error == "", result.error
    return result.findings


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def by_line(found) -> dict[int, object]:
    return {f.line: f for f in found}


# -- 1. rules about the ROCm side keep their severity in a ported repository -------------------------------
@pytest.mark.parametrize("code", ["ROC225", "ROC232", "ROC262"])
def test_rocm_side_rules_keep_their_severity_where_the_repository_builds_for_rocm(code):
    rule = catalogue()[code]
    assert rule.rocm_side
    for fixture in sorted(RULE_FIXTURES.glob(f"{code}_*")):
        found = findings(fixture, [code], port=PORTED)
        assert found, fixture.name
        assert all(f.severity == rule.severity and "NVIDIA side" not in f.message for f in found), fixture.name


def test_a_nvidia_side_rule_still_drops_to_info_in_a_ported_repository():
    found = findings(RULE_FIXTURES / "ROC231_nvidia_smi.sh", ["ROC231"], port=PORTED)
    assert found and all(f.severity == Severity.INFO and "NVIDIA side" in f.message for f in found)


def test_numa_balancing_is_a_rocm_side_rule():
    assert catalogue()["ROC261"].rocm_side


# -- 2. NVML behind __has_include(<nvml.h>) breaks no build -------------------------------------------------
def test_nvml_behind_has_include_is_info_and_says_why():
    found = findings(RULE_FIXTURES / "ROC140_nvml_usage_has_include.cu", ["ROC140"])
    assert found
    for f in found:
        assert f.severity == Severity.INFO and f.risk == Risk.RUNTIME_FAILURE, (f.line, f.severity)
        assert "__has_include(<nvml.h>)" in f.message and "does not break" in f.message


def test_nvml_without_a_guard_keeps_the_rule_severity():
    found = findings(RULE_FIXTURES / "ROC140_nvml_usage.cu", ["ROC140"])
    assert found and all(f.severity == Severity.MEDIUM and f.risk == Risk.BUILD_BREAK for f in found)


def test_nvml_behind_a_negated_has_include_is_not_lowered(tmp_path):
    path = write(tmp_path, "mon.cu", "#if !__has_include(<amd_smi/amdsmi.h>)\n#include <nvml.h>\n#endif\n"
                                     "#if !__has_include(<nvml.h>)\nvoid f() { nvmlInit(); }\n#endif\n")
    assert {f.line: f.severity for f in findings(path, ["ROC140"])} == {2: Severity.MEDIUM, 5: Severity.MEDIUM}
