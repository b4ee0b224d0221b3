"""The catalogue contract: every code has a rule with its doc, risk, severity and a fixture with positive and
negative cases; docs/rules.md is generated from the docstrings and current."""

from __future__ import annotations

from pathlib import Path

import pytest

from scanner.model import Risk, Severity
from scanner.rules import catalogue, resolve, select
from scanner.rules.base import expected_name
from scanner.rules.codes import CODES
from scanner.rules.docs import markdown, missing_sections
from tests.scanner.helpers import expectations, fixture_for, ok_lines

ROOT = Path(__file__).resolve().parents[2]
RULES = catalogue()


def test_every_code_in_the_table_loads_a_rule():
    assert set(RULES) == set(CODES)


def test_rule_names_are_unique_and_kebab_case():
    names = [name for rule in RULES.values() for name in (rule.name, *rule.formerly)]
    assert len(names) == len(set(names)), "a name or former name is used twice"
    for name in names:
        assert name == name.lower() and " " not in name and "_" not in name, name


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_name_is_its_family_and_module(code):
    """One convention (scanner.rules.base): `<family>-<module>`, the family word said once."""
    rule = RULES[code]
    family, leaf = rule.module.split(".")
    assert rule.name == expected_name(rule.module), f"{code} in {rule.module} is named {rule.name!r}"
    assert rule.name.startswith(family + "-"), rule.name
    assert rule.name.replace("-", "_").endswith(leaf), rule.name
    assert rule.name not in rule.formerly and all(resolve(old) is rule for old in rule.formerly)


def test_expected_name_says_the_family_once():
    assert expected_name("warp.warp_sized_group") == "warp-sized-group"
    assert expected_name("warp.warpsize_as_constant") == "warp-warpsize-as-constant"
    assert expected_name("container.cuda_apt_repository") == "container-cuda-apt-repository"


def test_former_names_resolve_and_select_like_the_current_name():
    rule = RULES["ROC223"]
    assert rule.formerly == ("container-cuda-package-repository",)
    assert resolve("container-cuda-package-repository") is resolve("container-cuda-apt-repository") is rule
    assert resolve("ROC223") is rule and resolve("no-such-rule") is None
    assert select(["container-cuda-package-repository"]) == [rule]
    assert rule not in select(None, ["container-cuda-package-repository"])


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_has_documentation_with_every_section(code):
    rule = RULES[code]
    assert not missing_sections(rule), f"{code} lacks doc sections {missing_sections(rule)}"
    assert "Not implemented" not in rule.doc
    assert rule.summary and rule.summary != "(not implemented)"


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_has_risk_severity_and_events(code):
    rule = RULES[code]
    assert isinstance(rule.risk, Risk)
    assert isinstance(rule.severity, Severity)
    assert rule.on


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_fixture_has_positive_and_negative_cases(code):
    fixtures = fixture_for(code)
    assert fixtures, f"{code}: no fixture tests/scanner/fixtures/rules/{code}_*"
    positives = sum(1 for f in fixtures for _, c in expectations(f) if c == code)
    negatives = sum(len(ok_lines(f)) for f in fixtures)  # test_rule_fixtures: no finding lands on them
    assert positives >= 1, f"{code}: fixture has no `expect: {code}` line"
    assert negatives >= 1, f"{code}: no fixture line ends with the negative-case marker `// ok` or `# ok`"


def test_docs_rules_md_is_current():
    generated = markdown(list(RULES.values()))
    current = (ROOT / "docs" / "rules.md").read_text()
    assert current == generated, "docs/rules.md is stale: run `make docs`"
