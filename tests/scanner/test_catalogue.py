"""The catalogue contract: every code has a rule with its doc, risk, severity and a fixture with positive and
negative cases; docs/rules.md is generated from the docstrings and current."""

from __future__ import annotations

from pathlib import Path

import pytest

from scanner.model import Risk, Severity
from scanner.rules import catalogue
from scanner.rules.codes import CODES
from scanner.rules.docs import markdown, missing_sections
from tests.scanner.helpers import expectations, fixture_for

ROOT = Path(__file__).resolve().parents[2]
RULES = catalogue()


def test_every_code_in_the_table_loads_a_rule():
    assert set(RULES) == set(CODES)


def test_rule_names_are_unique_and_kebab_case():
    names = [rule.name for rule in RULES.values()]
    assert len(names) == len(set(names))
    for name in names:
        assert name == name.lower() and " " not in name and "_" not in name, name


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
    negatives = sum(f.read_text().count("OK:") for f in fixtures)
    assert positives >= 1, f"{code}: fixture has no `expect: {code}` line"
    assert negatives >= 1, f"{code}: fixture has no `OK:` section of clean cases"


def test_docs_rules_md_is_current():
    generated = markdown(list(RULES.values()))
    current = (ROOT / "docs" / "rules.md").read_text()
    assert current == generated, "docs/rules.md is stale: run `make docs`"
