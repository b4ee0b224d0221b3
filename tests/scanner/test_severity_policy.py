"""Every rule's default severity follows the written severity policy (scanner.rules.severity_policy, the head of
docs/rules.md): it lies inside the band of its risk's consequence, or a rule-level modifier listed here, with the
reason, moves it out."""

from __future__ import annotations

import pytest

from scanner.model import Risk, Severity
from scanner.rules import catalogue
from scanner.rules.docs import markdown
from scanner.rules.severity_policy import CONSEQUENCES, MECHANICAL_RENAME, MODIFIERS, consequence_of

# Rules whose default is outside their band, each by a modifier of the policy and why it applies.
OUT_OF_BAND = {
    "ROC132": (MECHANICAL_RENAME, "hipify renames cuBLAS/cuFFT/cuRAND/cuSPARSE/cuSOLVER to their hip* wrappers"),
    "ROC133": (MECHANICAL_RENAME, "RCCL keeps NCCL's API: the port is the header and the library's name"),
    "ROC134": (MECHANICAL_RENAME, "hipify renames NVTX ranges and marks to roctx"),
    "ROC135": (MECHANICAL_RENAME, "rocThrust keeps Thrust's API, hipify renames cub:: to hipcub::"),
    "ROC215": (MECHANICAL_RENAME, "PyTorch hipifies a CUDAExtension's sources when it builds for ROCm"),
}


def test_every_risk_has_one_consequence():
    assert sorted(c.risk.value for c in CONSEQUENCES) == sorted(r.value for r in Risk)


def test_each_band_holds_its_default():
    for c in CONSEQUENCES:
        assert c.admits(c.default), c.name


@pytest.mark.parametrize("code", sorted(catalogue()))
def test_a_rule_default_severity_is_inside_the_band_of_its_risk(code):
    rule = catalogue()[code]
    consequence = consequence_of(rule.risk)
    if code in OUT_OF_BAND:
        modifier, reason = OUT_OF_BAND[code]
        assert modifier in MODIFIERS and reason
        assert not consequence.admits(rule.severity), f"{code} is inside its band now: drop it from OUT_OF_BAND"
        assert rule.severity == modifier.severity, (code, rule.severity, modifier.when)
        return
    assert consequence.admits(rule.severity), (
        f"{code} {rule.name}: {rule.risk.value} ({consequence.name}) at {rule.severity.value}, outside "
        f"{consequence.lowest.value}–{consequence.highest.value}: change its severity or risk, or list the "
        "modifier that moves it in OUT_OF_BAND with the reason"
    )


def test_only_catalogued_rules_are_listed_as_exceptions():
    assert set(OUT_OF_BAND) <= set(catalogue())


def test_the_policy_opens_docs_rules_md():
    text = markdown(list(catalogue().values()))
    assert text.index("## Severity policy") < text.index("## Rules") < text.index("## ROC101")
    for c in CONSEQUENCES:
        assert f"| {c.name} | {c.risk.value} |" in text
    for m in MODIFIERS:
        assert m.when in text and "|" not in m.when.replace("`", "")


def test_a_band_check_catches_a_rule_outside_it():
    assert not consequence_of(Risk.BUILD_BREAK).admits(Severity.LOW)
    assert not consequence_of(Risk.PERFORMANCE).admits(Severity.HIGH)
    assert not consequence_of(Risk.SILENT_WRONG_RESULT).admits(Severity.CRITICAL)
