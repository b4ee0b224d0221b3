"""Every rule against its fixture: each `expect:` line must be found, and nothing else (closed world).

A repository-level rule (scanner.repository) sees each fixture as a checkout of that one file. A compile-check
rule (ROC9xx, scanner.compile) needs an external tool, hipcc: its fixture is translated and compiled for gfx90a
by the real compiler, alone in a checkout of its own; without hipcc the test is skipped and says how to get it
(CI installs it: scripts/ensure-hipcc.sh)."""

from __future__ import annotations

import shutil

import pytest

from scanner.rules import catalogue
from tests.scanner.helpers import analyze_path, analyze_repository, compile_path, expectations, fixture_for
from tests.tools import require

CODES = sorted(catalogue())


@pytest.mark.parametrize("code", CODES)
def test_rule_finds_exactly_what_its_fixture_expects(code):
    fixtures = fixture_for(code)
    assert fixtures, f"{code} has no fixture in tests/scanner/fixtures/rules/"
    for fixture in fixtures:
        expected = {(line, c) for line, c in expectations(fixture) if c == code}
        if "compile" in catalogue()[code].on:
            result = _compiled(fixture, code)
        else:
            result = analyze_path(fixture, fixture.parent, codes=[code])
        assert result.error == "", result.error
        findings = list(result.findings)
        if "repository" in catalogue()[code].on:
            extra = analyze_repository([fixture], fixture.parent, codes=[code])
            findings += extra.findings if extra is not None else []
        found = {(f.line, f.rule) for f in findings}
        missing = sorted(expected - found)
        unexpected = sorted(found - expected)
        assert not missing and not unexpected, (
            f"{fixture.name}: missing {missing}, unexpected {unexpected}\n"
            + "\n".join(f"  {f.line}:{f.column} {f.rule} {f.message}" for f in findings)
        )


def _compiled(fixture, code):
    require("hipcc")
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:  # a checkout of that one file: the other fixtures stay out of it
        copy = Path(tmp) / fixture.name
        shutil.copyfile(fixture, copy)
        result = compile_path(copy, Path(tmp), codes=[code])
    assert result.compile["status"] != "not-checked", result.compile["reason"]
    return result
