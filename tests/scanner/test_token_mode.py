"""Every warp, lane, mask and PTX rule finds its cases in a file read as tokens only (fixtures/tokens/): the
syntax tree is withheld, as it is for a file libclang cannot make sense of. A finding must never depend on a parse
mode the user cannot see; the ones the AST rules make from tokens say so in their message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scanner.engine import Analyzer, FileJob
from scanner.model import ParseMode
from scanner.parsing.clang_unit import ParsedUnit, Parser, ParseSettings
from scanner.rules import catalogue, select
from scanner.target import TargetProfile
from tests.scanner.helpers import FIXTURES, analyze_path, expectations

TOKEN_FIXTURES = FIXTURES / "tokens"
# The warp-size (ROC101-109) and PTX/NVVM (ROC120-123) families.
FAMILIES = re.compile(r"ROC10\d|ROC12[0-3]")


class TokensOnlyParser(Parser):
    """A parser that never gives a syntax tree: what a file libclang could not make sense of gets."""

    def parse(self, path, text, language, file_args=(), root="", system_headers=False, prefix=None) -> ParsedUnit:
        return ParsedUnit(None, ParseMode.TOKENS, fallback_reason="withheld by the test")


def _fixtures() -> list[Path]:
    return sorted(p for p in TOKEN_FIXTURES.iterdir() if p.suffix in (".cu", ".ptx"))


def test_every_warp_and_ptx_rule_has_a_token_mode_fixture():
    codes = {code for code in catalogue() if FAMILIES.fullmatch(code)}
    covered = {p.name.split("_", 1)[0] for p in _fixtures()}
    assert codes and codes <= covered, f"no token-mode fixture for {sorted(codes - covered)}"


@pytest.mark.parametrize("fixture", _fixtures(), ids=lambda p: p.name)
def test_the_rule_finds_its_cases_from_tokens(fixture):
    code = fixture.name.split("_", 1)[0]
    analyzer = Analyzer(TokensOnlyParser(ParseSettings()), select([code]), TargetProfile(), 2_000_000)
    language = "ptx" if fixture.suffix == ".ptx" else "cuda"
    result = analyzer.analyze(FileJob(str(fixture), fixture.name, language))
    assert result.health.mode in (ParseMode.TOKENS, ParseMode.TEXT)
    found = {(f.line, f.rule) for f in result.findings}
    expected = {(line, c) for line, c in expectations(fixture) if c == code}
    assert found == expected, "\n".join(f"  {f.line}:{f.column} {f.rule} {f.message}" for f in result.findings)
    rule = catalogue()[code]
    if rule.token_check is not None:
        assert all("found from tokens" in f.message for f in result.findings)


@pytest.mark.parametrize("fixture", [p for p in _fixtures() if p.suffix == ".cu"], ids=lambda p: p.name)
def test_the_same_file_parsed_whole_gives_the_same_lines(fixture):
    """The token shapes find what the AST rule finds on these cases (the AST may find more elsewhere)."""
    code = fixture.name.split("_", 1)[0]
    result = analyze_path(fixture, codes=[code])
    assert result.health.mode in (ParseMode.AST, ParseMode.AST_STUBBED)
    expected = {(line, c) for line, c in expectations(fixture) if c == code}
    assert {(f.line, f.rule) for f in result.findings} == expected
    assert not any("found from tokens" in f.message for f in result.findings)
