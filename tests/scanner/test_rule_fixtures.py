"""Every rule against its fixture: each `expect:` line must be found, and nothing else (closed world)."""

from __future__ import annotations

import pytest

from scanner.rules import catalogue
from tests.scanner.helpers import analyze_path, expectations, fixture_for

CODES = sorted(catalogue())


@pytest.mark.parametrize("code", CODES)
def test_rule_finds_exactly_what_its_fixture_expects(code):
    fixtures = fixture_for(code)
    assert fixtures, f"{code} has no fixture in tests/scanner/fixtures/rules/"
    for fixture in fixtures:
        expected = {(line, c) for line, c in expectations(fixture) if c == code}
        result = analyze_path(fixture, fixture.parent, codes=[code])
        assert result.error == "", result.error
        found = {(f.line, f.rule) for f in result.findings}
        missing = sorted(expected - found)
        unexpected = sorted(found - expected)
        assert not missing and not unexpected, (
            f"{fixture.name}: missing {missing}, unexpected {unexpected}\n"
            + "\n".join(f"  {f.line}:{f.column} {f.rule} {f.message}" for f in result.findings)
        )
